"""Medians and percentiles by partial sorting: the same numbers as numpy's, several times faster on the
small arrays a die gives (numpy's versions sort in full and check for NaN on every call)."""

from __future__ import annotations

import numpy as np


def percentile(values: np.ndarray, q: float) -> float:
    """``np.percentile(values, q)`` (linear interpolation) of a 1-d array."""
    pos = (values.size - 1) * q / 100.0
    lo = int(pos)
    hi = min(lo + 1, values.size - 1)
    part = np.partition(values, (lo, hi))
    return float(part[lo] + (part[hi] - part[lo]) * (pos - lo))


def median_rows(rows: np.ndarray) -> np.ndarray:
    """``np.median(rows, axis=0)``: the median of each column of a 2-d array."""
    n = rows.shape[0]
    hi = n // 2
    if n % 2:
        out: np.ndarray = np.partition(rows, hi, axis=0)[hi]
        return out
    part = np.partition(rows, (hi - 1, hi), axis=0)
    out = (part[hi - 1] + part[hi]) / 2
    return out
