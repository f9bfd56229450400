"""The contracts' view of litellm on Anthropic: its Anthropic provider, stream iterator and ``stream_chunk_builder``.

``parse_stream`` serves the body to ``litellm.completion(model="anthropic/...",
stream=True, client=...)`` (litellm's own ``HTTPHandler`` on an in-memory httpx
transport): litellm's Anthropic stream iterator turns the events into its
OpenAI-shaped chunks, and ``litellm.stream_chunk_builder`` joins them, as
litellm's docs show. litellm's message has no block order: it holds its
``thinking_blocks`` (thinking and redacted thinking, in order), then one
``content`` string, then its ``tool_calls``, so the neutral turn is read in
that order. ``usage`` is litellm's ``Usage`` under Anthropic's names (litellm
counts cache reads and writes into ``prompt_tokens``; its ``server_tool_use``
without the counts it has no value for). ``stop_reason`` is the
one litellm keeps in the message's ``provider_specific_fields`` (it does for
``pause_turn`` and ``refusal``), else litellm's own translation of its
``finish_reason`` back to Anthropic's, as litellm's Messages adapter reads it.

``serialize_message`` sends the message as a litellm user holds it through
litellm's request building for Anthropic and returns it from the captured
HTTP body: an assistant message is the one ``stream_chunk_builder`` built when
that turn streamed (served as Anthropic streams it), which is what a litellm
agent sends back; a user message is its tool results as ``tool`` messages
after the assistant message that made the calls, then its text as a ``user``
message (none when the text is empty). litellm merges them into one user
message.

litellm's Messages interface (``litellm.anthropic.messages``) passes the
provider's events through without joining them, so it has no counterpart
here; nor is there a ``transform_request`` (that interface takes a Messages
body to a provider, not to the same format).
"""

from __future__ import annotations

import json
import os
from importlib.metadata import version

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # before the import: no cost-map download

import httpx  # noqa: E402
import litellm  # noqa: E402
from litellm.llms.anthropic.messages.adapters.transformation import LiteLLMAnthropicMessagesAdapter  # noqa: E402
from litellm.llms.anthropic.messages.native.utils import anthropic_stop_reason  # noqa: E402
from litellm.llms.custom_httpx.http_handler import HTTPHandler  # noqa: E402

from harness.libraries import ANTHROPIC_MESSAGE, ANTHROPIC_MODEL, ANTHROPIC_URL  # noqa: E402
from harness.libraries.anthropic_replay import replay_body  # noqa: E402

litellm.suppress_debug_info = True

MODEL = f"anthropic/{ANTHROPIC_MODEL}"
QUESTION = {"role": "user", "content": "Go."}


def _client(handler) -> HTTPHandler:
    return HTTPHandler(client=httpx.Client(transport=httpx.MockTransport(handler)))


def _built(body: bytes):
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body)

    messages = [QUESTION]
    chunks = list(litellm.completion(model=MODEL, messages=messages, stream=True, client=_client(handler),
                                     api_key="test", api_base=ANTHROPIC_URL))
    return litellm.stream_chunk_builder(chunks, messages=messages)


def _stop_reason(choice) -> str | None:
    """The stop_reason litellm kept in the message's provider fields, else its way back from the OpenAI finish_reason."""
    kept = anthropic_stop_reason(choice.message)
    if kept is not None or choice.finish_reason is None:
        return kept
    return LiteLLMAnthropicMessagesAdapter()._translate_openai_finish_reason_to_anthropic(choice.finish_reason)


def _usage(usage) -> dict | None:
    if usage is None:
        return None
    cached = {"cache_read_input_tokens": getattr(usage, "cache_read_input_tokens", None),
              "cache_creation_input_tokens": getattr(usage, "cache_creation_input_tokens", None)}
    plain = {"input_tokens": usage.prompt_tokens - sum(v or 0 for v in cached.values()),
             "output_tokens": usage.completion_tokens}
    server = getattr(usage, "server_tool_use", None)
    tools = {"server_tool_use": server.model_dump(exclude_none=True)} if server is not None else {}
    return plain | {k: v for k, v in cached.items() if v is not None} | tools


def _thinking(block: dict) -> dict:
    if block.get("type") == "redacted_thinking":
        return {"type": "redacted_reasoning", "data": block.get("data")}
    return {"type": "reasoning", "text": block.get("thinking") or "", "signature": block.get("signature") or ""}


def message_blocks(message) -> list[dict]:
    """The neutral blocks of a message litellm normalised (its thinking blocks, text, then calls)."""
    blocks = [_thinking(b) for b in getattr(message, "thinking_blocks", None) or []]
    if message.content:
        blocks.append({"type": "text", "text": message.content})
    blocks += [{"type": "tool_call", "id": c.id, "name": c.function.name, "arguments": c.function.arguments}
               for c in message.tool_calls or []]
    return blocks


def _sent_messages(messages: list[dict]) -> list[dict]:
    sent: list[dict] = []

    def handler(request: httpx.Request) -> httpx.Response:
        sent.append(json.loads(request.content))
        return httpx.Response(200, json=ANTHROPIC_MESSAGE)

    litellm.completion(model=MODEL, messages=messages, client=_client(handler), api_key="test",
                       api_base=ANTHROPIC_URL)
    return sent[0]["messages"]


def _held(blocks: list[dict]) -> dict:
    """The assistant message litellm builds when ``blocks`` stream, as its users keep it (a plain dict)."""
    return _built(replay_body(blocks)).choices[0].message.model_dump(exclude_none=True)


class LiteLLMAnthropicAdapter:
    name = f"litellm {version('litellm')}"
    format = "anthropic"

    def parse_stream(self, body: bytes) -> dict:
        built = _built(body)
        usage = _usage(getattr(built, "usage", None)) if built is not None else None
        if built is None or not built.choices:
            return {"blocks": [], "stop_reason": None, "usage": usage}
        choice = built.choices[0]
        return {"blocks": message_blocks(choice.message), "stop_reason": _stop_reason(choice), "usage": usage}

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


adapter = LiteLLMAnthropicAdapter()
