"""Journal corruption: each way a journal's files get damaged, and what the companion then does.

A journal of two Heckmeck games is written by a process that is then killed with SIGKILL (its last
inputs still in the write-ahead log), with a backup taken part-way. Each kind of damage
(harness/damage.py: files deleted, cut, garbled; rows changed; single bits flipped at many offsets;
folders where files belong; the high-water mark lost with the data; a read-only root file system)
is applied to a fresh copy, and the companion is started on it. Every kind must end one of three ways:

* ``whole``: the companion plays on with every acknowledged game and entry, each exactly as it was
  written and each replaying (the damage cost nothing);
* ``refused``: safe mode with a banner, the damaged files untouched, and a good backup offered
  (which is then restored);
* ``safe``: the journal is whole but the start cannot be a normal one (a folder where the start
  marker belongs, a read-only root): safe mode with a banner, every game shown.

``silent loss`` (it starts normally with less than was acknowledged), ``silent change`` (the same
count, different contents), ``a game does not replay`` and ``crash`` (it does not start, or not twice
in a row) are failures. Short mode checks each kind in-process, as the daemon starts; long mode starts
the real daemon twice on each and restores through the API. The read-only root is always the real
daemon, in a mount namespace (root and ``unshare`` needed; else ``skipped``).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from harness.common import ROOT, Daemon, emit
from harness.damage import JOURNAL, KINDS, MARKER, ROOT_READ_ONLY, flip_kinds

FLIPS = {False: (30, 10), True: (60, 40)}  # single-bit flips (database, write-ahead log): short, long mode

WRITER = r"""
import os, random, signal, sys
from pathlib import Path
from companion.store.backups import take_backup
from companion.store.journal import Journal
from companion.table.session import Table
from companion.table.simulate import random_input

folder = Path(sys.argv[1])
journal = Journal(folder / "companion.sqlite3")
table = Table(journal, rng=random.Random(1))
rng = random.Random(7)
for game, inputs in (("heckmeck", 60), ("heckmeck", 90)):
    table.new_game(game, ["Ann", "Bob", "Cy"])
    for n in range(inputs):
        tl = table.timeline
        if tl.rules.outcome(tl.state) is not None:
            break
        action = random_input(game, tl.rules, tl.state, rng)
        table.submit(tl.rules.action_to_json(action), device="writer")
        if game == "heckmeck" and n == 30 and table.game_id == 1:
            take_backup(journal, folder / "backups")
games, entries = journal.high_ids()
print(games, entries, flush=True)
os.kill(os.getpid(), signal.SIGKILL)  # a power cut: the last inputs are only in the write-ahead log
"""


def make_pristine(folder: Path) -> tuple[int, int]:
    """A data folder written by a process killed with its last inputs in the log; its highest ids."""
    folder.mkdir(parents=True, exist_ok=True)
    out = subprocess.run(
        [sys.executable, "-c", WRITER, str(folder)], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    games, entries = (int(x) for x in out.stdout.split())
    if not Path(str(folder / JOURNAL) + "-wal").exists():
        raise RuntimeError("the writer left no write-ahead log")
    return games, entries


def _digest(folder: Path) -> dict[str, str]:
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.iterdir())
        if p.is_file() and p.name.startswith(JOURNAL) and not p.name.endswith("-shm")
    }


Records = dict[int, list[str] | None]  # each game's record lines (None: it does not export or replay)


def records_of(journal: Any) -> Records:
    """Each game's record, as the journal exports it, replayed (a game that does not replay: None)."""
    from companion.store.record import RecordError, replay_lines

    out: Records = {}
    for game in journal.games():
        lines = list(journal.export_lines(game.id))
        try:
            replay_lines(lines)
        except RecordError:
            out[game.id] = None
            continue
        out[game.id] = lines
    return out


def compare(have: Records, want: Records) -> str:
    """whole: every game and entry as acknowledged; else what went wrong without a word."""
    if have == want:
        return "whole"
    if any(lines is None for lines in have.values()):
        return "a game does not replay"
    count = sum(len(lines or []) for lines in have.values())
    if not set(want) <= set(have) or count < sum(len(lines or []) for lines in want.values()):
        return "silent loss"
    return "silent change"


# --- checking one kind -------------------------------------------------------------------------------
def check_in_process(folder: Path, want: Records) -> dict[str, Any]:
    """Start as the daemon does (the start marker, the journal's check and opening); classify the outcome."""
    from companion.store import Recovery, StartMarker, open_at_start
    from companion.table.session import Table

    before = _digest(folder)
    try:
        marker = StartMarker(folder / MARKER)
        safe = marker.previous()
        opened = open_at_start(folder / JOURNAL, writable=marker.begin())
        table = Table(opened.journal)
        table.set_status("banner", opened.banner or (f"Safe mode: {safe}" if safe else None))
        marker.finished()
    except Exception as exc:  # what used to stop every start
        return {"outcome": "crash", "error": repr(exc)[:200]}
    banner = bool(table.view()["status"].get("banner"))
    if opened.refused is None:
        outcome = compare(records_of(opened.journal), want)
        if outcome == "whole" and safe:
            outcome = "safe" if banner else "safe without a banner"
        opened.journal.close()
        return {"outcome": outcome}
    untouched = _digest(folder) == before
    result: dict[str, Any] = {"outcome": "refused", "banner": banner, "untouched": untouched}
    if not untouched or not banner:
        result["outcome"] = "refused badly"
    recovery = Recovery(folder / JOURNAL, opened)
    try:
        restored = recovery.restore(table, empty=opened.offer is None)
        games = table.journal.games()
        salvaged = restored.get("salvaged") or {}
        result.update(restored=restored["restored"], after_games=len(games),
                      after_entries=sum(g.entries for g in games), salvaged=salvaged.get("entries", 0))
        if table.timeline is not None:  # the restored journal takes inputs again
            from companion.table.simulate import random_input

            tl = table.timeline
            if tl.rules.outcome(tl.state) is None:
                action = random_input(tl.header.game, tl.rules, tl.state, random.Random(0))
                table.submit(tl.rules.action_to_json(action), device="harness")
    except Exception as exc:
        result.update(outcome="recovery failed", error=repr(exc)[:200])
    table.journal.close()
    return result


READ_ONLY_ROOT = (
    "unshare", "-m", "--propagation", "private", "sh", "-c", 'mount -o remount,bind,ro / && exec "$0" "$@"'
)


def _daemon_records(daemon: Daemon) -> Records:
    _, listing = daemon.request("GET", "/api/games")
    out: Records = {}
    for game in listing["games"]:
        status, raw = daemon.request("GET", f"/api/games/{game['id']}/record")
        lines = raw.decode().splitlines() if status == 200 else None
        out[int(game["id"])] = None if lines is None else [x for x in lines if '"type":"summary"' not in x]
    return out


def check_with_daemon(folder: Path, want: Records, wrap: tuple[str, ...] = ()) -> dict[str, Any]:
    """Start the real daemon on the damaged journal twice (no crash loop), then restore if refused."""
    before = _digest(folder)
    outcomes = []
    for attempt in range(2):
        daemon = Daemon(folder, wrap=wrap)
        if not daemon.wait_ready():
            daemon.stop()
            return {"outcome": "crash", "attempt": attempt}
        _, health = daemon.request("GET", "/api/health")
        _, journal = daemon.request("GET", "/api/journal")
        _, state = daemon.request("GET", "/api/state")
        banner = bool(state["status"].get("banner"))
        have = _daemon_records(daemon)
        if attempt == 1 and journal["damaged"]:
            code, answer = daemon.request("POST", "/api/journal/recover", {"empty": journal["offer"] is None})
            _, listing = daemon.request("GET", "/api/games")
            salvaged = (answer.get("salvaged") or {}).get("entries", 0) if isinstance(answer, dict) else 0
            outcomes.append({"recover": code, "after_entries": sum(g["entries"] for g in listing["games"]),
                             "salvaged": salvaged})
        daemon.stop()
        if journal["damaged"]:
            untouched = attempt == 1 or _digest(folder) == before
            ok = health["safe_mode"] and banner and untouched
            outcomes.append({"outcome": "refused" if ok else "refused badly"})
        else:
            outcome = compare(have, want)
            if outcome == "whole" and health["safe_mode"]:
                outcome = "safe" if banner else "safe without a banner"
            outcomes.append({"outcome": outcome})
    result: dict[str, Any] = {}
    for part in outcomes:
        result.update(part)
    return result


def _can_make_root_read_only() -> bool:
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        return False
    probe = subprocess.run([*READ_ONLY_ROOT, "true"], capture_output=True, timeout=30)
    return probe.returncode == 0


def pristine_records(pristine: Path, scratch: Path) -> Records:
    from companion.store.journal import Journal

    journal = Journal(_copy(pristine, scratch) / JOURNAL)
    try:
        return records_of(journal)
    finally:
        journal.close()


def run(long: bool = False, kinds: list[str] | None = None, flips: tuple[int, int] | None = None) -> dict[str, Any]:
    """``kinds``: these kinds only; ``flips``: how many single-bit flips in the database and in its log."""
    every = {**KINDS, **flip_kinds(*(flips or FLIPS[long])), ROOT_READ_ONLY: lambda f: None}
    chosen = kinds or list(every)
    with tempfile.TemporaryDirectory(prefix="harness-corrupt-") as tmp:
        pristine = Path(tmp) / "pristine"
        make_pristine(pristine)
        want = pristine_records(pristine, Path(tmp) / "count")
        expected = (len(want), sum(len(lines or []) - 1 for lines in want.values()))
        results: dict[str, Any] = {}
        for n, kind in enumerate(chosen):
            folder = _copy(pristine, Path(tmp) / f"kind{n}")
            every[kind](folder)
            started = time.monotonic()
            if kind == ROOT_READ_ONLY:
                ready = _can_make_root_read_only()
                result = check_with_daemon(folder, want, READ_ONLY_ROOT) if ready else {"outcome": "skipped"}
            else:
                result = check_with_daemon(folder, want) if long else check_in_process(folder, want)
            result["s"] = round(time.monotonic() - started, 2)
            results[kind] = result
            emit(part="corrupt", kind=kind, **result)
    outcomes = [r["outcome"] for r in results.values()]
    fine = ("whole", "refused", "safe", "skipped")
    summary = {
        "part": "corrupt",
        "mode": "long (daemon)" if long else "short (in-process)",
        "kinds": len(results),
        "acknowledged": {"games": expected[0], "entries": expected[1]},
        "whole": outcomes.count("whole"),
        "refused_with_banner": outcomes.count("refused"),
        "safe_with_banner": outcomes.count("safe"),  # the journal whole, but the start could not be normal
        "skipped": outcomes.count("skipped"),
        "silent_losses": sum(outcomes.count(k) for k in ("silent loss", "silent change", "a game does not replay")),
        "crashes": outcomes.count("crash"),
        "other_failures": sum(1 for o in outcomes if o not in fine and o not in
                              ("silent loss", "silent change", "a game does not replay", "crash")),
        # of the entries acknowledged in the refused kinds, how many the restore (backup + salvage) kept
        "refused_entries_kept": sum(r.get("after_entries", 0) for r in results.values() if r["outcome"] == "refused"),
        "refused_entries_acknowledged": expected[1] * outcomes.count("refused"),
        "salvaged": sum(r.get("salvaged", 0) for r in results.values()),
    }
    emit(**summary)
    summary["results"] = results
    return summary


def _copy(pristine: Path, folder: Path) -> Path:
    shutil.copytree(pristine, folder)
    return folder


if __name__ == "__main__":
    print(json.dumps(run(long="--long" in sys.argv)["results"], indent=1), file=sys.stderr)
    os._exit(0)
