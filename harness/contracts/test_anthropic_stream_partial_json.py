"""Contract: a call whose streamed JSON is invalid or cut is kept, with the raw text it streamed.

Incident: `anthropic-partial-json-dropped`: with fine-grained tool streaming
a call's ``partial_json`` may not join into valid JSON; decoders that parsed
it while streaming raised, or dropped the call, and the agent never saw the
call it was to answer.

Rule: for any turn with at least one call whose streamed arguments are a
strict prefix of a JSON object's text or any other text that need not be
JSON (cut as Anthropic cuts pieces), ``parse_stream`` returns the turn
without raising; every call is there by id, once, with its name; its raw
arguments are the pieces joined in arrival order. Each its own assertion.

Level: robust. Without the fine-grained tool streaming beta Anthropic sends
valid JSON in every call; with it (the ``fine-grained-tool-streaming``
beta header) Anthropic itself documents that a call's input may be invalid or
partial, above all when ``max_tokens`` cuts it. anthropic-python parses the
pieces as they come, so a correct client library may fail this. Whether the
call then runs is the kernel's decision; the decoder must hand it over.

Production fingerprint: with fine-grained tool streaming on, a turn cut by
``max_tokens`` raises a JSON error inside the stream reader, or ends with no
call and no error.
"""

import pytest
from hypothesis import example, given

from harness.contracts.block_checks import assert_calls
from harness.clip import shown
from harness.testing import anthropic_streamed_turns as streamed_turns
from harness.testing.anthropic_streams import cut_arguments, turns
from harness.under_test.invoke import valid
from harness.wire.anthropic_events import Plan, turn_body

pytestmark = [pytest.mark.robust, pytest.mark.formats("anthropic")]

CUT = {"blocks": [
    {"type": "text", "text": "Writing the file."},
    {"type": "tool_call", "id": "toolu_01Jq3", "name": "write_file", "arguments": '{"path": "a.md", "text": "# Ti'},
    {"type": "tool_call", "id": "toolu_01Kx8", "name": "list_dir", "arguments": '{"path": "."}}'},
], "stop_reason": "max_tokens", "usage": {"input_tokens": 90, "output_tokens": 4096}}
CUT_PIECES = ((("text", "Writing the file."),),
              (("arguments", ""), ("arguments", '{"path": "a.md", '), ("arguments", '"text": "# Ti')),
              (("arguments", '{"path": "."}}'),))


@given(streamed_turns(turn=turns(min_calls=1, max_calls=4, args=cut_arguments())))
@example((CUT, Plan(pieces=CUT_PIECES, start_usage={"input_tokens": 90, "output_tokens": 1})))
def test_a_call_with_invalid_json_is_kept_raw(stream, sample):
    turn, plan = sample
    body = turn_body(turn, plan)
    got = valid(stream).parse_stream(body)
    where = f"turn {shown(turn)}; stream: {shown(body)}"
    assert isinstance(got, dict), f"parse_stream returned {shown(got)}, but should return a turn; {where}"
    assert_calls(got, turn, where)
