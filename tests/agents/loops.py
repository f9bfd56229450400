"""An agent stuck in a loop: it asks the provider again and again, never ending its turn.

    python loops.py BASE_URL
"""

import sys

import httpx

with httpx.Client(timeout=60) as client:
    while True:
        client.post(f"{sys.argv[-1]}/chat/completions", json={
            "model": "m", "messages": [{"role": "user", "content": "What is the weather in Paris?"}]})
