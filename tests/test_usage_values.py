"""Usage as the wire carries it: no generator draws an all-zero usage, and "none sent" is ``None`` or all zeros.

No provider sends a usage whose every count is zero, so a client may hold
"no usage" as zeros; a generator that drew one would hold such a client to a
difference the wire never shows (it cannot pass both "none sent decodes to
none" and "a usage sent decodes to itself").
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, find, settings
from hypothesis.errors import NoSuchExample

from harness.contracts.test_stream_end import _usages as chat_extended_usages
from harness.rules.blocks import no_usage, usage
from harness.testing import anthropic_streams, chat_turns, gemini_streams, responses_streams

USAGES = {"chat": chat_turns.usages, "chat-extensions": chat_extended_usages(), "anthropic": anthropic_streams.usages,
          "gemini": gemini_streams.usages, "openai-responses": responses_streams.usages}


@pytest.mark.parametrize("name", USAGES)
def test_no_generator_draws_an_all_zero_usage(name):
    with pytest.raises(NoSuchExample):
        found = find(USAGES[name], lambda u: u is not None and no_usage(u),
                     settings=settings(max_examples=2000, database=None, derandomize=True,
                                       suppress_health_check=list(HealthCheck)))
        pytest.fail(f"the {name} usages drew {found}, every count zero: no provider sends that")


ZEROS = {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0, "prompt_tokens_details": None,
         "details": [{"modality": "TEXT", "tokenCount": 0}]}


def test_none_sent_reads_none_or_all_zeros_as_the_same():
    assert usage({"usage": None}, {"usage": None}) == []
    assert usage({"usage": ZEROS}, {"usage": None}) == []


@pytest.mark.parametrize("got", [{"prompt_tokens": 0, "completion_tokens": 1}, "0", [0], 0,
                                 {"prompt_tokens": 3, "completion_tokens": 4, "total_tokens": 7}])
def test_none_sent_still_refuses_a_count(got):
    assert usage({"usage": got}, {"usage": None}) == [(got, None)]


def test_a_usage_sent_is_compared_exactly():
    sent = {"prompt_tokens": 3, "completion_tokens": 4, "total_tokens": 7}
    assert usage({"usage": sent}, {"usage": sent}) == []
    assert usage({"usage": None}, {"usage": sent}) == [(None, sent)]
    assert usage({"usage": {**sent, "total_tokens": 0}}, {"usage": sent}) != []
