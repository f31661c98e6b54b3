"""The held-back accuracy again, against labels corrected by ``label_audit.json``.

    .venv/bin/python training/audited_eval.py [--model M.onnx]

Writes a copy of the dev sets with the audited labels (images linked, not copied) and runs
``benchmarks/vision_accuracy.py`` on it. The official numbers stay those against the labels as
given; this only says how many of the reader's errors are the labels'.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from training.dev_split import DATA  # noqa: E402

AUDIT = Path(__file__).with_name("label_audit.json")


def corrected_copy(target: Path, sets: list[str], data: Path = DATA,
                   corrections: list[dict[str, Any]] | None = None) -> int:
    """Each set under ``target`` with its labels corrected; returns how many lines changed.
    A correction whose label does not match the file stops it: the data changed under the audit."""
    if corrections is None:
        corrections = json.loads(AUDIT.read_text())["corrections"]
    changed = 0
    for name in sets:
        out = target / name
        (out / "labels").mkdir(parents=True)
        (out / "images").symlink_to((data / name / "images").resolve())
        for label in sorted((data / name / "labels").glob("*.txt")):
            lines = label.read_text().splitlines()
            for c in corrections:
                if c["set"] != name or c["stem"] != label.stem:
                    continue
                old = lines[c["line"]].split()
                if int(old[0]) + 1 != c["label"]:
                    raise SystemExit(f"{name}/{label.stem} line {c['line']}: labelled {int(old[0]) + 1}, "
                                     f"the audit says {c['label']}")
                lines[c["line"]] = "" if c["truth"] is None else " ".join([str(c["truth"] - 1), *old[1:]])
                changed += 1
            (out / "labels" / label.name).write_text("\n".join(line for line in lines if line) + "\n")
    return changed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--model", help="score another classifier than the shipped one")
    ap.add_argument("--sets", nargs="*", default=["nell-byler-d6", "matteop65-webcam"])
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        print(f"{corrected_copy(Path(tmp), args.sets)} label lines corrected", flush=True)
        model = ["--model", args.model] if args.model else []
        subprocess.run([sys.executable, str(ROOT / "benchmarks" / "vision_accuracy.py"), "--data", tmp,
                        "--sets", *args.sets, "--symbols", "0", *model], check=True, cwd=ROOT)


if __name__ == "__main__":
    main()
