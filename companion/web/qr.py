"""QR codes as SVG, made on the Pi itself (segno: pure Python, no network, no image library)."""

from __future__ import annotations

import io

import segno


def qr_svg(text: str, *, scale: int = 4, title: str = "BG Stats") -> str:
    """An SVG QR code of ``text`` (error correction L: the push link is long; the tablet's screen is clean)."""
    code = segno.make(text, error="l", micro=False)
    out = io.BytesIO()
    code.save(out, kind="svg", scale=scale, border=2, xmldecl=False, svgns=True, title=title)
    return out.getvalue().decode()
