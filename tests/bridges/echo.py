"""A bridge adapter that shows the harness what arrived, and exercises the callbacks.

``parse_stream`` answers with the body exactly as it arrived (base64 in
``content``), or, for the body ``b"ask the model"``, sends a ``model`` request
that ``parse_stream`` does not serve. ``run_turn`` runs a tool the turn does
not offer, then asks the model twice, and returns the replies it got.
"""

import json
import sys

_ids = iter(range(1, 1_000_000))


def send(message: dict) -> None:
    print(json.dumps(message), flush=True)


def ask(method: str, params: dict) -> dict:
    request_id = f"e{next(_ids)}"
    send({"id": request_id, "method": method, "params": params})
    return json.loads(sys.stdin.readline())


def parse_stream(params: dict) -> dict:
    if params["body_base64"] == "YXNrIHRoZSBtb2RlbA==":  # b"ask the model"
        ask("model", {"request": {}})
    return {"content": params["body_base64"], "reasoning": "", "tool_calls": [], "finish_reason": None, "usage": None}


def run_turn(params: dict) -> dict:
    replies = [ask("tool", {"name": "no_such_tool", "arguments": "{}"})]
    for _ in range(2):
        replies.append(ask("model", {"request": {"messages": [{"role": "user", "content": params["user_input"]}]}}))
        if "error" in replies[-1]:
            raise RuntimeError(f"the harness refused: {replies[-1]['error']}")
    return {"events": [], "replies": replies}


METHODS = {
    "handshake": lambda params: {"protocol": 1, "name": "echo bridge", "capabilities": ["codec", "kernel"]},
    "parse_stream": parse_stream,
    "run_turn": run_turn,
}

for line in sys.stdin:
    request = json.loads(line)
    try:
        send({"id": request["id"], "result": METHODS[request["method"]](request["params"])})
    except Exception as exc:
        send({"id": request["id"], "error": {"type": "internal", "message": str(exc)}})
