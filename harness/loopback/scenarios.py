"""Scripted model behaviour from the incidents, played by the loopback provider.

A scenario is a list of turns, each a list of steps (model rounds). Which step
answers a request is read from the request itself: the turn is the number of
user messages in it, the round the number of assistant messages after the
last user message. So a scenario needs no state per client, answers
concurrent conversations, and follows an agent across invocations (one per
turn) as long as it replays its history. Past the last step of a turn the
model answers with that turn's final text again.

Tool calls go only to tools the request declares (and, when the caller lists
them, that it allows); their arguments come from each tool's JSON Schema
(:mod:`harness.loopback.schema_args`), different for every call.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, replace

from harness.loopback.schema_args import arguments_for
from harness.wire.chunks import Envelope, choice_chunk, usage_chunk
from harness.wire.sse import Framing, sse

LAYOUTS = ("sequential", "interleaved", "index-zero")
# What OpenAI streams when a request fails after the stream started (its 500 text).
STREAM_ERROR = {
    "message": "The server had an error while processing your request. Sorry about that!",
    "type": "server_error",
    "param": None,
    "code": None,
}


@dataclass(frozen=True)
class Step:
    """One model round: reasoning, then text or tool calls, framed as asked."""

    reasoning: str = ""
    text: str = ""
    calls: int = 0
    layout: str = "sequential"  # sequential, interleaved (fragments of all calls mixed), index-zero
    keep_alive: bool = False
    usage: bool = False  # a usage chunk even if the request did not ask for one
    error: bool = False  # an error object after the first text chunk, and the stream ends
    line_end: str = "\n"
    beside: bool = False  # the text streams beside the calls: a text piece in the same delta as a call fragment


@dataclass(frozen=True)
class Scenario:
    name: str
    title: str
    level: str  # the rule level of what it exercises
    turns: tuple[tuple[Step, ...], ...]
    incident: str = ""

    def step(self, turn: int, round_: int) -> Step:
        steps = self.turns[min(turn, len(self.turns) - 1)]
        return steps[round_] if round_ < len(steps) else replace(steps[-1], calls=0, error=False)

    @property
    def user_turns(self) -> int:
        return len(self.turns)


@dataclass
class Streamed:
    """What one round streamed, kept in the record so follow-up requests can be judged against it."""

    turn: int
    round: int
    reasoning: str = ""
    text: str = ""
    calls: list[dict] = field(default_factory=list)  # {"id", "name", "arguments"}
    error: bool = False

    def to_json(self) -> dict:
        return {"turn": self.turn, "round": self.round, "reasoning": self.reasoning, "text": self.text,
                "calls": self.calls, "error": self.error}


def position(messages: list[dict], prompts: tuple[str, ...] = ()) -> tuple[int, int]:
    """(turn, round) of a request: user messages before it, assistant messages since the last user message.

    With ``prompts`` (the user turns a probe sends, in order), the turn is the
    one whose prompt the last user message holding a prompt holds (wrapped in
    a template or not), and the rounds are counted from that message: so an
    agent that dropped a failed turn from its history, or that replays tool
    results as user messages ("Observation: ..."), is still placed right.
    """
    users = [i for i, m in enumerate(messages) if m.get("role") == "user"]
    if not users:
        return 0, sum(1 for m in messages if m.get("role") == "assistant")
    for at in reversed(users):
        content = messages[at].get("content")
        text = content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)
        turn = next((t for t, prompt in enumerate(prompts) if prompt and prompt in text), None)
        if turn is not None:
            return turn, sum(1 for m in messages[at:] if m.get("role") == "assistant")
    return len(users) - 1, sum(1 for m in messages[users[-1]:] if m.get("role") == "assistant")


def declared_tools(body: dict) -> dict[str, dict]:
    """name -> parameters schema of every function tool the request declares."""
    tools = {}
    for tool in body.get("tools") or ():
        function = tool.get("function") if isinstance(tool, dict) else None
        if isinstance(function, dict) and isinstance(function.get("name"), str):
            tools[function["name"]] = function.get("parameters") or {"type": "object"}
    return tools


def play(scenario: Scenario, body: dict, allowed: frozenset[str] | None = None,
         model: str | None = None, prompts: tuple[str, ...] = (), thinking: bool = False) -> tuple[bytes, Streamed]:
    """The SSE body answering ``body`` under ``scenario``, and what it streamed.

    ``thinking``: the provider thinks on this request (DeepSeek's thinking
    mode), so every round streams reasoning, as the real one does.
    """
    messages = [m for m in body.get("messages") or () if isinstance(m, dict)]
    turn, round_ = position(messages, prompts)
    step = scenario.step(turn, round_)
    if thinking and not step.reasoning:
        step = replace(step, reasoning=f"Round {round_ + 1} of turn {turn + 1}: deciding what to do next.")
    tools = {n: s for n, s in declared_tools(body).items() if allowed is None or n in allowed}
    seed = hashlib.sha256(f"{scenario.name}/{turn}/{round_}".encode()).hexdigest()[:6]
    text = step.text if not step.calls or not tools or step.beside else ""
    streamed = Streamed(turn, round_, step.reasoning, text)
    names = sorted(tools)
    if step.calls and names:
        for k in range(step.calls):
            name = names[k % len(names)]
            streamed.calls.append({"id": f"call_{seed}{turn}{round_}{k:02d}", "name": name,
                                   "arguments": arguments_for(tools[name], turn * 100 + round_ * 20 + k)})
    elif step.calls:
        streamed.text = step.text or "I have no tool I may use for that, so here is my answer without one."
    envelope = Envelope(id=f"chatcmpl-{seed}{turn}{round_}", model=model or body.get("model") or "loopback-model")
    chunks = _chunks(step, streamed, envelope)
    include_usage = bool((body.get("stream_options") or {}).get("include_usage")) or step.usage
    if step.error:
        streamed.error = True
        chunks = chunks[:2] + [{"error": STREAM_ERROR}]
    elif include_usage:
        chunks.append(usage_chunk(envelope, {"prompt_tokens": 20 + 10 * len(messages), "completion_tokens": 12,
                                             "total_tokens": 32 + 10 * len(messages)}))
    framing = Framing(line_end=step.line_end, keep_alive=step.keep_alive, done=not step.error)
    return sse(chunks, framing), streamed


def _chunks(step: Step, streamed: Streamed, envelope: Envelope) -> list[dict]:
    deltas: list[dict] = []
    if streamed.reasoning:
        deltas.append({"content": None, "reasoning_content": ""})
        deltas += [{"content": None, "reasoning_content": piece} for piece in _pieces(streamed.reasoning, 3)]
    calls = _call_deltas(streamed.calls, step.layout)
    if streamed.text and step.beside and calls:
        texts = _pieces(streamed.text, len(calls))
        calls = [{**delta, "content": text} for delta, text in zip(calls, texts)] + calls[len(texts):]
    elif streamed.text:
        deltas += [{"content": piece} for piece in _pieces(streamed.text, 3)]
    deltas += calls
    if not deltas:
        deltas = [{"content": ""}]
    deltas[0] = {"role": "assistant", **deltas[0]}
    chunks = [choice_chunk(envelope, delta) for delta in deltas]
    chunks.append(choice_chunk(envelope, {}, "tool_calls" if streamed.calls else "stop"))
    return chunks


def _call_deltas(calls: list[dict], layout: str) -> list[dict]:
    if layout not in LAYOUTS:
        raise ValueError(f"call layout {layout!r}; expected one of {', '.join(LAYOUTS)}")
    opens, pieces = [], []
    for k, call in enumerate(calls):
        index = 0 if layout == "index-zero" else k
        opens.append({"index": index, "id": call["id"], "type": "function",
                      "function": {"name": call["name"], "arguments": ""}})
        pieces.append([{"index": index, "function": {"arguments": p}} for p in _pieces(call["arguments"], 3)])
    if layout == "interleaved":
        # Every call opens first, then the argument pieces of all calls take turns.
        ordered = opens + [p for group in _round_robin(pieces) for p in group]
    else:
        ordered = [d for opened, own in zip(opens, pieces) for d in (opened, *own)]
    return [{"content": None, "tool_calls": [d]} for d in ordered]


def _round_robin(groups: list[list[dict]]) -> list[list[dict]]:
    longest = max((len(g) for g in groups), default=0)
    return [[g[i] for g in groups if i < len(g)] for i in range(longest)]


def _pieces(text: str, count: int) -> list[str]:
    size = max(1, -(-len(text) // count))
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


_ANSWER = "Done: Zürich 18 °C, 東京 21 °C."
PARTIAL = "Let me check the ledger fir"  # what the stream-error scenario streams before its error
_THINK = ("The user wants both cities; I should look them up before answering — Zürich first.",
          "Both results are in; one more lookup settles it.",
          "Everything is known now, so I can answer.")

SCENARIOS: dict[str, Scenario] = {s.name: s for s in (
    Scenario("parallel-12", "12 parallel tool calls, each one's arguments over several chunks, then the answer; "
             "a second turn replays the history", "wire",
             ((Step(calls=12), Step(text=_ANSWER)), (Step(text="Nothing changed since: " + _ANSWER),)),
             "sse-index-accumulation"),
    Scenario("interleaved", "3 parallel calls whose argument fragments arrive interleaved", "wire",
             ((Step(calls=3, layout="interleaved"), Step(text=_ANSWER)),), "sse-index-accumulation"),
    Scenario("index-zero", "every parallel call at index 0, told apart only by a new id", "robust",
             ((Step(calls=3, layout="index-zero"), Step(text=_ANSWER)),), "sse-index-accumulation"),
    Scenario("thinking-tools", "thinking with tools over several rounds and two turns; reasoning streamed "
             "beside every round", "provider",
             ((Step(reasoning=_THINK[0], calls=1), Step(reasoning=_THINK[1], calls=2),
               Step(reasoning=_THINK[2], text=_ANSWER)),
              (Step(reasoning=_THINK[0], calls=1), Step(reasoning=_THINK[2], text="Still: " + _ANSWER))),
             "deepseek-reasoning-400"),
    Scenario("keep-alive", "keep-alive comments before and between events", "wire",
             ((Step(calls=2, keep_alive=True), Step(text=_ANSWER, keep_alive=True)),)),
    Scenario("usage", "a last chunk with choices: [] and the usage object", "wire",
             ((Step(calls=2, usage=True), Step(text=_ANSWER, usage=True)),)),
    Scenario("crlf", "CRLF line ends", "wire", ((Step(calls=2, line_end="\r\n"), Step(text=_ANSWER, line_end="\r\n")),)),
    Scenario("split-stream", "reasoning, 3 parallel calls interleaved and a usage chunk, then a non-ASCII "
             "answer: for deliveries that cut events, line ends and characters", "wire",
             ((Step(reasoning=_THINK[0], calls=3, layout="interleaved", usage=True), Step(text=_ANSWER)),),
             "sse-index-accumulation"),
    Scenario("text-beside-calls", "text and call fragments in the same deltas: each of 2 calls' deltas also "
             "carries a piece of the text", "wire",
             ((Step(text="Let me look both up.", calls=2, beside=True), Step(text=_ANSWER)),)),
    Scenario("stream-error", "an error object inside the stream after the first chunks, no [DONE]; then a "
             "normal turn", "wire",
             ((Step(text=PARTIAL, error=True),), (Step(calls=1), Step(text=_ANSWER)))),
)}


def describe_all() -> str:
    return "\n".join(f"{s.name:15} [{s.level}] {s.title}" for s in SCENARIOS.values())

