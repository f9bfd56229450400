"""What crossed a gateway: each turn the target emitted held to the turn its upstream streamed for it.

When the target's upstream is known (a gateway configured to call the
loopback, or the broken emitter's own provider), the k-th turn the target
streamed is paired with the k-th turn the upstream streamed, both as neutral
turns (each decoded by its own format's codec, so the two sides may speak
different formats), and held to it by the rules every format shares
(:mod:`harness.rules.blocks`): the blocks in order (reasoning neither dropped
nor turned into text), each text and reasoning text, each opaque value byte
for byte, each call's name and arguments (as JSON values; ids may be
rewritten by a translating gateway, so calls pair by place).
"""

from __future__ import annotations

from collections.abc import Callable

from harness.clip import clip_json
from harness.conform.conversation import Emitted
from harness.conform.stream_checks import check, settle
from harness.outcomes.checks import CheckResult, Finding
from harness.rules import blocks
from harness.rules.pairing import same_arguments

SCENARIO = "crossing"
BLOCKS = "gateway-blocks-kept"
TEXTS = "gateway-texts-kept"
OPAQUE = "gateway-opaque-kept"
CALLS = "gateway-calls-kept"

Upstream = Callable[[], list[dict]]  # the neutral turns the upstream streamed, in the order it streamed them


def _calls(turn: dict) -> list[tuple]:
    return [(b.get("name"), b.get("arguments")) for b in turn.get("blocks") or [] if b.get("type") == "tool_call"]


def _call_changes(got: dict, sent: dict) -> list[tuple]:
    mine, theirs = _calls(got), _calls(sent)
    changed = [(k, g, s) for k, (g, s) in enumerate(zip(mine, theirs))
               if g[0] != s[0] or not same_arguments(g[1] or "{}", s[1] or "{}")]
    return changed + ([(len(theirs), mine[len(theirs):], theirs[len(mine):])] if len(mine) != len(theirs) else [])


_JUDGES: dict[str, Callable[[dict, dict], list]] = {
    BLOCKS: blocks.block_types,
    TEXTS: lambda got, sent: blocks.texts(got, sent, "text") + blocks.texts(got, sent, "reasoning"),
    OPAQUE: lambda got, sent: [*(d for kind in blocks.OPAQUE for d in blocks.opaque_values(got, sent, kind)),
                               *blocks.block_values(got, sent, "tool_call", "signature")],
    CALLS: _call_changes,
}


def crossing_checks(emitted: list[Emitted], upstream: Upstream) -> list[CheckResult]:
    """One check per rule over every pair of an emitted turn and the upstream's turn for it."""
    streamed = [e for e in emitted if e.turn is not None]
    sent = upstream()
    results = {name: check(SCENARIO, name) for name in _JUDGES}
    for e, turn in zip(streamed, sent):
        for name, judge in _JUDGES.items():
            for difference in judge(e.turn, turn):
                where, got, expected = difference
                results[name].findings.append(Finding(e.number, None, f"at {where!r}: emitted {clip_json(got, 300)}, "
                                                      f"the upstream streamed {clip_json(expected, 300)}"))
    if len(sent) != len(streamed):
        results[BLOCKS].findings.append(Finding(None, None, f"the target emitted {len(streamed)} turns, its upstream "
                                                f"streamed {len(sent)}"))
    reason = "" if streamed else "the target emitted no turn"
    return [settle(result, reason) for result in results.values()]
