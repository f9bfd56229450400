"""Contract: cold storage keeps reasoning as a block of its own and gives it back exactly.

Incident: the DeepSeek-backed kernel of incident `deepseek-reasoning-400` cut each event into an input
block and a response block for cold storage; reasoning went into neither, so
every event recalled from cold storage came back without it, and in thinking
mode with tools the provider refuses such a history. The fix adds a reasoning
block. It must not be folded into the response block: loading puts the two back
into different fields, and merged, the model reads its own chain of thought as
something it said. An event without reasoning must not get an empty block
("did not think" and "thought nothing" must stay apart), and events written
before the reasoning field existed must still load.

Rule: storing an event with reasoning yields exactly one ``reasoning`` block
holding the reasoning verbatim, a ``response`` block holding only the response,
and loading gives back every field; loading reads the reasoning from its block.
Several events stored together load back in their order with every field
intact, also when they share a timestamp and when their tool results come in
another order than their calls.
Without reasoning there is no ``reasoning`` block. An event with no
``reasoning`` key stores and loads with its other fields intact.

Level: provider (reasoning must come back from cold storage because
DeepSeek's round-trip rule asks for it; "did not think" and "thought nothing"
are the two shapes of that field).

Production fingerprint: recalled history without ``reasoning_content`` and
HTTP 400 "The reasoning_content in the thinking mode must be passed back to the
API."; or assistant replies that open with the model's own inner monologue.
"""

import pytest
from hypothesis import example, given, strategies as st

from harness.clip import shown
from harness.testing import event_lists, persisted_events as events
from harness.testing.events import differences
from harness.under_test.invoke import valid

pytestmark = pytest.mark.provider

LONG = "step " * 20_000
SPECIAL = 'He said "no", then \'maybe\'\n\tline two \\n 思考 🧠 \u200b end'


def _event(question: str, response: str, reasoning: str) -> dict:
    return {"input": question, "response": response, "reasoning": reasoning, "tool_calls": [],
            "tool_results": [], "tools_used": [], "timestamp": 1731300000.25}


def _blocks(cold: dict, role: str) -> list[dict]:
    return [block for block in cold["blocks"] if block.get("role") == role]


def _check_loads(memory, cold: dict, stored: list[dict]) -> list[dict]:
    loaded = memory.load_blocks(cold)
    assert len(loaded) == len(stored), (
        f"stored {len(stored)} events, but loaded {len(loaded)}; stored {shown(stored, 1500)}"
    )
    for n, (want, got) in enumerate(zip(stored, loaded)):
        problems = differences(want, got)
        assert not problems, f"event #{n} came back changed from cold storage:\n  " + "\n  ".join(problems)
    return loaded


@given(event=events(reasoning=st.text(min_size=1)))
@example(event=_event("Summarize the log.", "Done.", LONG))
@example(event=_event(SPECIAL, SPECIAL[::-1], SPECIAL))
def test_reasoning_is_its_own_block_and_round_trips(memory, event):
    memory = valid(memory)
    cold = memory.store_blocks([event])
    reasoning = [block.get("content") for block in _blocks(cold, "reasoning")]
    assert reasoning == [event["reasoning"]], (
        f"reasoning blocks={shown(reasoning)}, but should be exactly one holding {shown(event['reasoning'])}; "
        f"block roles {[block.get('role') for block in cold['blocks']]}"
    )
    response = [block.get("content") for block in _blocks(cold, "response")]
    wanted = [event["response"]] if event["response"] else []
    assert response == wanted, (
        f"response blocks={shown(response)}, but should be {shown(wanted)} (the reasoning "
        f"{shown(event['reasoning'])} has a block of its own and never goes into the response's)"
    )
    _check_loads(memory, cold, [event])
    # Backdoor: rewrite the reasoning block and load again. Reasoning that does
    # not change was read from somewhere else than its block.
    edited = [
        dict(block, content="edited: " + block["content"]) if block.get("role") == "reasoning" else block
        for block in cold["blocks"]
    ]
    got = memory.load_blocks({**cold, "blocks": edited})[0].get("reasoning")
    assert got == "edited: " + event["reasoning"], (
        f"after editing the reasoning block, the loaded reasoning={shown(got)}, but should be the block's "
        "new text: the loader does not read reasoning from its block"
    )


# A tool that returned nothing, before one that returned text: each output is still its own result's.
EMPTY_FIRST = {**_event("Weather in two cities?", "Oslo is sunny.", ""),
               "tool_calls": [{"id": "call_0_a", "name": "get_weather", "arguments": '{"city": "Lima"}'},
                              {"id": "call_1_b", "name": "get_weather", "arguments": '{"city": "Oslo"}'}],
               "tool_results": [{"tool_call_id": "call_0_a", "content": ""},
                                {"tool_call_id": "call_1_b", "content": "sunny"}],
               "tools_used": ["get_weather"]}


# A DeepSeek session as persisted: a tool round (its "\n\n" beside the calls, the batch's results in the order they
# finished) and its follow-up within one clock tick, at time.time()'s precision; then an event imported from
# earlier, its timestamp older.
_TICK = 1731300000.123456
SESSION = [
    {**_event("Weather in two cities?", "\n\n", "Look both up at once."), "timestamp": _TICK,
     "tool_calls": [{"id": "call_00_lima", "name": "get_weather", "arguments": '{"city": "Lima"}'},
                    {"id": "call_01_oslo", "name": "get_weather", "arguments": '{"city": "Oslo"}'}],
     "tool_results": [{"tool_call_id": "call_01_oslo", "content": "sunny"},
                      {"tool_call_id": "call_00_lima", "content": "rain"}],
     "tools_used": ["get_weather"]},
    {**_event("", "Lima: rain. Oslo: sunny.", "Both results are in."), "timestamp": _TICK},
    {**_event("Imported: what did we say?", "Nothing yet.", ""), "timestamp": 1731200000.5},
]


@given(stored=event_lists())
@example(stored=[EMPTY_FIRST])
@example(stored=SESSION)
def test_every_field_of_several_events_round_trips(memory, stored):
    memory = valid(memory)
    cold = memory.store_blocks(stored)
    ids = [block.get("id") for block in cold["blocks"]]
    assert len(set(ids)) == len(ids), (
        f"block ids {shown(ids)} repeat within one store, but each block needs its own; stored {shown(stored, 1500)}"
    )
    _check_loads(memory, cold, stored)


@given(event=events(reasoning=st.sampled_from([None, ""])))
@example(event=_event("Hi.", "Hello!", ""))
@example(event=_event("Hi.", "Hello!", None))
def test_no_reasoning_writes_no_reasoning_block(memory, event):
    memory = valid(memory)
    cold = memory.store_blocks([event])
    empty = _blocks(cold, "reasoning")
    assert not empty, (
        f"reasoning blocks {shown(empty)} were written for an event whose reasoning is "
        f"{event['reasoning']!r}: no reasoning means no block"
    )
    _check_loads(memory, cold, [event])


@given(event=events())
def test_event_from_before_the_reasoning_field_loads(memory, event):
    memory = valid(memory)
    legacy = {key: value for key, value in event.items() if key != "reasoning"}
    loaded = _check_loads(memory, memory.store_blocks([legacy]), [legacy])
    assert not loaded[0].get("reasoning"), (
        f"an event stored without a reasoning field loaded with reasoning={shown(loaded[0].get('reasoning'))}, "
        f"but should have none; stored {shown(legacy, 1500)}"
    )
