"""hardware/: the pin table, pins.csv, the wiring diagram, the geometry numbers and the default config agree."""

from __future__ import annotations

import csv
import importlib.util
import re
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

import pytest

from companion.hardware.pins import HEADER_PIN, PinMap

REPO = Path(__file__).resolve().parents[2]
HARDWARE = REPO / "hardware"


def config_pins() -> dict[str, int]:
    with open(REPO / "firmware_config/companion.toml", "rb") as handle:
        pins = tomllib.load(handle)["pins"]
    return {role: bcm for role, bcm in pins.items() if role != "players"}


def readme_table() -> list[tuple[str, int, int]]:
    rows = []
    for line in (HARDWARE / "README.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) >= 3 and cells[1].isdigit() and cells[2].isdigit():
            rows.append((cells[0], int(cells[1]), int(cells[2])))
    return rows


def test_readme_pin_table_matches_the_default_config() -> None:
    rows = readme_table()
    assert {role: bcm for role, bcm, _ in rows} == config_pins()
    assert rows == PinMap.from_mapping(config_pins()).as_table()  # header pins too, in wiring order


def test_pins_csv_matches_the_default_config() -> None:
    with open(HARDWARE / "pins.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert {r["role"]: int(r["bcm"]) for r in rows} == config_pins()
    assert all(HEADER_PIN[int(r["bcm"])] == int(r["header_pin"]) for r in rows)


def test_wiring_diagram_shows_every_pin_of_the_default_map() -> None:
    svg = (HARDWARE / "wiring.svg").read_text()
    ET.fromstring(svg)  # well-formed
    for role, bcm, header in PinMap.from_mapping(config_pins()).as_table():
        assert f"GPIO{bcm} (pin {header})" in svg, role
    assert "330 Ω" in svg and "1 kΩ" in svg


def load_geometry() -> ModuleType:
    spec = importlib.util.spec_from_file_location("hardware_geometry", HARDWARE / "geometry.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


def test_geometry_of_the_chosen_setup() -> None:
    geometry = load_geometry()
    s = geometry.plan("standard", (300.0, 200.0), margin_mm=45.0, resolution=(2304, 1296))
    # 290 mm of tray + margins must fit the 41 degree vertical field: h = 145 / tan(20.5 deg).
    assert s.height_mm == pytest.approx(145 / 0.37388, rel=1e-3)
    assert s.field_mm[0] >= 390 and s.field_mm[1] == pytest.approx(290)
    assert 70 <= s.die_px <= 76
    wide = geometry.plan("wide", (300.0, 200.0), margin_mm=45.0)
    assert wide.height_mm < s.height_mm and wide.corner_angle_deg > s.corner_angle_deg
    assert geometry.fov("standard", (1280, 960))[0] == pytest.approx(53.0, abs=0.1)  # 4:3 crops the sides


def test_readme_geometry_numbers_are_the_scripts_output() -> None:
    done = subprocess.run([sys.executable, str(HARDWARE / "geometry.py")], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    readme = (HARDWARE / "README.md").read_text()
    assert done.stdout.strip() in readme


def test_chosen_resolution_is_the_configs() -> None:
    with open(REPO / "firmware_config/companion.toml", "rb") as handle:
        camera = tomllib.load(handle)["camera"]
    assert camera["resolution"] == [2304, 1296]
    assert re.search(
        r"standard lens, lens 39 cm above the tray floor, 2304 × 1296", (HARDWARE / "README.md").read_text()
    )
