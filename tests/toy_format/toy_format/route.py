"""The toy format's loopback row (entry point group ``harness.loopback_wires``): a body with a messages list,
answered by one text turn, streamed as NDJSON when the body asks for a stream."""

from __future__ import annotations

from harness.loopback.delivery import Delivery
from harness.loopback.probe_case import Case
from harness.loopback.round_types import Round, RoundScenario
from harness.loopback.strict_route import WireFormat
from harness.loopback.wires import Wire
from toy_format.codec import turn_body
from toy_format.spec import NAME, PATH


def _error(status: int, message: str) -> tuple[int, dict]:
    return status, {"error": {"message": message}}


def _turn_for(scenario: RoundScenario, body: dict, allowed=None, prompts=()) -> tuple[dict, bool]:
    turn = {"blocks": [{"type": "text", "text": f"héllo after {len(body['messages'])} messages"}],
            "stop_reason": "end_turn", "usage": None}
    return turn, False


WIRE = Wire(
    WireFormat(
        name=NAME, label="Toy", rules=(),
        scenarios={"text": RoundScenario("text", "one text answer", "wire", ((Round(("text",)),),))},
        default_scenario="text",
        accepts=lambda method, path: method == "POST" and path == PATH,
        authenticate=lambda headers, query: None,
        shape=lambda body: None if isinstance(body.get("messages"), list) else "the body has no 'messages' list",
        shape_rule="messages-missing",
        unreadable=lambda fault: _error(400, fault.detail),
        refusals=lambda body, sent: [],
        paired=lambda body, sent: None,
        refused=lambda refusal: _error(400, refusal.message),
        item_index=lambda path: None,
        turn_for=_turn_for,
        streams=lambda path, query, body: bool(body.get("stream")),
        stream_body=lambda turn, fails: turn_body(turn),
        whole=lambda turn, fails, path, body=None: (200, turn),
    ),
    base_path="/toy",
    suite=(Case("text", Delivery("inside-events")),),
)


