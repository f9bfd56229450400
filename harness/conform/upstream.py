"""The loopback as a gateway's upstream: the turns it streamed, for the checks of what crossed the gateway.

A gateway configured to call the loopback may call any of its routes (a
translating gateway picks the upstream API itself, e.g. Responses for a model
declared to reason), so each exchange is decoded in the format of the route
that answered it. Only the exchanges from ``first`` on are read: one loopback
may serve several conform runs in turn.
"""

from __future__ import annotations

from harness.adapter import DEFAULT_FORMAT
from harness.conform.crossing import Upstream
from harness.formats import spec_for
from harness.loopback.exchanges import Exchange
from harness.loopback.server import LoopbackProvider

STRICT_CHAT = "openai"  # the chat profile the upstream plays: it refuses what OpenAI refuses


def served_format(provider: LoopbackProvider, exchange: Exchange) -> str:
    """The format of the loopback route that answered ``exchange`` (its own chat route is no format route)."""
    route = next((r for r in provider.routes if r.accepts(exchange.method, exchange.path)), None)
    return route.wire.name if route is not None else DEFAULT_FORMAT


def upstream_turns(provider: LoopbackProvider, first: int = 0) -> Upstream:
    """The turns ``provider`` streamed from exchange ``first`` on, in order, each decoded by its route's format."""
    def turns() -> list[dict]:
        found = []
        for exchange in provider.record.exchanges[first:]:
            spec = spec_for(served_format(provider, exchange))
            if exchange.status == 200 and exchange.pieces and spec.framing.read(exchange.response):
                found.append(spec.codec.decode(spec.reference_adapter().parse_stream(exchange.response)))
        return found
    return turns
