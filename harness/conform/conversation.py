"""The scripted conversations: the format's reference kernel plays a tool loop against the target, round by round.

The reference adapter of the format (its row's ``reference``) is the client:
its kernel asks the model, runs every call of a round (parallel calls
included) and sends the next request with the round replayed as the format
keeps it (reasoning, opaque values, calls, results); its codec writes each
request (``transform_request``, asking for the usage as the row says) and decodes each stream (``parse_stream``,
then the row's ``codec.decode`` to the neutral turn). Here the model is the
target over HTTP: every request and what came back is logged as an
:class:`Emitted`, and a request refused or a stream that does not decode
ends the conversation there (what was logged is judged).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from harness.clip import clip
from harness.conform.target import Reply, Target


@dataclass(frozen=True)
class Conversation:
    name: str
    prompt: str


CONVERSATIONS = (
    Conversation("parallel-tools", "What are the weather and the local time in Zürich and in Tokyo? Call every tool "
                 "you need at once, in parallel, then answer in one sentence."),
    Conversation("plain-answer", "Think it over, then say in one sentence why the sky is blue."),
)


@dataclass
class Tool:
    """A tool the conversations declare; its result names its call, so a result sent back is its own."""

    name: str
    description: str
    parameters: dict
    parallel_safe: bool = False

    @property
    def schema(self) -> dict:
        return {"type": "function", "function": {"name": self.name, "description": self.description,
                                                 "parameters": self.parameters}}

    def __call__(self, arguments: str) -> str:
        return json.dumps({"tool": self.name, "arguments": arguments, "result": "sunny, 21 °C, 14:05"},
                          ensure_ascii=False)


_CITY = {"type": "object", "properties": {"city": {"type": "string", "description": "the city's name"}},
         "required": ["city"]}
TOOLS = (Tool("get_weather", "The current weather in a city.", _CITY),
         Tool("get_time", "The local time in a city.", _CITY))


@dataclass
class Emitted:
    """One request of a conversation and what the target did with it."""

    conversation: str
    number: int  # in the whole run, from 1
    request: dict
    reply: Reply
    turn: dict | None = None  # the neutral turn the stream decoded to (None: it did not)
    error: str = ""  # why the stream did not decode

    @property
    def streamed(self) -> bool:
        return self.reply.status == 200


class Stopped(Exception):
    """The target refused a request or sent a stream that does not decode: the conversation cannot go on."""


@dataclass
class TargetModel:
    """The target as the reference kernel's model: each request sent, each stream decoded, everything logged."""

    target: Target
    adapter: object
    conversation: str
    log: list[Emitted]
    options: dict = field(default_factory=dict)

    def __call__(self, request: dict) -> object:
        body = self.adapter.transform_request(request, {"base_url": self.target.base_url, **self.options})
        body.update(self.target.spec.usage_asked)
        if "model" in body:
            body["model"] = self.target.model
        reply = self.target.post(json.dumps(body, ensure_ascii=False).encode())
        emitted = Emitted(self.conversation, len(self.log) + 1, body, reply)
        self.log.append(emitted)
        if not emitted.streamed:
            raise Stopped(reply.describe())
        try:
            parsed = self.adapter.parse_stream(reply.body)
            emitted.turn = self.target.spec.codec.decode(parsed)
        except Exception as exc:  # any failure of the reference decoder is the stream's verdict
            emitted.error = clip(f"{type(exc).__name__}: {exc}", 400)
            raise Stopped(emitted.error) from None
        return parsed


EFFORT = "high"  # the conversations ask for reasoning, so that it is streamed and must be replayed


def converse(target: Target, log: list[Emitted], options: dict | None = None) -> dict[str, str]:
    """Every scripted conversation against ``target``, logged into ``log``; how each ended when it ended early.

    ``options`` are the reference codec's request options (``effort``: default :data:`EFFORT`).
    """
    adapter = target.spec.reference_adapter()
    ended: dict[str, str] = {}
    for conversation in CONVERSATIONS:
        model = TargetModel(target, adapter, conversation.name, log, {"effort": EFFORT, **(options or {})})
        try:
            adapter.run_turn(conversation.prompt, model, [Tool(t.name, t.description, t.parameters) for t in TOOLS])
        except Stopped as stop:
            ended[conversation.name] = str(stop)
        except RuntimeError as exc:  # the kernel's own limit: a target that never stops calling tools
            ended[conversation.name] = str(exc)
    return ended
