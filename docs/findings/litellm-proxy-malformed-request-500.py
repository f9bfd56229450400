"""litellm (the proxy's Anthropic Messages and Gemini routes): a malformed request crashes the translation (HTTP 500).

A message without "role" (Anthropic) raises KeyError, a body without
"contents" (Gemini) raises TypeError, in the adapters that translate the
request for the upstream; neither is an error the proxy maps to a 4xx, so the
client gets HTTP 500 where the provider answers 400: a client or a retry policy
reads a server fault and sends the same broken request again.
Imports only litellm; no network. Prints BUG (exit 1) or ok (exit 0).
"""

import os
import sys
from importlib.metadata import version

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # no cost-map download at import

from litellm import BadRequestError  # noqa: E402
from litellm.google_genai.adapters.transformation import GoogleGenAIAdapter  # noqa: E402
from litellm.llms.anthropic.pass_through.responses_adapters.transformation import (  # noqa: E402
    LiteLLMAnthropicToResponsesAPIAdapter,
)

CASES = {
    "an Anthropic message without role": lambda: LiteLLMAnthropicToResponsesAPIAdapter()
    .translate_messages_to_responses_input([{"content": [{"type": "text", "text": "hi"}]}]),
    "a Gemini request without contents": lambda: GoogleGenAIAdapter()
    .translate_generate_content_to_completion(model="openai/m", contents=None),
}

crashed = []
for name, translate in CASES.items():
    try:
        translate()
        print(f"{name}: translated (not refused)")
    except BadRequestError as refused:  # the request error the proxy answers with a 400
        print(f"{name}: refused ({type(refused).__name__})")
    except Exception as exc:  # anything else is answered 500 by the proxy
        crashed.append(name)
        print(f"{name}: {type(exc).__name__}: {exc}")
print(f"litellm {version('litellm')}")
if crashed:
    print("expected: a request error (the provider's 400), not a crash")
    print("BUG")
    sys.exit(1)
print("ok")
