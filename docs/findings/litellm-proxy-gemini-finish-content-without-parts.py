"""litellm (the proxy's Gemini route over a chat completions upstream): the finishing chunk has a content with no parts.

The upstream's last chat chunk (a finish_reason, an empty delta) becomes a
candidate whose content is {"parts": [], "role": "model"}. Gemini never sends a
content without parts (a chunk that only finishes carries a part, or no content);
a client that reads the parts of every content it gets, or appends each content
to the history, keeps an empty model content that Gemini refuses on replay.
Imports only litellm; no network. Prints BUG (exit 1) or ok (exit 0).
"""

import json
import os
import sys
from importlib.metadata import version

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # no cost-map download at import

from litellm.google_genai.adapters.transformation import GoogleGenAIAdapter, GoogleGenAIStreamWrapper  # noqa: E402
from litellm.types.utils import Delta, ModelResponseStream, StreamingChoices, Usage  # noqa: E402

last = ModelResponseStream(id="chatcmpl-1", choices=[StreamingChoices(index=0, delta=Delta(), finish_reason="stop")],
                           usage=Usage(prompt_tokens=3, completion_tokens=1, total_tokens=4))
chunk = GoogleGenAIAdapter().translate_streaming_completion_to_generate_content(
    last, GoogleGenAIStreamWrapper(completion_stream=iter(())))
content = chunk["candidates"][0].get("content")
print(f"litellm {version('litellm')}: the upstream's finishing chunk goes out as {json.dumps(chunk)}")
if content is not None and not content.get("parts"):
    print("expected: a content with its parts, or no content")
    print("BUG")
    sys.exit(1)
print("ok")
