"""The scripted conversations: the format's reference kernel plays a tool loop against the target, round by round.

The reference adapter of the format (its row's ``reference``) is the client:
its kernel asks the model, runs every call of a round (parallel calls
included) and sends the next request with the round replayed as the format
keeps it (reasoning, opaque values, calls, results). A conversation of several
user turns sends each later turn after the whole history before it, as the
kernel renders it (``render_history`` of the turns' events; :func:`history_key`
finds where a request keeps its history); its codec writes each
request (``transform_request``, asking for the usage as the row says) and decodes each stream (``parse_stream``,
then the row's ``codec.decode`` to the neutral turn). Here the model is the
target over HTTP: every request and what came back is logged as an
:class:`Emitted`, and a request refused or a stream that does not decode
ends the conversation there (what was logged is judged).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field

from harness.clip import clip
from harness.conform.target import Reply, Target


@dataclass(frozen=True)
class Conversation:
    name: str
    prompts: tuple[str, ...]  # one per user turn; each later turn goes with the whole history before it


# The loopback pairs a request's k-th assistant message with the k-th turn it sent since it started (one client
# conversation), so the conversation of several user turns goes first: the later ones' rounds are its first ones.
CONVERSATIONS = (
    Conversation("two-turns", ("What is the weather in Oslo? Look it up, then answer in one sentence.",
                               "And in Lisbon? Compare the two in one sentence.")),
    Conversation("parallel-tools", ("What are the weather and the local time in Zürich and in Tokyo? Call every tool "
                                    "you need at once, in parallel, then answer in one sentence.",)),
    Conversation("plain-answer", ("Think it over, then say in one sentence why the sky is blue.",)),
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


MARK = "conform-history-mark"  # the words of the one request that shows where the kernel keeps its history


class _Seen(Exception):
    """Stops the kernel at its first request (all :func:`history_key` needs to see)."""


def history_key(adapter: object) -> str:
    """The key of the kernel's request that holds its history: the one list that carries the user's words."""
    seen: list[dict] = []

    def capture(request: dict) -> dict:
        seen.append(request)
        raise _Seen

    try:
        adapter.run_turn(MARK, capture, [])
    except _Seen:
        pass
    keys = [k for k, v in (seen[0] if seen else {}).items() if isinstance(v, list) and MARK in json.dumps(v)]
    if len(keys) != 1:
        raise RuntimeError(f"the reference kernel's first request keeps the user's words in {keys or 'no list'}: "
                           "expected one history list")
    return keys[0]


def _after(history: list, model: Callable[[dict], object], key: str) -> Callable[[dict], object]:
    """``model`` asked with ``history`` before the history of each request (a later user turn)."""
    return lambda request: model({**request, key: [*history, *request[key]]})


def converse(target: Target, log: list[Emitted], options: dict | None = None) -> dict[str, str]:
    """Every scripted conversation against ``target``, logged into ``log``; how each ended when it ended early.

    ``options`` are the reference codec's request options (``effort``: default :data:`EFFORT`).
    """
    adapter = target.spec.reference_adapter()
    key = history_key(adapter)
    ended: dict[str, str] = {}
    for conversation in CONVERSATIONS:
        model = TargetModel(target, adapter, conversation.name, log, {"effort": EFFORT, **(options or {})})
        events: list[dict] = []
        try:
            for prompt in conversation.prompts:
                history = adapter.render_history(events) if events else []
                asked = _after(history, model, key) if history else model
                events += adapter.run_turn(prompt, asked, [Tool(t.name, t.description, t.parameters)
                                                           for t in TOOLS])["events"]
        except Stopped as stop:
            ended[conversation.name] = str(stop)
        except RuntimeError as exc:  # the kernel's own limit: a target that never stops calling tools
            ended[conversation.name] = str(exc)
    return ended
