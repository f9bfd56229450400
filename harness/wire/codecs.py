"""A wire format's codec of the neutral turn: what lets one contract run in every format.

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

Each format's row (:mod:`harness.formats`) holds its codec.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


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


def same(parsed: object) -> object:
    """The decoder of a format whose adapters already return neutral turns."""
    return parsed
