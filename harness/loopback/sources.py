"""Where the loopback provider's answers come from: a recorded cassette or a scripted scenario."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from harness.loopback.cassette import ENDPOINT, CassetteMiss, CassettePlayer
from harness.loopback.scenarios import SCENARIOS, Scenario, Streamed, play

SSE = "text/event-stream; charset=utf-8"


@dataclass
class Reply:
    status: int
    content_type: str
    body: bytes
    label: str  # which interaction or scenario step answered
    streamed: Streamed | None = None

    @property
    def is_stream(self) -> bool:
        return self.status < 400 and self.content_type.startswith("text/event-stream")


class Source(Protocol):
    name: str
    base_path: str  # the path of the base URL clients are given, e.g. "/v1"

    def accepts(self, method: str, path: str) -> bool: ...

    def reply(self, method: str, path: str, body: dict | None, thinking: bool = False) -> Reply: ...


class CassetteSource:
    """The interactions of a vcrpy cassette, each played once, in recorded order."""

    def __init__(self, cassette: str | Path) -> None:
        self.player = CassettePlayer(cassette)
        self.name = f"cassette {self.player.name}"
        self.base_path = self.player.base_path

    def accepts(self, method: str, path: str) -> bool:
        return any(i.path == path for i in self.player.interactions)

    def reply(self, method: str, path: str, body: dict | None, thinking: bool = False) -> Reply:
        try:
            n, interaction = self.player.take(method, path)
        except CassetteMiss as exc:
            import json

            from harness.loopback.answers import error_body

            return Reply(500, "application/json", json.dumps(error_body(str(exc), type="cassette_miss")).encode(),
                         "miss")
        content_type = next((v for k, v in interaction.headers.items() if k.lower() == "content-type"),
                            "application/json")
        return Reply(interaction.status, content_type, interaction.body, f"{self.player.name} interaction #{n}")


class ScenarioSource:
    """A scripted scenario: the step is read from the request, tool calls go to declared (and allowed) tools."""

    def __init__(self, scenario: str | Scenario, allowed_tools: frozenset[str] | None = None,
                 model: str | None = None, prompts: tuple[str, ...] = ()) -> None:
        if isinstance(scenario, str):
            if scenario not in SCENARIOS:
                raise ValueError(f"no scenario {scenario!r}; scenarios: {', '.join(SCENARIOS)}")
            scenario = SCENARIOS[scenario]
        self.scenario = scenario
        self.allowed = allowed_tools
        self.model = model
        self.prompts = tuple(prompts)
        self.name = f"scenario {scenario.name}"
        self.base_path = "/v1"

    def accepts(self, method: str, path: str) -> bool:
        return method == "POST" and path in (ENDPOINT, self.base_path + ENDPOINT)

    def reply(self, method: str, path: str, body: dict | None, thinking: bool = False) -> Reply:
        sse, streamed = play(self.scenario, body or {}, self.allowed, self.model, self.prompts, thinking)
        return Reply(200, SSE, sse, f"{self.scenario.name} turn {streamed.turn + 1} round {streamed.round + 1}",
                     streamed)
