"""Checks of whole message histories against the rules providers enforce, and of tool-call arguments."""

from __future__ import annotations

import json


def pairing_violations(messages: list[dict]) -> list[str]:
    """Every way ``messages`` breaks the tool call/result pairing rule.

    The rule, as OpenAI-compatible providers enforce it with HTTP 400: an
    assistant message with ``tool_calls`` must be followed directly by one tool
    message per call id, and a tool message must answer a call of the assistant
    message right before its run of tool messages.
    """
    problems: list[str] = []
    open_ids: list[str] = []
    open_at: int | None = None

    def close(at: int) -> None:
        if open_ids:
            problems.append(
                f"assistant message #{open_at} has tool_calls without a following tool message "
                f"for {', '.join(open_ids)} (run of tool messages ends at #{at}); providers answer 400 "
                "'An assistant message with 'tool_calls' must be followed by tool messages "
                "responding to each 'tool_call_id''"
            )

    answerable: set[str] = set()
    for i, msg in enumerate(messages):
        role = msg.get("role")
        if role == "tool":
            call_id = msg.get("tool_call_id")
            if call_id in open_ids:
                open_ids.remove(call_id)
            elif call_id in answerable:
                problems.append(f"tool message #{i} answers {call_id!r} a second time")
            else:
                problems.append(
                    f"tool message #{i} answers {call_id!r}, which no preceding assistant "
                    "tool_calls message holds; providers answer 400 'messages with role 'tool' "
                    "must be a response to a preceding message with 'tool_calls''"
                )
            continue
        close(i)
        answerable = set()
        open_ids = []
        if role == "assistant" and msg.get("tool_calls"):
            open_ids = [c.get("id") for c in msg["tool_calls"]]
            answerable = set(open_ids)
            open_at = i
    close(len(messages))
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
        want = json.loads(sent)
    except ValueError:
        return got == sent
    if not isinstance(got, str):
        return False
    try:
        return _same_json(json.loads(got), want)
    except ValueError:
        return False


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
