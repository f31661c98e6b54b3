"""A die's look (``describe.DieLook``) as one Mitsuba BSDF: its body (opaque, tinted glass-like,
marbled, neon, pearl, metallic or glittered plastic) blended, where the marks' atlas covers a face,
with a coat of paint, ink or gold (and a dark cut round engraved marks). Marks are a texture of the
body, not a masked layer above it: Mitsuba's shadow rays stop at masked surfaces, which darkened
every face under its layer."""

from __future__ import annotations

from typing import Any

import numpy as np

from training.scenes import textures
from training.scenes.describe import PIP_COLOURS, DieLook
from training.scenes.marks import atlas


def _rgb(c: Any) -> dict[str, Any]:
    return {"type": "rgb", "value": [float(v) for v in c]}


def _lighter(c: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = (min(1.0, v * 1.08) for v in c)
    return (r, g, b)


def bitmap(mi: Any, arr: np.ndarray, raw: bool = False) -> dict[str, Any]:
    a = np.ascontiguousarray(arr.astype(np.float32))
    if a.ndim == 2:
        a = a[..., None]
    return {"type": "bitmap", "bitmap": mi.Bitmap(a), "raw": raw, "filter_type": "bilinear"}


def body(mi: Any, rng: np.random.Generator, look: DieLook) -> dict[str, Any]:
    k = look.body
    if k == "translucent":
        # a path tracer cannot find a small lamp through glass (a caustic): a third of the body is
        # given a diffuse tinted scatter, which also stands in for the light scattered inside the resin
        tint = np.clip(np.array(look.colour) * 1.1 + 0.05, 0, 1)
        glass = {
            "type": "roughdielectric" if look.roughness > 0.2 else "dielectric",
            "int_ior": 1.49,
            "specular_transmittance": _rgb(tint),
            **({"alpha": 0.08} if look.roughness > 0.2 else {}),
        }
        return {
            "type": "blendbsdf",
            "weight": 0.35,
            "bsdf_0": glass,
            "bsdf_1": {"type": "roughplastic", "alpha": 0.1, "diffuse_reflectance": _rgb(tint * 0.8)},
        }
    if k == "metallic":
        return {
            "type": "roughconductor",
            "material": str(rng.choice(["Au", "Cu", "Al", "Cr"])),
            "alpha": 0.08 + look.roughness,
        }
    if k in ("marbled", "pearl"):
        tex = textures.marble(
            rng,
            look.colour,
            look.second if k == "marbled" else _lighter(look.colour),
            contrast=1.0 if k == "marbled" else 0.4,
        )
        return {
            "type": "roughplastic",
            "alpha": 0.05 + look.roughness * (0.5 if k == "pearl" else 1),
            "diffuse_reflectance": bitmap(mi, tex),
            "int_ior": 1.6 if k == "pearl" else 1.5,
        }
    plastic = {
        "type": "roughplastic" if look.roughness > 0.1 else "plastic",
        "diffuse_reflectance": _rgb(look.colour),
        "int_ior": 1.5,
        **({"alpha": look.roughness} if look.roughness > 0.1 else {}),
    }
    if k == "glitter":
        return {
            "type": "blendbsdf",
            "weight": bitmap(mi, textures.flakes(rng), raw=True),
            "bsdf_0": plastic,
            "bsdf_1": {"type": "roughconductor", "material": "Al", "alpha": 0.15},
        }
    return plastic


def marked(mi: Any, base: dict[str, Any], look: DieLook) -> dict[str, Any]:
    """``base`` with the marks' coat where the atlas covers a face: paint of the pip colour (gold is
    metal), a dark cut round engraved marks."""
    a = atlas(look.marks, look.style, look.pip_size)
    cover, cut = a[..., 0], a[..., 1]
    dark = np.array(look.colour) * 0.25
    pip = np.array(PIP_COLOURS[look.pip])
    colour = cover[..., None] * pip + (1 - cover[..., None]) * dark
    if look.pip == "gold":
        coat: dict[str, Any] = {"type": "roughconductor", "material": "Au", "alpha": 0.25}
    elif look.style == "inked":
        coat = {"type": "diffuse", "reflectance": bitmap(mi, colour)}
    else:
        coat = {"type": "roughplastic", "alpha": 0.3, "diffuse_reflectance": bitmap(mi, colour)}
    return {"type": "blendbsdf", "weight": bitmap(mi, cut, raw=True), "bsdf_0": base, "bsdf_1": coat}
