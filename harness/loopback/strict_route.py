"""A route of the loopback provider for one more wire format, judged by that format's history rules.

Each format (:mod:`.anthropic_format`, :mod:`.responses_format`,
:mod:`.gemini_format`; the rows of :mod:`.wires`) is a :class:`WireFormat`:
where its requests go, how it checks a credential, how its provider answers a
body that is not a request at all (:mod:`.request_body`), the refusals of its history rules (:mod:`harness.rules`, written once and shared
with the contracts) with the status and error body its provider answers, and
its scripted rounds and writers. :class:`StrictProfile` remembers the turns
the provider sent in the conversation it serves (the probe starts one
provider per scenario), so the rules that need them (a signature or an
encrypted value byte for byte) can be judged. :class:`FormatRoute` answers one
request in the provider's order: the credential, then the body (JSON, an
object, the format's shape), then the history, then the
scenario's round, streamed or whole; a round scripted to fail is an error
event mid-stream, or the provider's error status when not streamed. Only
complete turns are remembered: a failed one is not history.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from harness.loopback.exchanges import Exchange, Violation
from harness.loopback.request_body import BODY_NOT_JSON, BodyFault, read_body
from harness.loopback.round_types import RouteReply, RoundScenario
from harness.rules.registry import RULES


@dataclass(frozen=True)
class WireFormat:
    name: str  # the format (a name of harness.adapter.FORMATS) and its strict profile: "gemini"
    label: str  # how the record names its rounds: "Responses", "Gemini"
    rules: tuple[str, ...]  # the history rules judged, as the rule module lists them
    scenarios: dict[str, RoundScenario]
    default_scenario: str
    accepts: Callable[[str, str], bool]  # (method, path)
    authenticate: Callable[[dict, dict], tuple[int, dict] | None]  # (headers, query) -> a refusal, or None
    shape: Callable[[dict], str | None]  # a JSON object body -> what keeps it from being a request, or None
    shape_rule: str  # the registry's rule for a body of the wrong shape
    unreadable: Callable[[BodyFault], tuple[int, dict]]  # a body fault -> the status and body the provider answers
    refusals: Callable[[dict, list[dict] | None], list]  # (body, the sent turns it pairs with) -> the rules' Refusals
    paired: Callable[[dict, list[dict]], list[dict] | None]  # (body, every turn sent) -> the turns it pairs with
    refused: Callable[[object], tuple[int, dict]]  # a Refusal -> the status and body the provider answers
    item_index: Callable[[str], int | None]  # a Refusal's path -> the index of the entry it is about
    turn_for: Callable[..., tuple[dict, bool]]  # (scenario, body, allowed, prompts) -> (neutral turn, fails)
    streams: Callable[[str, dict, dict], bool]  # (path, query, body) -> whether the answer is an SSE body
    stream_body: Callable[[dict, bool], bytes]  # (turn, fails) -> the SSE body
    whole: Callable[[dict, bool, str, dict], tuple[int, object]]  # (turn, fails, path, body) -> the answer unstreamed
    # A JSON answer's status -> the headers its provider sends with it (AWS names an error's type in one).
    answer_headers: Callable[[int], dict[str, str]] = lambda status: {}


class StrictProfile:
    """The strict profile of a format: each request judged by the format's history rules against the turns sent."""

    def __init__(self, wire: WireFormat) -> None:
        self.wire = wire
        self.name = wire.name
        self.judged: tuple[str, ...] = (BODY_NOT_JSON, wire.shape_rule, *wire.rules)
        self._lock = threading.Lock()
        self._sent: list[dict] = []

    def remember(self, turn: dict) -> None:
        with self._lock:
            self._sent.append(turn)

    @property
    def sent(self) -> list[dict]:
        with self._lock:
            return list(self._sent)

    def check(self, raw: bytes, number: int) -> list[Violation]:
        """The fault of a body that is not a request, else every refusal of the history rules."""
        body = read_body(raw, self.wire.shape, self.wire.shape_rule)
        if isinstance(body, BodyFault):
            status, error = self.wire.unreadable(body)
            return [Violation(body.rule, RULES[body.rule].level, number, None, body.detail, status, self.name, error)]
        found = self.wire.refusals(body, self.wire.paired(body, self.sent))
        return [self._violation(r, number) for r in found]

    def _violation(self, refusal, number: int) -> Violation:
        status, error = self.wire.refused(refusal)
        # The place first, unless the provider's own text already opens with it (Anthropic's do).
        detail = refusal.message if refusal.message.startswith(refusal.path) else f"{refusal.path}: {refusal.message}"
        return Violation(refusal.rule, RULES[refusal.rule].level, number, self.wire.item_index(refusal.path),
                         detail, status, self.name, error)

    def describe(self) -> str:
        return self.name


class FormatRoute:
    """One format's scenario and the strict profile judging the requests of one conversation."""

    def __init__(self, wire: WireFormat, scenario: str | RoundScenario | None = None,
                 profile: StrictProfile | None = None, allowed_tools: frozenset[str] | None = None,
                 prompts: tuple[str, ...] = ()) -> None:
        if scenario is None or isinstance(scenario, str):
            name = scenario or wire.default_scenario
            if name not in wire.scenarios:
                raise ValueError(f"no {wire.label} scenario {name!r}; scenarios: {', '.join(wire.scenarios)}")
            scenario = wire.scenarios[name]
        self.wire = wire
        self.scenario = scenario
        self.profile = profile or StrictProfile(wire)
        self.allowed = allowed_tools
        self.prompts = tuple(prompts)  # the probe's user turns, which place a request in the scenario

    def accepts(self, method: str, path: str) -> bool:
        return self.wire.accepts(method, path)

    def reply(self, exchange: Exchange, query: dict[str, str]) -> RouteReply:
        refused = self.wire.authenticate(exchange.headers, query)
        if refused is not None:
            return RouteReply(*refused, headers=self.wire.answer_headers(refused[0]))
        exchange.violations = self.profile.check(exchange.body, exchange.number)
        first = next((v for v in exchange.violations if v.refused), None)
        if first is not None:
            return RouteReply(first.status, first.error or {}, headers=self.wire.answer_headers(first.status))
        body = exchange.json
        turn, fails = self.wire.turn_for(self.scenario, body, self.allowed, self.prompts)
        exchange.source = f"{self.scenario.name} ({self.wire.label})"
        if not fails:
            self.profile.remember(turn)
        if self.wire.streams(exchange.path, query, body):
            return RouteReply(200, stream=self.wire.stream_body(turn, fails))
        status, payload = self.wire.whole(turn, fails, exchange.path, body)
        return RouteReply(status, payload, headers=self.wire.answer_headers(status))
