"""The one-command rebuild of the shipped models runs the recipes their JSON files record."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from training import rebuild

PATHS = {"--init", "--mine", "--out", "--patches", "--threads"}  # where files go, not how the model is made


def options(words: list[str]) -> dict[str, tuple[str, ...]]:
    """``--flag value ...`` words as {flag: values}, leaving out the paths."""
    out: dict[str, list[str]] = {}
    flag = ""
    for w in words:
        if w.startswith("--"):
            flag = w
            out[flag] = []
        elif flag:
            out[flag].append(w)
    return {k: tuple(v) for k, v in out.items() if k not in PATHS}


def recorded(command: str, script: str) -> dict[str, tuple[str, ...]]:
    words = command.split()
    return options(words[words.index(script) + 1:])


def planned(name: str, tmp_path: Path) -> list[str]:
    step = next(s for s in rebuild.steps(["detector", "classifier"], tmp_path / "out", tmp_path / "work", 1)
                if s.name == name)
    return step.argv


def test_the_detector_is_rebuilt_as_the_shipped_one_was_made(tmp_path: Path) -> None:
    meta = json.loads((rebuild.MODELS / "dice_detector.json").read_text())
    base = planned("detector, from scratch", tmp_path)
    tune = planned("detector, hard negatives", tmp_path)
    assert options(base[base.index("training.detector.train") + 1:]) == recorded(
        meta["base_command"], "training.detector.train")
    assert options(tune[tune.index("training.detector.train") + 1:]) == recorded(
        meta["command"], "training.detector.train")
    # the fine-tuning starts from the first run's weights and mines that run's mistakes
    assert tune[tune.index("--init") + 1] == str(tmp_path / "work" / "detector_base" / "dice_detector.pt")
    assert tune[tune.index("--mine") + 1] == str(tmp_path / "work" / "detector_base" / "dice_detector.onnx")


def test_the_classifier_is_rebuilt_as_the_shipped_one_was_made(tmp_path: Path) -> None:
    meta = json.loads((rebuild.MODELS / "faces.json").read_text())
    argv = planned("classifier", tmp_path)
    ours = options(argv[argv.index(str(rebuild.ROOT / "training" / "train_faces.py")) + 1:])
    theirs = recorded(meta["command"], "training/train_faces.py")
    # the JSON leaves out options at a false value (seed 0)
    assert {k: v for k, v in ours.items() if v != ("0",)} == theirs
    patches = planned("classifier patches", tmp_path)
    assert argv[argv.index("--patches") + 1] == patches[patches.index("--out") + 1]
    for model in patches[patches.index("--mine-models") + 1:patches.index("--out")]:
        assert Path(model).is_file()  # the mining classifiers are in the repository


def test_a_dry_run_prints_every_command_and_runs_none(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    def fail(*args: object, **kwargs: object) -> None:
        raise AssertionError("a dry run ran a command")

    monkeypatch.setattr(subprocess, "run", fail)
    assert rebuild.main(["--dry-run", "--out", str(tmp_path / "o"), "--work", str(tmp_path / "w")]) == 0
    printed = capsys.readouterr().out
    assert printed.count("training.detector.train") == 2
    assert "make_patches.py" in printed and "train_faces.py" in printed
    assert not (tmp_path / "o").exists()


def test_an_interrupted_rebuild_goes_on_where_it_stopped(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    ran: list[list[str]] = []
    codes = iter([0, 1, 0, 0])  # the fine-tuning fails the first time

    def run(argv: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
        ran.append(argv)
        return subprocess.CompletedProcess(argv, next(codes))

    monkeypatch.setattr(subprocess, "run", run)
    args = ["detector", "--out", str(tmp_path / "o"), "--work", str(tmp_path / "w")]
    assert rebuild.main(args) == 1
    assert len(ran) == 2
    assert rebuild.main(args) == 0
    assert len(ran) == 3  # the first run is not repeated
    assert "--init" in ran[2]


def test_an_unknown_model_is_refused() -> None:
    with pytest.raises(SystemExit) as stop:
        rebuild.main(["faces", "--dry-run"])
    assert stop.value.code == 2


def test_leaving_a_set_out_rebuilds_both_models_without_it(tmp_path: Path) -> None:
    """``--without SET``: the leave-one-source-out runs (the detector with 450 steps from scratch and
    100 rendered trays, trained, mined and thresholded without the set; the classifier's patches of
    that set dropped in training)."""
    todo = rebuild.steps(["detector", "classifier"], tmp_path / "o", tmp_path / "w", 1, without="rune55-gray-closeups")
    base, tune, patches, train = (s.argv for s in todo)
    for argv in (base, tune):
        assert argv[argv.index("--without") + 1] == "rune55-gray-closeups"
        assert argv[argv.index("--rendered") + 1] == "100"
    assert base[base.index("--steps") + 1] == "450" and tune[tune.index("--steps") + 1] == "350"
    assert "--without" not in patches
    assert train[train.index("--drop-source") + 1] == "3"  # rune55's number in training/sources.py
    shipped = rebuild.steps(["detector", "classifier"], tmp_path / "o", tmp_path / "w", 1)
    assert all("--without" not in s.argv and "--drop-source" not in s.argv for s in shipped)
    with pytest.raises(SystemExit):
        rebuild.main(["--dry-run", "--without", "rendered"])
