"""litellm (the proxy's Anthropic Messages route over a Responses upstream): signatures are not the upstream's bytes.

The reasoning item's encrypted_content reaches the Anthropic client as a
thinking block's signature with "litellm_encrypted_reasoning:" put in front of
it: the opaque value the client stores, verifies or forwards is not the one the
provider minted.
Imports only litellm; no network. Prints BUG (exit 1) or ok (exit 0).
"""

import os
import sys
from importlib.metadata import version

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # no cost-map download at import

try:  # litellm 1.110 moved it; 1.108 (the proxy the gateway extra installs) has it in common_utils
    from litellm.litellm_core_utils.prompt_templates.reasoning_utils import thinking_block_from_reasoning_item
except ImportError:
    from litellm.litellm_core_utils.prompt_templates.common_utils import thinking_block_from_reasoning_item

ITEM = {"type": "reasoning", "id": "rs_1", "encrypted_content": "gAAAA-opaque",
        "summary": [{"type": "summary_text", "text": "Look it up."}]}

block = thinking_block_from_reasoning_item(ITEM)
print(f"litellm {version('litellm')}: encrypted_content {ITEM['encrypted_content']!r} crosses as signature "
      f"{block.get('signature')!r}")
if block.get("signature") != ITEM["encrypted_content"]:
    print("expected: the opaque value byte for byte")
    print("BUG")
    sys.exit(1)
print("ok")
