"""Contract: a Gemini stream decodes to the turn it streamed, part by part, however its parts are cut into chunks.

Incident: `gemini-signature-aggregation` (stream aggregation lost the
``thoughtSignature``), `gemini-signature-clobbered` (a signature carried
onto the unsigned calls after it), `gemini-parallel-index-zero` (parallel calls keyed by
a position index, run together into one), `gemini-stream-drops-calls` (a
streaming path dropped the calls and reported a plain stop).

Rule: each SSE event's data is a whole ``GenerateContentResponse`` whose
``candidates[0].content.parts`` append to the turn, in order. For any turn
(text and thought-text parts and 0 to 12 function calls in any order, with
or without call ids, a ``thoughtSignature`` on any part, unicode and empty
text) and any way of cutting its parts into chunks (several parts in one
chunk, chunks with none, the finish reason in a chunk of its own, earlier
chunks with a running ``usageMetadata``, candidates without their optional
``role`` and ``index``, a signed empty text part as its signature alone,
as protocol-buffer JSON leaves the empty text out), in any SSE framing, ``parse_stream`` returns the
turn: one block per part, their types in order (a thought part is
reasoning, never text); each text; each thought text; each call kept
(parallel calls never merged), its name, its ``args`` as the same JSON value;
each ``thoughtSignature`` byte-identical on the exact part it came on (a
thought part's as its signature, a text's or a call's as theirs, none added
elsewhere); the last ``finishReason``; the last ``usageMetadata`` as it was sent (each
one counts the whole response so far: a key it leaves out is not carried
over from an earlier one). Each part is its own assertion.

Level: wire (the ``streamGenerateContent`` response format: every chunk a
whole response, parts appended; Gemini requires each signature back on its
part).

Production fingerprint: "Function call is missing a thought_signature in
functionCall parts" on the request after a tool round; one call run with
the arguments of two run together; a turn whose calls never ran and that
ended as if the model had stopped.
"""

import pytest
from hypothesis import example, given

from harness.contracts.gemini_checks import assert_same_gemini_turn
from harness.contracts.gemini_incident import ONE_PER_CHUNK, PARALLEL, PARALLEL_PLAN, SIGNED_ANSWER, WITH_IDS
from harness.contracts.stream_decode import decoded
from harness.testing import gemini_streamed_turns as streamed_turns
from harness.wire.gemini_events import Plan

pytestmark = [pytest.mark.wire, pytest.mark.formats("gemini")]


@given(streamed_turns())
@example((PARALLEL, PARALLEL_PLAN))
@example((PARALLEL, ONE_PER_CHUNK))
@example((WITH_IDS, ONE_PER_CHUNK))
@example((SIGNED_ANSWER, Plan(groups=(2, 1))))
@example((SIGNED_ANSWER, Plan(groups=(2, 1), signature_only=True)))
def test_any_chunking_of_any_turn_decodes_to_that_turn(stream, sample):
    turn, plan = sample
    got, where = decoded(stream, "gemini", turn, plan)
    assert_same_gemini_turn(got, turn, where)
