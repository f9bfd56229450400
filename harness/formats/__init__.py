"""The format table: one row per wire format, read by every path that runs "everything".

``SPECS`` is keyed by the names of :data:`harness.adapter.FORMATS`, in its
order; each row is bound in the format's own module here. Adding a format is
its row here, its route in :mod:`harness.loopback.wires`, its strategies in
:mod:`harness.testing.formats` and its name in ``harness.adapter.FORMATS``
(``docs/architecture.md``, "A wire format").
"""

from __future__ import annotations

from harness.adapter import FORMATS
from harness.formats import anthropic, chat, gemini, responses
from harness.formats.spec import FormatSpec

SPECS: dict[str, FormatSpec] = {spec.name: spec for spec in (chat.SPEC, anthropic.SPEC, responses.SPEC, gemini.SPEC)}


def register(spec: FormatSpec) -> None:
    """Add a format's row (a format shipped outside this package, or a test's toy format); its name must be new."""
    if spec.name in SPECS:
        raise ValueError(f"format {spec.name!r} already has a row")
    SPECS[spec.name] = spec
    FORMATS[spec.name] = spec.label


def spec_for(name: str) -> FormatSpec:
    """The row of ``name``; a name without one is a KeyError that lists the formats."""
    try:
        return SPECS[name]
    except KeyError:
        raise KeyError(f"format {name!r} has no row; formats: {', '.join(SPECS)}") from None


__all__ = ["FORMATS", "SPECS", "FormatSpec", "register", "spec_for"]
