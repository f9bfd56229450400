"""Checks of whole message histories against the rules providers enforce."""

from __future__ import annotations


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
