"""Contract: a model turn goes back as one Content, every part in the order received, each signature on its own part.

Incident: `gemini-parallel-split` (parallel calls sent back as separate
contents, all but one unsigned); `gemini-signature-aggregation` (a signature
lost or moved on the way back); `gemini-signature-added` (a signature made up
for a part Gemini did not sign); the rule every format shares, that opaque
values go back byte-identical on the same block, in the same order.

Rule: ``serialize_message({"role": "assistant", "blocks": [...]})`` writes
one content with ``role`` ``model`` whose ``parts`` hold one part per block
that carries something, in the same order: a thought block as a text part
with ``thought: true``, a text block as a text part, a call as a
``functionCall`` with its name, its arguments as the ``args`` object (``{}``
for ``""``) and its id exactly when it had one. Each part carries the
``thoughtSignature`` its block has, byte-identical, and no other part
carries one (none added, none moved: only the first of parallel calls is
signed). A text or thought block with empty text and no signature carries
nothing and is left out; nothing else is. Judged as the next request would
carry it (after the question, before one function response per call, the
turn as Gemini sent it), Gemini refuses nothing. The neutral message is left
as it was.

Level: wire (Gemini's documented pass-back rule for thought signatures and
the 400s it answers).

Production fingerprint: "Function call is missing a thought_signature in
functionCall parts ... position N", "Corrupted thought signature.", or
"Please ensure that function call turn comes immediately after a user turn
or after a function response turn." on the request right after a tool round.
"""

import copy

import pytest
from hypothesis import example, given, strategies as st

from harness.clip import clip_json
from harness.testing.gemini_incident import PARALLEL, SIGNED_ANSWER, WITH_IDS
from harness.contracts.gemini_parts_kept import assert_parts_kept
from harness.rules.gemini_history import refusals
from harness.testing import gemini_turns as turns, gemini_wire_content as wire_content
from harness.testing.gemini_history import calls_of, results_for
from harness.testing.gemini_streams import turns as any_turns
from harness.under_test.invoke import valid

pytestmark = [pytest.mark.wire, pytest.mark.formats("gemini")]

EMPTY_BESIDE_CALL = {"blocks": [{"type": "reasoning", "text": "", "signature": ""}, {"type": "text", "text": ""},
                                {"type": "tool_call", "id": "", "name": "list_dir", "arguments": "", "signature": "c2ln"},
                                {"type": "tool_call", "id": "", "name": "list_dir", "arguments": '{"dir": "/"}'}],
                     "stop_reason": "STOP", "usage": None}
# A thought summary signed on its own part, then the answer (Gemini signs the part a signature came on).
SIGNED_THOUGHT = {"blocks": [{"type": "reasoning", "text": "**Plan**\n\nRead it first.", "signature": "dGhvdWdodA=="},
                             {"type": "text", "text": "Done."}],
                  "stop_reason": "STOP", "usage": None}


def _serialized(messages, turn: dict) -> tuple[dict, dict]:
    neutral = {"role": "assistant", "blocks": turn["blocks"]}
    before = copy.deepcopy(neutral)
    wire = valid(messages).serialize_message(neutral)
    assert neutral == before, (
        f"serialize_message changed the neutral message it was given: now {clip_json(neutral, 800)}, "
        f"was {clip_json(before, 800)}")
    return wire, neutral


@given(turn=st.one_of(turns(max_calls=12), any_turns()))
@example(turn=PARALLEL)
@example(turn=WITH_IDS)
@example(turn=SIGNED_ANSWER)
@example(turn=EMPTY_BESIDE_CALL)
@example(turn=SIGNED_THOUGHT)
def test_a_model_turn_goes_back_part_by_part_with_its_signatures(messages, turn):
    wire, neutral = _serialized(messages, turn)
    where = f"\n  neutral: {clip_json(neutral, 1200)}\n  written: {clip_json(wire, 1200)}"
    assert isinstance(wire, dict) and wire.get("role") == "model", f"role should be 'model'{where}"
    assert_parts_kept(wire.get("parts"), wire_content(turn)["parts"], where.lstrip())


@given(turn=turns(max_calls=12))
@example(turn=PARALLEL)
@example(turn=WITH_IDS)
@example(turn=EMPTY_BESIDE_CALL)
def test_the_written_content_is_one_gemini_accepts(messages, turn):
    wire, _ = _serialized(messages, turn)
    responses = [{"functionResponse": {"name": r["name"], "response": {"result": "ok"}}}
                 for r in results_for(turn, ["ok"] * len(calls_of(turn)))]
    contents = [{"role": "user", "parts": [{"text": "Go."}]}, wire] + (
        [{"role": "user", "parts": responses}] if responses else [])
    refused = refusals({"contents": contents}, sent=[turn])
    assert not refused, (
        f"Gemini would answer 400 to the content as the next request carries it: "
        f"{[(r.path, r.message) for r in refused]}\n  written: {clip_json(wire, 1500)}")
