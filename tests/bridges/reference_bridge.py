"""A bridge adapter for the harness's own tests: the reference codec behind JSON lines.

Each faulty bridge next to it serves this with one fault: ``serve(fault)``
calls ``fault(method, params)`` before answering each request; the fault may
exit, hang or print garbage. ``--fold-reasoning`` adds the `deepseek-reasoning-400` bug (the
reasoning folded into content), so a run has failed contracts as well.
"""

from __future__ import annotations

import base64
import json
import sys
from collections.abc import Callable

from harness.reference import adapter as reference

CAPABILITIES = ["codec"]


def _serialize(params: dict) -> dict:
    wire = reference.serialize_message(params["message"])
    reasoning = wire.pop("reasoning_content", None)
    if reasoning and "--fold-reasoning" in sys.argv:
        wire["content"] = reasoning + (wire.get("content") or "")
    elif reasoning:
        wire["reasoning_content"] = reasoning
    return wire


METHODS: dict[str, Callable[[dict], object]] = {
    "handshake": lambda params: {"protocol": 1, "name": "reference bridge", "capabilities": CAPABILITIES},
    "serialize_message": _serialize,
    "parse_stream": lambda params: reference.parse_stream(base64.b64decode(params["body_base64"])),
    "transform_request": lambda params: reference.transform_request(params["body"], params["options"]),
}


def serve(fault: Callable[[str, dict], None] = lambda method, params: None) -> None:
    for line in sys.stdin:
        request = json.loads(line)
        method, params = request["method"], request.get("params", {})
        fault(method, params)
        try:
            reply = {"id": request["id"], "result": METHODS[method](params)}
        except Exception as exc:
            reply = {"id": request["id"], "error": {"type": "internal", "message": f"{type(exc).__name__}: {exc}"}}
        print(json.dumps(reply), flush=True)


def is_twelve_calls_stream(method: str, params: dict) -> bool:
    """The one request each faulty bridge trips on: the stream of the twelve-calls contract."""
    return method == "parse_stream" and b"City 7" in base64.b64decode(params["body_base64"])


if __name__ == "__main__":
    serve()
