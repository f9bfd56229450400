"""A bridge adapter whose stream replies carry NaN, Infinity and -Infinity: tokens Python reads, JSON has not."""

import base64
import json
import sys

from harness.reference import adapter as reference

TOKENS = {"prompt_tokens": "NaN", "completion_tokens": "Infinity", "total_tokens": "-Infinity"}

for line in sys.stdin:
    request = json.loads(line)
    if request["method"] == "handshake":
        result = json.dumps({"protocol": 1, "name": "nan bridge", "capabilities": ["stream"]})
    else:
        parsed = reference.parse_stream(base64.b64decode(request["params"]["body_base64"]))
        usage = ", ".join(f'"{key}": {token}' for key, token in TOKENS.items())
        result = json.dumps({**parsed, "usage": None}).replace('"usage": null', f'"usage": {{{usage}}}')
    sys.stdout.write(f'{{"id": {json.dumps(request["id"])}, "result": {result}}}\n')
    sys.stdout.flush()
