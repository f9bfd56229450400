"""Contract: a stream whose chunks lack parts of OpenAI's envelope parses like the same stream with it.

Incident: the parallel tool-call streams of the accumulation incident came
through gateways as well as from providers, and not every server sends the
envelope OpenAI puts on each chunk (``id``, ``object``, ``created``,
``model``, and ``role: "assistant"`` on the first delta). Clients that key their accumulator on the first delta's role,
or validate every chunk's ``id`` and ``model``, dropped the tool calls of
such streams or refused them outright (public reports against LangChain's
JavaScript client and Spring AI, among others).

Rule: each variant below parses to exactly what the full-envelope stream of
the same deltas parses to (content, tool call, finish reason, usage):

- no ``role`` on the first delta: translators that build Chat Completions
  streams from the Responses API or from Anthropic's Messages API, and
  gateways that swallow OpenAI's opening role chunk;
- no ``id`` and no ``model`` on any chunk: OpenVINO Model Server sends no
  ``id``; MiniMax sends neither;
- a usage chunk without ``id``, ``object`` or ``created``: SGLang's usage
  chunk before early 2025 (it also changed the ``id``), MiniMax;
- Azure OpenAI's prompt-filter chunk first: ``choices: []``, empty ``id``,
  ``model`` and ``object``, ``created`` 0, and ``prompt_filter_results``;
- no ``index`` on the choice: a stream has one choice unless it asked for
  ``n > 1``, and translating gateways leave the key out; a choice without
  it is choice 0, read like any other, never refused as another choice.

Level: robust (each variant is a shape those servers send outside the
format; a client library that follows the format may refuse them).

Production fingerprint: behind one gateway, tool calls vanish from streamed
replies (the client never saw an assistant message open), or every stream
fails validation on a missing ``id`` while non-streamed calls work.
"""

import pytest

from harness.clip import shown
from harness.testing import Envelope, completion_chunks, sse, usage_chunk
from harness.under_test.invoke import valid
from harness.wire.chunks import ENVELOPE

pytestmark = pytest.mark.robust

USAGE = {"prompt_tokens": 52, "completion_tokens": 18, "total_tokens": 70}
DELTAS = [
    {"content": "Let me look that up."},
    {"tool_calls": [
        {"index": 0, "id": "call_e1", "type": "function", "function": {"name": "lookup", "arguments": ""}}
    ]},
    {"tool_calls": [{"index": 0, "function": {"arguments": '{"q":"envelope"}'}}]},
]
AZURE_PROMPT_FILTER = {
    "id": "", "object": "", "created": 0, "model": "", "choices": [],
    "prompt_filter_results": [{"prompt_index": 0, "content_filter_results": {
        "hate": {"filtered": False, "severity": "safe"}, "violence": {"filtered": False, "severity": "safe"}}}],
}


def _full() -> list[dict]:
    return completion_chunks(DELTAS, "tool_calls", usage=USAGE)


def _without_role() -> list[dict]:
    return completion_chunks(DELTAS, "tool_calls", usage=USAGE, role=False)


def _without_id_and_model() -> list[dict]:
    return completion_chunks(DELTAS, "tool_calls", usage=USAGE, envelope=Envelope(omit=frozenset({"id", "model"})))


def _usage_without_envelope() -> list[dict]:
    chunks = completion_chunks(DELTAS, "tool_calls")
    return [*chunks, usage_chunk(ENVELOPE, USAGE, omit=("id", "object", "created"))]


def _azure_prompt_filter_first() -> list[dict]:
    return [AZURE_PROMPT_FILTER, *_full()]


def _choice_without_index() -> list[dict]:
    chunks = _full()
    for chunk in chunks:
        for choice in chunk["choices"]:
            del choice["index"]
    return chunks


VARIANTS = {
    "no-role-on-first-delta": _without_role,
    "no-id-or-model": _without_id_and_model,
    "usage-chunk-without-envelope": _usage_without_envelope,
    "azure-prompt-filter-chunk-first": _azure_prompt_filter_first,
    "choice-without-index": _choice_without_index,
}


@pytest.mark.parametrize("variant", VARIANTS)
def test_envelope_variants_parse_like_the_full_envelope(stream, variant):
    stream = valid(stream)
    full, varied = sse(_full()), sse(VARIANTS[variant]())
    expected = stream.parse_stream(full)
    calls = [(c.get("id"), c.get("name")) for c in expected.get("tool_calls") or []]
    assert expected.get("content") == "Let me look that up." and calls == [("call_e1", "lookup")], (
        f"the full-envelope stream parsed to {shown(expected)}, but should give the content 'Let me look that up.' and "
        f"the call call_e1 (lookup); stream: {shown(full)}"
    )
    got = stream.parse_stream(varied)
    assert got == expected, (
        f"{variant}: parsed {shown(got)}, but the same deltas with the full envelope give {shown(expected)}; "
        f"stream: {shown(varied)}"
    )

