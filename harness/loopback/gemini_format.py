"""Gemini on the loopback provider: ``generateContent`` and ``streamGenerateContent``, its strict profile, its rounds.

The history rules and their texts are :mod:`harness.rules.gemini_history`'s;
this module says how Gemini answers them: 400 ``INVALID_ARGUMENT`` with the
rule's text, wrapped as ``{"error": {"code", "message", "status"}}``, and 403
``PERMISSION_DENIED`` without an API key (``x-goog-api-key``, the ``key``
query parameter, or a bearer token). A body Google's JSON front door cannot
read (not JSON, a root that is not an object) or one without ``contents`` is
400 ``INVALID_ARGUMENT`` in its words (as quoted in public client bug reports:
"Invalid JSON payload received. ...", "* GenerateContentRequest.<field>: ...").
``:streamGenerateContent?alt=sse``
streams; without ``alt=sse`` it answers the chunks as one JSON array, and
``:generateContent`` answers the whole response. A round is a neutral turn
(:mod:`harness.adapter`, the ``gemini`` section) written by the one Gemini
writer (:mod:`harness.wire.gemini_events`): Gemini 3 signs the first
``functionCall`` part of each step and the last part of a text answer, each
signature its own, so one lost, moved or made up is told apart from one sent
back on its part.
"""

from __future__ import annotations

import json

from harness.loopback.request_body import NOT_OBJECT, SHAPE, BodyFault
from harness.loopback.round_script import BLANK_TEXTS, NO_TOOL, allowed, round_calls, round_text
from harness.loopback.round_types import Round, RoundScenario
from harness.loopback.strict_route import WireFormat
from harness.loopback.turn_position import MODEL, OTHER, PROMPT, opaque, position
from harness.rules import gemini_history
from harness.wire.gemini_events import UNAVAILABLE, Plan, turn_body, turn_chunks

MODELS_PATH = "/v1beta/models/"
STREAM_METHOD, WHOLE_METHOD = ":streamGenerateContent", ":generateContent"
ERROR_AT = 1  # the chunk an error round's error chunk replaces: after the first part
CONTENTS_MISSING = "contents-missing"
# Google's JSON front door: a body it cannot parse, a root that is not an object, a request without contents.
UNPARSED = "Invalid JSON payload received. Unexpected token."
NOT_A_MESSAGE = 'Invalid JSON payload received. Unknown name "": Root element must be a message.'
NO_CONTENTS = "* GenerateContentRequest.contents: contents is not specified\n"
UNREGISTERED = ("Method doesn't allow unregistered callers (callers without established identity). Please use API Key "
                "or other form of API consumer identity to call this API.")


def error_body(code: int, message: str, status: str) -> dict:
    return {"error": {"code": code, "message": message, "status": status}}


def accepts(method: str, path: str) -> bool:
    return method == "POST" and path.startswith(MODELS_PATH) and path.endswith((STREAM_METHOD, WHOLE_METHOD))


def authenticate(headers: dict[str, str], query: dict[str, str]) -> tuple[int, dict] | None:
    if query.get("key") or any(k.lower() in ("x-goog-api-key", "authorization") and v.strip()
                               for k, v in headers.items()):
        return None
    return 403, error_body(403, UNREGISTERED, "PERMISSION_DENIED")


def shape(body: dict) -> str | None:
    return None if isinstance(body.get("contents"), list) else "the body has no 'contents' list"


def unreadable(fault: BodyFault) -> tuple[int, dict]:
    text = NO_CONTENTS if fault.kind == SHAPE else NOT_A_MESSAGE if fault.kind == NOT_OBJECT else UNPARSED
    return 400, error_body(400, text, "INVALID_ARGUMENT")


def refused(refusal) -> tuple[int, dict]:
    return 400, error_body(400, refusal.message, "INVALID_ARGUMENT")


def item_index(path: str) -> int | None:
    parts = path.split(".")
    return int(parts[1]) if len(parts) > 1 and parts[0] == "contents" and parts[1].isdigit() else None


def _contents(body: dict) -> list:
    contents = body.get("contents")
    return contents if isinstance(contents, list) else []


def _entry(content: object) -> tuple[str, str]:
    role = content.get("role") if isinstance(content, dict) else None
    parts = gemini_history.parts_of(content)
    if role == "model":
        return MODEL, ""
    if role in ("user", None) and any(not (isinstance(p, dict) and "functionResponse" in p) for p in parts):
        return PROMPT, json.dumps(parts, ensure_ascii=False)
    return OTHER, ""


def paired(body: dict, sent: list[dict]) -> list[dict] | None:
    """The sent turns, when the body has one model content per turn sent (else they cannot be paired: None)."""
    models = sum(1 for content in _contents(body) if _entry(content)[0] == MODEL)
    return sent if len(sent) == models else None


def declared_tools(body: dict) -> dict[str, dict]:
    """name -> parameters of every function the request declares."""
    found = {}
    for tool in body.get("tools") or ():
        for function in (tool.get("functionDeclarations") or ()) if isinstance(tool, dict) else ():
            if isinstance(function, dict) and isinstance(function.get("name"), str):
                found[function["name"]] = (function.get("parameters") or function.get("parametersJsonSchema")
                                           or {"type": "object"})
    return found


def turn_for(scenario: RoundScenario, body: dict, allowed_tools: frozenset[str] | None = None,
             prompts: tuple[str, ...] = ()) -> tuple[dict, bool]:
    """The neutral turn answering ``body`` under ``scenario``, and whether the round fails with an error chunk."""
    contents = _contents(body)
    turn, round_ = position([_entry(content) for content in contents], prompts)
    step = scenario.round(turn, round_)
    tools = allowed(declared_tools(body), allowed_tools)
    seed = f"{scenario.name}/{turn}/{round_}"
    blocks = []
    for k, (kind, call) in enumerate(zip(step.kinds, round_calls(step.kinds, tools, turn, round_, ""))):
        if kind == "thinking":
            blocks.append({"type": "reasoning", "text": f"**Runde {round_ + 1}** — erst nachsehen, dann antworten "
                           f"(Zug {turn + 1}).", "signature": ""})
        elif kind == "text":
            blocks.append({"type": "text", "text": round_text(step.kinds, turn, round_)})
        elif kind in BLANK_TEXTS:
            blocks.append({"type": "text", "text": BLANK_TEXTS[kind]})
        elif call is not None:
            block = {"type": "tool_call", "id": "", "name": call[0], "arguments": call[1]}
            if not any(b["type"] == "tool_call" for b in blocks):  # Gemini signs the first call of a step only
                block["signature"] = opaque(f"{seed}/{k}")
            blocks.append(block)
    calls = any(b["type"] == "tool_call" for b in blocks)
    if not calls and not any(b["type"] == "text" for b in blocks):
        blocks.append({"type": "text", "text": NO_TOOL})
    if not calls:  # a text answer: its last part is signed
        blocks[-1] = {**blocks[-1], "signature": opaque(f"{seed}/answer")}
    prompt = 20 + 10 * len(contents)
    usage = {"promptTokenCount": prompt, "candidatesTokenCount": 12, "thoughtsTokenCount": 8,
             "totalTokenCount": prompt + 20}
    return {"blocks": blocks, "stop_reason": "STOP", "usage": usage}, step.error


def streams(path: str, query: dict[str, str], body: dict) -> bool:
    return path.endswith(STREAM_METHOD) and query.get("alt") == "sse"


def stream_body(turn: dict, fails: bool) -> bytes:
    return turn_body(turn, Plan(error=ERROR_AT) if fails else Plan())


def whole(turn: dict, fails: bool, path: str, body: dict | None = None) -> tuple[int, object]:
    """``:generateContent``'s one response, ``:streamGenerateContent``'s JSON array of chunks, or Gemini's 503."""
    if fails:
        return 503, {"error": dict(UNAVAILABLE)}
    if path.endswith(STREAM_METHOD):
        return 200, turn_chunks(turn)
    return 200, turn_chunks(turn, Plan(groups=(len(turn["blocks"]),)))[0]


_THINK_CALL = Round(("thinking", "call"))
SCENARIOS: dict[str, RoundScenario] = {s.name: s for s in (
    RoundScenario("signed-calls", "a thought summary and a signed function call over three rounds, the answer's "
                     "last part signed; a second turn", "wire",
                     ((_THINK_CALL, Round(("thinking", "call")), Round(("thinking", "text"))),
                      (_THINK_CALL, Round(("text",)))), "gemini-signature-aggregation"),
    RoundScenario("parallel-calls", "6 parallel function calls in one content, only the first signed", "wire",
                     ((Round(("thinking",) + ("call",) * 6), Round(("text",))),), "gemini-parallel-split"),
    RoundScenario("parallel-rounds", "two rounds of 3 parallel calls each, then the answer", "wire",
                     ((Round(("call",) * 3), Round(("thinking", "call", "call", "call")), Round(("text",))),),
                     "gemini-signature-clobbered"),
    RoundScenario("zero-argument-tool", "a signed function call without args", "wire",
                     ((Round(("thinking", "call0")), Round(("text",))),)),
    RoundScenario("stream-error", "an error chunk after the first part; then a normal turn", "wire",
                     ((Round(("thinking", "text"), error=True),), (_THINK_CALL, Round(("text",)))),
                     "gemini-stream-drops-calls"),
    RoundScenario("blank-text", "a whitespace-only text part before a signed call; an answer ending on an empty "
                     "part that carries only its signature", "wire",
                     ((Round(("thinking", "blank", "call")), Round(("text", "empty"))),),
                     "gemini-signature-aggregation"),
)}

GEMINI = WireFormat(
    name="gemini", label="Gemini", rules=gemini_history.RULES, scenarios=SCENARIOS, default_scenario="signed-calls",
    accepts=accepts, authenticate=authenticate, shape=shape, shape_rule=CONTENTS_MISSING, unreadable=unreadable,
    refusals=gemini_history.refusals, paired=paired, refused=refused,
    item_index=item_index, turn_for=turn_for, streams=streams, stream_body=stream_body, whole=whole)
