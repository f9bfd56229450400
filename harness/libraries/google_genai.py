"""The contracts' view of the google-genai SDK: its SSE decoding and ``GenerateContentResponse`` models.

``parse_stream`` serves the body to ``client.models.generate_content_stream(...)``
through an ``httpx.MockTransport`` given as ``HttpOptions.httpx_client`` and
appends the parts of each chunk's first candidate, as an SDK user does (the
SDK yields one response per SSE event and accumulates nothing itself). The SDK
holds a ``thought_signature`` as the bytes its base64 decodes to, so
``signature`` is those bytes written back as base64; ``arguments`` is the
call's ``args`` dict written as JSON (``""`` when it had none);
``stop_reason`` the last ``finish_reason`` and ``usage`` the last
``usage_metadata``, both written back in the wire's spelling. A stream that
ended without any ``finish_reason`` raises: the SDK's own accumulator
(``chats``' ``send_message_stream``) holds such a turn invalid and leaves it
out of the curated history, and the adapter applies the same test.

Only the ``stream`` capability: an SDK user writes ``Content`` from its own
parts, and the SDK has no request transform.
"""

from __future__ import annotations

import base64
import json

import httpx
from google import genai
from google.genai import types

BASE_URL = "http://test.invalid"
MODEL = "gemini-test"


def _signed(block: dict, part: types.Part) -> dict:
    if part.thought_signature is not None:
        block["signature"] = base64.b64encode(part.thought_signature).decode()
    return block


def _block(part: types.Part) -> dict:
    if part.function_call is not None:
        call = part.function_call
        arguments = json.dumps(call.args, ensure_ascii=False) if call.args is not None else ""
        return _signed({"type": "tool_call", "id": call.id or "", "name": call.name, "arguments": arguments}, part)
    if part.text is not None and part.thought:
        return _signed({"type": "reasoning", "text": part.text, "signature": ""}, part)
    if part.text is not None or part.thought_signature is not None:
        # A part that carries only its signature (some streams end a text answer so) is an empty text part.
        return _signed({"type": "text", "text": part.text or ""}, part)
    raise ValueError(f"the SDK decoded a part the neutral turn has no block for: {part!r}")


class GoogleGenAIAdapter:
    name = f"google-genai {genai.__version__}"
    format = "gemini"

    def parse_stream(self, body: bytes) -> dict:
        def handler(request: httpx.Request) -> httpx.Response:
            return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body)

        http_client = httpx.Client(transport=httpx.MockTransport(handler))
        client = genai.Client(api_key="test", http_options=types.HttpOptions(base_url=BASE_URL, httpx_client=http_client))
        blocks, stop_reason, usage = [], None, None
        with http_client:
            for chunk in client.models.generate_content_stream(model=MODEL, contents="hi"):
                candidate = chunk.candidates[0] if chunk.candidates else None
                if candidate is not None and candidate.content is not None:
                    blocks += [_block(part) for part in candidate.content.parts or []]
                if candidate is not None and candidate.finish_reason is not None:
                    stop_reason = candidate.finish_reason.value
                if chunk.usage_metadata is not None:
                    usage = chunk.usage_metadata.model_dump(mode="json", by_alias=True, exclude_none=True)
        if stop_reason is None:
            raise ValueError("the stream ended before any finish_reason: the SDK's chat holds such a turn invalid")
        return {"blocks": blocks, "stop_reason": stop_reason, "usage": usage}


adapter = GoogleGenAIAdapter()
