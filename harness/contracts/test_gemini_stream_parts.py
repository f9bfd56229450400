"""Contract: a Gemini stream keeps each ``thoughtSignature`` on the part it came on, however its parts are cut into chunks.

Incident: `gemini-signature-aggregation` (stream aggregation lost the
``thoughtSignature``), `gemini-signature-clobbered` (a signature carried
onto the unsigned calls after it).

Rule: each SSE event's data is a whole ``GenerateContentResponse`` whose
``candidates[0].content.parts`` append to the turn, in order. For any turn
and any way of cutting its parts into chunks that ``test_stream_turns``
draws for Gemini (``harness.testing.formats``: a ``thoughtSignature`` on any
part, a signed empty text part as its signature alone, as protocol-buffer
JSON leaves the empty text out), ``parse_stream`` returns each text's and
each call's ``thoughtSignature`` byte-identical on the exact part it came on,
none added elsewhere. Each part is its own assertion. The turn itself (parts,
texts, calls never merged, a thought part's signature, finish reason, usage)
is the rule every format shares: ``test_stream_turns``.

Level: wire (the ``streamGenerateContent`` response format: every chunk a
whole response, parts appended; Gemini requires each signature back on its
part).

Production fingerprint: "Function call is missing a thought_signature in
functionCall parts" on the request after a tool round.
"""

import pytest
from hypothesis import example, given, strategies as st

from harness.clip import shown
from harness.contracts.gemini_checks import assert_signatures_on_parts
from harness.contracts.stream_decode import decoded
from harness.testing.formats import PINNED, wire_format  # noqa: F401 (the fixture)

pytestmark = [pytest.mark.wire, pytest.mark.formats("gemini")]


@given(data=st.data())
@example(data=PINNED)
def test_any_chunking_of_any_turn_keeps_each_signature_on_its_part(stream, wire_format, data):
    for turn, plan in wire_format.cases(data, "streamed_turns"):
        got, where = decoded(stream, wire_format.name, turn, plan)
        assert isinstance(got, dict), f"parse_stream returned {shown(got)}, but should return a turn; {where}"
        assert_signatures_on_parts(got, turn, where)
