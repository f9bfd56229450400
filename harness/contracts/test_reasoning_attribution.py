"""Contract: every persisted round carries its own reasoning, and only its own.

Incident: a DeepSeek-backed kernel lost reasoning at every layer it kept
(incident `deepseek-reasoning-400`). Fixing it held a trap: the frame kept the model response in a field
it set only when a round asked for tools, so in the final text-only round that
field still held the previous tool round. Persisting reasoning from it stamps
the last tool round's chain of thought onto the final answer, which is worse
than losing it. The fix records each round's reasoning before the frame
branches on "tool calls or final text".

Rule: in a turn of tool rounds and then a text-only final round, each with its
own reasoning, the persisted event of each round holds exactly that round's
reasoning, and the history rendered from the events gives each assistant
message that reasoning as ``reasoning_content`` for a provider that wants
reasoning back (DeepSeek). A final round without
reasoning persists none, not the previous round's.

Level: provider (each round's reasoning goes back to DeepSeek, whose rule
asks for it; the wrong round's reasoning is worse than none).

Production fingerprint: the final answer of a turn is stored (and replayed to
the provider) with the chain of thought of the tool round before it; without
reasoning, HTTP 400 "The reasoning_content in the thinking mode must be passed
back to the API."
"""

import pytest

from harness.clip import shown
from harness.testing import ScriptedModel, ScriptedTool
from harness.under_test.invoke import valid

pytestmark = pytest.mark.provider

# A provider that wants reasoning back, so the rendered history must carry it.
DEEPSEEK_BASE_URL = "https://api.deepseek.com"

FINAL_REASONING = {
    "own": "All three facts are in: the invoice, the refund and the date.",
    "none": None,
}


def _tool_round(n: int, reasoning: str) -> dict:
    call = {"id": f"call_lookup_{n}", "name": "lookup", "arguments": f'{{"step":{n}}}'}
    return {"reasoning": reasoning, "tool_calls": [call], "finish_reason": "tool_calls"}


def _script(final_reasoning: str | None) -> list[dict]:
    final = {"content": "The refund went out on the 12th.", "finish_reason": "stop"}
    if final_reasoning is not None:
        final["reasoning"] = final_reasoning
    return [
        _tool_round(1, "They ask about a refund, so find the invoice first."),
        _tool_round(2, "Invoice found; now the refund record."),
        final,
    ]


def _wanted(reasoning: str | None) -> str | None:
    return reasoning or None


@pytest.mark.parametrize("final", sorted(FINAL_REASONING), ids=lambda k: f"final-reasoning-{k}")
def test_each_round_persists_its_own_reasoning(kernel, final):
    kernel = valid(kernel)
    rounds = _script(FINAL_REASONING[final])
    model = ScriptedModel(rounds)
    tool = ScriptedTool("lookup")
    events = kernel.run_turn("When did my refund go out?", model, [tool])["events"]

    # Reach: the turn really had tool rounds and then a text-only final round.
    assert len(model.requests) == len(rounds), (
        f"the kernel asked the model {len(model.requests)} times, expected {len(rounds)} "
        "(two tool rounds and a final round): the turn did not reach its final round"
    )
    assert len(tool.runs) == 2, f"the tool ran {len(tool.runs)} times, expected 2 (one per tool round)"
    assert len(events) == len(rounds), (
        f"{len(events)} persisted events, expected one per round ({len(rounds)}); "
        f"persisted responses {[e.get('response') for e in events]}"
    )
    assert not events[-1].get("tool_calls") and all(e.get("tool_calls") for e in events[:-1]), (
        "expected tool calls on every round but the last; persisted tool_calls per round: "
        f"{[len(e.get('tool_calls') or []) for e in events]}"
    )

    for n, (event, scripted) in enumerate(zip(events, rounds), 1):
        got, want = _wanted(event.get("reasoning")), _wanted(scripted.get("reasoning"))
        assert got == want, (
            f"persisted round {n} of {len(rounds)}: reasoning={shown(got)}, but should be {shown(want)}, that "
            f"round's own (the rounds' reasoning in order: {[r.get('reasoning') for r in rounds]})"
        )

    assistants = [m for m in kernel.render_history(events, base_url=DEEPSEEK_BASE_URL) if m.get("role") == "assistant"]
    rendered = [m.get("reasoning_content") or None for m in assistants]
    wanted = [_wanted(r.get("reasoning")) for r in rounds]
    assert rendered == wanted, (
        f"reasoning_content of the rendered assistant messages={shown(rendered)}, but should be each round's "
        f"own {wanted}: the next request would replay the wrong (or no) reasoning"
    )
