"""A scene description (``describe.SceneSpec``) as a Mitsuba 3 scene dictionary: table, tray, dice,
clutter, lights and camera. Meshes go to a scratch folder as OBJ files."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np

from training.scenes import meshes, textures
from training.scenes.describe import SceneSpec
from training.scenes.die import rounded_cube
from training.scenes.layout import tray_outline
from training.scenes.materials import _rgb, bitmap, body, marked

EDGE = 0.16  # rounding radius as a share of the die's side


def _two(b: dict[str, Any]) -> dict[str, Any]:
    return {"type": "twosided", "bsdf": b}


def _matrix(rotation: np.ndarray, centre: np.ndarray) -> list[list[float]]:
    m = np.eye(4)
    m[:3, :3] = rotation
    m[:3, 3] = centre
    return m.tolist()


def die_mesh(folder: Path, half: float) -> Path:
    """The die at half side ``half``, its faces mapped onto the marks' atlas (shared by the scene's dice)."""
    v, n, uv, t = rounded_cube(half, 2 * half * EDGE)
    return meshes.write_obj(folder / "die.obj", v, t, uv=uv, normals=n)


def _lights(mi: Any, spec: SceneSpec) -> dict[str, Any]:
    T = mi.ScalarTransform4f
    out: dict[str, Any] = {}
    centre = np.array([0.0, 0.0, spec.floor])
    for i, li in enumerate(spec.lights):
        pos = np.array(li.position)
        d2 = float(np.sum((pos - centre) ** 2))
        col = np.array(li.colour) * li.power
        if li.kind == "window":
            area = li.size * li.size
            out[f"light{i}"] = {
                "type": "rectangle",
                "to_world": T().look_at(origin=pos.tolist(), target=centre.tolist(), up=[0, 0, 1])
                @ T().scale(li.size / 2),
                "emitter": {"type": "area", "radiance": _rgb(col * d2 / area)},
            }
        elif li.kind == "ring":
            cam = spec.camera
            right, up, _ = cam.frame()
            for j in range(12):
                a = 2 * math.pi * j / 12
                p = pos + li.size * (math.cos(a) * right + math.sin(a) * up)
                out[f"light{i}_{j}"] = {
                    "type": "sphere",
                    "center": p.tolist(),
                    "radius": 0.5,
                    "emitter": {"type": "area", "radiance": _rgb(col * d2 / (12 * math.pi * 0.25))},
                }
        else:
            r = li.size
            p = pos + (np.array([1.5, 0.8, 0.0]) if li.kind == "flash" else 0)
            out[f"light{i}"] = {
                "type": "sphere",
                "center": p.tolist(),
                "radius": r,
                "emitter": {"type": "area", "radiance": _rgb(col * d2 / (math.pi * r * r))},
            }
    amb = 0.08 + 0.1 * (spec.seed % 5) / 4
    out["ambient"] = {"type": "constant", "radiance": _rgb(np.array(spec.lights[0].colour) * amb)}
    return out


def _table(mi: Any, rng: np.random.Generator, spec: SceneSpec) -> dict[str, Any]:
    T = mi.ScalarTransform4f
    if spec.table == "wood":
        tex = textures.wood(rng, spec.table_colour)
    elif spec.table == "carpet":
        tex = textures.carpet(rng, spec.table_colour)
    else:
        tex = textures.felt(rng, spec.table_colour)
    tile = 8.0 if spec.table == "carpet" else 2.0
    return {
        "type": "rectangle",
        "to_world": T().scale(150),
        "bsdf": _two(
            {
                "type": "roughplastic" if spec.table != "carpet" else "diffuse",
                ("diffuse_reflectance" if spec.table != "carpet" else "reflectance"): bitmap(mi, tex)
                | {"to_uv": T().scale([tile, tile, 1])},
                **({"alpha": 0.25} if spec.table != "carpet" else {}),
            }
        ),
    }


def _clutter(mi: Any, rng: np.random.Generator, spec: SceneSpec) -> dict[str, Any]:
    T = mi.ScalarTransform4f
    out: dict[str, Any] = {}
    for i, (kind, x, y, size, turn) in enumerate(spec.clutter):
        col = _rgb(rng.uniform(0.02, 0.9, 3))
        if kind == "box":
            out[f"clutter{i}"] = {
                "type": "cube",
                "to_world": T().translate([x, y, size / 2])
                @ T().rotate([0, 0, 1], turn)
                @ T().scale([size, size * 0.7, size / 2]),
                "bsdf": {"type": "roughplastic", "diffuse_reflectance": col},
            }
        elif kind in ("pen", "coin", "mug"):
            r, h = {"pen": (0.4, size * 3), "coin": (size * 0.6, 0.2), "mug": (size * 1.2, size * 2.5)}[kind]
            tf = (
                T().translate([x, y, r])
                @ T().rotate([0, 0, 1], turn)
                @ T().rotate([0, 1, 0], 90)
                @ T().scale([r, r, h])
                if kind == "pen"
                else T().translate([x, y, 0]) @ T().scale([r, r, h])
            )
            bsdf = (
                {"type": "roughconductor", "material": "Cu" if rng.random() < 0.5 else "Al", "alpha": 0.2}
                if kind == "coin"
                else {"type": "roughplastic", "diffuse_reflectance": col}
            )
            out[f"clutter{i}"] = {"type": "cylinder", "to_world": tf, "bsdf": bsdf}
            out[f"clutter{i}_cap"] = {
                "type": "disk",
                "to_world": (T().translate([x, y, h]) @ T().scale(r))
                if kind != "pen"
                else T().translate([x, y, -5]) @ T().scale(0.01),
                "bsdf": bsdf,
            }
        else:  # paper
            out[f"clutter{i}"] = {
                "type": "rectangle",
                "to_world": T().translate([x, y, 0.02])
                @ T().rotate([0, 0, 1], turn)
                @ T().scale([size * 2.5, size * 3.5, 1]),
                "bsdf": _two({"type": "diffuse", "reflectance": _rgb([0.8, 0.8, 0.78])}),
            }
    return out


def scene_dict(mi: Any, spec: SceneSpec, folder: Path, spp: int) -> dict[str, Any]:
    """Everything Mitsuba needs to render ``spec``; textures drawn from a generator of its own seed."""
    T = mi.ScalarTransform4f
    rng = np.random.default_rng([59, spec.seed])
    cam = spec.camera
    sensor = {
        "type": "thinlens" if cam.aperture > 0 else "perspective",
        "fov": cam.fov,
        "fov_axis": "x",
        "to_world": T().look_at(origin=list(cam.origin), target=list(cam.target), up=list(cam.up)),
        "film": {"type": "hdrfilm", "width": cam.width, "height": cam.height, "rfilter": {"type": "gaussian"}},
        "sampler": {"type": "independent", "sample_count": spp, "seed": spec.seed % 1_000_000},
    }
    if cam.aperture > 0:
        sensor |= {"aperture_radius": cam.aperture, "focus_distance": cam.focus}
    d: dict[str, Any] = {
        "type": "scene",
        "integrator": {"type": "path", "max_depth": 6},
        "sensor": sensor,
        "table": _table(mi, rng, spec),
    }
    outline = tray_outline(spec.tray, spec.tray_radius)
    felt = bitmap(mi, textures.felt(rng, spec.felt)) | {"to_uv": T().scale([1, 1, 1])}
    v, uv, t = meshes.polygon(outline, spec.floor, 6.0)
    d["floor"] = {
        "type": "obj",
        "filename": str(meshes.write_obj(folder / "floor.obj", v, t, uv=uv)),
        "bsdf": _two({"type": "diffuse", "reflectance": felt}),
    }
    v, uv, t = meshes.walls(outline, spec.floor, spec.floor + spec.wall_height, 1.5, 6.0)
    wall = (
        {"type": "diffuse", "reflectance": felt}
        if spec.wall_felt
        else {
            "type": "roughplastic",
            "alpha": 0.3,
            "diffuse_reflectance": bitmap(mi, textures.wood(rng, spec.wall_colour)),
        }
    )
    d["walls"] = {
        "type": "obj",
        "filename": str(meshes.write_obj(folder / "walls.obj", v, t, uv=uv)),
        "bsdf": _two(wall),
    }
    v, t = meshes.seam(outline, spec.floor + 0.005, 0.3, 0.15)
    d["seam"] = {
        "type": "obj",
        "filename": str(meshes.write_obj(folder / "seam.obj", v, t)),
        "bsdf": _two({"type": "diffuse", "reflectance": _rgb(np.array(spec.felt) * 0.45)}),
    }
    if spec.dice:
        body_obj = die_mesh(folder, spec.dice[0].half)
        for i, (die, look) in enumerate(zip(spec.dice, spec.looks, strict=True)):
            tf = T(_matrix(die.rotation, die.centre))
            d[f"die{i}"] = {
                "type": "obj",
                "filename": str(body_obj),
                "to_world": tf,
                "bsdf": marked(mi, body(mi, rng, look), look),
            }
    d |= _clutter(mi, rng, spec)
    d |= _lights(mi, spec)
    return d
