"""Contract: the fields that tie a conversation together survive serialization and the provider transform.

Incident: incident `batch-path-pairing`: the provider refuses the whole conversation when a tool
message cannot be paired with its call; a call's ``type`` and a tool
message's ``tool_call_id`` are what pairs them on the wire. incident `deepseek-thinking-imbalance`: the
provider transform rewrites the outgoing body (reasoning backfill, thinking
switch); when it rewrites the caller's own messages in place, the stored
history changes behind the kernel's back.

Rule: a serialized tool message keeps its ``tool_call_id``, and its content
as given (``""`` for a tool that returned nothing, never null); each
serialized tool call is ``{"id", "type": "function", "function": {"name",
"arguments"}}`` with ``arguments`` JSON text of the value sent (a client may
re-serialize it; a call that streamed none keeps ``""``, or gets ``"{}"``),
in the order given; an assistant message without calls (``tool_calls``
an empty list) sends no ``tool_calls`` (OpenAI refuses an empty array) and
keeps its text; the text of an assistant message that
also carries tool calls is kept as its ``content``; serializing leaves the
message as it was. Text is compared as text, in any form the format allows:
a string, or an array of text parts whose joined text is the same
(:func:`harness.rules.text.content_text`). The robust form: that text
goes as the string it was. ``transform_request`` returns a body of its own: the body
and the options it was given stay exactly as they were, for every provider
and any history, and changing anything in the body it returned (a message, a
tool, a nested value) changes nothing the caller holds. A generic provider
asked for effort ``off`` gets no ``reasoning_effort``, or the format's own
word for it, ``"none"``; an effort word outside the vocabulary of the options
is refused (an error raised on purpose, not a crash) or answered, and a
generic provider that answers gets it as given, never turned into another
word; the same options with a known effort are answered.

Level: wire (the fields the format requires to pair calls with results, and
the format's values of ``reasoning_effort``; ``off`` is not one of them),
except ``test_a_call_without_arguments_keeps_empty_arguments``: robust (a
call that streamed no arguments at all is a gateway shape,
``test_gateway_fragments.py`` names the endpoints; over the Vercel AI SDK it goes
back as the JSON string ``'""'``), and ``test_text_is_sent_as_a_string``:
robust (the format allows an array of text parts, but gateways that read
assistant text only as a string lose it: Command Code's provider endpoint
answers 200 with the array's text blanked, AI DIAL's Bedrock adapter did
not read assistant text parts).

Production fingerprint: HTTP 400 "tool_call_id is required" or "Missing
required parameter: 'messages[1].tool_calls[0].type'"; reasoning or an empty
``reasoning_content`` appearing in stored history nobody wrote there; HTTP 400
"invalid reasoning_effort 'off'".
"""

import copy

import pytest
from hypothesis import example, given, strategies as st

from harness.clip import clip_json, shown
from harness.adapter import EFFORTS, ERAS, ROLES
from harness.testing import content_text, request_bodies, same_arguments
from harness.testing.requests import DEEPSEEK_URL, GENERIC_URLS, LOOKALIKE_URLS, UNTIDY_BODY
from harness.under_test.invoke import refusal, valid

CALL = {"id": "call_7", "name": "lookup", "arguments": '{"q":"x"}'}
HISTORY = [
    {"role": "user", "content": "Look x up."},
    {"role": "assistant", "content": None, "reasoning": "Need the lookup tool.", "tool_calls": [CALL]},
    {"role": "tool", "content": "x is 42", "tool_call_id": "call_7"},
    {"role": "assistant", "content": "x is 42.", "reasoning": None},
]
WIRE_HISTORY = [
    HISTORY[0],
    {"role": "assistant", "content": None, "reasoning_content": "Need the lookup tool.",
     "tool_calls": [{"id": "call_7", "type": "function", "function": {"name": "lookup", "arguments": '{"q":"x"}'}}]},
    HISTORY[2],
    {"role": "assistant", "content": "x is 42."},
]


@pytest.mark.wire
def test_tool_message_keeps_its_call_id(messages):
    message = HISTORY[2]
    wire = messages.serialize_message(message)
    assert wire.get("tool_call_id") == "call_7", (
        f"tool_call_id={shown(wire.get('tool_call_id', '<absent>'))}, but should be 'call_7': serialized "
        f"{shown(message)} as {shown(wire)}"
    )


@pytest.mark.wire
def test_a_message_without_calls_sends_no_tool_calls(messages):
    message = {"role": "assistant", "content": "Done.", "reasoning": None, "tool_calls": []}
    wire = valid(messages).serialize_message(message)
    assert wire.get("tool_calls") is None, (
        f"tool_calls={shown(wire.get('tool_calls'))}, but a message without calls should send none (an empty array "
        f"is refused): serialized {message} as {wire}"
    )
    assert content_text(wire.get("content")) == "Done.", (
        f"content={shown(wire.get('content', '<absent>'))}, but should carry the text 'Done.' (a string or text "
        f"parts): serialized {message} as {wire}"
    )


@pytest.mark.robust
def test_a_call_without_arguments_keeps_empty_arguments(messages):
    messages = valid(messages)
    call = {"id": "call_9", "name": "ping", "arguments": ""}
    message = {"role": "assistant", "content": None, "reasoning": None, "tool_calls": [call]}
    calls = messages.serialize_message(message).get("tool_calls") or [{}]
    arguments = (calls[0].get("function") or {}).get("arguments", "<absent>")
    assert arguments in ("", "{}"), (
        f"arguments={shown(arguments)}, but a call that streamed no arguments should be sent with '' (or the empty "
        f"object '{{}}'): serialized {message}"
    )


@pytest.mark.wire
def test_tool_calls_are_typed_functions(messages):
    message = HISTORY[1]
    calls = messages.serialize_message(message).get("tool_calls") or []
    shapes = [(c.get("id"), c.get("type"), sorted(c.get("function") or {}), (c.get("function") or {}).get("name"))
              for c in calls]
    expected = [("call_7", "function", ["arguments", "name"], "lookup")]
    assert shapes == expected, (
        f"serialized tool_calls={clip_json(calls)}, but should be [{{'id': 'call_7', 'type': 'function', "
        f"'function': {{'name': 'lookup', 'arguments': ...}}}}] for input {message}"
    )
    arguments = (calls[0].get("function") or {}).get("arguments")
    assert same_arguments(arguments, CALL["arguments"]), (
        f"arguments={shown(arguments)}, but should be JSON text of {CALL['arguments']} for input {shown(message)}"
    )


@pytest.mark.wire
@pytest.mark.parametrize("base_url", [DEEPSEEK_URL, *GENERIC_URLS])
def test_transform_leaves_the_callers_body_as_it_was(transform, base_url):
    body = {"model": "m", "stream": True, "tools": [{"type": "function", "function": {"name": "lookup"}}],
            "messages": WIRE_HISTORY}
    before = copy.deepcopy(body)
    transform.transform_request(body, {"base_url": base_url, "effort": "high"})
    assert body == before, (
        f"transform_request for {base_url} changed the caller's body from {shown(before)} to {shown(body)}, but "
        "should return a new body and leave the caller's as it was"
    )


@pytest.mark.wire
@pytest.mark.parametrize("base_url", GENERIC_URLS)
def test_generic_provider_gets_no_effort_when_off(transform, base_url):
    body = {"model": "m", "messages": HISTORY[:1]}
    sent = transform.transform_request(body, {"base_url": base_url, "effort": "off"})
    got = sent.get("reasoning_effort", "<absent>")
    assert got in ("<absent>", "none"), (
        f"effort 'off' for {base_url} sent reasoning_effort={shown(got)}, but should send none, or 'none' "
        f"(the format has no 'off'); body {body}"
    )


BESIDE_CALLS = {"role": "assistant", "content": "Let me look that up.", "reasoning": None,
                "tool_calls": [CALL, {"id": "call_8", "name": "fetch", "arguments": "{}"}]}


@pytest.mark.wire
def test_text_beside_tool_calls_is_kept(messages):
    message = copy.deepcopy(BESIDE_CALLS)
    wire = valid(messages).serialize_message(message)
    assert content_text(wire.get("content")) == "Let me look that up.", (
        f"content={shown(wire.get('content', '<absent>'))}, but the text beside the calls should stay the content "
        f"'Let me look that up.' (a string or text parts): serialized {message} as {wire}"
    )
    ids = [c.get("id") for c in wire.get("tool_calls") or []]
    assert ids == ["call_7", "call_8"], (
        f"tool_calls ids={shown(ids)}, but the calls should keep their order ['call_7', 'call_8']: serialized "
        f"{shown(message)}"
    )
    assert message == BESIDE_CALLS, (
        f"serialize_message changed the message it was given to {shown(message)}; it was {BESIDE_CALLS}"
    )


TOOL_OUTPUTS = pytest.mark.parametrize("content", ["", "0", " ", "x is 42"], ids=["nothing", "zero", "space", "text"])


@pytest.mark.wire
@TOOL_OUTPUTS
def test_tool_output_is_sent_as_given(messages, content):
    message = {"role": "tool", "content": content, "tool_call_id": "call_7"}
    wire = valid(messages).serialize_message(message)
    got = wire.get("content", "<absent>")
    assert content_text(got) == content, (
        f"content={shown(got)}, but the tool's output {content!r} should be sent as given, as a string or text parts "
        f"(a tool that returned nothing is answered with '', never null): serialized {message} as {wire}"
    )


TEXTS = {"text": {"role": "assistant", "content": "Done.", "reasoning": None, "tool_calls": []},
         "beside-calls": BESIDE_CALLS,
         **{f"tool-output-{k}": {"role": "tool", "content": v, "tool_call_id": "call_7"}
            for k, v in (("nothing", ""), ("text", "x is 42"))}}


@pytest.mark.robust
@pytest.mark.parametrize("name", TEXTS)
def test_text_is_sent_as_a_string(messages, name):
    message = TEXTS[name]
    wire = valid(messages).serialize_message(message)
    got = wire.get("content", "<absent>")
    assert got == message["content"], (
        f"content={shown(got)}, but should be the string {shown(message['content'])}: gateways that read assistant and "
        f"tool text only as a string blank an array of text parts; serialized {message} as {wire}"
    )


def _scribble(value) -> None:
    """Change every container inside ``value`` in place: what a caller may do to the body it got back."""
    if isinstance(value, dict):
        for inner in list(value.values()):
            _scribble(inner)
        value["x_scribbled"] = True
    elif isinstance(value, list):
        for inner in value:
            _scribble(inner)
        value.append("scribbled")


@given(body=request_bodies(), base_url=st.sampled_from([DEEPSEEK_URL, *GENERIC_URLS, *LOOKALIKE_URLS[:2]]),
       effort=st.sampled_from((None, *EFFORTS)), role=st.sampled_from(ROLES), era=st.sampled_from(ERAS))
@example(body=UNTIDY_BODY, base_url=DEEPSEEK_URL, effort=None, role="main", era="current")
@example(body={k: v for k, v in UNTIDY_BODY.items() if k != "tools"}, base_url=DEEPSEEK_URL, effort="high",
         role="main", era="v3.2")
@pytest.mark.wire
def test_transform_returns_a_body_of_its_own(transform, body, base_url, effort, role, era):
    options = {"base_url": base_url, "effort": effort, "role": role, "era": era}
    before, options_before = copy.deepcopy(body), copy.deepcopy(options)
    sent = valid(transform).transform_request(body, options)
    assert body == before and options == options_before, (
        f"transform_request changed what the caller gave it: body {clip_json(body, 800)} (was "
        f"{clip_json(before, 800)}), options {options} (were {options_before})"
    )
    _scribble(sent)
    assert body == before, (
        f"changing the body transform_request returned changed the caller's body (they share a list or a dict): "
        f"now {clip_json(body, 1500)}; options {options}"
    )


@pytest.mark.wire
@pytest.mark.parametrize("base_url", [DEEPSEEK_URL, *GENERIC_URLS])
def test_an_effort_outside_the_vocabulary_is_refused_or_sent_as_given(transform, base_url):
    body = {"model": "m", "messages": HISTORY[:1], "stream": True}
    sent = valid(transform).transform_request(body, {"base_url": base_url, "effort": "high"})
    assert "reasoning_effort" in sent or sent.get("thinking"), (
        f"effort 'high' for {base_url} sent {clip_json(sent, 500)}, but should ask for effort somehow"
    )
    options = {"base_url": base_url, "effort": "turbo"}
    try:
        got = transform.transform_request(body, options)
    except Exception:
        refusal(transform.transform_request, body, options, why="'turbo' is not an effort the options know")
        return
    if base_url == DEEPSEEK_URL:
        return  # answered: DeepSeek's own switch may stand for any effort; what it must not do is crash
    assert got.get("reasoning_effort") == "turbo" and "thinking" not in got, (
        f"effort 'turbo' (not in {EFFORTS}) for {base_url} sent reasoning_effort="
        f"{got.get('reasoning_effort', '<absent>')!r}, thinking={got.get('thinking', '<absent>')!r}; an unknown "
        "word should be refused, or sent on as given for the provider to judge, never turned into another one"
    )
