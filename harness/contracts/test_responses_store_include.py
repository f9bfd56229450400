"""Contract: a request under ``store: false`` asks for the encrypted reasoning it will have to send back.

Incident: `responses-bare-reasoning-id`: without storage the reasoning can go
back only with its ``encrypted_content``, which the stream carries only when
the request's ``include`` asks for ``reasoning.encrypted_content``.

Rule: ``transform_request`` of any Responses body with ``store: false`` and
any ``include`` (absent, empty, other values, the value already there) sends
an ``include`` that holds ``reasoning.encrypted_content`` once and every value
the caller asked for, in its order; a body with storage (``store`` absent or
true) keeps its ``include`` as it was; every other key of the body is kept;
the caller's body is unchanged.

Level: wire (the Responses API's ``include`` and ``store`` parameters: without
the value the next request cannot carry the reasoning).

Production fingerprint: 404 "Item with id 'rs_...' not found. Items are not
persisted when `store` is set to false." on the request after a tool round.
"""

import copy

import pytest
from hypothesis import example, given, strategies as st

from harness.clip import clip_json
from harness.under_test.invoke import valid

pytestmark = [pytest.mark.wire, pytest.mark.formats("openai-responses")]

ENCRYPTED = "reasoning.encrypted_content"
_includes = st.lists(st.sampled_from([ENCRYPTED, "file_search_call.results", "message.output_text.logprobs",
                                      "code_interpreter_call.outputs"]), unique=True, max_size=3)


@given(store=st.sampled_from([False, True, None]), include=st.one_of(st.none(), _includes),
       stream=st.booleans())
# Pinned: the incident's request (store: false, no include), one with a caller's own include, and storage on.
@example(store=False, include=None, stream=True)
@example(store=False, include=["message.output_text.logprobs"], stream=True)
@example(store=None, include=None, stream=True)
def test_store_false_asks_for_encrypted_reasoning(transform, store, include, stream):
    body = {"model": "gpt-5", "input": [{"type": "message", "role": "user", "content": "Go."}], "stream": stream}
    if store is not None:
        body["store"] = store
    if include is not None:
        body["include"] = include
    before = copy.deepcopy(body)
    sent = valid(transform).transform_request(body, {})
    where = f"body {clip_json(before, 600)}, sent {clip_json(sent, 600)}"
    assert body == before, f"transform_request changed the caller's body: {clip_json(body, 600)}; {where}"
    kept = {k: v for k, v in before.items() if k != "include"}
    assert {k: sent.get(k) for k in kept} == kept, f"the body's other keys should be kept; {where}"
    got = sent.get("include")
    if store is False:
        assert isinstance(got, list) and got.count(ENCRYPTED) == 1, (
            f"under store: false include should hold {ENCRYPTED!r} once; {where}")
        assert [v for v in got if v != ENCRYPTED] == [v for v in include or [] if v != ENCRYPTED], (
            f"include should keep every value the caller asked for, in order; {where}")
    else:
        assert got == include, f"with storage include should be kept as it was ({include!r}); {where}"
