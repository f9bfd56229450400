"""Contract: the opaque reasoning values a chat endpoint streams go back on the next request exactly as they came.

Incidents: `openrouter-reasoning-details` and `gemini-openai-signatures`.
Gateways and compatible endpoints carry a model's reasoning on chat
completions in fields of their own (:mod:`harness.rules.chat_dialects`):
OpenRouter's ``reasoning_details`` entries on the assistant message, Google's
``extra_content`` thought signature on each tool call. Clients and gateways
that dropped them, kept only some entries, joined a signature twice or moved
it to another call broke every tool conversation after its first round.

Rule: for every chat row of the model table that speaks a dialect (``--model``
picks one), a turn of one to three tool calls with the dialect's values
(entries of every type, text cut anywhere, a field null on the pieces
before the one that brings it, entries with an ``index`` and whole ones
without, several entries per chunk or one per chunk; calls with and without
a signature):

- streamed: ``parse_stream`` and ``serialize_message`` of the assistant
  message it makes send each value back unmodified (as JSON, every character
  of every string) where it came: the entries on that assistant message, in
  order, joined by their ``index`` (an entry without one is an entry of its
  own; a null erases no value); each signature on the call that brought
  it, and no call given one it did not bring;
- ``transform_request`` of a history holding such a message, to the row's
  endpoint, keeps every value as it was;
- through the kernel: ``run_turn``'s follow-up request, ``render_history``
  of its events for the row's endpoint, and that history after a cold-store
  round trip (``store_blocks``, ``load_blocks``) do the same.

Level: provider (each endpoint's own replay rule).

Production fingerprint: the second request of every tool turn answers 400:
"thinking is enabled but reasoning_content is missing in assistant tool call
message", "Invalid signature in thinking block", "Unable to submit request
because function call `bash` in the 2. content block is missing a
`thought_signature`." or "Corrupted thought signature.".
"""

import json

import pytest
from hypothesis import example, given, strategies as st

from harness.clip import clip_json
from harness.rules import chat_dialects
from harness.testing import ScriptedModel, ScriptedTool
from harness.testing.chat_dialects import dialect_streams, dialect_turns
from harness.testing.requests import TOOLS
from harness.under_test.invoke import valid

pytestmark = [pytest.mark.provider, pytest.mark.formats("chat")]


def _chunks(*deltas: dict) -> bytes:
    chunks = [{"choices": [{"index": 0, "delta": d}]} for d in deltas]
    chunks.append({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]})
    return b"".join(f"data: {json.dumps(c)}\n\n".encode() for c in chunks) + b"data: [DONE]\n\n"


_TEXT = {"type": "reasoning.text", "format": "anthropic-claude-v1", "index": 0}
_SUMMARY = {"type": "reasoning.summary", "format": "openai-responses-v1", "index": 1}
_CRYPT = {"type": "reasoning.encrypted", "format": "openai-responses-v1", "index": 2, "id": "rs_0a1"}
_READ = {"type": "function", "function": {"name": "read_file", "arguments": '{"path": "a.txt"}'}}
_LIST = {"type": "function", "function": {"name": "list_dir", "arguments": '{"path": "."}'}}
_SIG = {"google": {"thought_signature": "CsQBAY89a1+/Xk2=="}}
# The incidents' shapes, whole: entries of three types, the signature alone on a last piece that adds no text
# (as Anthropic's signature delta comes), an id said on an entry's first piece and null on the next, a summary's
# pieces in the chunk that opens the encrypted entry; two parallel calls of which only the first is signed.
PINNED = {
    "reasoning-details": (
        _chunks({"reasoning_details": [{**_TEXT, "text": "Read a.txt "}]},
                {"reasoning_details": [{**_TEXT, "text": "first."}]},
                {"reasoning_details": [{**_TEXT, "text": "", "signature": "EqQBCkYIBhgCKkB+/sig=="}]},
                {"reasoning_details": [{**_SUMMARY, "summary": "Reading ", "id": "rs_0a1"}]},
                {"reasoning_details": [{**_SUMMARY, "summary": "a file.", "id": None},
                                       {**_CRYPT, "data": "gAAAAB+enc=="}]},
                {"tool_calls": [{"index": 0, "id": "call_a", **_READ}]}),
        {"content": "", "finish_reason": "tool_calls",
         "tool_calls": [{"id": "call_a", "name": "read_file", "arguments": '{"path": "a.txt"}'}],
         "reasoning_details": [{**_TEXT, "text": "Read a.txt first.", "signature": "EqQBCkYIBhgCKkB+/sig=="},
                               {**_SUMMARY, "summary": "Reading a file.", "id": "rs_0a1"},
                               {**_CRYPT, "data": "gAAAAB+enc=="}]}),
    "extra-content": (
        _chunks({"tool_calls": [{"index": 0, "id": "call_a", **_READ, "extra_content": _SIG}]},
                {"tool_calls": [{"index": 1, "id": "call_b", **_LIST}]}),
        {"content": "", "finish_reason": "tool_calls",
         "tool_calls": [{"id": "call_a", "name": "read_file", "arguments": '{"path": "a.txt"}', "extra_content": _SIG},
                        {"id": "call_b", "name": "list_dir", "arguments": '{"path": "."}'}]}),
}


def _message(parsed: dict, dialect: chat_dialects.Dialect) -> dict:
    """The neutral assistant message a kernel makes of a parsed turn, the dialect's values included."""
    message = {"role": "assistant", "content": parsed.get("content") or None, "reasoning": parsed.get("reasoning")
               or None, "tool_calls": parsed.get("tool_calls") or [], "tool_call_id": None}
    if dialect.place == chat_dialects.MESSAGE and dialect.field in parsed:
        message[dialect.field] = parsed[dialect.field]
    return message


def _results(turn: dict) -> list[dict]:
    return [{"role": "tool", "tool_call_id": c["id"], "content": f"text of {c['arguments']}"}
            for c in turn["tool_calls"]]


def _refused(messages: object, turn: dict, dialect: chat_dialects.Dialect) -> list[str]:
    """The endpoint's refusals of the first assistant message of ``messages``, which replays ``turn``."""
    messages = messages if isinstance(messages, list) else []
    n = next((n for n, m in enumerate(messages) if isinstance(m, dict) and m.get("role") == "assistant"), None)
    if n is None:
        return [f"no assistant message in {clip_json(messages, 600)}"]
    return [str(r) for r in chat_dialects.refusals(dialect, turn, messages[n], n)]


def _sent_values(turn: dict, dialect: chat_dialects.Dialect) -> object:
    if dialect.place == chat_dialects.MESSAGE:
        return turn.get(dialect.field)
    return {c["id"]: c.get(dialect.field) for c in turn["tool_calls"]}


def _replayed(stream, messages, row, body: bytes, turn: dict) -> None:
    dialect = chat_dialects.dialect_of(row)
    parsed = valid(stream).parse_stream(body)
    wire = valid(messages).serialize_message(_message(parsed, dialect))
    refused = _refused([{"role": "user", "content": "Read a.txt."}, wire], turn, dialect)
    assert not refused, (
        f"{row.describe()}: the assistant message serialized from the streamed turn is refused:\n  "
        + "\n  ".join(refused)
        + f"\n  the endpoint streamed {dialect.field}: {clip_json(_sent_values(turn, dialect), 900)}"
        f"\n  parse_stream gave: {clip_json(parsed, 900)}\n  serialize_message gave: {clip_json(wire, 900)}"
        f"\n  stream: {body[:1200]!r}")


def test_the_incidents_streams_go_back_as_they_came(stream, messages, dialect_row):
    body, turn = PINNED[dialect_row.dialect]
    _replayed(stream, messages, dialect_row, body, turn)


@given(data=st.data())
def test_streamed_values_go_back_as_they_came(stream, messages, dialect_row, data):
    dialect = chat_dialects.dialect_of(dialect_row)
    turn = data.draw(dialect_turns(dialect), label="turn")
    body = data.draw(dialect_streams(turn, dialect), label="stream")
    _replayed(stream, messages, dialect_row, body, turn)


def _assistant(turn: dict, dialect: chat_dialects.Dialect) -> dict:
    """The turn as its endpoint wants it back on the wire."""
    calls = [{"id": c["id"], "type": "function", "function": {"name": c["name"], "arguments": c["arguments"]},
              **({dialect.field: c[dialect.field]} if dialect.field in c else {})} for c in turn["tool_calls"]]
    message = {"role": "assistant", "content": turn["content"] or None, "tool_calls": calls}
    if dialect.field in turn:
        message[dialect.field] = turn[dialect.field]
    return message


@given(data=st.data())
@example(data=None)  # the incident's turn (PINNED)
def test_the_request_to_the_endpoint_keeps_them(transform, dialect_row, data):
    dialect = chat_dialects.dialect_of(dialect_row)
    turn = PINNED[dialect_row.dialect][1] if data is None else data.draw(dialect_turns(dialect), label="turn")
    request = {"model": dialect_row.example, "messages": [{"role": "user", "content": "Read a.txt."},
                                                        _assistant(turn, dialect), *_results(turn)],
               "tools": TOOLS, "stream": True}
    out = valid(transform).transform_request(request, {"base_url": dialect_row.base_url, "model": dialect_row.example})
    refused = _refused(out.get("messages") if isinstance(out, dict) else None, turn, dialect)
    assert not refused, (
        f"{dialect_row.describe()}: transform_request(body, base_url={dialect_row.base_url!r}) sends a request the "
        "endpoint refuses:\n  " + "\n  ".join(refused) + f"\n  body's messages: {clip_json(request['messages'], 1200)}"
        f"\n  sent: {clip_json(out, 1200)}")


@given(data=st.data())
@example(data=None)  # the incident's turn (PINNED)
def test_the_kernel_and_memory_send_them_back(kernel, memory, dialect_row, data):
    dialect = chat_dialects.dialect_of(dialect_row)
    turn = PINNED[dialect_row.dialect][1] if data is None else data.draw(dialect_turns(dialect), label="turn")
    model = ScriptedModel([turn, {"content": "Both read.", "finish_reason": "stop"}])
    events = valid(kernel).run_turn("Read the files.", model, [ScriptedTool("read_file")])["events"]
    assert len(model.requests) == 2, f"the kernel sent {len(model.requests)} requests, expected 2; {model.shortfall()}"
    stored = valid(memory).store_blocks(events)
    paths = {
        "the follow-up request run_turn sent": model.requests[1].get("messages"),
        f"render_history(events, base_url={dialect_row.base_url!r})":
            valid(kernel).render_history(events, base_url=dialect_row.base_url),
        "render_history of load_blocks(store_blocks(events))":
            valid(kernel).render_history(valid(memory).load_blocks(stored), base_url=dialect_row.base_url),
    }
    for where, sent in paths.items():
        refused = _refused(sent, turn, dialect)
        assert not refused, (
            f"{dialect_row.describe()}: {where} is refused:\n  " + "\n  ".join(refused)
            + f"\n  the model's turn: {clip_json(turn, 900)}\n  persisted events: {clip_json(events, 900)}")
