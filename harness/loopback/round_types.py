"""What every strict route plays and answers with, whatever its format: a scripted round, a scenario, a reply.

A scenario is a list of user turns, each a list of rounds; a round is the
kinds of blocks it writes (thinking, redacted thinking, text, a call, a call
without arguments) and whether it fails mid-stream. Each format reads its own
requests to place them in the scenario and writes the round in its own wire
(:mod:`.anthropic_scenarios`, :mod:`.responses_format`, :mod:`.gemini_format`);
:mod:`.strict_route` hands the answer to the server as a :class:`RouteReply`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace


@dataclass(frozen=True)
class Round:
    kinds: tuple[str, ...]
    error: bool = False  # an error event mid-stream (non-streamed: the provider's error status)


@dataclass(frozen=True)
class RoundScenario:
    name: str
    title: str
    level: str
    turns: tuple[tuple[Round, ...], ...]
    incident: str = ""

    def round(self, turn: int, round_: int) -> Round:
        """The round answering ``round_`` of ``turn``; past the script, the last round's text without its calls."""
        rounds = self.turns[min(turn, len(self.turns) - 1)]
        if round_ < len(rounds):
            return rounds[round_]
        return replace(rounds[-1], kinds=tuple(k for k in rounds[-1].kinds if k not in ("call", "call0")) or ("text",),
                       error=False)

    @property
    def user_turns(self) -> int:
        return len(self.turns)


@dataclass
class RouteReply:
    status: int
    payload: dict | list | None = None  # a JSON answer
    stream: bytes | None = None  # or a streamed body
    headers: dict[str, str] = field(default_factory=dict)  # a JSON answer's own headers (an error's type)
