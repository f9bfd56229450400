"""One wire format as one row: what every whole-run path (check, gate, nightly, serve, probe, docs) reads of it.

A row binds a format's own modules, the way a Schemathesis spec adapter binds
a protocol: the codec that writes and reads its streams, the framing of its
bodies, the history rules its provider refuses, the bundled reference and its
known-bug catalogue, and what a scripted round leaves out. The loopback route
and the strategies are rows of their own floors (``harness.loopback.wires``,
``harness.testing.formats``), keyed by the same names; ``tests/test_format_table.py``,
``tests/test_loopback_wires.py`` and ``tests/test_format_strategies.py`` fail when a
table lacks a format or names one ``harness.adapter.FORMATS`` lacks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Callable
from typing import Any

import harness
from harness.rules.schema_request import RequestRefusal
from harness.rules.stream_faults import StreamRules
from harness.wire.codecs import Codec
from harness.wire.framing import BodyFraming

PACKAGE = Path(harness.__file__).resolve().parent


@dataclass(frozen=True)
class FormatSpec:
    """A wire format's row."""

    name: str  # as in harness.adapter.FORMATS and an adapter's ``format`` attribute
    label: str  # what reports call it: "OpenAI Responses"
    endpoint: str  # the request it streams: "POST /v1/responses"
    codec: Codec
    framing: BodyFraming
    rules: tuple[str, ...]  # the history rules its provider refuses a request by (harness.rules.registry names)
    reference: str  # the bundled reference adapter, module:attribute
    catalogues: tuple[str, ...]  # its known bugs: files in the installed package (each bug's `file` relative to its parent)
    blank_turn: dict  # what a scripted round leaves out: a chat response, or a neutral turn
    # How real endpoints end a round that made calls, the provider's own reason first (a scripted tool round
    # draws each, so a kernel reading its rounds by the reason instead of the calls is caught).
    tool_round_ends: tuple[str | None, ...]
    usage: dict  # a round's usage as the format's provider sends it (scripted rounds carry it, or none)
    # What ends a turn on this wire, which a client may require ("": nothing it may: a stream cut short is
    # then indistinguishable from a whole one, as in chat, whose gateways end turns without a finish or [DONE]).
    terminal: str = ""
    # The tools a request of the format declares, by name: {"description", "parameters"} as its API reads them
    # (None: the format's requests declare none).
    declared_tools: Callable[[dict], dict[str, dict]] | None = None
    # Every refusal of a request body's keys and shapes as the format's API validates them, tools and all (its
    # history is judged by `rules`; None: the format's requests are not judged whole).
    request_refusals: Callable[[object], list[RequestRefusal]] | None = None
    # The layout its provider emits, judged event by event (harness.rules.stream_faults; None: the format's
    # streams are not judged as an emitter's, and `harness conform` judges only what they decode to).
    stream_rules: StreamRules | None = None
    # The body keys a request asks for the usage in its stream with (empty: the format streams it unasked).
    usage_asked: dict = field(default_factory=dict)

    @property
    def catalogue_paths(self) -> tuple[Path, ...]:
        return tuple(PACKAGE / name for name in self.catalogues)

    def reference_adapter(self) -> Any:
        """The reference adapter object of this format (imported on demand: the references are large)."""
        from harness.adapter import load_adapter

        return load_adapter(self.reference).obj
