"""The thin adapters around real client libraries on Anthropic Messages (``harness.libraries``).

Each adapter is held to what its library really does with a realistic stream
and history: the SDK's own accumulation, LangChain's chunk sum and message
formatting, litellm's Anthropic provider. The libraries are the ``anthropic``,
``langchain-anthropic`` and ``litellm`` extras; a missing one fails with the
install command, or skips under ``HARNESS_SKIP_LIBRARIES=1`` (as in
``tests/test_library_adapters.py``). The findings' reproductions run there.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from harness.adapter import capabilities_of, format_of
from harness.bridge import load_bridge
from library_adapters import library_adapter

# adapter module -> (distribution, import name)
LIBRARIES = {
    "anthropic_sdk": ("anthropic", "anthropic"),
    "langchain_anthropic": ("langchain-anthropic", "langchain_anthropic"),
    "litellm_anthropic": ("litellm", "litellm"),
}


def _adapter(module: str):
    distribution, import_name = LIBRARIES[module]
    return library_adapter(module, import_name, distribution)


def _event(data: dict) -> str:
    return f"event: {data['type']}\ndata: {json.dumps(data)}\n\n"


def _body(*events: dict) -> bytes:
    return "".join(map(_event, events)).encode()


def _block(index: int, start: dict, *deltas: dict) -> list[dict]:
    return [{"type": "content_block_start", "index": index, "content_block": start},
            *({"type": "content_block_delta", "index": index, "delta": d} for d in deltas),
            {"type": "content_block_stop", "index": index}]


START = {"type": "message_start", "message": {
    "id": "msg_01Xf", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5-20250929", "content": [],
    "stop_reason": None, "stop_sequence": None,
    "usage": {"input_tokens": 472, "output_tokens": 2, "cache_read_input_tokens": 0}}}
END = [{"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": None},
        "usage": {"output_tokens": 89}}, {"type": "message_stop"}]
# Thinking (its signature in one piece, as Anthropic sends it), text, then two calls, the second with no arguments;
# pieces split where Anthropic splits them, and a ping in between.
TOOL_ROUND = _body(
    START,
    *_block(0, {"type": "thinking", "thinking": "", "signature": ""},
            {"type": "thinking_delta", "thinking": "Weather first, "}, {"type": "thinking_delta", "thinking": "then files."},
            {"type": "signature_delta", "signature": "EqQBCkgIAxABGAIiQHb3Jz9+kx0c/w=="}),
    {"type": "ping"},
    *_block(1, {"type": "text", "text": ""}, {"type": "text_delta", "text": "Let me "},
            {"type": "text_delta", "text": "check."}),
    *_block(2, {"type": "tool_use", "id": "toolu_01A", "name": "get_weather", "input": {}},
            {"type": "input_json_delta", "partial_json": ""}, {"type": "input_json_delta", "partial_json": '{"city": '},
            {"type": "input_json_delta", "partial_json": '"Paris"}'}),
    *_block(3, {"type": "tool_use", "id": "toolu_01B", "name": "list_dir", "input": {}},
            {"type": "input_json_delta", "partial_json": ""}),
    *END,
)
THINKING = {"type": "reasoning", "text": "Weather first, then files.", "signature": "EqQBCkgIAxABGAIiQHb3Jz9+kx0c/w=="}
TEXT = {"type": "text", "text": "Let me check."}
CALLS = [{"type": "tool_call", "id": "toolu_01A", "name": "get_weather", "arguments": '{"city": "Paris"}'},
         {"type": "tool_call", "id": "toolu_01B", "name": "list_dir", "arguments": ""}]
# What each library makes of the arguments: the raw text (LangChain's tool_call_chunks), or its parsed input written
# back (the SDK keeps only the parsed object; litellm writes "{}" for a call that streamed only "").
ARGUMENTS = {
    "anthropic_sdk": ['{"city": "Paris"}', "{}"],
    "langchain_anthropic": ['{"city": "Paris"}', ""],
    "litellm_anthropic": ['{"city": "Paris"}', "{}"],
}
# Each library's view of the usage: the SDK's Usage as accumulated; LangChain's and litellm's counts renamed back.
USAGE = {
    "anthropic_sdk": {"input_tokens": 472, "output_tokens": 89, "cache_read_input_tokens": 0},
    # LangChain reads the usage off message_delta alone (where Anthropic now repeats the input counts); none here.
    "langchain_anthropic": {"input_tokens": 0, "output_tokens": 89},
    "litellm_anthropic": {"input_tokens": 472, "output_tokens": 89, "cache_read_input_tokens": 0,
                          "cache_creation_input_tokens": 0},
}


@pytest.mark.parametrize("module", LIBRARIES)
def test_a_tool_round_is_read_off_the_librarys_own_accumulation(module):
    adapter = _adapter(module)
    turn = adapter.parse_stream(TOOL_ROUND)
    calls = [{**c, "arguments": a} for c, a in zip(CALLS, ARGUMENTS[module])]
    assert turn["blocks"] == [THINKING, TEXT, *calls], f"{adapter.name} read {turn['blocks']}"
    assert turn["stop_reason"] == "tool_use", turn
    assert turn["usage"] == USAGE[module], f"{adapter.name} read usage {turn['usage']}"


INTERLEAVED = _body(
    {**START, "message": {**START["message"], "usage": {"input_tokens": 30, "output_tokens": 1}}},
    *_block(0, {"type": "thinking", "thinking": "", "signature": ""},
            {"type": "thinking_delta", "thinking": "Paris first."}, {"type": "signature_delta", "signature": "c2lnMQ=="}),
    *_block(1, {"type": "tool_use", "id": "toolu_01", "name": "get_weather", "input": {}},
            {"type": "input_json_delta", "partial_json": '{"city": "Paris"}'}),
    *_block(2, {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix/LafPsn4aDw=="}),
    *_block(3, {"type": "text", "text": ""}, {"type": "text_delta", "text": "And Rome."}),
    *END,
)


@pytest.mark.parametrize("module", LIBRARIES)
def test_interleaved_blocks_keep_their_order_where_the_library_keeps_one(module):
    adapter = _adapter(module)
    kinds = [b["type"] for b in adapter.parse_stream(INTERLEAVED)["blocks"]]
    if module == "litellm_anthropic":  # litellm's message holds thinking_blocks, one text, tool_calls: no order
        assert kinds == ["reasoning", "redacted_reasoning", "text", "tool_call"], kinds
    else:
        assert kinds == ["reasoning", "tool_call", "redacted_reasoning", "text"], kinds


@pytest.mark.parametrize("module", LIBRARIES)
def test_a_stream_with_an_error_event_raises(module):
    body = _body(START, *_block(0, {"type": "text", "text": ""}, {"type": "text_delta", "text": "Hal"}),
                 {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}})
    with pytest.raises(Exception, match="Overloaded"):
        _adapter(module).parse_stream(body)


ASSISTANT = {"role": "assistant", "blocks": [
    {"type": "reasoning", "text": "Paris first.", "signature": "c2lnMQ=="},
    {"type": "text", "text": "Checking."},
    {"type": "tool_call", "id": "toolu_01", "name": "get_weather", "arguments": '{"city": "Paris"}'},
    {"type": "redacted_reasoning", "data": "EmwKAhgBEgy3va3pzix/LafPsn4aDw=="},
    {"type": "tool_call", "id": "toolu_02", "name": "list_dir", "arguments": ""},
]}
THINKING_WIRE = {"type": "thinking", "thinking": "Paris first.", "signature": "c2lnMQ=="}
REDACTED_WIRE = {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix/LafPsn4aDw=="}
TEXT_WIRE = {"type": "text", "text": "Checking."}
CALL_WIRE = [{"type": "tool_use", "id": "toolu_01", "name": "get_weather", "input": {"city": "Paris"}},
             {"type": "tool_use", "id": "toolu_02", "name": "list_dir", "input": {}}]
IN_ORDER = [THINKING_WIRE, TEXT_WIRE, CALL_WIRE[0], REDACTED_WIRE, CALL_WIRE[1]]
SENT_BACK = {
    "anthropic_sdk": IN_ORDER,
    "langchain_anthropic": IN_ORDER,
    "litellm_anthropic": [THINKING_WIRE, REDACTED_WIRE, TEXT_WIRE, *CALL_WIRE],  # its finding: regrouped
}


@pytest.mark.parametrize("module", LIBRARIES)
def test_an_assistant_turn_goes_back_as_the_library_replays_what_it_streamed(module):
    adapter = _adapter(module)
    before = json.dumps(ASSISTANT)
    wire = adapter.serialize_message(ASSISTANT)
    assert json.dumps(ASSISTANT) == before, "the neutral message was changed"
    assert wire["role"] == "assistant", wire
    assert wire["content"] == SENT_BACK[module], f"{adapter.name} wrote {wire['content']}"


USER = {"role": "user", "content": "And the folder?", "tool_results": [
    {"tool_call_id": "toolu_02", "content": "a.txt\nb.txt"}, {"tool_call_id": "toolu_01", "content": "12C"}]}


@pytest.mark.parametrize("module", ["langchain_anthropic", "litellm_anthropic"])
def test_tool_results_open_the_user_message_then_its_text(module):
    wire = _adapter(module).serialize_message(USER)
    blocks = wire["content"]
    assert wire["role"] == "user", wire
    assert [(b["type"], b.get("tool_use_id"), b.get("content")) for b in blocks[:2]] == [
        ("tool_result", "toolu_02", "a.txt\nb.txt"), ("tool_result", "toolu_01", "12C")], blocks
    assert blocks[2:] == [{"type": "text", "text": "And the folder?"}], blocks


def test_the_sdk_offers_nothing_for_a_users_tool_results():
    with pytest.raises(NotImplementedError):
        _adapter("anthropic_sdk").serialize_message(USER)


@pytest.mark.parametrize("module", LIBRARIES)
def test_each_adapter_speaks_anthropic_with_the_capabilities_its_library_has(module):
    adapter = _adapter(module)
    assert format_of(adapter) == "anthropic"
    assert not hasattr(adapter, "capabilities")
    assert capabilities_of(adapter) == {"stream", "messages"}
    assert adapter.name.startswith(f"{'anthropic-python' if module == 'anthropic_sdk' else LIBRARIES[module][0]} ")


def test_harness_does_not_import_the_anthropic_libraries():
    code = (
        "import sys, harness, harness.plugin, harness.cli, harness.cli.check;"
        "print([m for m in sys.modules if m.split('.')[0] in ('anthropic', 'langchain_anthropic', 'httpx2')])"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]", run.stdout


VERCEL = Path(__file__).resolve().parent.parent / "examples" / "vercel-ai-anthropic"


@pytest.fixture(scope="module")
def vercel():
    """The Vercel AI SDK's Anthropic bridge; without node or the example's packages the test fails (no skip)."""
    if shutil.which("node") is None or not (VERCEL / "node_modules" / "@ai-sdk" / "anthropic").is_dir():
        pytest.fail("run `npm ci --prefix examples/vercel-ai-anthropic` (Node.js 20 or newer)", pytrace=False)
    loaded = load_bridge(f"node {shlex.quote(str(VERCEL / 'bridge.js'))}", timeout=60)
    try:
        yield loaded
    finally:
        loaded.obj.close()


def test_the_vercel_bridge_speaks_anthropic_through_the_sdk(vercel):
    assert vercel.format == "anthropic" and vercel.capabilities == {"stream", "messages"}
    turn = vercel.obj.parse_stream(TOOL_ROUND)
    calls = [{**CALLS[0]}, {**CALLS[1], "arguments": "{}"}]  # the SDK's tool-call input: "{}" for a bare ""
    assert turn["blocks"] == [THINKING, TEXT, *calls], turn
    assert (turn["stop_reason"], turn["usage"]) == ("tool_use", USAGE["anthropic_sdk"]), turn
    assert vercel.obj.serialize_message(ASSISTANT)["content"] == IN_ORDER
    user = vercel.obj.serialize_message(USER)["content"]
    assert [b.get("tool_use_id") for b in user[:2]] == ["toolu_02", "toolu_01"], user
    assert user[2:] == [{"type": "text", "text": "And the folder?"}], user


def _conformance():
    spec = importlib.util.spec_from_file_location("conformance", VERCEL.parent.parent / "docs" / "conformance.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


ANTHROPIC_ADAPTERS = ["anthropic-python", "langchain-anthropic", "litellm (Anthropic)", "Vercel AI SDK (Anthropic)"]


@pytest.mark.parametrize("name", ANTHROPIC_ADAPTERS)
def test_a_wire_failure_of_an_anthropic_library_without_a_finding_fails_the_conformance_script(name):
    """No format is exempt: an Anthropic library's wire failure is a finding's, or the script reports it unexplained."""
    conformance = _conformance()
    assert dict((n, f) for n, f, _ in conformance.ADAPTERS)[name] == "anthropic"
    findings = conformance._findings()
    explained = next(f for f in findings if f["adapter"] == name)
    nodeid = explained["contracts"][0] if "::" in explained["contracts"][0] else explained["contracts"][0] + "::t"
    failed = [conformance.Outcome(nodeid, "wire", "messages", "failed", "m"),
              conformance.Outcome("test_anthropic_nothing.py::test_x", "wire", "stream", "failed", "m")]
    text, unexplained = conformance.render({name: (failed, "header")}, findings)
    assert unexplained == [f"{name}: test_anthropic_nothing.py::test_x: m"], unexplained
    assert f"[{explained['slug']}](findings/{explained['slug']}.md)" in text, text
    assert "under review" not in text.lower(), text


def test_every_anthropic_finding_is_registered_for_a_shipped_adapter_and_written_up():
    conformance = _conformance()
    names = {n for n, _, _ in conformance.ADAPTERS}
    for finding in conformance._findings():
        assert finding["adapter"] in names, finding
        assert (conformance.REPO / "docs" / "findings" / f"{finding['slug']}.md").is_file(), finding
