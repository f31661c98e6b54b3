"""API fuzzing with Schemathesis, from the OpenAPI description the companion serves.

Every operation (but the never-ending event stream) gets generated requests, valid and invalid by the
schema, mostly with the right PIN (a wrong one only meets the PIN check). Figures: requests sent,
server errors (any 5xx but a 503 from a journal that cannot save, which fuzzing never causes) and
state changes from refused requests (the table's version or the journal's ids moved on a 4xx).
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from harness.common import PIN, emit


def build(folder: Path) -> tuple[Any, Any, Any]:
    import os

    os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
    from companion.config import Config, ServerConfig, StoreConfig
    from companion.journal import Journal
    from companion.rig import Rig
    from companion.session import Table
    from companion.web import create_app

    config = Config(server=ServerConfig(pin=PIN), store=StoreConfig(data_dir=str(folder)), mock=True)
    table = Table(Journal(folder / "companion.sqlite3"), rng=random.Random(0))
    rig = Rig(table, config, mock=True, seed=1)
    app = create_app(table, config=config, devices=rig)
    app.extensions["limiter"].enabled = False  # the PIN limiter is the brute-force part's business
    return app, table, rig


def run(requests: int = 400, seed: int = 0) -> dict[str, Any]:
    import schemathesis
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import strategies as st
    from schemathesis import GenerationMode

    from companion.pin import TablePin

    logging.getLogger("companion.pin").setLevel(logging.ERROR)  # thousands of wrong PINs, on purpose
    rng = random.Random(seed)
    totals = {"requests": 0, "server_errors": 0, "refused": 0, "refused_changes": 0, "accepted": 0}
    failures: list[dict[str, Any]] = []
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="harness-fuzz-") as tmp:
        app, table, rig = build(Path(tmp))
        try:
            table.new_game("heckmeck", ["Ann", "Bob"])  # inputs can be accepted as well as refused
            schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app)
            operations = [
                op.ok() for op in schema.get_all_operations() if op.ok().path != "/api/events"
            ]
            per_op = max(1, requests // len(operations))
            for operation in operations:
                strategy = st.one_of(
                    operation.as_strategy(generation_mode=GenerationMode.POSITIVE),
                    operation.as_strategy(generation_mode=GenerationMode.NEGATIVE),
                )

                @settings(
                    max_examples=per_op, deadline=None, database=None, derandomize=True,
                    phases=[Phase.generate], suppress_health_check=list(HealthCheck),
                )
                @given(case=strategy)
                def fuzz(case: Any) -> None:
                    headers = dict(case.headers or {})
                    if rng.random() < 0.9:
                        headers["X-Table-Pin"] = PIN
                    case.headers = headers
                    before = (table.version, table.journal.high_ids())
                    response = case.call()
                    totals["requests"] += 1
                    code = response.status_code
                    if code >= 500 and code != 503:
                        totals["server_errors"] += 1
                        failures.append({"op": f"{case.method} {case.formatted_path}", "code": code,
                                         "body": str(case.body)[:200], "answer": response.text[:200]})
                    elif code >= 400:
                        totals["refused"] += 1
                        if (table.version, table.journal.high_ids()) != before:
                            totals["refused_changes"] += 1
                            failures.append({"op": f"{case.method} {case.formatted_path}", "code": code,
                                             "changed": True, "body": str(case.body)[:200]})
                    else:
                        totals["accepted"] += 1
                        if case.path == "/api/pin/change":  # keep fuzzing with the PIN we know
                            app.extensions["companion"]["pin"] = TablePin(PIN)

                fuzz()
        finally:
            rig.close()
            table.journal.close()
    summary = {"part": "fuzz", **totals, "operations": len(operations), "s": round(time.monotonic() - started)}
    emit(**summary)
    for failure in failures[:20]:
        emit(part="fuzz", failure=failure)
    summary["failures"] = failures
    return summary


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=400)
    args = parser.parse_args()
    result = run(args.requests)
    print(json.dumps({k: v for k, v in result.items() if k != "failures"}))
