"""litellm (the proxy's Anthropic Messages and Gemini routes): empty content and blank text go through.

Anthropic refuses a message with empty content and a text block with empty
text; Gemini refuses a part with empty text. The proxy's adapters translate all
three for the upstream as they are (an empty Anthropic message is dropped
without a word), so the request a real provider refuses succeeds through the
proxy, and the 400 first shows in production when the route changes.
Imports only litellm; no network. Prints BUG (exit 1) or ok (exit 0).
"""

import json
import os
import sys
from importlib.metadata import version

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # no cost-map download at import

from litellm import BadRequestError  # noqa: E402
from litellm.google_genai.adapters.transformation import GoogleGenAIAdapter  # noqa: E402
from litellm.llms.anthropic.pass_through.responses_adapters.transformation import (  # noqa: E402
    LiteLLMAnthropicToResponsesAPIAdapter,
)

anthropic = LiteLLMAnthropicToResponsesAPIAdapter()
CASES = {
    "Anthropic: a message with empty content": lambda: anthropic.translate_messages_to_responses_input(
        [{"role": "user", "content": []}]),
    "Anthropic: a text block with empty text": lambda: anthropic.translate_messages_to_responses_input(
        [{"role": "user", "content": [{"type": "text", "text": ""}]}]),
    "Gemini: a part with empty text": lambda: GoogleGenAIAdapter().translate_generate_content_to_completion(
        model="openai/m", contents=[{"role": "user", "parts": [{"text": ""}]}])["messages"],
}

accepted = []
for name, translate in CASES.items():
    try:
        print(f"{name}: translated to {json.dumps(translate())}")
        accepted.append(name)
    except BadRequestError as refused:  # the request error the proxy answers with a 400
        print(f"{name}: refused ({refused})")
print(f"litellm {version('litellm')}")
if accepted:
    print("expected: each refused, as the provider refuses it (HTTP 400)")
    print("BUG")
    sys.exit(1)
print("ok")
