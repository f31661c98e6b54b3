"""The wings of ``companion/`` and the way data flows through them (camera -> reader -> rig -> session ->
engine): each wing imports only wings below it, and no module imports one further up the stream, so
the tree can be read from the engines outwards without meeting a circle (docs/architecture.md); and no
code file is too long to read at a sitting (400 lines)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

COMPANION = Path(__file__).resolve().parents[1] / "companion"


def imports(path: Path) -> set[str]:
    """Every ``companion.*`` module a file imports, at the top, in a function, or for type checking."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("companion"):
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith("companion"))
    return found


def module_name(path: Path) -> str:
    parts = path.relative_to(COMPANION.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


GRAPH = {module_name(p): imports(p) for p in COMPANION.rglob("*.py")}


def reaches(start: str, target: str) -> bool:
    seen, todo = set(), [start]
    while todo:
        mod = todo.pop()
        if mod in seen:
            continue
        seen.add(mod)
        for dep in GRAPH.get(mod, ()):
            if dep == target or dep.startswith(target + "."):
                return True
            todo.append(dep)
    return False


# Each wing's floor; a wing may import its own modules and those of wings on a lower floor only.
# Leaves shared by all (the package data, the config) sit low because they import almost nothing.
WINGS = {
    "assets": -1,  # where the package data lies (board, decks): imports nothing
    "games": 0,  # the engines: pure, importing nothing of ours outside themselves but the package data
    "i18n": 1,  # catalogues and rendering of the engines' messages
    "odds": 1,  # pure functions of an engine state
    "config": 2,
    "store": 2,  # keeping inputs safe: journal, records, integrity, backups, salvage, recovery
    "vision": 3,  # the dice reader
    "access": 3,  # who may change the game: the PIN, its budget of wrong guesses, the tablets' sessions
    "hardware": 4,  # the devices (the mock camera renders dice with the reader's renderer)
    "table": 5,  # the session and what turns devices into its inputs
    "voice": 5,  # beside the table: it takes the table's views as plain data and never imports the session
    "web": 6,  # the API, the streams, the pages
    "daemon": 7,  # wiring the parts together and running them
    "cli": 8,  # the command line
    "__main__": 9,
}


def wing_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "companion"


def test_every_module_is_in_a_wing():
    strays = sorted(m for m in GRAPH if m != "companion" and wing_of(m) not in WINGS)
    assert strays == [], f"{strays} belong to no wing: put them in one, or name a new wing in WINGS"


def breaches(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a module from a wing on the same floor or higher than its own."""
    return sorted(
        f"{module} imports {dep}"
        for module, deps in graph.items()
        if module != "companion"
        for dep in deps
        if dep != "companion"
        and wing_of(dep) != wing_of(module)
        and WINGS.get(wing_of(dep), 99) >= WINGS[wing_of(module)]
    )


def test_each_wing_imports_only_wings_below_it():
    assert breaches(GRAPH) == []


def test_the_wing_rule_catches_a_breach():
    """The check can fail: the table reaching up into the web, the store into the table, or an engine
    into the store are each reported; the reverse directions are not."""
    graph = {
        "companion.table.rig": {"companion.web.guard"},
        "companion.store.journal": {"companion.table.session"},
        "companion.games.base": {"companion.store.record"},
        "companion.web.api": {"companion.table.session", "companion.store.journal", "companion.games.base"},
    }
    assert breaches(graph) == [
        "companion.games.base imports companion.store.record",
        "companion.store.journal imports companion.table.session",
        "companion.table.rig imports companion.web.guard",
    ]


def test_the_daemon_and_the_cli_enter_the_store_by_its_front_door():
    inner = sorted(
        f"{module} imports {dep}"
        for module in ("companion.daemon", "companion.cli")
        for dep in GRAPH[module]
        if dep in GRAPH and dep.startswith("companion.store.")
    )
    assert inner == [], "the daemon and the CLI use `companion.store`, not its rooms"


@pytest.mark.parametrize(
    ("downstream", "upstream"),
    [
        ("companion.table.calibration", "companion.table.rig"),  # the rig drives the calibration, never the reverse
        ("companion.table.dice_view", "companion.table.rig"),
        ("companion.vision", "companion.table.rig"),  # the reader knows nothing of who uses it
        ("companion.vision", "companion.table.calibration"),
        ("companion.vision", "companion.table.session"),
        ("companion.vision", "companion.web"),
        ("companion.table.session", "companion.table.rig"),  # the session takes inputs, whoever made them
        ("companion.games", "companion.table.session"),  # engines are pure
        ("companion.games", "companion.vision"),
        ("companion.games", "companion.hardware"),
        ("companion.voice", "companion.table"),  # the voice hears the table's views, it never calls back
        ("companion.table", "companion.voice"),  # the table publishes; who listens is the daemon's wiring
    ],
)
def test_no_module_imports_up_the_stream(downstream, upstream):
    offenders = [m for m in GRAPH if (m == downstream or m.startswith(downstream + ".")) and reaches(m, upstream)]
    assert offenders == [], f"{offenders} import {upstream}"


# The rig's parts, each importing only parts before it: the façade last, the devices and what the table
# learnt of its dice at the bottom, the worker that runs the buttons knowing the rest only as a protocol.
RIG_PARTS = ("camera_source", "devices", "table_dice", "readings", "teaching", "controls", "rig")


@pytest.mark.parametrize("index", range(len(RIG_PARTS) - 1))
def test_each_part_of_the_rig_imports_only_the_parts_before_it(index):
    part = f"companion.table.{RIG_PARTS[index]}"
    later = [f"companion.table.{p}" for p in RIG_PARTS[index + 1:]]
    assert [p for p in later if reaches(part, p)] == [], f"{part} reaches a later part of the rig"


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every group of modules that reach each other through imports (a circle of any length)."""
    nodes = {m: sorted(d for d in deps if d in graph and d != m) for m, deps in graph.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for dep in nodes[module]:
            if dep not in index:
                visit(dep)
                low[module] = min(low[module], low[dep])
            elif dep in stack:
                low[module] = min(low[module], index[dep])
        if low[module] == index[module]:
            group = stack[stack.index(module):]
            del stack[stack.index(module):]
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(nodes):
        if module not in index:
            visit(module)
    return sorted(found)


def test_no_modules_import_each_other_round_a_circle():
    assert circles(GRAPH) == []


def test_the_circle_check_sees_a_long_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_two_modules_import_each_other():
    pairs = sorted(
        (a, b) for a, deps in GRAPH.items() for b in deps if b in GRAPH and a < b and a in GRAPH.get(b, ())
    )
    assert pairs == []


# --- no room too large to read at a sitting --------------------------------------------------------

ROOT = COMPANION.parent
MOST_LINES = 400
CODE = {"companion": ("*.py",), "web/static": ("*.js", "*.css")}  # web/static/vendor/ is not ours to split


def lines_of(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def too_long(root: Path, code: dict[str, tuple[str, ...]], most: int) -> dict[str, int]:
    """Every code file under ``root``'s folders in ``code`` longer than ``most`` lines, by its path."""
    return {
        path.relative_to(root).as_posix(): lines_of(path)
        for folder, patterns in code.items()
        for pattern in patterns
        for path in (root / folder).rglob(pattern)
        if "vendor" not in path.relative_to(root / folder).parts and lines_of(path) > most
    }


def test_no_code_file_is_over_400_lines():
    assert too_long(ROOT, CODE, MOST_LINES) == {}, "split these by job"


def test_the_line_limit_catches_a_long_file(tmp_path: Path):
    """The check can fail: a file one line over is reported, one at the limit and the vendor's are not."""
    (tmp_path / "pkg" / "inner").mkdir(parents=True)
    (tmp_path / "static" / "vendor").mkdir(parents=True)
    (tmp_path / "pkg" / "inner" / "long.py").write_text("x = 1\n" * 401)
    (tmp_path / "pkg" / "short.py").write_text("x = 1\n" * 400)
    (tmp_path / "pkg" / "data.json").write_text("1\n" * 900)
    (tmp_path / "static" / "page.js").write_text("let x;\n" * 401)
    (tmp_path / "static" / "vendor" / "lib.js").write_text("let y;\n" * 900)
    code = {"pkg": ("*.py",), "static": ("*.js", "*.css")}
    assert too_long(tmp_path, code, 400) == {"pkg/inner/long.py": 401, "static/page.js": 401}


# (torch is not here: companion/vision/retrain_network.py may use it, when installed, to teach the table a die)
TRAINING_ONLY = ("training", "mitsuba", "drjit")


def training_imports(path: Path) -> set[str]:
    """The training-only packages a file imports anywhere in it."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        names = ([node.module] if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 else
                 [a.name for a in node.names] if isinstance(node, ast.Import) else [])
        found.update(n for n in names if n.split(".")[0] in TRAINING_ONLY)
    return found


def test_the_daemon_never_imports_training_code_or_its_renderers():
    """``training/`` (the scene generator and its renderer, Mitsuba) is for making models; ``companion/``
    loads only the exported ONNX files."""
    bad = {module_name(p): sorted(training_imports(p)) for p in COMPANION.rglob("*.py") if training_imports(p)}
    assert bad == {}


def test_the_training_import_check_can_fail(tmp_path: Path):
    f = tmp_path / "m.py"
    f.write_text("import os\ndef f():\n    from training.scenes import describe\n    import mitsuba as mi\n")
    assert training_imports(f) == {"training.scenes", "mitsuba"}
