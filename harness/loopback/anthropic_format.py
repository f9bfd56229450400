"""Anthropic Messages on the loopback provider: ``POST /v1/messages``, its strict profile, its answers.

The history rules and their exact 400 texts are :mod:`harness.rules.anthropic_history`'s
(written once, shared with the contracts); this module says how Anthropic
answers them. Every error is ``{"type": "error", "error": {"type",
"message"}}`` (https://docs.anthropic.com/en/api/errors lists the types by
status): a refused history is 400 ``invalid_request_error`` with the rule's
text; a request with neither ``x-api-key`` nor a bearer ``Authorization``
(which the SDK sends for a token) is 401 ``authentication_error``; a body that
is not JSON gets "The request body is not valid JSON: " and the parser's
words, as public client bug reports quote it, and one that is not an object
or has no ``messages`` list gets the field errors of Anthropic's request
validator. The request's model picks its row of the model table
(:mod:`harness.rules.models`): thinking in a form that model refuses gets
its text, and so does a prefill (the last message the assistant's) to a
model that takes none. The provider pairs the request's assistant messages
with the turns it sent, from the first. A round (:mod:`.anthropic_scenarios`) streams with
``"stream": true``, else answers as one ``message`` object; a round scripted
to fail is an ``overloaded_error`` event mid-stream, or HTTP 529 unstreamed
(the overload of :data:`harness.wire.anthropic_events.OVERLOADED`).
"""

from __future__ import annotations

import json

from harness.loopback.anthropic_scenarios import SCENARIOS, body_for, turn_for
from harness.loopback.request_body import NOT_OBJECT, SHAPE, BodyFault
from harness.loopback.strict_route import WireFormat
from harness.rules import anthropic_history, anthropic_thinking
from harness.rules.anthropic_history import wire_block
from harness.wire.anthropic_events import MESSAGE_ID, MODEL, OVERLOADED

MESSAGES_PATH = "/v1/messages"
INVALID_REQUEST = "invalid_request_error"
MISSING_KEY = "x-api-key header is required"
NOT_JSON = "The request body is not valid JSON: {reason}"
NOT_AN_OBJECT = "Input should be a valid dictionary or object to extract fields from"
NO_MESSAGES = "messages: Field required"
AUTH_HEADERS = ("x-api-key", "authorization")


def error_body(message: str, type: str = INVALID_REQUEST) -> dict:
    return {"type": "error", "error": {"type": type, "message": message}}


def authenticate(headers: dict[str, str], query: dict[str, str]) -> tuple[int, dict] | None:
    if any(k.lower() in AUTH_HEADERS and v for k, v in headers.items()):
        return None
    return 401, error_body(MISSING_KEY, "authentication_error")


def shape(body: dict) -> str | None:
    return None if isinstance(body.get("messages"), list) else "the body has no 'messages' list"


def unreadable(fault: BodyFault) -> tuple[int, dict]:
    text = NO_MESSAGES if fault.kind == SHAPE else NOT_AN_OBJECT if fault.kind == NOT_OBJECT else \
        NOT_JSON.format(reason=fault.reason)
    return 400, error_body(text)


def refused(refusal) -> tuple[int, dict]:
    return 400, error_body(refusal.message)


def item_index(path: str) -> int | None:
    parts = path.split(".")
    return int(parts[1]) if len(parts) > 1 and parts[0] == "messages" and parts[1].isdigit() else None


def paired(body: dict, sent: list[dict]) -> list[dict] | None:
    """The first sent turns, one per assistant message of the body (None when fewer were sent: cannot pair)."""
    assistants = sum(1 for m in body["messages"] if isinstance(m, dict) and m.get("role") == "assistant")
    return sent[:assistants] if len(sent) >= assistants else None


def whole(turn: dict, fails: bool, path: str = MESSAGES_PATH, body: dict | None = None) -> tuple[int, object]:
    """The non-streamed answer: the turn as one ``message`` object, or the overload as HTTP 529."""
    if fails:
        return 529, {"type": "error", "error": dict(OVERLOADED)}
    return 200, message(turn, (body or {}).get("model"))


def message(turn: dict, model: str | None = None) -> dict:
    """The turn as one Messages ``message`` object."""
    content = []
    for block in turn["blocks"]:
        wire = wire_block(block)
        if wire["type"] == "tool_use":
            wire["input"] = json.loads(block["arguments"]) if block["arguments"] else {}
        content.append(wire)
    return {"id": MESSAGE_ID, "type": "message", "role": "assistant", "model": model or MODEL, "content": content,
            "stop_reason": turn["stop_reason"], "stop_sequence": None, "usage": turn["usage"]}


ANTHROPIC = WireFormat(
    name="anthropic", label="Messages", rules=(anthropic_thinking.FORM_OF_MODEL, anthropic_thinking.PREFILL_OF_MODEL,
                                           *anthropic_history.RULES),
    scenarios=SCENARIOS,
    default_scenario="interleaved-thinking", accepts=lambda method, path: method == "POST" and path == MESSAGES_PATH,
    authenticate=authenticate, shape=shape, shape_rule="messages-missing", unreadable=unreadable,
    refusals=anthropic_thinking.request_refusals, paired=paired, refused=refused, item_index=item_index, turn_for=turn_for,
    streams=lambda path, query, body: bool(body.get("stream")), stream_body=body_for, whole=whole)
