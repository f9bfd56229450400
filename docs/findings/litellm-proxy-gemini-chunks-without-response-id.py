"""litellm (the proxy's Gemini route over a chat completions upstream): streamed chunks carry no responseId.

The Gemini adapter builds each streamGenerateContent chunk from the upstream's
chat chunk without the response's id: Gemini's chunks all carry one
"responseId", which clients use to tell one response's chunks from another's.
Imports only litellm; no network. Prints BUG (exit 1) or ok (exit 0).
"""

import json
import os
import sys
from importlib.metadata import version

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # no cost-map download at import

from litellm.google_genai.adapters.transformation import GoogleGenAIAdapter, GoogleGenAIStreamWrapper  # noqa: E402
from litellm.types.utils import Delta, ModelResponseStream, StreamingChoices  # noqa: E402

upstream = ModelResponseStream(id="chatcmpl-1", choices=[StreamingChoices(index=0, delta=Delta(content="Hello"))])
chunk = GoogleGenAIAdapter().translate_streaming_completion_to_generate_content(
    upstream, GoogleGenAIStreamWrapper(completion_stream=iter(())))
print(f"litellm {version('litellm')}: the upstream chunk {upstream.id!r} goes out as {json.dumps(chunk)}")
if not chunk.get("responseId"):
    print("expected: a responseId naming the response (every Gemini chunk carries it)")
    print("BUG")
    sys.exit(1)
print("ok")
