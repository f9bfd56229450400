"""Each wire format's codec of the neutral turn, by format name: what lets one contract run in every format.

The rules every format shares are stated once over the neutral turn
(``harness.adapter``, the ``anthropic`` section; ``harness.rules.blocks``).
A format is a codec between that model and its wire: ``body(turn, cut)``
writes the SSE body that streams a turn the format carries (``cut``: the
format's own description of how values are cut into events, ``None`` for
the plainest one), and ``decode(parsed)`` reads what the format's adapters
return from ``parse_stream`` back as a turn. A contract draws a turn and a
cut, sends the body, and holds ``decode(parse_stream(body))`` to the turn.

- ``chat``: :mod:`harness.wire.chat_turn` (chat carries one reasoning block
  without signature, one text block, the calls; ``decode`` turns the chat
  response shape into blocks);
- ``anthropic``: :mod:`harness.wire.anthropic_events` (a cut is its
  :class:`~harness.wire.anthropic_events.Plan`); its adapters already return
  turns, so ``decode`` is the identity;
- ``openai-responses``: :mod:`harness.wire.responses_events` and ``gemini``:
  :mod:`harness.wire.gemini_events`, each cut by its own ``Plan``; their
  adapters return turns too (with the format's extra keys: item ids and
  summaries, signatures on any part).

Every name in ``harness.adapter.FORMATS`` has a codec here (``tests/test_chat_turn.py`` holds it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from harness.wire import anthropic_events, chat_turn, gemini_events, responses_events


@dataclass(frozen=True)
class Codec:
    """One format's writer and reader of neutral turns."""

    format: str
    write: Callable[[dict, Any], bytes]
    decode: Callable[[object], object]
    cut_type: type

    def body(self, turn: dict, cut: Any = None) -> bytes:
        """The SSE body that streams ``turn``, cut as ``cut`` says (None: the format's plainest cut)."""
        return self.write(turn, self.cut_type() if cut is None else cut)


def _same(parsed: object) -> object:
    return parsed


CODECS: dict[str, Codec] = {
    "chat": Codec("chat", chat_turn.turn_body, chat_turn.decode, chat_turn.Cut),
    "anthropic": Codec("anthropic", anthropic_events.turn_body, _same, anthropic_events.Plan),
    "openai-responses": Codec("openai-responses", responses_events.turn_body, _same, responses_events.Plan),
    "gemini": Codec("gemini", gemini_events.turn_body, _same, gemini_events.Plan),
}


def codec_for(format: str) -> Codec:
    """The codec of ``format`` (a name in ``harness.adapter.FORMATS``)."""
    return CODECS[format]
