"""litellm (the proxy's Anthropic Messages route over a Responses upstream): a replayed reasoning item has no id.

A reasoning model's Responses turn crosses to the Anthropic client as a
thinking block whose signature carries the item's encrypted_content, not its
"rs_" id. On the next request the adapter turns the block back into a reasoning
item without an id, and the function calls after it without theirs: the
upstream cannot tie the calls to the reasoning they followed, and refuses the
tool round ("Item ... of type 'function_call' was provided without its required
'reasoning' item: 'rs_...'").
Imports only litellm; no network. Prints BUG (exit 1) or ok (exit 0).
"""

import json
import os
import sys
from importlib.metadata import version

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # no cost-map download at import

from litellm.llms.anthropic.pass_through.responses_adapters.transformation import (  # noqa: E402
    LiteLLMAnthropicToResponsesAPIAdapter,
)

# The reasoning item the upstream streamed: {"type": "reasoning", "id": "rs_1", "encrypted_content": "gAAAA-opaque",
# "summary": [...]}, then {"type": "function_call", "id": "fc_1", "call_id": "call_1", ...}; the proxy gave the
# Anthropic client this thinking block for it, and the client sends it back as it came.
MESSAGES = [
    {"role": "user", "content": [{"type": "text", "text": "Weather in Paris?"}]},
    {"role": "assistant", "content": [
        {"type": "thinking", "thinking": "Look it up.", "signature": "litellm_encrypted_reasoning:gAAAA-opaque"},
        {"type": "tool_use", "id": "call_1", "name": "get_weather", "input": {"city": "Paris"}}]},
    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "call_1", "content": "sunny"}]},
]

items = LiteLLMAnthropicToResponsesAPIAdapter().translate_messages_to_responses_input(MESSAGES)
replayed = [{k: item.get(k) for k in ("type", "id")} for item in items if item.get("type") != "message"]
print(f"litellm {version('litellm')}: the replayed items: {json.dumps(replayed)}")
reasoning = [item for item in items if item.get("type") == "reasoning"]
if not reasoning or not reasoning[0].get("id"):
    print("expected: the reasoning item back with the id the upstream gave it (rs_1), before its function call")
    print("BUG")
    sys.exit(1)
print("ok")
