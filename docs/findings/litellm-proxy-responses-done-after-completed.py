"""litellm proxy (its Responses route): a "data: [DONE]" frame after response.completed.

The proxy's stream writer (litellm.proxy.proxy_server.async_data_generator)
ends every stream it relays with the chat completions terminator "data: [DONE]",
the Responses route's too. A Responses stream ends with its terminal event
(response.completed, .failed or .incomplete); the frame after it is no JSON
event, and a strict client (one that parses every event's data) fails on it.
Needs the proxy's dependencies (pip install '.[gateway]'); no network.
Prints BUG (exit 1) or ok (exit 0).
"""

import asyncio
import os
import sys
from importlib.metadata import version

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # no cost-map download at import

from litellm.proxy._types import UserAPIKeyAuth  # noqa: E402
from litellm.proxy.proxy_server import async_data_generator  # noqa: E402

UPSTREAM = [  # a whole Responses stream as the upstream sent it
    b'event: response.created\ndata: {"type":"response.created","sequence_number":0,'
    b'"response":{"id":"resp_1","status":"in_progress","output":[]}}\n\n',
    b'event: response.completed\ndata: {"type":"response.completed","sequence_number":1,'
    b'"response":{"id":"resp_1","status":"completed","output":[]}}\n\n',
]


async def relayed() -> list[str]:
    async def upstream():
        for frame in UPSTREAM:
            yield frame

    return [frame async for frame in async_data_generator(upstream(), UserAPIKeyAuth(), {"stream": True, "model": "m"},
                                                           responses_stream_errors=True)]


frames = asyncio.run(relayed())
print(f"litellm {version('litellm')}: the proxy's last frame: {frames[-1]!r}")
if "response.completed" not in frames[-1]:
    print("expected: response.completed last (a Responses stream ends with its terminal event)")
    print("BUG")
    sys.exit(1)
print("ok")
