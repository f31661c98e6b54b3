"""One scene rendered: the description built, rendered by Mitsuba, finished like a phone photo, and
labelled from the scene (dice whose top face the camera cannot see, behind a wall or another die,
are left out)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from training.scenes.build import EDGE, scene_dict
from training.scenes.describe import SceneSpec
from training.scenes.labels import Label, label
from training.scenes.post import expose, finish


def visible(mi: Any, scene: Any, spec: SceneSpec, labels: list[Label]) -> list[bool]:
    """Whether the camera's ray to each top face centre reaches it (nothing in between)."""
    out = []
    o = np.array(spec.camera.origin)
    for lab in labels:
        p = np.array(lab.top_point)
        d = p - o
        dist = float(np.linalg.norm(d))
        u = d / dist
        ray = mi.Ray3f(mi.Point3f(*(float(v) for v in o)), mi.Vector3f(*(float(v) for v in u)))
        si = scene.ray_intersect(ray)
        t = float(np.array(si.t).ravel()[0])
        out.append(t > dist - 0.05)
    return out


def render(mi: Any, spec: SceneSpec, spp: int) -> tuple[bytes, list[Label]]:
    """JPEG bytes and the labels of the dice seen."""
    with tempfile.TemporaryDirectory(prefix="trays-") as tmp:
        scene = mi.load_dict(scene_dict(mi, spec, Path(tmp), spp))
        linear = np.array(mi.render(scene))
        labels = [lab for lab in (label(d, spec.camera, EDGE) for d in spec.dice) if lab is not None]
        labels = [lab for lab, ok in zip(labels, visible(mi, scene, spec, labels), strict=True) if ok]
    rng = np.random.default_rng([60, spec.seed])
    rgb = expose(linear[..., :3], spec.exposure)
    return finish(rgb, rng, spec.motion_blur, spec.noise, spec.jpeg), labels
