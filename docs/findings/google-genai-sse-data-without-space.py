"""google-genai: an SSE line written `data:{...}` (no space after the colon) fails the whole stream.

The SSE specification makes the one space after `data:` optional; a relay or
proxy that writes the field without it sends the same event. The SDK strips only
the exact prefix `data: `, so it reads the line as raw JSON, which `data:{...}`
is not, and generate_content_stream raises UnknownApiResponseError on the first
chunk. Imports only google-genai (and the HTTP library it uses); no network.
Prints BUG (exit 1) or ok (exit 0).
"""

import sys

import httpx
from google import genai
from google.genai import errors, types

BODY = (b'data:{"candidates": [{"content": {"role": "model", "parts": [{"text": "Oslo is 4\xc2\xb0C."}]},'
        b' "finishReason": "STOP", "index": 0}], "modelVersion": "gemini-2.5-flash"}\n\n')


def handler(request):
    return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=BODY)


http_client = httpx.Client(transport=httpx.MockTransport(handler))
client = genai.Client(api_key="test", http_options=types.HttpOptions(base_url="http://test.invalid",
                                                                     httpx_client=http_client))
try:
    texts = [chunk.text for chunk in client.models.generate_content_stream(model="gemini-2.5-flash",
                                                                            contents="Weather in Oslo?")]
except errors.UnknownApiResponseError as exc:
    print(f"google-genai {genai.__version__}: raised UnknownApiResponseError: {str(exc)[:120]}")
    print("expected: the chunk's text 'Oslo is 4°C.', as for the same line written 'data: {...}'")
    print("BUG")
    sys.exit(1)
print(f"google-genai {genai.__version__}: decoded {texts!r}")
print("ok")
sys.exit(0)
