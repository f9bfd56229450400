"""Bedrock ConverseStream bodies written from a neutral turn: the one writer of every Bedrock stream the harness sends.

A neutral turn (``harness.adapter``, the ``bedrock`` section) is written as
ConverseStream sends it, each event an event-stream message
(:mod:`harness.wire.eventstream`): ``messageStart {role}``, then per block
(its ``contentBlockIndex`` its place in the turn) a ``contentBlockStart``
for a call only (``start.toolUse {toolUseId, name}``; text and reasoning
blocks have none: AWS's model makes a start a union whose one member is
``toolUse``), ``contentBlockDelta`` events (``delta.text``,
``delta.toolUse.input`` pieces, ``delta.reasoningContent`` ``text`` pieces
then its ``signature``, or its ``redactedContent``) and a ``contentBlockStop``;
then ``messageStop {stopReason}`` and ``metadata {usage, metrics}``, both of which
AWS's model requires (a turn without usage is written as counting nothing).

A :class:`Plan` says how: each block's value in which pieces, in which order
the blocks' deltas interleave (each still keyed by its index), an exception
mid-stream, a body cut short.
"""

from __future__ import annotations

from dataclasses import dataclass

from harness.wire.eventstream import event_message, exception_message

THROTTLED = ("throttlingException", "Too many requests, please wait before trying again.")
METRICS = {"latencyMs": 812}
NO_USAGE = {"inputTokens": 0, "outputTokens": 0, "totalTokens": 0}  # counts nothing (rules.blocks.no_usage)


@dataclass(frozen=True)
class Plan:
    """How a turn is written.

    ``pieces``: per block, the pieces its value streams in (text, a call's
    input, a reasoning text; a redacted block's bytes and a signature always
    whole); None: each value in one piece. ``schedule``: the block index each
    delta event takes in turn (every block's pieces in its own order), so
    deltas of several blocks interleave, each block opened after the one
    before it (ConverseStream opens blocks in index order); None: block after
    block. A block's
    start comes before its first delta, its stop after its last.
    ``exception``: the event position an exception message takes, the
    body ending after it. ``cut``: how many events are kept.
    """

    pieces: tuple[tuple[str, ...], ...] | None = None
    schedule: tuple[int, ...] | None = None
    exception: int | None = None
    cut: int | None = None


def _value(block: dict) -> str:
    return block["arguments"] if block["type"] == "tool_call" else block.get("text", "")


def _delta(block: dict, piece: str) -> dict:
    kind = block["type"]
    if kind == "tool_call":
        return {"toolUse": {"input": piece}}
    if kind == "reasoning":
        return {"reasoningContent": {"text": piece}}
    if kind == "text":
        return {"text": piece}
    raise ValueError(f"a {kind!r} block streams no pieces")


def _start(block: dict) -> dict | None:
    if block["type"] == "tool_call":
        return {"toolUse": {"toolUseId": block["id"], "name": block["name"]}}
    return None


def _block_events(index: int, block: dict, pieces: tuple[str, ...]) -> list[tuple[str, dict]]:
    """The deltas of one block: its pieces, then a reasoning block's signature or a redacted block's bytes."""
    if block["type"] == "redacted_reasoning":
        return [("contentBlockDelta", {"contentBlockIndex": index,
                                       "delta": {"reasoningContent": {"redactedContent": block["data"]}}})]
    found = [("contentBlockDelta", {"contentBlockIndex": index, "delta": _delta(block, piece)}) for piece in pieces]
    if block["type"] == "reasoning" and block.get("signature"):
        found.append(("contentBlockDelta", {"contentBlockIndex": index,
                                            "delta": {"reasoningContent": {"signature": block["signature"]}}}))
    return found


def turn_events(turn: dict, plan: Plan = Plan()) -> list[tuple[str, dict]]:
    """The ``(event type, payload)`` events of ``turn`` as ``plan`` writes them."""
    blocks = turn["blocks"]
    pieces = plan.pieces if plan.pieces is not None else tuple((_value(b),) for b in blocks)
    if len(pieces) != len(blocks):
        raise ValueError(f"the plan cuts {len(pieces)} values, the turn has {len(blocks)} blocks")
    queues = [_block_events(k, b, pieces[k]) for k, b in enumerate(blocks)]
    schedule = plan.schedule if plan.schedule is not None else tuple(
        k for k, queue in enumerate(queues) for _ in queue)
    if sorted(schedule) != sorted(k for k, queue in enumerate(queues) for _ in queue):
        raise ValueError(f"the schedule {list(schedule)} does not take each block's {[len(q) for q in queues]} deltas")
    firsts = list(dict.fromkeys(schedule))
    if firsts != sorted(firsts):
        raise ValueError(f"the schedule {list(schedule)} opens blocks in the order {firsts}; ConverseStream opens "
                         "them in index order")
    found: list[tuple[str, dict]] = [("messageStart", {"role": "assistant"})]
    opened = 0  # every block below this index is open
    for k in (*schedule, len(blocks)):
        while opened <= k and opened < len(blocks):  # open in index order; a block without deltas (a call that
            start = _start(blocks[opened])           # streamed no input) opens and stops in its place
            found += [("contentBlockStart", {"contentBlockIndex": opened, "start": start})] if start else []
            if not queues[opened]:
                found.append(("contentBlockStop", {"contentBlockIndex": opened}))
            opened += 1
        if k == len(blocks):
            break
        found.append(queues[k].pop(0))
        if not queues[k]:
            found.append(("contentBlockStop", {"contentBlockIndex": k}))
    found.append(("messageStop", {"stopReason": turn["stop_reason"]}))
    usage = turn["usage"] if turn.get("usage") is not None else dict(NO_USAGE)
    found.append(("metadata", {"usage": usage, "metrics": dict(METRICS)}))
    return found


def frame(found: list[tuple[str, dict]], plan: Plan = Plan()) -> bytes:
    """Events as an event-stream body, disturbed as ``plan`` says (an exception, or a cut)."""
    if plan.exception is not None:
        return b"".join(event_message(*e) for e in found[:plan.exception]) + exception_message(*THROTTLED)
    if plan.cut is not None:
        if plan.cut >= len(found):
            raise ValueError(f"a cut after {plan.cut} of {len(found)} events keeps them all")
        found = found[:plan.cut]
    return b"".join(event_message(*e) for e in found)


def turn_body(turn: dict, plan: Plan = Plan()) -> bytes:
    """The event-stream body that streams ``turn`` as ``plan`` says."""
    return frame(turn_events(turn, plan), plan)
