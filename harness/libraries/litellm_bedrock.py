"""The contracts' view of litellm on Bedrock Converse: its ``bedrock/converse/`` route, event-stream decoder and ``stream_chunk_builder``.

``parse_stream`` serves the body to ``litellm.completion(model="bedrock/converse/...",
stream=True, client=...)`` (litellm's own ``HTTPHandler`` on an in-memory httpx
transport; litellm signs the request with the test credentials and reads the
event-stream body with its ``AWSEventStreamDecoder``, over botocore's
``EventStreamBuffer``), then ``litellm.stream_chunk_builder`` joins the
OpenAI-shaped chunks, as litellm's docs show. litellm's message has no block
order: it holds its ``thinking_blocks`` (thinking and redacted thinking, in
order), then one ``content`` string, then its ``tool_calls``, so the neutral
turn is read in that order. ``stop_reason`` is litellm's own translation of its
``finish_reason`` back to Anthropic's names, which Converse shares (litellm
keeps no copy of ``stopReason``); ``usage`` is litellm's ``Usage`` under
Converse's names (litellm counts cache reads and writes into ``prompt_tokens``
and holds both counts even when the server sent neither, so a cache count is
written back only when it is not zero).

``serialize_message`` sends the message as a litellm user holds it through
litellm's request building for Converse (``litellm.completion`` on the same
route, not streamed) and returns it from the captured HTTP body: an assistant
message is the one ``stream_chunk_builder`` built when that turn streamed
(served as ConverseStream streams it, with a usage), which is what a litellm
agent sends back; a user message is its tool results as ``tool`` messages
after the assistant message that made the calls, then its text as a ``user``
message (none when the text is empty).

No ``transform_request``: litellm takes OpenAI-shaped requests, not a Converse body.
"""

from __future__ import annotations

import os
from importlib.metadata import version

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # before the import: no cost-map download

import json  # noqa: E402

import httpx  # noqa: E402
import litellm  # noqa: E402
from litellm.llms.anthropic.messages.adapters.transformation import LiteLLMAnthropicMessagesAdapter  # noqa: E402
from litellm.llms.custom_httpx.http_handler import HTTPHandler  # noqa: E402

from harness.libraries import bedrock_runtime  # noqa: E402
from harness.libraries.litellm_anthropic import message_blocks  # noqa: E402
from harness.wire.bedrock_events import turn_body  # noqa: E402

litellm.suppress_debug_info = True

MODEL = f"bedrock/converse/{bedrock_runtime.MODEL}"
QUESTION = {"role": "user", "content": "Go."}
USAGE = {"inputTokens": 21, "outputTokens": 9, "totalTokens": 30}  # what a replayed turn's metadata event says
THINKING = {"type": "enabled", "budget_tokens": 1024}
ROUTE = {"api_base": bedrock_runtime.ENDPOINT, "aws_region_name": bedrock_runtime.REGION,
         "aws_access_key_id": "test", "aws_secret_access_key": "test"}


def _client(handler) -> HTTPHandler:
    return HTTPHandler(client=httpx.Client(transport=httpx.MockTransport(handler)))


def _built(body: bytes):
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"content-type": bedrock_runtime.EVENT_STREAM}, content=body)

    messages = [QUESTION]
    chunks = list(litellm.completion(model=MODEL, messages=messages, stream=True, client=_client(handler), **ROUTE))
    return litellm.stream_chunk_builder(chunks, messages=messages)


def _sent_messages(messages: list[dict]) -> list[dict]:
    sent: list[dict] = []

    def handler(request: httpx.Request) -> httpx.Response:
        sent.append(json.loads(request.content))
        return httpx.Response(200, json=bedrock_runtime.CONVERSE_REPLY)

    # As an agent sends its history: its tools declared (else litellm writes tool blocks as text) and thinking on.
    names = {c["function"]["name"] for m in messages for c in m.get("tool_calls") or []} | {"tool"}
    tools = [{"type": "function", "function": {"name": name, "parameters": {"type": "object"}}} for name in sorted(names)]
    litellm.completion(model=MODEL, messages=messages, client=_client(handler), tools=tools, thinking=THINKING,
                       **ROUTE)
    return sent[0]["messages"]


def _held(blocks: list[dict]) -> dict:
    """The assistant message litellm builds when ``blocks`` stream, as its users keep it (a plain dict)."""
    stop = "tool_use" if any(b.get("type") == "tool_call" for b in blocks) else "end_turn"
    built = _built(turn_body({"blocks": blocks, "stop_reason": stop, "usage": USAGE}))
    return built.choices[0].message.model_dump(exclude_none=True)


def _usage(usage) -> dict | None:
    if usage is None:
        return None
    cached = {"cacheReadInputTokens": getattr(usage, "cache_read_input_tokens", None) or 0,
              "cacheWriteInputTokens": getattr(usage, "cache_creation_input_tokens", None) or 0}
    plain = {"inputTokens": usage.prompt_tokens - sum(cached.values()), "outputTokens": usage.completion_tokens,
             "totalTokens": usage.total_tokens}
    return plain | {name: count for name, count in cached.items() if count}


class LiteLLMBedrockAdapter:
    name = f"litellm {version('litellm')}"
    format = "bedrock"

    def parse_stream(self, body: bytes) -> dict:
        built = _built(body)
        usage = _usage(getattr(built, "usage", None)) if built is not None else None
        if built is None or not built.choices:
            return {"blocks": [], "stop_reason": None, "usage": usage}
        choice = built.choices[0]
        stop_reason = (LiteLLMAnthropicMessagesAdapter()._translate_openai_finish_reason_to_anthropic(
            choice.finish_reason) if choice.finish_reason is not None else None)
        return {"blocks": message_blocks(choice.message), "stop_reason": stop_reason, "usage": usage}

    def serialize_message(self, message: dict) -> dict:
        if message["role"] == "assistant":
            return _sent_messages([QUESTION, _held(message["blocks"])])[1]
        results = message.get("tool_results") or []
        calls = [{"type": "tool_call", "id": r["tool_call_id"], "name": "tool", "arguments": ""} for r in results]
        history = [QUESTION, _held(calls)] if calls else []
        held = [{"role": "tool", "tool_call_id": r["tool_call_id"], "content": r["content"]} for r in results]
        if message.get("content"):
            held.append({"role": "user", "content": message["content"]})
        return _sent_messages(history + held)[len(history)]


adapter = LiteLLMBedrockAdapter()
