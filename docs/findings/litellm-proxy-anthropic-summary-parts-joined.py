"""litellm (the proxy's Anthropic Messages route over a Responses upstream): summary parts joined with a blank line.

A reasoning item's summary parts become one thinking text, joined with "\\n\\n":
the text the Anthropic client gets is not the text the upstream streamed (a
summary streamed as two parts reads with a paragraph break the model never wrote).
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

PARTS = ["First look it up, ", "then answer."]
ITEM = {"type": "reasoning", "id": "rs_1", "encrypted_content": "gAAAA-opaque",
        "summary": [{"type": "summary_text", "text": text} for text in PARTS]}

thinking = thinking_block_from_reasoning_item(ITEM).get("thinking")
print(f"litellm {version('litellm')}: summary parts {PARTS!r} cross as thinking {thinking!r}")
if thinking != "".join(PARTS):
    print(f"expected: the text streamed, {''.join(PARTS)!r}")
    print("BUG")
    sys.exit(1)
print("ok")
