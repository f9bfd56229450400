"""litellm (the proxy's chat completions route): every later fragment of a streamed tool call repeats "type".

The proxy re-serialises each upstream chunk through litellm's Delta, whose tool
calls default "type" to "function": a fragment that carried only arguments goes
out with "type": "function" again. The format sends id, type and name on a call's
first fragment only; a client that joins repeated string fields (openai-python's
stream state does) accumulates "functionfunction...".
Imports only litellm; no network. Prints BUG (exit 1) or ok (exit 0).
"""

import json
import os
import sys
from importlib.metadata import version

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # no cost-map download at import

from litellm.types.utils import Delta  # noqa: E402

LATER = {"index": 0, "function": {"arguments": "{\"city\":"}}  # a call's second fragment, as the upstream sent it

sent = Delta(tool_calls=[LATER]).model_dump(exclude_none=True)["tool_calls"][0]
print(f"litellm {version('litellm')}: upstream fragment {json.dumps(LATER)} goes out as {json.dumps(sent)}")
if "type" in sent:
    print("expected: a later fragment without type (only the first fragment names the call)")
    print("BUG")
    sys.exit(1)
print("ok")
