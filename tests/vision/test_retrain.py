"""The table's own network: deeper retraining on a grown profile, and the daemon's background job.

The tests marked ``train`` retrain with torch (the ``train`` extra): ``scripts/test-train`` runs them,
and without torch they skip. The rest (the job, the model file, the rig) need no torch and run in
``scripts/test``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest

from companion.vision.classifier import DEFAULT_MODEL, FaceClassifier
from companion.vision.crops import patch
from companion.vision.profile_adapt import Profile
from companion.vision.reader import DiceReader, default_reader
from companion.vision.render import RenderDie, render_dice
from companion.vision.retrain_job import TableModel


def odd_dice_profile(frames: int, seed0: int = 0) -> Profile:
    """Red dice with dark red pips, confirmed at the table: the shipped network reads 14 of the 48 patches
    of ``odd_dice_profile(8)`` right."""
    rng = np.random.default_rng(seed0)
    profile = Profile()
    for seed in range(seed0, seed0 + frames):
        faces = [int(f) for f in rng.integers(1, 7, size=6)]
        frame, drawn = render_dice([RenderDie(f, "red", pip_colour=(60, 60, 150)) for f in faces], seed=seed,
                                   die_size=float(rng.uniform(36, 56)))
        for d in drawn:
            profile.add(patch(frame, d.center[0], d.center[1], d.size * 1.25), int(d.face) - 1)
    return profile


@pytest.mark.train
def test_deeper_retraining_fits_the_tables_dice_and_keeps_the_offsets(tmp_path):
    torch = pytest.importorskip("torch")
    from companion.vision import retrain_network as retrain

    torch.manual_seed(0)
    profile = odd_dice_profile(8)
    patches, labels = np.stack(profile.patches), np.array(profile.labels)
    base = retrain.Network.load(DEFAULT_MODEL)
    net = retrain.fit(base, patches, labels, pull=0.01, steps=80)
    assert all(torch.equal(a[0], b[0]) for a, b in zip(net.convs[:1], base.convs[:1], strict=True))  # conv 1 kept
    retrain.save(net, DEFAULT_MODEL, tmp_path / "table.onnx", {"test": True})
    before, after = FaceClassifier(), FaceClassifier(tmp_path / "table.onnx")
    old, new = before.classify(profile.patches), after.classify(profile.patches)
    assert np.mean(new.probs.argmax(1) == labels) > np.mean(old.probs.argmax(1) == labels)
    assert np.mean(new.probs.argmax(1) == labels) >= 0.9
    # OpenCV runs the written weights as torch does, and the metadata's class layer is the new one.
    with torch.no_grad():
        emb = retrain._rest(retrain._trunk(retrain._blob(patches), net.convs, 1), net.convs[1:], 1).numpy()
    assert np.allclose(emb, new.raw, atol=1e-3)
    assert after.head is not None and np.allclose(after.head[0], net.head[0].numpy(), atol=1e-5)
    # Where the top face is stays as the shipped network says (windows still move as before).
    assert np.abs(new.offsets - old.offsets).mean() < 0.05
    meta = json.loads((tmp_path / "table.json").read_text())
    assert meta["retrained"]["crc32"] == zlib.crc32((tmp_path / "table.onnx").read_bytes())


@pytest.mark.train
def test_the_check_keeps_the_shipped_network_unless_the_newest_dice_read_better(tmp_path, monkeypatch):
    pytest.importorskip("torch")
    from companion.vision import retrain_network as retrain

    small = odd_dice_profile(2)
    verdict = retrain.retrain(small, tmp_path / "t.onnx", steps=10)
    assert verdict.pull is None and "fewer than" in verdict.reason and not (tmp_path / "t.onnx").exists()
    grown = odd_dice_profile(10)
    monkeypatch.setattr(retrain, "MARGIN", 2.0)  # no retraining can read 200% more of anything
    verdict = retrain.retrain(grown, tmp_path / "t.onnx", min_faces=20, pulls=(0.1,), steps=10)
    assert verdict.pull is None and verdict.held_out > 0 and not (tmp_path / "t.onnx").exists()
    monkeypatch.setattr(retrain, "MARGIN", -2.0)
    verdict = retrain.retrain(grown, tmp_path / "t.onnx", min_faces=20, pulls=(0.1,), steps=10)
    assert verdict.pull == 0.1 and (tmp_path / "t.onnx").exists() and (tmp_path / "t.json").exists()
    assert json.loads((tmp_path / "t.json").read_text())["retrained"]["patches"] == len(grown)


@pytest.mark.train
def test_cli_retrain_says_why_nothing_was_written(tmp_path, capsys):
    pytest.importorskip("torch")
    from companion.cli import main

    odd_dice_profile(2).save(tmp_path / "p.npz")
    assert main(["dice", "retrain", "--profile", str(tmp_path / "p.npz"), "--out", str(tmp_path / "m.onnx")]) == 1
    assert "nothing written" in capsys.readouterr().out and not (tmp_path / "m.onnx").exists()


def _copy_model(out: Path, crc: int | None = None) -> None:
    shutil.copyfile(DEFAULT_MODEL, out)
    meta = json.loads(DEFAULT_MODEL.with_suffix(".json").read_text())
    meta["retrained"] = {"crc32": zlib.crc32(out.read_bytes()) if crc is None else crc, "patches": 5}
    out.with_suffix(".json").write_text(json.dumps(meta))


def test_the_reader_uses_the_tables_model_only_when_it_is_sound(tmp_path):
    model = TableModel(tmp_path / "dice_model.onnx", enabled=True)
    assert model.reader() is default_reader()  # none yet
    _copy_model(tmp_path / "dice_model.onnx")
    assert TableModel(tmp_path / "dice_model.onnx", enabled=False).reader() is default_reader()  # retraining off
    own = model.reader()
    assert isinstance(own, DiceReader) and own is not default_reader()
    assert model.reader() is own  # loaded once
    # Metadata from other weights (a power cut between the two files' moves): the shipped model reads.
    _copy_model(tmp_path / "dice_model.onnx", crc=1)
    os.utime(tmp_path / "dice_model.onnx", (1, 1))
    assert model.reader() is default_reader()


FAKE_JOB = """
import json, shutil, sys, zlib
from pathlib import Path
src, out, keep = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3] == "keep"
if keep:
    shutil.copyfile(src, out)
    meta = json.loads(src.with_suffix(".json").read_text())
    meta["retrained"] = {"crc32": zlib.crc32(out.read_bytes()), "patches": 1}
    out.with_suffix(".json").write_text(json.dumps(meta))
print(json.dumps({"reason": "fake", "pull": 0.1 if keep else None}))
sys.exit(0 if keep else 1)
"""


def fake_command(keep: bool):
    def command(profile: Path, out: Path) -> list[str]:
        return [sys.executable, "-c", FAKE_JOB, str(DEFAULT_MODEL), str(out), "keep" if keep else "no"]

    return command


def test_the_background_job_starts_every_so_many_dice_and_its_result_is_moved_in(tmp_path):
    path = tmp_path / "dice_model.onnx"
    told: list[bool] = []
    model = TableModel(path, enabled=True, command=fake_command(True), every=10,
                       on_change=lambda: told.append(model.status()["retraining"]))
    assert not model.learnt(tmp_path / "p.npz", 6)
    assert model.learnt(tmp_path / "p.npz", 6)  # 12 since the last try
    model.wait(60)
    assert len(told) == 2 and told[-1] is False  # the tablet hears when it starts and when it ends
    assert path.exists() and model.last_verdict == {"reason": "fake", "pull": 0.1}
    assert model.reader() is not default_reader() and model.status()["own_model"]
    assert not model.pending.exists()
    assert not model.learnt(tmp_path / "p.npz", 9)  # counted afresh from the last try
    off = TableModel(tmp_path / "off.onnx", enabled=False, command=fake_command(True), every=1)
    assert not off.learnt(tmp_path / "p.npz", 100)


def test_a_declined_or_forgotten_retraining_leaves_no_model(tmp_path):
    declined = TableModel(tmp_path / "a.onnx", enabled=True, command=fake_command(False), every=1)
    assert declined.learnt(tmp_path / "p.npz", 1)
    declined.wait(60)
    assert not (tmp_path / "a.onnx").exists() and declined.last_verdict == {"reason": "fake", "pull": None}

    slow = TableModel(tmp_path / "b.onnx", enabled=True, every=1,
                      command=lambda p, o: [sys.executable, "-c", "import time; time.sleep(30)"])
    assert slow.learnt(tmp_path / "p.npz", 1)
    assert not slow.learnt(tmp_path / "p.npz", 5)  # one job at a time
    slow.forget()  # a new dice set at the table: the running job's result must not be used
    slow.wait(10)
    assert not (tmp_path / "b.onnx").exists() and not slow.status()["retraining"]


def test_the_daemon_never_loads_torch():
    code = ("import sys, companion.daemon, companion.table.rig, companion.vision.retrain_job, companion.vision.reader;"
            "sys.exit('torch' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_the_rig_reads_with_the_tables_model_and_forgets_it_with_the_dice(table, config, tmp_path, monkeypatch):
    from companion.table.camera_source import camera_problems
    from companion.table.rig import Rig
    from companion.table.table_dice import MODEL_FILE
    from companion.vision import retrain_job

    monkeypatch.setattr(retrain_job, "can_retrain", lambda: True)  # the rig's wiring, whether or not torch is here

    config.camera["retrain"] = True
    rig = Rig(table, config, mock=True, seed=5)
    try:
        rig.dice.load()
        assert rig.dice.reader() is default_reader()
        _copy_model(tmp_path / MODEL_FILE)
        assert rig.dice.reader() is not default_reader()
        assert rig.calibration_status()["own_model"]["own_model"]
        rig.forget_dice()  # a new dice set: what was learnt from the old one goes
        assert not (tmp_path / MODEL_FILE).exists() and rig.dice.reader() is default_reader()
    finally:
        rig.close()
    assert camera_problems({"retrain": "yes"}) and not camera_problems({"retrain": False})
