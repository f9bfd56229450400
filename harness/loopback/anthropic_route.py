"""The loopback provider's ``POST /v1/messages``: one Messages request judged, then answered or refused.

The order is Anthropic's: a request without ``x-api-key`` is a 401 before
anything else; a request the history rules refuse is a 400 with the rule's
exact text (:class:`~harness.loopback.anthropic_profile.AnthropicProfile`);
otherwise the scenario's round answers, streamed with ``"stream": true``, else
as one ``message`` object. A round scripted to fail is an ``overloaded_error``
event mid-stream, or HTTP 529 when not streamed. Only complete turns are
remembered as sent: a failed one is not history.
"""

from __future__ import annotations

from dataclasses import dataclass

from harness.loopback import anthropic_answers
from harness.loopback.anthropic_profile import AnthropicProfile
from harness.loopback.anthropic_scenarios import SCENARIOS, MessagesScenario, body_for, turn_for
from harness.loopback.exchanges import Exchange
from harness.rules.anthropic_history import wire_block
from harness.wire.anthropic_events import MESSAGE_ID, MODEL

MESSAGES_PATH = "/v1/messages"
DEFAULT_SCENARIO = "interleaved-thinking"


@dataclass
class MessagesReply:
    status: int
    payload: dict | None = None  # a JSON answer
    stream: bytes | None = None  # or an SSE body


class MessagesRoute:
    """A Messages scenario and the strict profile judging the requests of one conversation."""

    def __init__(self, scenario: str | MessagesScenario = DEFAULT_SCENARIO, profile: AnthropicProfile | None = None,
                 allowed_tools: frozenset[str] | None = None, prompts: tuple[str, ...] = ()) -> None:
        if isinstance(scenario, str):
            if scenario not in SCENARIOS:
                raise ValueError(f"no Messages scenario {scenario!r}; scenarios: {', '.join(SCENARIOS)}")
            scenario = SCENARIOS[scenario]
        self.scenario = scenario
        self.profile = profile or AnthropicProfile()
        self.allowed = allowed_tools
        self.prompts = tuple(prompts)  # the probe's user turns, which place a request in the scenario

    def reply(self, exchange: Exchange) -> MessagesReply:
        refused = self.profile.authenticate(exchange.headers)
        if refused is not None:
            return MessagesReply(refused.status, refused.body)
        body = exchange.json or {}
        exchange.violations = self.profile.check(body, exchange.number)
        refused = self.profile.answer(exchange.violations)
        if refused is not None:
            return MessagesReply(refused.status, refused.body)
        turn, error = turn_for(self.scenario, body, self.allowed, self.prompts)
        exchange.source = f"{self.scenario.name} (Messages)"
        exchange.streamed = None
        if not error:
            self.profile.remember(turn)
        if body.get("stream"):
            return MessagesReply(200, stream=body_for(turn, error))
        if error:
            status, payload = anthropic_answers.overloaded()
            return MessagesReply(status, payload)
        return MessagesReply(200, message(turn, body.get("model")))


def message(turn: dict, model: str | None = None) -> dict:
    """The non-streamed answer: the turn as one Messages ``message`` object."""
    content = []
    for block in turn["blocks"]:
        wire = wire_block(block)
        if wire["type"] == "tool_use":
            wire["input"] = _input(block["arguments"])
        content.append(wire)
    return {"id": MESSAGE_ID, "type": "message", "role": "assistant", "model": model or MODEL, "content": content,
            "stop_reason": turn["stop_reason"], "stop_sequence": None, "usage": turn["usage"]}


def _input(arguments: str) -> dict:
    import json

    return json.loads(arguments) if arguments else {}
