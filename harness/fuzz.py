"""API fuzzing with Schemathesis, from the OpenAPI description the companion serves.

Every operation (but the never-ending event stream) gets generated requests, valid and invalid by the
schema, mostly with the right PIN (a wrong one only meets the PIN check). Figures: requests sent,
server errors (any 5xx but a 503 from a journal that cannot save, which fuzzing never causes) and
state changes from refused requests (the table's version or the journal's ids moved on a 4xx).
"""

from __future__ import annotations

import argparse
import contextlib
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
    from companion.store.journal import Journal
    from companion.table.rig import Rig
    from companion.table.session import Table
    from companion.web import create_app

    config = Config(server=ServerConfig(pin=PIN), store=StoreConfig(data_dir=str(folder)), mock=True)
    table = Table(Journal(folder / "companion.sqlite3"), rng=random.Random(0))
    rig = Rig(table, config, mock=True, seed=1)
    app = create_app(table, config=config, devices=rig, access=unlimited())
    return app, table, rig


def unlimited() -> Any:
    """The harness's PIN with no budget of wrong guesses: the budget is the brute-force part's business."""
    from companion.access.budget import GuessBudget
    from companion.access.table_access import TableAccess

    return TableAccess(PIN, None, budget=GuessBudget(None, client_windows=(), table_windows=()))


def fingerprint(case: Any) -> str:
    """What makes a request different from another (the PIN header aside: the harness adds it)."""
    headers = {k: v for k, v in (case.headers or {}).items() if k.lower() != "x-table-pin"}
    return json.dumps(
        [case.method, case.formatted_path, case.query, headers, case.body],
        sort_keys=True, default=repr,
    )


def run(requests: int = 400, seed: int = 0, max_rounds: int = 30) -> dict[str, Any]:
    """Rounds until ``requests`` different requests were sent: every operation, in both generation
    modes (valid by the schema and not), each round with its own seed; an operation that brings
    almost nothing new in a round (a GET without parameters has few requests to give) is left out of
    the next ones, and its share of the budget goes to the others."""
    import schemathesis
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hypothesis_seed
    from hypothesis.errors import Unsatisfiable
    from schemathesis import GenerationMode

    logging.getLogger("companion.access.pin").setLevel(logging.ERROR)  # thousands of wrong PINs, on purpose
    rng = random.Random(seed)
    totals = {"requests": 0, "distinct": 0, "server_errors": 0, "refused": 0, "refused_changes": 0, "accepted": 0}
    failures: list[dict[str, Any]] = []
    seen: set[str] = set()
    per_operation: dict[str, int] = {}
    started = time.monotonic()
    rounds = 0
    with tempfile.TemporaryDirectory(prefix="harness-fuzz-") as tmp:
        app, table, rig = build(Path(tmp))
        try:
            table.new_game("heckmeck", ["Ann", "Bob"])  # inputs can be accepted as well as refused
            schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app)
            operations = [op.ok() for op in schema.get_all_operations() if op.ok().path != "/api/events"]
            active = list(operations)

            def send(case: Any, name: str) -> int:
                """Sends one request; returns 1 if no such request was sent before."""
                headers = dict(case.headers or {})
                if rng.random() < 0.9:
                    headers["X-Table-Pin"] = PIN
                case.headers = headers
                key = fingerprint(case)
                before = (table.version, table.journal.high_ids())
                response = case.call()
                totals["requests"] += 1
                code = response.status_code
                if code >= 500 and code != 503:
                    totals["server_errors"] += 1
                    failures.append({"op": name, "code": code, "body": str(case.body)[:200],
                                     "query": str(case.query)[:200], "answer": response.text[:200]})
                elif code >= 400:
                    totals["refused"] += 1
                    if (table.version, table.journal.high_ids()) != before:
                        totals["refused_changes"] += 1
                        failures.append({"op": name, "code": code, "changed": True, "body": str(case.body)[:200]})
                else:
                    totals["accepted"] += 1
                    if case.path == "/api/pin/change":  # keep fuzzing with the PIN we know
                        app.extensions["companion"]["access"] = unlimited()
                if table.game_id is None or rng.random() < 0.002:
                    table.new_game("heckmeck", ["Ann", "Bob"])  # now and then a fresh game to play on
                if key in seen:
                    return 0
                seen.add(key)
                per_operation[name] = per_operation.get(name, 0) + 1
                return 1

            rate: dict[str, float] = {}  # the share of an operation's last round that was new
            while len(seen) < requests and active and rounds < max_rounds:
                # each operation's examples in proportion to how much new it brought last round, so
                # that together they are expected to bring what is missing
                names = [f"{op.method.upper()} {op.path}" for op in active]
                squares = sum(rate.get(name, 1.0) ** 2 for name in names)
                still: list[Any] = []
                for number, (operation, name) in enumerate(zip(active, names, strict=True)):
                    share = max(2, round((requests - len(seen)) * rate.get(name, 1.0) / squares))
                    fresh = 0
                    for kind, mode in enumerate((GenerationMode.POSITIVE, GenerationMode.NEGATIVE)):
                        new = [0]

                        @hypothesis_seed(seed * 1_000_003 + rounds * 1009 + number * 2 + kind)
                        @settings(
                            max_examples=max(1, share // 2), deadline=None, database=None,
                            phases=[Phase.generate], suppress_health_check=list(HealthCheck),
                        )
                        @given(case=operation.as_strategy(generation_mode=mode))
                        def fuzz(case: Any) -> None:
                            new[0] += send(case, name)  # noqa: B023 (called right here, in this iteration)

                        with contextlib.suppress(Unsatisfiable):  # nothing to make invalid in it
                            fuzz()
                        fresh += new[0]
                    rate[name] = fresh / max(1, 2 * max(1, share // 2))
                    if rate[name] >= 0.05:
                        still.append(operation)  # it keeps finding new requests: more of it next round
                active = still
                rounds += 1
        finally:
            rig.close()
            table.journal.close()
    totals["distinct"] = len(seen)
    summary = {
        "part": "fuzz", **totals, "operations": len(operations), "rounds": rounds,
        "s": round(time.monotonic() - started), "per_operation": per_operation,
    }
    emit(**summary)
    for failure in failures[:20]:
        emit(part="fuzz", failure=failure)
    summary["failures"] = failures
    return summary


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=400, help="different requests to send")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    result = run(args.requests, args.seed)
    print(json.dumps({k: v for k, v in result.items() if k != "failures"}))
