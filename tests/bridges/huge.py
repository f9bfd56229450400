"""A bridge adapter whose every reply is valid and long (100 MB, or the MB given): the harness must stay small."""

import json
import sys

SIZE = int(sys.argv[1] if len(sys.argv) > 1 else 100) * 1024 * 1024
PAD = "x" * SIZE

for line in sys.stdin:
    request = json.loads(line)
    if request["method"] == "handshake":
        result = json.dumps({"protocol": 1, "name": "huge bridge", "capabilities": ["stream", "messages"]})
        sys.stdout.write(f'{{"id": {json.dumps(request["id"])}, "result": {result}}}\n')
    elif request["method"] == "parse_stream":
        sys.stdout.write(f'{{"id": {json.dumps(request["id"])}, "result": {{"content": "{PAD}", "reasoning": "", '
                         '"tool_calls": [], "finish_reason": "stop", "usage": null}}\n')
    else:
        sys.stdout.write(f'{{"id": {json.dumps(request["id"])}, "result": {{"role": "assistant", '
                         f'"content": "{PAD}"}}}}\n')
    sys.stdout.flush()
