"""The Messages stream of the stream incidents, shared by the Anthropic stream contracts.

Interleaved thinking with tools: a thinking block, text, a redacted_thinking
block between two calls, three tool_use blocks (the last one with no
arguments, streamed as ``""`` only), a second thinking block, pings between the events, usage split
between ``message_start`` and ``message_delta``. :data:`PLAN` streams it as
Anthropic does (each signature in one ``signature_delta``); :data:`SPLIT_PLAN`
as a re-chunking relay does (the first signature over three deltas).
"""

from __future__ import annotations

from dataclasses import replace

from harness.wire.anthropic_events import Plan, whole_signatures

SIGNATURE = "EqoBCkgIARABGAIiQL2Dv6+Jq0Q1m3hB/wWuk3oX1c5Rk0WyZQ==" * 3
REDACTED = "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP" * 2
TURN = {
    "blocks": [
        {"type": "reasoning", "text": "The user wants the weather in two cities, then the time.",
         "signature": SIGNATURE},
        {"type": "text", "text": "Let me look both up — één moment. 🌦"},
        {"type": "tool_call", "id": "toolu_01A09q90qw90lq917835lq9", "name": "get_weather",
         "arguments": '{"city": "Zürich", "unit": "celsius"}'},
        {"type": "redacted_reasoning", "data": REDACTED},
        {"type": "tool_call", "id": "toolu_01B9vEp7sDq3ykGdXJ6h5wLt", "name": "get_weather",
         "arguments": '{"city": "Oslo"}'},
        {"type": "reasoning", "text": "Now the clock.", "signature": "c2lnLTI="},
        {"type": "tool_call", "id": "toolu_01CkQqvW8PpGm4DRyyXh7Hb2", "name": "get_time", "arguments": ""},
    ],
    "stop_reason": "tool_use",
    "usage": {"input_tokens": 472, "output_tokens": 181, "cache_read_input_tokens": 0},
}
PIECES = (
    (("thinking", ""), ("thinking", "The user wants the weather "), ("thinking", "in two cities, then the time."),
     ("signature", SIGNATURE[:50]), ("signature", SIGNATURE[50:101]), ("signature", SIGNATURE[101:])),
    (("text", "Let me look both up"), ("text", " — één moment."), ("text", ""), ("text", " 🌦")),
    (("arguments", ""), ("arguments", '{"city": "Z'), ("arguments", 'ürich", "unit"'),
     ("arguments", ': "celsius"}')),
    (),
    (("arguments", ""), ("arguments", '{"city": "Oslo"}')),
    (("thinking", "Now the clock."), ("signature", "c2lnLTI=")),
    (("arguments", ""),),
)
SPLIT_PLAN = Plan(pieces=PIECES, start_usage={"input_tokens": 472, "output_tokens": 1, "cache_read_input_tokens": 0},
                  pings=(1, 6, 20))
PLAN = replace(SPLIT_PLAN, pieces=whole_signatures(PIECES))
