"""The loopback's row of every format beside chat: its route, where its clients point, and its probe suite.

Keyed by the names of :data:`harness.adapter.FORMATS` (chat keeps its own
provider profiles, :mod:`.provider_profiles`, and is the one format without a
row here); ``tests/test_loopback_wires.py`` fails when the rows and the
formats disagree. The server builds a route per row
(:class:`~harness.loopback.strict_route.FormatRoute`), ``harness serve`` names
each in its banner, and ``harness probe --format F`` runs the row's suite
(:mod:`.format_probe`). A format shipped outside this package brings its row
as an entry point of the group ``harness.loopback_wires``.
"""

from __future__ import annotations

from dataclasses import dataclass

from harness.adapter import plugged
from harness.formats import SPECS
from harness.loopback.anthropic_format import ANTHROPIC
from harness.loopback.bedrock_format import BEDROCK
from harness.loopback.delivery import Delivery
from harness.loopback.gemini_format import GEMINI
from harness.loopback.probe_case import PAUSE, Case
from harness.loopback.responses_format import RESPONSES
from harness.loopback.strict_route import WireFormat


@dataclass(frozen=True)
class Wire:
    """One format on the loopback."""

    format: WireFormat
    base_path: str  # what a client's {base_url} adds to the origin: its SDK appends the rest of the path
    suite: tuple[Case, ...]  # the probe's scenarios, each with the delivery that stresses it


WIRES: dict[str, Wire] = {wire.format.name: wire for wire in (
    Wire(ANTHROPIC, "", (
        Case("interleaved-thinking", Delivery("inside-events", delay=PAUSE)),
        Case("redacted-thinking", Delivery()),
        Case("zero-argument-tool", Delivery("inside-utf8", delay=PAUSE)),
        Case("parallel-12", Delivery("bytes", 7)),
        Case("stream-error", Delivery()),
        Case("blank-text", Delivery("inside-utf8", delay=PAUSE)),
    )),
    Wire(RESPONSES, "/v1", (
        Case("reasoning-tools", Delivery("inside-events", delay=PAUSE)),
        Case("parallel-calls", Delivery("bytes", 7)),
        Case("reasoning-text", Delivery("inside-utf8", delay=PAUSE)),
        Case("zero-argument-tool", Delivery("inside-crlf", delay=PAUSE)),
        Case("stream-error", Delivery()),
        Case("blank-text", Delivery("inside-events", delay=PAUSE)),
    )),
    Wire(GEMINI, "", (
        Case("signed-calls", Delivery("inside-events", delay=PAUSE)),
        Case("parallel-calls", Delivery("bytes", 7)),
        Case("parallel-rounds", Delivery("inside-utf8", delay=PAUSE)),
        Case("zero-argument-tool", Delivery("inside-crlf", delay=PAUSE)),
        Case("stream-error", Delivery()),
        Case("blank-text", Delivery("bytes", 5)),
    )),
    Wire(BEDROCK, "", (
        Case("signed-reasoning", Delivery("inside-events", delay=PAUSE)),
        Case("redacted-reasoning", Delivery("bytes", 7)),
        Case("parallel-calls", Delivery("inside-events")),
        Case("zero-argument-tool", Delivery("bytes", 5)),
        Case("stream-error", Delivery()),
    )),
)}

GROUP = "harness.loopback_wires"  # a format shipped outside this package: its loopback row, by entry point


def _plug_in() -> None:
    for name, wire in plugged(GROUP).items():
        if not isinstance(wire, Wire) or wire.format.name != name:
            raise TypeError(f"entry point {name!r} of {GROUP} is {wire!r}; expected the Wire of format {name!r}")
        if name not in SPECS or name in WIRES:
            raise ValueError(f"entry point {name!r} of {GROUP}: no such format in the table, or it has a row already")
        WIRES[name] = wire


_plug_in()
