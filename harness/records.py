"""Hypothesis on the record importer and on ``companion replay``: any bytes, any JSON, any mangling of
a real record gets a RecordError naming a line, or is imported whole; never another exception, never
half a game. Figures: examples tried, and how many were refused, imported, or failed."""

from __future__ import annotations

import argparse
import json
import random
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness.common import PIN, emit

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)
HEADER = {"format": "vegas-table-companion/record", "version": 1, "game": "heckmeck", "players": ["A", "B"]}


def real_lines() -> list[str]:
    from companion.table.simulate import simulated_lines

    return list(simulated_lines("heckmeck", ["A", "B"], {}, seed=2))[:40]


@st.composite
def records(draw: Any) -> bytes:
    """A real record mangled, JSON of any shape, or raw bytes."""
    kind = draw(st.sampled_from(["mangled", "json", "bytes", "deep"]))
    if kind == "bytes":
        return bytes(draw(st.binary(max_size=400)))
    if kind == "deep":
        depth = draw(st.integers(1, 5000))
        return (json.dumps(HEADER) + "\n" + "[" * depth + "]" * draw(st.integers(0, depth))).encode()
    if kind == "json":
        lines = draw(st.lists(JSON, max_size=6))
        head = [json.dumps(HEADER)] if draw(st.booleans()) else []
        return "\n".join(head + [json.dumps(v) for v in lines]).encode()
    lines = real_lines()
    i = draw(st.integers(0, len(lines) - 1))
    how = draw(st.sampled_from(["drop", "swap", "replace", "huge", "bom", "cut"]))
    if how == "drop":
        del lines[i]
    elif how == "swap" and i + 1 < len(lines):
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    elif how == "replace":
        lines[i] = json.dumps(draw(JSON))
    elif how == "huge":
        lines[i] = lines[i].replace("1", "1" * draw(st.integers(10, 6000)), 1)
    elif how == "cut":
        lines[i] = lines[i][: draw(st.integers(0, len(lines[i])))]
    text = "\n".join(lines)
    return ("\ufeff" + text).encode() if how == "bom" else text.encode()


def run(examples: int = 200) -> dict[str, Any]:
    import os

    os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
    from companion.config import Config, ServerConfig, StoreConfig
    from companion.store.journal import Journal
    from companion.store.record import RecordError, replay_file
    from companion.table.session import Table
    from companion.web import create_app

    counts = {"examples": 0, "replay_refused": 0, "replay_ok": 0, "import_refused": 0, "imported": 0, "failures": 0}
    failures: list[str] = []
    with tempfile.TemporaryDirectory(prefix="harness-records-") as tmp:
        config = Config(server=ServerConfig(pin=PIN), store=StoreConfig(data_dir=tmp), mock=True)
        table = Table(Journal(Path(tmp) / "j.sqlite3"), rng=random.Random(0))
        client = create_app(table, config=config).test_client()
        path = Path(tmp) / "r.jsonl"

        @settings(max_examples=examples, deadline=None, database=None, derandomize=True,
                  suppress_health_check=list(HealthCheck))
        @given(data=records())
        def check(data: bytes) -> None:
            counts["examples"] += 1
            path.write_bytes(data)
            try:
                replay_file(path)
                counts["replay_ok"] += 1
            except RecordError:
                counts["replay_refused"] += 1
            except Exception as exc:  # anything else is what the property forbids
                counts["failures"] += 1
                failures.append(f"replay: {exc!r}"[:200])
            games = len(table.journal.games())
            res = client.post("/api/games/import", data=data, headers={"X-Table-Pin": PIN})
            after = table.journal.games()
            if res.status_code == 201:
                counts["imported"] += 1
                new = next(g for g in after if g.id == res.get_json()["id"])
                if len(after) != games + 1 or new.entries != sum(1 for line in data.splitlines() if line.strip()) - 1:
                    counts["failures"] += 1
                    failures.append("import: not the whole record")
            elif res.status_code == 400 and len(after) == games:
                counts["import_refused"] += 1
            else:
                counts["failures"] += 1
                failures.append(f"import: {res.status_code} {res.get_data()[:100]!r}")

        check()
        table.journal.close()
    summary = {"part": "records", **counts}
    emit(**summary)
    for failure in failures[:10]:
        emit(part="records", failure=failure)
    return summary


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--examples", type=int, default=200)
    print(json.dumps(run(parser.parse_args().examples)))
