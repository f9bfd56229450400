"""Bedrock Converse on the loopback provider: ``/model/{modelId}/converse-stream`` and ``/converse``, its strict profile.

The history rules and their texts are :mod:`harness.rules.bedrock_history`'s;
this module says how Bedrock answers them: 400 with the body ``{"message":
text}`` and the error's type in the ``x-amzn-ErrorType`` header
(``ValidationException``: botocore reads the code from that header, as AWS
sends it), and 403 ``Missing Authentication Token`` without SigV4-shaped credentials (an
``Authorization: AWS4-HMAC-SHA256 Credential=...`` header beside
``X-Amz-Date``, or a Bedrock API key as a bearer token; present, never
verified). ``converse-stream`` answers an event-stream body written by the one
Bedrock writer (:mod:`harness.wire.bedrock_events`); ``converse`` the whole
response. Claude on Bedrock signs each reasoning block with its own
signature, so a signature lost, joined to another or moved is told apart.
"""

from __future__ import annotations

import json

from harness.loopback.request_body import SHAPE, BodyFault
from harness.loopback.round_script import BLANK_TEXTS, NO_TOOL, allowed, round_calls, round_text
from harness.loopback.round_types import Round, RoundScenario
from harness.loopback.strict_route import WireFormat
from harness.loopback.turn_position import MODEL, OTHER, PROMPT, opaque, position, short_id
from harness.rules import bedrock_history
from harness.wire.bedrock_events import METRICS, THROTTLED, Plan, turn_body

MODEL_PATH = "/model/"
STREAM_METHOD, WHOLE_METHOD = "/converse-stream", "/converse"
EXCEPTION_AT = 3  # the event an exception round's exception message replaces: inside the first block
MESSAGES_MISSING = "messages-missing"
NO_TOKEN = "Missing Authentication Token"
NOT_JSON = "Unable to parse request body as JSON."
# The type AWS names in x-amzn-ErrorType per status of the answers here (AWS appends its service namespace).
ERROR_TYPES = {400: "ValidationException", 403: "MissingAuthenticationTokenException", 429: "ThrottlingException"}
ERROR_NAMESPACE = "http://internal.amazon.com/coral/com.amazon.bedrock/"
NO_MESSAGES = ("1 validation error detected: Value null at 'messages' failed to satisfy constraint: Member must not "
               "be null")


def accepts(method: str, path: str) -> bool:
    return method == "POST" and path.startswith(MODEL_PATH) and path.endswith((STREAM_METHOD, WHOLE_METHOD))


def authenticate(headers: dict[str, str], query: dict[str, str]) -> tuple[int, dict] | None:
    lowered = {k.lower(): v.strip() for k, v in headers.items()}
    auth = lowered.get("authorization", "")
    if auth.startswith("Bearer ") and auth[7:].strip():
        return None
    if auth.startswith("AWS4-HMAC-SHA256 ") and "Credential=" in auth and "Signature=" in auth \
            and lowered.get("x-amz-date"):
        return None
    return 403, {"message": NO_TOKEN}


def shape(body: dict) -> str | None:
    return None if isinstance(body.get("messages"), list) else "the body has no 'messages' list"


def unreadable(fault: BodyFault) -> tuple[int, dict]:
    return 400, {"message": NO_MESSAGES if fault.kind == SHAPE else NOT_JSON}


def refused(refusal) -> tuple[int, dict]:
    return 400, {"message": refusal.message}


def answer_headers(status: int) -> dict[str, str]:
    kind = ERROR_TYPES.get(status)
    return {"x-amzn-ErrorType": f"{kind}:{ERROR_NAMESPACE}"} if kind else {}


def item_index(path: str) -> int | None:
    parts = path.split(".")
    return int(parts[1]) if len(parts) > 1 and parts[0] == "messages" and parts[1].isdigit() else None


def _messages(body: dict) -> list:
    messages = body.get("messages")
    return messages if isinstance(messages, list) else []


def _entry(message: object) -> tuple[str, str]:
    role = message.get("role") if isinstance(message, dict) else None
    content = bedrock_history.content_of(message)
    if role == "assistant":
        return MODEL, ""
    texts = [b for b in content if "toolResult" not in b]
    return (PROMPT, json.dumps(texts, ensure_ascii=False)) if role == "user" and texts else (OTHER, "")


def paired(body: dict, sent: list[dict]) -> list[dict] | None:
    """The sent turns, when the body has one assistant message per turn sent (else they cannot be paired: None)."""
    models = sum(1 for message in _messages(body) if _entry(message)[0] == MODEL)
    return sent if len(sent) == models else None


def turn_for(scenario: RoundScenario, body: dict, allowed_tools: frozenset[str] | None = None,
             prompts: tuple[str, ...] = ()) -> tuple[dict, bool]:
    """The neutral turn answering ``body`` under ``scenario``, and whether the round ends in an exception."""
    messages = _messages(body)
    turn, round_ = position([_entry(m) for m in messages], prompts)
    step = scenario.round(turn, round_)
    tools = allowed({name: tool["parameters"] or {"type": "object"}
                     for name, tool in bedrock_history.declared_tools(body).items()}, allowed_tools)
    seed = f"{scenario.name}/{turn}/{round_}"
    blocks = []
    for k, (kind, call) in enumerate(zip(step.kinds, round_calls(step.kinds, tools, turn, round_, ""))):
        if kind == "thinking":
            blocks.append({"type": "reasoning", "text": f"Runde {round_ + 1}: erst nachsehen (Zug {turn + 1}).",
                           "signature": opaque(f"{seed}/{k}")})
        elif kind == "redacted":
            blocks.append({"type": "redacted_reasoning", "data": opaque(f"{seed}/{k}/redacted")})
        elif kind == "text":
            blocks.append({"type": "text", "text": round_text(step.kinds, turn, round_)})
        elif kind in BLANK_TEXTS:
            blocks.append({"type": "text", "text": BLANK_TEXTS[kind]})
        elif call is not None:
            blocks.append({"type": "tool_call", "id": f"tooluse_{short_id(f'{seed}/{k}', 22)}", "name": call[0],
                           "arguments": call[1]})
    calls = any(b["type"] == "tool_call" for b in blocks)
    if not calls and not any(b["type"] == "text" for b in blocks):
        blocks.append({"type": "text", "text": NO_TOOL})
    prompt = 20 + 10 * len(messages)
    usage = {"inputTokens": prompt, "outputTokens": 20, "totalTokens": prompt + 20}
    return {"blocks": blocks, "stop_reason": "tool_use" if calls else "end_turn", "usage": usage}, step.error


def streams(path: str, query: dict[str, str], body: dict) -> bool:
    return path.endswith(STREAM_METHOD)


def stream_body(turn: dict, fails: bool) -> bytes:
    return turn_body(turn, Plan(exception=EXCEPTION_AT) if fails else Plan())


def _content(block: dict) -> dict:
    kind = block["type"]
    if kind == "text":
        return {"text": block["text"]}
    if kind == "reasoning":
        return {"reasoningContent": {"reasoningText": {"text": block["text"], "signature": block["signature"]}}}
    if kind == "redacted_reasoning":
        return {"reasoningContent": {"redactedContent": block["data"]}}
    return {"toolUse": {"toolUseId": block["id"], "name": block["name"],
                        "input": json.loads(block["arguments"]) if block["arguments"] else {}}}


def whole(turn: dict, fails: bool, path: str, body: dict | None = None) -> tuple[int, object]:
    """``converse``'s whole response, or Bedrock's 429 ``ThrottlingException``."""
    if fails:
        return 429, {"message": THROTTLED[1]}
    return 200, {"output": {"message": {"role": "assistant", "content": [_content(b) for b in turn["blocks"]]}},
                 "stopReason": turn["stop_reason"], "usage": turn["usage"], "metrics": dict(METRICS)}


_THINK_CALL = Round(("thinking", "call"))
SCENARIOS: dict[str, RoundScenario] = {s.name: s for s in (
    RoundScenario("signed-reasoning", "two signed reasoning blocks and a call over two rounds; a second turn", "wire",
                  ((Round(("thinking", "thinking", "call")), Round(("thinking", "text"))),
                   (_THINK_CALL, Round(("text",)))), "bedrock-signature-joined"),
    RoundScenario("redacted-reasoning", "signed and redacted reasoning before a call, then the answer", "wire",
                  ((Round(("thinking", "redacted", "call")), Round(("text",))),), "bedrock-redacted-dropped"),
    RoundScenario("parallel-calls", "text beside 6 parallel calls in one turn, each answered by its toolUseId", "wire",
                  ((Round(("text",) + ("call",) * 6), Round(("text",))),), "bedrock-blocks-by-arrival"),
    RoundScenario("zero-argument-tool", "a call with no input", "wire",
                  ((Round(("thinking", "call0")), Round(("text",))),)),
    RoundScenario("stream-error", "an exception mid-stream; then a normal turn", "wire",
                  ((Round(("thinking", "text"), error=True),), (_THINK_CALL, Round(("text",)))),
                  "bedrock-exception-swallowed"),
)}

BEDROCK = WireFormat(
    name="bedrock", label="Bedrock", rules=bedrock_history.RULES, scenarios=SCENARIOS,
    default_scenario="signed-reasoning", accepts=accepts, authenticate=authenticate, shape=shape,
    shape_rule=MESSAGES_MISSING, unreadable=unreadable, refusals=bedrock_history.refusals, paired=paired,
    refused=refused, item_index=item_index, turn_for=turn_for, streams=streams, stream_body=stream_body, whole=whole,
    answer_headers=answer_headers)
