"""Contract: an assistant message goes back with its blocks in the order received, opaque values byte for byte.

Incident: replay rebuilt the content as all thinking, then text, then tools
(incident `anthropic-replay-regrouped`); a serializer wrote ``thinking -> tool_use -> text``
(incident `anthropic-tool-use-not-last`); the signature or the redacted data did not survive
serialization (incident `anthropic-opaque-lost`), or a thinking block whose text was omitted
went back as redacted_thinking, its signature as the data (incident
`anthropic-redacted-data-invalid`); an empty text block went out
(incident `anthropic-empty-text`).

Rule: ``serialize_message({"role": "assistant", "blocks": [...]})`` writes a
wire message with ``role`` ``assistant`` whose ``content`` holds one block
per neutral block, in the same order: ``thinking`` with its text and
``signature``, ``redacted_thinking`` with its ``data``, both byte-identical;
``text`` with its text; ``tool_use`` with the call's id and name and
``input`` the arguments parsed as JSON (``{}`` for ``""``, a call with no
arguments); arguments that are not a JSON object's text (cut off mid-stream,
or JSON of another type: ``null``, a list, a string, a number) go back as an
object holding the raw text, since ``input`` is always an object. A signature that came empty goes back empty or left out (Anthropic refuses
both alike): none is made up. A text block with no text is left out (Anthropic refuses empty
text), and nothing else is. Judged as the next request would carry it (the
message between the question and its tool results, thinking enabled, the
turn as sent), Anthropic refuses nothing. The neutral message is left as it was.

Level: wire (Anthropic's Messages format and the 400s it answers); robust for
arguments that are no object's text, which only a cut or broken stream gives.

Production fingerprint: HTTP 400 "messages.N.content.M: `thinking` or
`redacted_thinking` blocks in the latest assistant message cannot be
modified", "Invalid `signature` in `thinking` block", "Invalid 'data' in
'redacted_thinking' block", "text content blocks must be non-empty", or a 400
naming a ``tool_use``'s ``input`` (not an object), on the request right after
a tool round.
"""

import copy

import pytest
from hypothesis import example, given, strategies as st

from harness.clip import clip_json
from harness.contracts.anthropic_blocks_kept import assert_blocks_kept
from harness.rules.anthropic_history import refusals
from harness.testing import anthropic_turns, anthropic_wire_message
from harness.testing.anthropic_history import INTERLEAVED_ANSWER, INTERLEAVED_TURN, calls_of
from harness.testing.anthropic_incident import SIGNATURE
from harness.under_test.invoke import valid

pytestmark = pytest.mark.formats("anthropic")

_turns = st.booleans().flatmap(lambda thinking: anthropic_turns(thinking, max_calls=12))
# Pinned: the incidents' turn; a turn whose only text is empty beside a zero-argument call.
EMPTY_BESIDE_CALL = {"blocks": [{"type": "redacted_reasoning", "data": "ZGF0YQ=="}, {"type": "text", "text": ""},
                                {"type": "tool_call", "id": "toolu_09", "name": "list_dir", "arguments": ""}],
                     "stop_reason": "tool_use", "usage": None}
# Pinned: a turn of a model that omits its thinking (its text empty, its signature kept) and wrote only a newline
# beside its call (`anthropic-thinking-field-missing`, `anthropic-empty-text`, `anthropic-redacted-data-invalid`).
OMITTED_THINKING = {"blocks": [{"type": "reasoning", "text": "", "signature": SIGNATURE},
                               {"type": "text", "text": "\n"},
                               {"type": "tool_call", "id": "toolu_10", "name": "get_weather",
                                "arguments": '{"city": "Oslo"}'}],
                    "stop_reason": "tool_use", "usage": None}
# A finished turn whose thinking came with no signature (a relay that dropped its signature_delta).
UNSIGNED = {"blocks": [{"type": "reasoning", "text": "Short.", "signature": ""}, {"type": "text", "text": "Done."}],
            "stop_reason": "end_turn", "usage": None}
# Arguments that are no JSON object's text: JSON of another type, and a call cut off mid-stream.
NOT_OBJECTS = ["null", "[1, 2]", '"Lisbon"', "42", '{"city": "Lis']


def _serialized(messages, turn: dict) -> tuple[dict, dict]:
    neutral = {"role": "assistant", "blocks": turn["blocks"]}
    before = copy.deepcopy(neutral)
    wire = valid(messages).serialize_message(neutral)
    assert neutral == before, (
        f"serialize_message changed the neutral message it was given: now {clip_json(neutral, 800)}, "
        f"was {clip_json(before, 800)}"
    )
    return wire, neutral


@pytest.mark.wire
@given(turn=_turns)
@example(turn=INTERLEAVED_TURN)
@example(turn=INTERLEAVED_ANSWER)
@example(turn=EMPTY_BESIDE_CALL)
@example(turn=OMITTED_THINKING)
@example(turn=UNSIGNED)
def test_blocks_go_back_in_order_with_their_values(messages, turn):
    wire, neutral = _serialized(messages, turn)
    want = anthropic_wire_message(turn)
    shown_input = f"\n  neutral: {clip_json(neutral, 1200)}\n  written: {clip_json(wire, 1200)}"
    got = wire.get("content") if isinstance(wire, dict) else None
    assert isinstance(wire, dict) and wire.get("role") == "assistant", f"role should be 'assistant'{shown_input}"
    assert_blocks_kept(got, want["content"], shown_input.lstrip())


@pytest.mark.wire
@given(turn=_turns)
@example(turn=INTERLEAVED_TURN)
@example(turn=EMPTY_BESIDE_CALL)
@example(turn=OMITTED_THINKING)
def test_the_serialized_message_is_one_anthropic_accepts(messages, turn):
    wire, _ = _serialized(messages, turn)
    results = [{"type": "tool_result", "tool_use_id": c["id"], "content": "ok"} for c in calls_of(turn)]
    history = [{"role": "user", "content": "Go."}, wire] + ([{"role": "user", "content": results}] if results else [])
    # A turn that opens with thinking came from a request with thinking enabled, one without from none.
    thinking = turn["blocks"][0]["type"] in ("reasoning", "redacted_reasoning")
    body = {"model": "claude", "max_tokens": 4096, "messages": history}
    if thinking:
        body["thinking"] = {"type": "enabled", "budget_tokens": 1024}
    refused = refusals(body, sent=[turn])
    assert not refused, (
        f"Anthropic would answer 400 to the message as the next request carries it: "
        f"{[r.message for r in refused]}\n  written: {clip_json(wire, 1500)}"
    )


@pytest.mark.robust  # such arguments come only from a cut or broken stream, as the kernel's cut-call rule
@pytest.mark.parametrize("arguments", NOT_OBJECTS)
def test_arguments_that_are_no_object_go_back_inside_one(messages, arguments):
    call = {"type": "tool_call", "id": "toolu_01", "name": "get_weather", "arguments": arguments}
    wire, neutral = _serialized(messages, {"blocks": [{"type": "text", "text": "Checking."}, call]})
    uses = [b for b in (wire.get("content") or []) if isinstance(b, dict) and b.get("type") == "tool_use"] if (
        isinstance(wire, dict)) else []
    got = uses[0].get("input") if len(uses) == 1 else None
    assert isinstance(got, dict) and arguments in got.values(), (
        f"the call streamed arguments {arguments!r}: its tool_use should hold an object with that raw text, since "
        f"Anthropic takes only an object as input; written: {clip_json(wire, 800)} (neutral {clip_json(neutral, 400)})")
