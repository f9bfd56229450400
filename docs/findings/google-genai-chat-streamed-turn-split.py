"""google-genai: a chat's streamed model turn goes back as one model content per chunk, not one content.

Gemini streams a turn as several chunks, each a GenerateContentResponse with
some of the turn's parts; with thinking, only the first of parallel
functionCall parts carries a thoughtSignature. The next request must send the
whole turn back as one model Content, its parts in order. `chats`'
send_message_stream records each chunk's content as its own history entry, so
the next send_message writes one model content per chunk: a parallel call that
came in its own chunk goes back alone, in a content whose first functionCall
has no signature. Imports only google-genai (and the HTTP library it uses); no
network. Prints BUG (exit 1) or ok (exit 0).
"""

import json
import sys

import httpx
from google import genai
from google.genai import types

CHUNKS = [
    {"candidates": [{"content": {"role": "model", "parts": [{"text": "Two cities.", "thought": True}]}}]},
    {"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"name": "get_weather", "args": {"city": "Oslo"}}, "thoughtSignature": "c2lnLW9zbG8="}]}}]},
    {"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"name": "get_weather", "args": {"city": "Bern"}}}]}, "finishReason": "STOP"}]},
]
STREAM = "".join(f"data: {json.dumps(chunk)}\r\n\r\n" for chunk in CHUNKS).encode()
ANSWER = {"candidates": [{"content": {"role": "model", "parts": [{"text": "Oslo 4, Bern 9."}]},
                          "finishReason": "STOP"}]}
requests = []


def handler(request):
    requests.append(json.loads(request.content))
    if "streamGenerateContent" in str(request.url):
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=STREAM)
    return httpx.Response(200, json=ANSWER)


http_client = httpx.Client(transport=httpx.MockTransport(handler))
client = genai.Client(api_key="test", http_options=types.HttpOptions(base_url="http://test.invalid",
                                                                     httpx_client=http_client))
chat = client.chats.create(model="gemini-2.5-flash")
for _ in chat.send_message_stream("Weather in Oslo and Bern?"):
    pass
chat.send_message([types.Part(function_response=types.FunctionResponse(name="get_weather", response={"output": t}))
                   for t in ("4", "9")])
models = [content for content in requests[-1]["contents"] if content["role"] == "model"]
print(f"google-genai {genai.__version__}: the next request holds {len(models)} model content(s) for one turn:")
for content in models:
    print("  ", json.dumps(content["parts"]))
if len(models) != 1:
    print("expected: one model content holding the thought, the signed call and the unsigned parallel call, in order")
    print("BUG")
    sys.exit(1)
print("ok")
sys.exit(0)
