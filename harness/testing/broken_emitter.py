"""A deliberately broken emitter: the loopback provider with one known emitter bug planted, by name.

``harness conform`` must report every :class:`Plant` against it, each at its
level. The plants are read from the format table, never listed per format:

- every layout a format's strategies row marks as a relay's (``relay`` shapes of
  :mod:`harness.testing.shapes`: outside the format, sent by real relays and
  gateways) is a bug of the ``wire`` level, planted by rewriting each stream
  the provider sends into that layout;
- ``stream cut before its end``: each stream loses its last event (a relay
  that closes over a cut upstream), ``wire``;
- ``opaque values stripped`` and ``reasoning dropped``, for a format whose
  streams carry them (its pinned turns do): each turn written again by the
  row's codec with its signatures emptied and its redacted reasoning dropped,
  or without its reasoning, ``wire``; the checks of what crossed
  (:mod:`harness.conform.crossing`, against :meth:`BrokenEmitter.upstream_turns`)
  must report them;
- ``accepts what the provider refuses``: the provider answers every history
  (the format's history rules switched off; a body that is no request is
  still refused), ``provider``.

The planted provider serves one format's clients (the rewrite reads that
format's streams); :attr:`BrokenEmitter.rewritten` counts the streams it
changed, so a plant that found nothing to break is told apart from one caught.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from harness.formats import SPECS, FormatSpec
from harness.loopback.delivery import Delivery
from harness.loopback.request_body import BODY_NOT_JSON
from harness.loopback.server import LoopbackProvider
from harness.loopback.strict_route import FormatRoute, StrictProfile
from harness.loopback.wires import WIRES
from harness.testing.formats import STRATEGIES
from harness.testing.shapes import Shape, shaped
from harness.wire.framing import SSE, BodyFraming

OPAQUE_BLOCKS = ("redacted_reasoning",)  # blocks that are nothing but an opaque value
REASONING_BLOCKS = ("reasoning", "redacted_reasoning")

STRICT_CHAT = "openai"  # the chat profile of an unbroken emitter: it refuses what OpenAI refuses
LENIENT_CHAT = "gateway"  # the chat profile that answers every request


@dataclass(frozen=True)
class Plant:
    """One known emitter bug: its name, the level ``harness conform`` reports it at, and how it is planted."""

    format: str
    name: str
    level: str
    rewrite: Callable[[FormatSpec, bytes], bytes | None] | None = None  # a stream body -> the broken one (None: as is)
    lenient: bool = False  # the provider answers every history
    caught_by: tuple[str, ...] = ()  # the checks that must report it, when its level says too little

    @property
    def id(self) -> str:
        return f"{self.format}: {self.name}"


def _shape(shape: Shape) -> Callable[[FormatSpec, bytes], bytes | None]:
    return lambda spec, body: shaped(spec, body, shape)


def _cut(spec: FormatSpec, body: bytes) -> bytes | None:
    frames = spec.framing.frames(body)
    return b"".join(frames[:-1]) if len(frames) > 1 else None


def _rewritten(change: Callable[[dict], dict]) -> Callable[[FormatSpec, bytes], bytes | None]:
    """The stream's turn changed by ``change`` and written again by the row's codec (a gateway that translates
    the turn and loses what it cannot carry)."""
    def rewrite(spec: FormatSpec, body: bytes) -> bytes | None:
        turn = spec.codec.decode(spec.reference_adapter().parse_stream(body))
        changed = change(turn)
        return None if changed == turn else spec.codec.body(changed)
    return rewrite


def _unsigned(turn: dict) -> dict:
    """Every signature emptied, every redacted reasoning block dropped."""
    return {**turn, "blocks": [{**b, "signature": ""} if b.get("signature") else b for b in turn["blocks"]
                               if b.get("type") not in OPAQUE_BLOCKS]}


def _unreasoned(turn: dict) -> dict:
    return {**turn, "blocks": [b for b in turn["blocks"] if b.get("type") not in REASONING_BLOCKS]}


def _pinned_blocks(name: str) -> list[dict]:
    source = STRATEGIES[name].streamed_turns
    return [b for turn, _ in (source.pinned if source else ()) for b in turn["blocks"]]


def plants() -> list[Plant]:
    """Every plant of every format in the table."""
    found = []
    for name, spec in SPECS.items():
        shapes = STRATEGIES[name].shapes or ()
        found += [Plant(name, shape.name, "wire", _shape(shape)) for shape in shapes if shape.relay]
        found += [Plant(name, "stream cut before its end", "wire", _cut),
                  Plant(name, "accepts what the provider refuses", "provider", lenient=True)]
        carried = _pinned_blocks(name)  # what the format's streams carry: its pinned turns have it
        if any(b.get("signature") or b.get("type") in OPAQUE_BLOCKS for b in carried):
            found.append(Plant(name, "opaque values stripped", "wire", _rewritten(_unsigned),
                               caught_by=("gateway-opaque-kept", "gateway-blocks-kept")))
        if any(b.get("type") in REASONING_BLOCKS for b in carried):
            found.append(Plant(name, "reasoning dropped", "wire", _rewritten(_unreasoned),
                               caught_by=("gateway-blocks-kept",)))
    return found


@dataclass(frozen=True)
class _Rewriting(Delivery):
    """A delivery that breaks each body before cutting it as the plain delivery would."""

    plant: Plant | None = None
    spec: FormatSpec | None = None
    counter: list = field(default_factory=list, compare=False)  # one entry per stream the plant changed
    originals: list = field(default_factory=list, compare=False)  # every stream as the provider wrote it

    def pieces(self, body: bytes, framing: BodyFraming = SSE) -> list[bytes]:
        self.originals.append(body)
        broken = self.plant.rewrite(self.spec, body) if self.plant and self.plant.rewrite and body else None
        if broken is not None and broken != body:
            self.counter.append(1)
            body = broken
        return super().pieces(body, framing)


class _Lenient(StrictProfile):
    """A strict profile that refuses only what is no request at all: every history is answered."""

    def check(self, raw: bytes, number: int) -> list:
        unreadable = (BODY_NOT_JSON, self.wire.shape_rule)
        return [v for v in super().check(raw, number) if v.rule in unreadable]


class BrokenEmitter(LoopbackProvider):
    """The loopback provider serving ``plant.format``'s clients with ``plant`` planted (a context manager)."""

    def __init__(self, plant: Plant, **kwargs) -> None:
        self.plant = plant
        self._counter: list = []
        self._originals: list = []
        lenient = plant.lenient
        routes = tuple(FormatRoute(row.format, profile=_Lenient(row.format) if lenient else None)
                       for row in WIRES.values())
        super().__init__(profile=LENIENT_CHAT if lenient else STRICT_CHAT, routes=routes,
                         delivery=_Rewriting(plant=plant, spec=SPECS[plant.format], counter=self._counter,
                                             originals=self._originals), **kwargs)

    @property
    def rewritten(self) -> int:
        """How many streams the plant changed."""
        return len(self._counter)

    def upstream_turns(self) -> list[dict]:
        """Every turn the provider streamed before the plant broke it, decoded by the format's own codec."""
        spec = SPECS[self.plant.format]
        adapter = spec.reference_adapter()
        return [spec.codec.decode(adapter.parse_stream(body)) for body in list(self._originals)]

    def client_url(self) -> str:
        """The base URL a client of the plant's format is given."""
        return self.route_url(self.plant.format)
