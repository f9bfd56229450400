"""The thin adapters around real client libraries on AWS Bedrock Converse (``harness.libraries``).

Each adapter is held to what its library really does with the incident's
stream: botocore's own event-stream parsing under ``converse_stream`` (served
at its HTTP layer, so botocore reads the bytes), LangChain's chunk sum over it,
litellm's ``bedrock/converse/`` route. The libraries are the ``boto3``,
``langchain-aws`` and ``litellm`` extras; a missing one fails with the install
command, or skips under ``HARNESS_SKIP_LIBRARIES=1`` (as in
``tests/test_library_adapters.py``). The findings' reproductions run there.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from harness.adapter import capabilities_of, format_of
from harness.testing.bedrock_incident import PLAN, TURN
from harness.wire.bedrock_events import Plan, turn_body, turn_events, frame
from library_adapters import library_adapter

# adapter module -> (distribution, import name, name in docs/conformance.py)
LIBRARIES = {
    "botocore_converse": ("boto3", "boto3", "botocore"),
    "langchain_aws": ("langchain-aws", "langchain_aws", "langchain-aws"),
    "litellm_bedrock": ("litellm", "litellm", "litellm (Bedrock)"),
}
ROOT = Path(__file__).resolve().parents[1]
CAPABILITIES = {"langchain_aws": {"stream", "messages"}, "litellm_bedrock": {"stream", "messages"}}  # botocore: stream


def _adapter(module: str):
    distribution, import_name, _ = LIBRARIES[module]
    return library_adapter(module, import_name, distribution)


def _conformance():
    spec = importlib.util.spec_from_file_location("conformance", ROOT / "docs" / "conformance.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("conformance", module)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("module", LIBRARIES)
def test_each_adapter_decodes_bedrock_streams_and_is_a_conformance_row(module):
    adapter = _adapter(module)
    assert format_of(adapter) == "bedrock", format_of(adapter)
    assert capabilities_of(adapter) == CAPABILITIES.get(module, {"stream"}), capabilities_of(adapter)
    rows = {name: (fmt, args) for name, fmt, args in _conformance().LIBRARIES}
    fmt, args = rows[LIBRARIES[module][2]]
    assert (fmt, args) == ("bedrock", ["--adapter", f"harness.libraries.{module}:adapter"]), (fmt, args)


def test_botocore_reads_the_incident_turn_block_by_index():
    assert _adapter("botocore_converse").parse_stream(turn_body(TURN, PLAN)) == TURN


def test_botocore_refuses_a_changed_byte_and_the_adapter_a_body_cut_before_metadata():
    from botocore.eventstream import ChecksumMismatch

    body = bytearray(turn_body(TURN, PLAN))
    body[40] ^= 0x01  # a byte of the first message's headers: its message CRC32 no longer matches
    with pytest.raises(ChecksumMismatch):
        _adapter("botocore_converse").parse_stream(bytes(body))
    events = turn_events(TURN, PLAN)
    with pytest.raises(ValueError, match="before its metadata event"):
        _adapter("botocore_converse").parse_stream(frame(events, Plan(cut=len(events) - 1)))


CACHED = {"inputTokens": 40, "outputTokens": 7, "totalTokens": 1247, "cacheReadInputTokens": 1200}


# What each library holds for the call that streamed no input (the neutral turn's ""): litellm fills in "{}".
EMPTY_INPUT = {"langchain_aws": "", "litellm_bedrock": "{}"}


@pytest.mark.parametrize("module", EMPTY_INPUT)
def test_a_turn_comes_back_with_its_blocks_stop_reason_and_the_servers_usage_names(module):
    """Both libraries fold cache reads into their input count; the adapters take them out again."""
    turn = _adapter(module).parse_stream(turn_body({**TURN, "usage": CACHED}, PLAN))
    expected = [{**b, "arguments": EMPTY_INPUT[module]} if b.get("arguments") == "" else b for b in TURN["blocks"]]
    assert turn["blocks"] == expected, turn["blocks"]
    assert turn["stop_reason"] == "tool_use", turn["stop_reason"]
    assert turn["usage"] == CACHED, turn["usage"]


@pytest.mark.parametrize("module", ["langchain_aws", "litellm_bedrock"])
def test_no_usage_is_invented_for_a_cache_count_the_server_did_not_send(module):
    usage = {"inputTokens": 12, "outputTokens": 6, "totalTokens": 18}
    turn = _adapter(module).parse_stream(turn_body({"blocks": [{"type": "text", "text": "Yes."}],
                                                    "stop_reason": "end_turn", "usage": usage}))
    assert turn["usage"] == usage, turn["usage"]


def test_langchain_sends_the_streamed_turn_back_block_by_block_as_botocore_writes_it():
    """Each signature on its own block, the redacted bytes as sent (botocore writes them as base64), inputs as objects."""
    sent = _adapter("langchain_aws").serialize_message({"role": "assistant", "blocks": TURN["blocks"]})
    reasoning = [b["reasoningContent"] for b in sent["content"] if "reasoningContent" in b]
    assert reasoning == [{"reasoningText": {"text": TURN["blocks"][0]["text"], "signature": TURN["blocks"][0]["signature"]}},
                         {"redactedContent": TURN["blocks"][1]["data"]},
                         {"reasoningText": {"text": TURN["blocks"][2]["text"], "signature": TURN["blocks"][2]["signature"]}}
                         ], reasoning
    calls = [b["toolUse"] for b in sent["content"] if "toolUse" in b]
    assert [(c["toolUseId"], c["input"]) for c in calls] == [
        (b["id"], json.loads(b["arguments"] or "{}")) for b in TURN["blocks"] if b["type"] == "tool_call"], calls


def test_litellm_sends_the_streamed_turn_back_with_its_signatures_and_calls():
    """Each signature on its own block and the calls' inputs as objects (its redacted bytes: a finding)."""
    sent = _adapter("litellm_bedrock").serialize_message({"role": "assistant", "blocks": TURN["blocks"]})
    signed = [b["reasoningContent"]["reasoningText"] for b in sent["content"]
              if "reasoningText" in b.get("reasoningContent", {})]
    assert signed == [{"text": b["text"], "signature": b["signature"]} for b in TURN["blocks"]
                      if b["type"] == "reasoning"], signed
    calls = [b["toolUse"] for b in sent["content"] if "toolUse" in b]
    assert [(c["toolUseId"], c["input"]) for c in calls] == [
        (b["id"], json.loads(b["arguments"] or "{}")) for b in TURN["blocks"] if b["type"] == "tool_call"], calls


def test_every_bedrock_finding_names_a_bedrock_row_and_is_written_up():
    conformance = _conformance()
    rows = {name for name, fmt, _ in conformance.LIBRARIES if fmt == "bedrock"}
    assert rows == {name for _, _, name in LIBRARIES.values()}, rows
    findings = [f for f in conformance._findings() if f["adapter"] in rows]
    assert {f["adapter"] for f in findings} == rows, findings
    for finding in findings:
        assert (ROOT / "docs" / "findings" / f"{finding['slug']}.md").exists(), finding
