"""An agent that asks the provider once, declaring no tool, and prints the raw reply: it calls the provider.

    python asks_once.py BASE_URL
"""

import sys

import httpx

reply = httpx.post(f"{sys.argv[-1]}/chat/completions", timeout=60, json={
    "model": "m", "stream": True, "messages": [{"role": "user", "content": "What is the weather in Paris?"}]})
print(reply.text[:200])
