"""OpenAI Responses on the loopback provider: ``POST /v1/responses``, its strict profile, its scripted rounds.

The history rules and their texts are :mod:`harness.rules.responses_history`'s;
this module says how OpenAI answers them: 400 with the rule's text, 404 for
a reasoning item that cannot be found under ``store: false``, each wrapped
as ``{"error": {"message", "type", "param", "code"}}``, and 401 without a
bearer credential. A round is a neutral turn (:mod:`harness.adapter`, the
``openai-responses`` section) written by the one Responses writer
(:mod:`harness.wire.responses_events`); every reasoning item carries an
``encrypted_content`` of its own, so one dropped, edited or moved is told
apart from one sent back whole. The round answering a request is read from
its ``input`` (:mod:`.turn_position`).
"""

from __future__ import annotations

import json

from harness.loopback import answers
from harness.loopback.request_body import SHAPE, BodyFault
from harness.loopback.round_script import BLANK_TEXTS, NO_TOOL, allowed, round_calls, round_text
from harness.loopback.round_types import Round, RoundScenario
from harness.loopback.strict_route import WireFormat
from harness.loopback.turn_position import MODEL, OTHER, PROMPT, opaque, position, short_id
from harness.rules import responses_history
from harness.wire.responses_events import ERROR, Plan, turn_body, turn_events

RESPONSES_PATH = "/v1/responses"
ERROR_AT = 4  # the event an error round's error event replaces: after the first item's added event and delta
MISSING_KEY = ("You didn't provide an API key. You need to provide your API key in an Authorization header using "
               "Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) "
               "if you're accessing the API from your browser and are prompted for a username. You can obtain an "
               "API key from https://platform.openai.com/account/api-keys.")
NOT_FOUND = (responses_history.NOT_STORED,)  # the rules OpenAI answers with 404: the item is not there
INPUT_MISSING = "input-missing"
MISSING_INPUT = "Missing required parameter: 'input'."


def authenticate(headers: dict[str, str], query: dict[str, str]) -> tuple[int, dict] | None:
    if any(k.lower() == "authorization" and v.strip() for k, v in headers.items()):
        return None
    return 401, answers.error_body(MISSING_KEY)


def shape(body: dict) -> str | None:
    items = body.get("input")
    return None if isinstance(items, (str, list)) else "the body has no 'input' (a string or a list of items)"


def unreadable(fault: BodyFault) -> tuple[int, dict]:
    if fault.kind == SHAPE:
        return 400, answers.error_body(MISSING_INPUT, param="input")
    return 400, answers.error_body(answers.NOT_JSON)


def refused(refusal) -> tuple[int, dict]:
    code = "invalid_encrypted_content" if refusal.rule == responses_history.ENCRYPTED_UNCHANGED else None
    return (404 if refusal.rule in NOT_FOUND else 400), answers.error_body(refusal.message, param="input", code=code)


def item_index(path: str) -> int | None:
    inside = path.removeprefix("input[").partition("]")[0]
    return int(inside) if inside.isdigit() else None


def _items(body: dict) -> list:
    items = body.get("input")
    if isinstance(items, str):
        return [{"role": "user", "content": items}]
    return items if isinstance(items, list) else []


def _entry(item: object) -> tuple[str, str]:
    if not isinstance(item, dict):
        return OTHER, ""
    if item.get("role") == "user" and item.get("type", "message") == "message":
        return PROMPT, json.dumps(item.get("content"), ensure_ascii=False)
    if item.get("type") in ("reasoning", "function_call", "item_reference") or item.get("role") == "assistant":
        return MODEL, ""
    return OTHER, ""


def declared_tools(body: dict) -> dict[str, dict]:
    """name -> parameters of every function tool the request declares."""
    return {t["name"]: t.get("parameters") or {"type": "object"} for t in body.get("tools") or ()
            if isinstance(t, dict) and t.get("type") == "function" and isinstance(t.get("name"), str)}


def turn_for(scenario: RoundScenario, body: dict, allowed_tools: frozenset[str] | None = None,
             prompts: tuple[str, ...] = ()) -> tuple[dict, bool]:
    """The neutral turn answering ``body`` under ``scenario``, and whether the round fails with an error event."""
    items = _items(body)
    turn, round_ = position([_entry(item) for item in items], prompts)
    step = scenario.round(turn, round_)
    tools = allowed(declared_tools(body), allowed_tools)
    seed = f"{scenario.name}/{turn}/{round_}"
    blocks = []
    for k, (kind, call) in enumerate(zip(step.kinds, round_calls(step.kinds, tools, turn, round_, "{}"))):
        mark = short_id(f"{seed}/{k}")
        if kind == "thinking":
            summary = [f"**Runde {round_ + 1}** — erst nachsehen, ", f"dann antworten (Zug {turn + 1})."]
            blocks.append({"type": "reasoning", "text": "".join(summary), "summary": summary,
                           "signature": "gAAAAA" + opaque(f"{seed}/{k}"), "item_id": f"rs_{mark}"})
        elif kind == "text":
            blocks.append({"type": "text", "text": round_text(step.kinds, turn, round_), "item_id": f"msg_{mark}"})
        elif kind in BLANK_TEXTS:
            blocks.append({"type": "text", "text": BLANK_TEXTS[kind], "item_id": f"msg_{mark}"})
        elif call is not None:
            blocks.append({"type": "tool_call", "id": f"call_{mark}", "name": call[0], "arguments": call[1],
                           "item_id": f"fc_{mark}"})
    calls = any(b["type"] == "tool_call" for b in blocks)
    if not calls and not any(b["type"] == "text" for b in blocks):
        blocks.append({"type": "text", "text": NO_TOOL, "item_id": f"msg_{short_id(seed)}"})
    prompt = 20 + 10 * len(items)
    usage = {"input_tokens": prompt, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 12,
             "output_tokens_details": {"reasoning_tokens": 8}, "total_tokens": prompt + 12}
    return {"blocks": blocks, "stop_reason": "completed", "usage": usage}, step.error


def stream_body(turn: dict, fails: bool) -> bytes:
    return turn_body(turn, Plan(error=ERROR_AT) if fails else Plan())


def whole(turn: dict, fails: bool, path: str = RESPONSES_PATH, body: dict | None = None) -> tuple[int, object]:
    """The non-streamed answer: the ``response`` object ``response.completed`` carries, or OpenAI's 500."""
    if fails:
        return 500, answers.error_body(ERROR["message"], type="server_error", code=ERROR["code"])
    return 200, turn_events(turn)[-1]["response"]


_THINK_CALL = Round(("thinking", "call"))
SCENARIOS: dict[str, RoundScenario] = {s.name: s for s in (
    RoundScenario("reasoning-tools", "a reasoning item before each function call over three rounds; a second "
                     "turn", "wire", ((_THINK_CALL, Round(("thinking", "call")), Round(("thinking", "text"))),
                                      (_THINK_CALL, Round(("text",)))), "responses-call-without-reasoning"),
    RoundScenario("parallel-calls", "one reasoning item before 6 parallel function calls", "wire",
                     ((Round(("thinking",) + ("call",) * 6), Round(("text",))),), "responses-parallel-index-zero"),
    RoundScenario("reasoning-text", "a reasoning item before the answer, then a tool round in a second turn",
                     "wire", ((Round(("thinking", "text")),), (_THINK_CALL, Round(("thinking", "text")))),
                     "responses-reasoning-without-following-item"),
    RoundScenario("zero-argument-tool", "a function call with arguments {} after reasoning", "wire",
                     ((Round(("thinking", "call0")), Round(("text",))),)),
    RoundScenario("stream-error", "an error event after the first item; then a normal turn", "wire",
                     ((Round(("text",), error=True),), (_THINK_CALL, Round(("text",)))),
                     "responses-incomplete-as-complete"),
    RoundScenario("blank-text", "a message item of only whitespace between reasoning and a call; an empty one "
                     "before the answer", "wire", ((Round(("thinking", "blank", "call")), Round(("empty", "text"))),)),
)}

RESPONSES = WireFormat(
    name="openai-responses", label="Responses", rules=responses_history.RULES, scenarios=SCENARIOS,
    default_scenario="reasoning-tools", accepts=lambda method, path: method == "POST" and path == RESPONSES_PATH,
    authenticate=authenticate, shape=shape, shape_rule=INPUT_MISSING, unreadable=unreadable,
    refusals=responses_history.refusals, paired=lambda body, sent: sent,
    refused=refused, item_index=item_index, turn_for=turn_for,
    streams=lambda path, query, body: body.get("stream") is True, stream_body=stream_body, whole=whole)
