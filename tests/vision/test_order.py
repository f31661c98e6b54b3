"""The partial-sort statistics give numpy's numbers exactly."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from companion.vision.order import median_rows, percentile

finite = st.floats(-1e4, 1e4, allow_nan=False, width=32)


@given(arrays(np.float32, st.tuples(st.integers(1, 60), st.integers(1, 4)), elements=finite))
def test_median_rows_is_numpys_median(rows: np.ndarray) -> None:
    assert np.allclose(median_rows(rows), np.median(rows, axis=0), rtol=0, atol=1e-3)


@given(arrays(np.float32, st.integers(1, 200), elements=finite), st.floats(0, 100))
def test_percentile_is_numpys_percentile(values: np.ndarray, q: float) -> None:
    assert abs(percentile(values, q) - float(np.percentile(values, q))) <= 1e-3 * max(1.0, float(np.abs(values).max()))
