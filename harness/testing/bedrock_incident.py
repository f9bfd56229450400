"""The Bedrock turns and streams of the incidents, shared by the Bedrock contracts.

A thinking turn as Claude on Bedrock streams it: two reasoning blocks, each
with its own signature (a decoder that keeps one signature for the turn, or
never clears it, sends back ``SIG1SIG2``), a redacted block, text with no
start event, and three parallel calls, one with no input and one whose input
streams in pieces interleaved with the text's deltas (a decoder keying
blocks by arrival merges the text into a call). Its usage and stop reason.
"""

from __future__ import annotations

from harness.wire.bedrock_events import Plan

SIG1 = "EqQBCkgIBxABGAIiQL0fFbHnm4s0oO7R3cY8r0nMqDq2mW0Z5Kf2p3x1Yk9E2Zk0s1p4tZ5E8w=="
SIG2 = "ErcBCkgIBxABGAIiQN1y4Pq8v2s9Lw0XKc6mZ5nX3T1gH7bQ0jR2uV9kY8cA1dF6eS4wZ0o="
REDACTED = "RXJFQ2trSUJ4QUJHQUlpUUxvbkxzTmg0UT09AAEC/w=="
USAGE = {"inputTokens": 412, "outputTokens": 187, "totalTokens": 599, "cacheReadInputTokens": 0}

TURN = {
    "blocks": [
        {"type": "reasoning", "text": "The user wants weather in two cities.", "signature": SIG1},
        {"type": "redacted_reasoning", "data": REDACTED},
        {"type": "reasoning", "text": "Then the time — één call.", "signature": SIG2},
        {"type": "text", "text": "Checking Zürich and Oslo. 🌦"},
        {"type": "tool_call", "id": "tooluse_kZJMlvQmRJ6eAyJE5GIl7Q", "name": "get_weather",
         "arguments": '{"city": "Zürich", "unit": "celsius"}'},
        {"type": "tool_call", "id": "tooluse_3KxF9vL0QyWm2Rr7bN1sTg", "name": "get_weather",
         "arguments": '{"city": "Oslo", "days": [1, 2], "extra": {"wind": true, "gust": null}}'},
        {"type": "tool_call", "id": "tooluse_Hd8qP0aZTXu5cV2yLm9wEe", "name": "get_time", "arguments": ""},
    ],
    "stop_reason": "tool_use",
    "usage": USAGE,
}
# Reasoning in two pieces then its signature; the text and the first call's input interleaved; the empty-input
# call's start only.
PLAN = Plan(
    pieces=(("The user wants ", "weather in two cities."), (), ("Then the time", " — één call."),
            ("Checking Zürich", " and Oslo. 🌦"), ('{"city": "Zü', 'rich", "unit": "celsius"}'),
            ('{"city": "Oslo", ', '"days": [1, 2], "extra": {"wind": true, "gust": null}}'), ()),
    schedule=(0, 0, 0, 1, 2, 2, 2, 3, 4, 3, 4, 5, 5),
)
ANSWER = {"blocks": [{"type": "text", "text": "Zürich 12°C, Oslo 4°C; it is 14:05."}], "stop_reason": "end_turn",
          "usage": USAGE}
