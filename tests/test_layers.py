"""Data flows one way (camera -> reader -> rig -> session -> engine): no module imports one further
up the stream, so the tree can be read from the engines outwards without meeting a circle."""

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


@pytest.mark.parametrize(
    ("downstream", "upstream"),
    [
        ("companion.calibration", "companion.rig"),  # the rig drives the calibration, never the reverse
        ("companion.dice_view", "companion.rig"),
        ("companion.vision", "companion.rig"),  # the reader knows nothing of who uses it
        ("companion.vision", "companion.calibration"),
        ("companion.vision", "companion.session"),
        ("companion.vision", "companion.web"),
        ("companion.session", "companion.rig"),  # the session takes inputs, whoever made them
        ("companion.games", "companion.session"),  # engines are pure
        ("companion.games", "companion.vision"),
        ("companion.games", "companion.hardware"),
    ],
)
def test_no_module_imports_up_the_stream(downstream, upstream):
    offenders = [m for m in GRAPH if (m == downstream or m.startswith(downstream + ".")) and reaches(m, upstream)]
    assert offenders == [], f"{offenders} import {upstream}"


def test_no_two_modules_import_each_other():
    pairs = sorted(
        (a, b) for a, deps in GRAPH.items() for b in deps if b in GRAPH and a < b and a in GRAPH.get(b, ())
    )
    assert pairs == []
