"""The label audit's corrections: applied to the line they name, and refused when the data moved."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from training.audited_eval import AUDIT, DATA, corrected_copy


def _dataset(root: Path) -> None:
    (root / "toy" / "images").mkdir(parents=True)
    (root / "toy" / "labels").mkdir()
    (root / "toy" / "labels" / "a.txt").write_text("5 0.5 0.5 0.1 0.1\n0 0.2 0.2 0.1 0.1\n")
    (root / "toy" / "labels" / "b.txt").write_text("1 0.3 0.3 0.1 0.1\n")


def test_a_correction_changes_its_line_and_a_null_truth_removes_the_label(tmp_path):
    _dataset(tmp_path / "data")
    corrections = [{"set": "toy", "stem": "a", "line": 0, "label": 6, "truth": 5},
                   {"set": "toy", "stem": "a", "line": 1, "label": 1, "truth": None}]
    changed = corrected_copy(tmp_path / "out", ["toy"], tmp_path / "data", corrections)
    assert changed == 2
    assert (tmp_path / "out" / "toy" / "labels" / "a.txt").read_text() == "4 0.5 0.5 0.1 0.1\n"
    assert (tmp_path / "out" / "toy" / "labels" / "b.txt").read_text() == "1 0.3 0.3 0.1 0.1\n"
    assert (tmp_path / "out" / "toy" / "images").resolve() == (tmp_path / "data" / "toy" / "images").resolve()


def test_a_correction_that_no_longer_matches_the_data_stops_the_copy(tmp_path):
    _dataset(tmp_path / "data")
    corrections = [{"set": "toy", "stem": "b", "line": 0, "label": 4, "truth": 3}]
    with pytest.raises(SystemExit, match="labelled 2, the audit says 4"):
        corrected_copy(tmp_path / "out", ["toy"], tmp_path / "data", corrections)


@pytest.mark.skipif(not DATA.exists(), reason="the dev photos (../shared/data/dice) are not beside the repository")
def test_the_shipped_audit_matches_the_dev_labels(tmp_path):
    corrections = json.loads(AUDIT.read_text())["corrections"]
    sets = sorted({c["set"] for c in corrections})
    assert corrected_copy(tmp_path, sets) == len(corrections)
