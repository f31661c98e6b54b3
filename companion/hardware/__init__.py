"""Hardware adapters beside the table: buttons, status lights, health readings, camera sources.

Kept import-light on purpose: importing ``companion.hardware`` must not import gpiozero or
picamera2, so the web app, the rules and the tests load on any machine. Each adapter imports its
library inside the module that needs it.
"""

from __future__ import annotations


class HardwareConfigError(ValueError):
    """A hardware setting in the config is wrong; ``errors`` holds one readable message per problem.

    It is a ``ValueError`` so callers that only know the builtin still catch it.
    """

    def __init__(self, errors: list[str] | tuple[str, ...], *, section: str = "") -> None:
        self.errors: tuple[str, ...] = tuple(errors)
        self.section = section
        prefix = f"[{section}] " if section else ""
        super().__init__("; ".join(prefix + e for e in self.errors) or "invalid hardware setting")
