"""litellm: its Gemini endpoint gives every translated call and function response the id call_<name>.

A Gemini history pairs calls and their functionResponses by name and place;
litellm's Gemini adapter (the proxy's /v1beta/models/...:generateContent route)
translates them to chat tool calls and tool messages whose ids are all
"call_" + the function's name. Two parallel calls of one tool get one id, and
their two answers both name it: the chat history no longer says which answer
is whose, and a strict chat provider refuses it (a call answered twice).
Imports only litellm; no network. Prints BUG (exit 1) or ok (exit 0).
"""

import os
import sys
from importlib.metadata import version

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # no cost-map download at import

from litellm.google_genai.adapters.transformation import GoogleGenAIAdapter  # noqa: E402

CONTENTS = [
    {"role": "user", "parts": [{"text": "Weather in Paris and in Oslo?"}]},
    {"role": "model", "parts": [{"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}},
                                {"functionCall": {"name": "get_weather", "args": {"city": "Oslo"}}}]},
    {"role": "user", "parts": [{"functionResponse": {"name": "get_weather", "response": {"result": "sunny"}}},
                               {"functionResponse": {"name": "get_weather", "response": {"result": "rain"}}}]},
]

messages = GoogleGenAIAdapter().translate_generate_content_to_completion(model="openai/m", contents=CONTENTS)["messages"]
ids = [call["id"] for m in messages for call in m.get("tool_calls") or ()]
answers = [m["tool_call_id"] for m in messages if m.get("role") == "tool"]
print(f"litellm {version('litellm')}: two parallel get_weather calls went out with ids {ids}, answered by {answers}")
if len(set(ids)) != len(ids):
    print("expected: one id per call, each answered once")
    print("BUG")
    sys.exit(1)
print("ok")
