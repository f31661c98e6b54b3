"""Loading Mitsuba 3: the LLVM variant (fast, needs libLLVM >= 16; Debian's ``libllvm19``) with
``DRJIT_LIBLLVM_PATH`` found here, else the scalar variant (about five times slower)."""

from __future__ import annotations

import glob
import os
from typing import Any

_LLVM = (
    "/usr/lib/x86_64-linux-gnu/libLLVM-19.so",
    "/usr/lib/x86_64-linux-gnu/libLLVM.so.19.1",
    "/usr/lib/aarch64-linux-gnu/libLLVM-19.so",
    "/usr/lib/llvm-19/lib/libLLVM.so.1",
)


def find_llvm() -> str | None:
    """A libLLVM new enough for Dr.Jit (16 or later), or None."""
    given = os.environ.get("DRJIT_LIBLLVM_PATH")
    if given and os.path.exists(given):
        return given
    found = [p for p in _LLVM if os.path.exists(p)]
    for p in sorted(glob.glob("/usr/lib/*/libLLVM-1[6-9]*.so*") + glob.glob("/usr/lib/*/libLLVM-2*.so*")):
        found.append(p)
    return found[0] if found else None


def load(variant: str = "auto", threads: int = 1) -> tuple[Any, str]:
    """The ``mitsuba`` module with a variant set, and the variant's name; the LLVM variant renders on
    ``threads`` threads (one by default: the machine is shared, and speed is stated per core)."""
    if variant in ("auto", "llvm_ad_rgb"):
        lib = find_llvm()
        if lib:
            os.environ["DRJIT_LIBLLVM_PATH"] = lib
    import mitsuba as mi

    if variant == "auto":
        try:
            mi.set_variant("llvm_ad_rgb")
            variant = "llvm_ad_rgb"
        except Exception:  # noqa: BLE001 - no usable LLVM: the slow, always-present variant
            variant = "scalar_rgb"
    mi.set_variant(variant)
    if variant.startswith("llvm"):
        import drjit as dr

        dr.set_thread_count(threads)
    return mi, variant
