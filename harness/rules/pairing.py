"""Checks of whole message histories against the rules providers enforce, and of tool-call arguments."""

from __future__ import annotations

import json
from dataclasses import dataclass

from harness.clip import clip, clip_repr

# What a violation is; each maps to the provider rule it breaks (harness.rules.registry).
UNANSWERED = "unanswered"  # an assistant tool call no tool message answers before the next non-tool message
ORPHAN = "orphan"  # a tool message no call of the assistant message before its run holds
ANSWERED_TWICE = "answered-twice"  # a second tool message for the same call id
RULE_OF_KIND = {UNANSWERED: "unanswered-tool-calls", ORPHAN: "orphan-tool-message",
                ANSWERED_TWICE: "orphan-tool-message"}

# The providers' 400 texts (OpenAI's names the unanswered ids, {ids} joined with ", "; DeepSeek's does not).
OPENAI_UNANSWERED_CALLS = (
    "An assistant message with 'tool_calls' must be followed by tool messages responding to each "
    "'tool_call_id'. The following tool_call_ids did not have response messages: {ids}"
)
DEEPSEEK_UNANSWERED_CALLS = (
    "An assistant message with 'tool_calls' must be followed by tool messages responding to each "
    "'tool_call_id'. (insufficient tool messages following tool_calls message)"
)
# Both providers' answer to a tool message no call precedes, and to a second answer (newer responses spell
# "preceding"; older ones "preceeding").
ORPHAN_TOOL_MESSAGE = (
    "Invalid parameter: messages with role 'tool' must be a response to a preceding message with 'tool_calls'."
)


@dataclass(frozen=True)
class PairingViolation:
    """One break of the pairing rule: ``index`` is the tool message, or for :data:`UNANSWERED` the assistant one."""

    kind: str
    index: int
    call_id: object  # as the message carries it: a provider's id need not be a string, or there at all

    @property
    def rule(self) -> str:
        return RULE_OF_KIND[self.kind]


def pairing(messages: list[dict]) -> list[PairingViolation]:
    """Every break of the tool call/result pairing rule in ``messages``, in message order.

    The rule, as OpenAI-compatible providers enforce it with HTTP 400: every
    call of an assistant message with ``tool_calls`` is answered by exactly one
    tool message with its id before the next non-tool message; a tool message
    answers a call of the assistant message right before its run of tool
    messages. Calls are told apart by id, so a second tool message for an id
    is a violation even where the assistant message repeats the id. A run's
    own breaks come before its unanswered calls.
    """
    found: list[PairingViolation] = []
    calls_at: int | None = None
    pending: dict = {}  # call id -> answered yet, in call order
    for i, message in enumerate(messages):
        if message.get("role") == "tool":
            call_id = message.get("tool_call_id")
            if call_id not in pending:
                found.append(PairingViolation(ORPHAN, i, call_id))
            elif pending[call_id]:
                found.append(PairingViolation(ANSWERED_TWICE, i, call_id))
            else:
                pending[call_id] = True
            continue
        found += [PairingViolation(UNANSWERED, calls_at, cid) for cid, answered in pending.items() if not answered]
        calls = message.get("tool_calls") if message.get("role") == "assistant" else None
        pending = {c.get("id"): False for c in calls or () if isinstance(c, dict)}
        calls_at = i
    found += [PairingViolation(UNANSWERED, calls_at, cid) for cid, answered in pending.items() if not answered]
    return found


def unanswered_by_message(violations: list[PairingViolation]) -> dict[int, list[object]]:
    """The unanswered call ids of ``violations``, by the assistant message that made the calls."""
    by_message: dict[int, list[object]] = {}
    for v in violations:
        if v.kind == UNANSWERED:
            by_message.setdefault(v.index, []).append(v.call_id)
    return by_message


def pairing_violations(messages: list[dict]) -> list[str]:
    """Every way ``messages`` breaks the tool call/result pairing rule (:func:`pairing`), said for people."""
    found = pairing(messages)
    unanswered = unanswered_by_message(found)
    problems: list[str] = []
    for v in found:
        if v.kind == ORPHAN:
            problems.append(f"tool message #{v.index} answers {clip_repr(v.call_id)}, which no preceding assistant "
                            f"tool_calls message holds; providers answer 400 {ORPHAN_TOOL_MESSAGE!r}")
        elif v.kind == ANSWERED_TWICE:
            problems.append(f"tool message #{v.index} answers {clip_repr(v.call_id)} a second time; providers "
                            f"answer 400 {ORPHAN_TOOL_MESSAGE!r}")
        elif v.index in unanswered:
            ids = clip(", ".join(map(str, unanswered.pop(v.index))))
            problems.append(f"assistant message #{v.index} has tool_calls without a following tool message for "
                            f"{ids}; providers answer 400 {OPENAI_UNANSWERED_CALLS.format(ids=ids)!r}")
    return problems


def same_arguments(got: object, sent: str) -> bool:
    """True if tool-call arguments ``got`` stand for the arguments ``sent``.

    The format carries ``arguments`` as JSON text, and a correct client may
    re-serialize it (spacing, key order, escapes), so where ``sent`` is valid
    JSON the two compare as JSON values: ``got`` must be a string that parses
    to the same value (``true`` is not ``1``). Text that is not JSON is
    compared as it is.
    """
    try:
        want = _strict_json(sent)
    except ValueError:
        return got == sent
    if not isinstance(got, str):
        return False
    try:
        return _same_json(_strict_json(got), want)
    except ValueError:
        return False


def _not_json(constant: str) -> object:
    raise ValueError(f"{constant} is not JSON")


def _strict_json(text: str) -> object:
    """``text`` as JSON (RFC 8259): Python's ``NaN`` and ``Infinity`` are text, which also keeps NaN equal to itself."""
    return json.loads(text, parse_constant=_not_json)


def _same_json(a: object, b: object) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same_json(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same_json(x, y) for x, y in zip(a, b))
    return a == b
