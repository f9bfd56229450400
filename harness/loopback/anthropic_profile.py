"""The strict ``anthropic`` profile: each Messages request judged as Anthropic judges it, and answered the same way.

The rules and their exact 400 texts are :mod:`harness.rules.anthropic_history`'s
(written once, shared with the contracts); this profile adds what only a
provider can know: the turns it streamed, so it can tell whether the latest
assistant message's thinking came back byte for byte, in the same order. It
remembers every turn it sent in the conversation it serves (the probe starts
one provider per scenario), oldest first, and pairs the request's assistant
messages with them from the first. A request with no credential (neither
``x-api-key`` nor a bearer ``Authorization``, which the SDK sends for a token)
is answered 401, as Anthropic answers it.
"""

from __future__ import annotations

import threading

from harness.loopback import anthropic_answers
from harness.loopback.exchanges import Violation
from harness.loopback.provider_profiles import Answer
from harness.rules.anthropic_history import refusals
from harness.rules.anthropic_history import RULES as HISTORY_RULES
from harness.rules.registry import RULES

AUTH_HEADERS = ("x-api-key", "authorization")


class AnthropicProfile:
    name = "anthropic"
    judged: tuple[str, ...] = HISTORY_RULES

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._sent: list[dict] = []

    def remember(self, turn: dict) -> None:
        """Keep a turn this provider streamed (or answered whole), in the order sent."""
        with self._lock:
            self._sent.append(turn)

    @property
    def sent(self) -> list[dict]:
        with self._lock:
            return list(self._sent)

    def authenticate(self, headers: dict[str, str]) -> Answer | None:
        if any(k.lower() in AUTH_HEADERS and v for k, v in headers.items()):
            return None
        status, body = anthropic_answers.unauthenticated()
        return Answer(status, body)

    def check(self, body: dict | None, number: int) -> list[Violation]:
        """Every refusal Anthropic would answer ``body`` with, judged against the turns this provider sent."""
        body = body or {}
        messages = body.get("messages") if isinstance(body.get("messages"), list) else []
        assistants = sum(1 for m in messages if isinstance(m, dict) and m.get("role") == "assistant")
        sent = self.sent[:assistants]
        return [self._violation(r, number) for r in refusals(body, sent if len(sent) == assistants else None)]

    def answer(self, violations: list[Violation]) -> Answer | None:
        refused = next((v for v in violations if v.refused), None)
        return None if refused is None else Answer(refused.status, refused.error or {})

    def _violation(self, refusal, number: int) -> Violation:
        index = _message_index(refusal.path)
        return Violation(refusal.rule, RULES[refusal.rule].level, number, index, refusal.message,
                         400, self.name, anthropic_answers.error_body(refusal.message))

    def describe(self) -> str:
        return self.name


def _message_index(path: str) -> int | None:
    parts = path.split(".")
    return int(parts[1]) if len(parts) > 1 and parts[0] == "messages" and parts[1].isdigit() else None
