"""The format table: one row per wire format, read by every path that runs "everything".

``SPECS`` is keyed by the names of :data:`harness.adapter.FORMATS`, in its
order; each row is bound in the format's own module here. A format shipped
outside this package brings its row as an entry point of the group
``harness.formats`` (``name = "package.module:SPEC"``), and its loopback
route and strategies as entry points of the groups that
:mod:`harness.loopback.wires` and :mod:`harness.testing.formats` read, so
every process a run starts (the gate's workers, the nightly's) finds it.
Adding a format to this package is its row here, its route in
:mod:`harness.loopback.wires`, its strategies in :mod:`harness.testing.formats`
and its name in ``harness.adapter.FORMATS`` (``docs/architecture.md``, "A wire format").
"""

from __future__ import annotations

from harness.adapter import FORMAT_GROUP, FORMATS, plugged
from harness.formats import anthropic, bedrock, chat, gemini, responses
from harness.formats.spec import FormatSpec

GROUP = FORMAT_GROUP

SPECS: dict[str, FormatSpec] = {spec.name: spec for spec in (chat.SPEC, anthropic.SPEC, responses.SPEC, gemini.SPEC,
                                                                    bedrock.SPEC)}


def spec_for(name: str) -> FormatSpec:
    """The row of ``name``; a name without one is a KeyError that lists the formats."""
    try:
        return SPECS[name]
    except KeyError:
        raise KeyError(f"format {name!r} has no row; formats: {', '.join(SPECS)}") from None


def _plug_in() -> None:
    for name, spec in plugged(GROUP).items():
        if not isinstance(spec, FormatSpec) or spec.name != name:
            raise TypeError(f"entry point {name!r} of {GROUP} is {spec!r}; expected the FormatSpec named {name!r}")
        if name in SPECS:
            raise ValueError(f"entry point {name!r} of {GROUP} names a format this package already has")
        SPECS[name] = spec
        FORMATS[name] = spec.label


_plug_in()

__all__ = ["FORMATS", "GROUP", "SPECS", "FormatSpec", "spec_for"]
