"""The Responses turn of the stream incidents, shared by the Responses contracts.

Reasoning (with its ``encrypted_content`` and a summary), text and two
parallel calls. :data:`EARLY` streams it as a relay may: the calls' deltas
interleaved and arriving before either call is added. :data:`SUMMARIZED`
is a turn whose reasoning summary came in two parts and whose message in
two content parts; :data:`CROSSED` streams it with the second call's
events arriving first, each before its call is added.
"""

from __future__ import annotations

from harness.wire.responses_events import Plan

TURN = {"blocks": [
    {"type": "reasoning", "text": "Two cities.", "signature": "gAAAAABo+x/9==", "item_id": "rs_01", "summary": ["Two cities."]},
    {"type": "text", "text": "Checking both.", "item_id": "msg_01"},
    {"type": "tool_call", "id": "call_A", "name": "get_weather", "arguments": '{"city":"Paris"}', "item_id": "fc_A"},
    {"type": "tool_call", "id": "call_B", "name": "get_weather", "arguments": '{"city":"Oslo"}', "item_id": "fc_B"},
], "stop_reason": "completed", "usage": {"input_tokens": 80, "output_tokens": 40, "total_tokens": 120}}
PIECES = ((("Two ", "cities."),), (("Checking", " both."),), (('{"city":', '"Paris"}'),), (('{"city":', '"Oslo"}'),))
EARLY = Plan(pieces=PIECES, steps=(
    ("added", 0), ("delta", 0), ("delta", 0), ("done", 0), ("added", 1), ("delta", 1), ("delta", 1), ("done", 1),
    ("delta", 2), ("delta", 3), ("delta", 3), ("delta", 2), ("added", 2), ("added", 3), ("done", 3), ("done", 2)))
SUMMARIZED = {"blocks": [
    {"type": "reasoning", "text": "**Finding the cities**\n\nParis and Oslo.**Planning calls**\n\nOne per city.",
     "signature": "gAAAAABo+y/2kQ==", "item_id": "rs_02",
     "summary": ["**Finding the cities**\n\nParis and Oslo.", "**Planning calls**\n\nOne per city."]},
    {"type": "text", "text": "Checking Paris", "item_id": "msg_02"},
    {"type": "text", "text": " and Oslo.", "item_id": "msg_02"},
    {"type": "tool_call", "id": "call_C", "name": "get_weather", "arguments": '{"city":"Paris"}', "item_id": "fc_C"},
    {"type": "tool_call", "id": "call_D", "name": "get_weather", "arguments": '{"city":"Oslo"}', "item_id": "fc_D"},
], "stop_reason": "completed", "usage": {"input_tokens": 80, "output_tokens": 52, "total_tokens": 132}}
CROSSED = Plan(steps=(
    ("added", 0), ("delta", 0), ("delta", 0), ("done", 0), ("added", 1), ("delta", 1), ("delta", 1), ("done", 1),
    ("delta", 3), ("delta", 2), ("added", 3), ("added", 2), ("done", 3), ("done", 2)))
