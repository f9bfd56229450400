"""The loopback provider's Bedrock routes: event-stream answers, the strict profile's 400s, SigV4-shaped credentials."""

from __future__ import annotations

import httpx
import pytest

from harness.loopback.bedrock_format import BEDROCK, NO_TOKEN, SCENARIOS
from harness.loopback.delivery import Delivery
from harness.loopback.server import LoopbackProvider
from harness.loopback.strict_route import FormatRoute
from harness.reference import bedrock_adapter
from harness.reference.sse import StreamError
from harness.rules import bedrock_history as rules

SIGV4 = {"Authorization": "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20260101/us-east-1/bedrock/aws4_request, "
                          "SignedHeaders=host;x-amz-date, Signature=00ff", "X-Amz-Date": "20260101T000000Z"}
TOOLS = {"tools": [{"toolSpec": {"name": "get_weather", "description": "Weather of a city",
                                 "inputSchema": {"json": {"type": "object", "properties": {"city": {"type": "string"}},
                                                          "required": ["city"]}}}}]}
MODEL = "/model/anthropic.claude-sonnet-4-5-20250929-v1:0"
PROMPT = {"role": "user", "content": [{"text": "What is the weather in Zürich?"}]}


def _provider(scenario="signed-reasoning", delivery=None):
    return LoopbackProvider(routes=(FormatRoute(BEDROCK, scenario),), **({"delivery": delivery} if delivery else {}))


def _post(provider, messages, method="/converse-stream", headers=SIGV4):
    return httpx.post(provider.origin + MODEL + method, json={"messages": messages, "toolConfig": TOOLS},
                      headers=headers, timeout=10)


def _results(message):
    calls = [b["toolUse"] for b in message["content"] if "toolUse" in b]
    return {"role": "user", "content": [{"toolResult": {"toolUseId": c["toolUseId"], "content": [{"text": "18 C"}],
                                                        "status": "success"}} for c in calls]} if calls else None


@pytest.mark.parametrize("scenario", [name for name in SCENARIOS if name != "stream-error"])
def test_a_tool_loop_streams_event_stream_bodies_the_reference_reads(scenario):
    with _provider(scenario, Delivery("bytes", 7)) as provider:
        messages = [PROMPT]
        for _ in range(6):
            response = _post(provider, messages)
            assert response.status_code == 200, response.text
            assert response.headers["Content-Type"] == "application/vnd.amazon.eventstream", (
                f"a binary stream is served without a charset, not as {response.headers['Content-Type']!r}")
            turn = bedrock_adapter.parse_stream(response.content)
            message = bedrock_adapter.serialize_message({"role": "assistant", "blocks": turn["blocks"]})
            results = _results(message)
            messages += [message, *([results] if results else [])]
            if results is None:
                break
        assert turn["stop_reason"] == "end_turn", turn
        assert not provider.record.violations, [v.rule for v in provider.record.violations]


def test_an_unanswered_tool_use_is_400_with_bedrocks_text():
    with _provider() as provider:
        first = bedrock_adapter.parse_stream(_post(provider, [PROMPT]).content)
        message = bedrock_adapter.serialize_message({"role": "assistant", "blocks": first["blocks"]})
        ids = [b["toolUse"]["toolUseId"] for b in message["content"] if "toolUse" in b]
        answer = _post(provider, [PROMPT, message, {"role": "user", "content": [{"text": "and?"}]}])
        assert answer.status_code == 400, answer.text
        assert answer.json() == {"message": rules.EXPECTED_TEXT.format(n=2, ids=", ".join(ids))}, answer.text
        assert rules.TOOL_USE_ANSWERED in [v.rule for v in provider.record.violations]


def test_a_joined_signature_is_400_cannot_be_modified():
    with _provider() as provider:
        first = bedrock_adapter.parse_stream(_post(provider, [PROMPT]).content)
        message = bedrock_adapter.serialize_message({"role": "assistant", "blocks": first["blocks"]})
        reasoning = [b for b in message["content"] if "reasoningContent" in b]
        assert len(reasoning) == 2, message
        reasoning[1]["reasoningContent"]["reasoningText"]["signature"] = "".join(
            b["reasoningContent"]["reasoningText"]["signature"] for b in reasoning)
        answer = _post(provider, [PROMPT, message, _results(message)])
        assert answer.status_code == 400 and "cannot be modified" in answer.json()["message"], answer.text


def test_botocore_reads_a_400_as_validation_exception():
    """AWS names an error's type in x-amzn-ErrorType, not in the body: botocore reads the code from that header."""
    botocore_session = pytest.importorskip("botocore.session")
    from botocore.exceptions import ClientError

    with _provider() as provider:
        client = botocore_session.get_session().create_client(
            "bedrock-runtime", region_name="us-east-1", endpoint_url=provider.origin,
            aws_access_key_id="AKIDEXAMPLE", aws_secret_access_key="secret")
        with pytest.raises(ClientError) as refused:
            client.converse(modelId=MODEL.split("/")[-1], messages=[{"role": "assistant", "content": [{"text": "Hi"}]}])
    error = refused.value.response["Error"]
    assert (error["Code"], refused.value.response["ResponseMetadata"]["HTTPStatusCode"]) == ("ValidationException", 400), (
        f"botocore read the loopback's 400 as {error}")
    assert rules.FIRST_USER in [v.rule for v in provider.record.violations]


@pytest.mark.parametrize("headers", [{}, {"Authorization": "AWS4-HMAC-SHA256 Credential=x, Signature=y"}],
                         ids=["none", "no-x-amz-date"])
def test_credentials_without_sigv4_shape_are_403(headers):
    with _provider() as provider:
        answer = _post(provider, [PROMPT], headers=headers)
        assert answer.status_code == 403 and answer.json() == {"message": NO_TOKEN}, answer.text


def test_a_bearer_api_key_is_accepted_and_converse_answers_whole():
    with _provider() as provider:
        answer = _post(provider, [PROMPT], method="/converse", headers={"Authorization": "Bearer bedrock-api-key"})
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert body["stopReason"] == "tool_use" and body["output"]["message"]["role"] == "assistant", body


def test_the_stream_error_scenario_sends_an_exception_message():
    with _provider("stream-error") as provider:
        answer = _post(provider, [PROMPT])
        assert answer.status_code == 200
        with pytest.raises(StreamError, match="throttlingException"):
            bedrock_adapter.parse_stream(answer.content)
