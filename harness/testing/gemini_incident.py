"""The Gemini turns and streams of the incidents, shared by the Gemini contracts.

A thinking turn with thought summaries, text, and three parallel calls (only
the first signed, as Gemini signs parallel calls), one with no arguments and
one with nested arguments; the same calls with ids, as newer models send
them; a text answer whose signature arrives on a final part with empty
text; and a thinking answer whose signature came on its thought part.
Streamed several parts to a chunk, with running usage.
"""

from __future__ import annotations

from harness.wire.gemini_events import Plan

SIGNATURE = "CiQBcsjafL3k7Zq0YF0bXGgq2w8ngPM1+tq3H7QkgrqfnHRIbE4KZAFyyNp8" * 2
USAGE = {"promptTokenCount": 96, "candidatesTokenCount": 41, "totalTokenCount": 331, "thoughtsTokenCount": 194}


def _call(name: str, arguments: str, cid: str = "", signature: str | None = None) -> dict:
    call = {"type": "tool_call", "id": cid, "name": name, "arguments": arguments}
    return call if signature is None else {**call, "signature": signature}


PARALLEL = {
    "blocks": [
        {"type": "reasoning", "text": "**Weather in two cities**\n\nI'll look both up at once.", "signature": ""},
        {"type": "text", "text": "Checking Zürich and Oslo — één moment. 🌦"},
        _call("get_weather", '{"city":"Zürich","unit":"celsius"}', signature=SIGNATURE),
        _call("get_weather", '{"city":"Oslo","days":[1,2],"extra":{"wind":true,"gust":null}}'),
        _call("get_time", ""),
    ],
    "stop_reason": "STOP",
    "usage": USAGE,
}
# The running count of the first chunk holds a key the last one leaves out: it is not carried over.
PARALLEL_PLAN = Plan(groups=(1, 1, 3), running_usage=((0, {"promptTokenCount": 96, "totalTokenCount": 290,
                                                            "cachedContentTokenCount": 64}),))
WITH_IDS = {**PARALLEL, "blocks": [
    {**b, "id": f"fc_{k:02d}"} if b["type"] == "tool_call" else b for k, b in enumerate(PARALLEL["blocks"])]}
ONE_PER_CHUNK = Plan(groups=(1, 1, 1, 1, 1), finish_alone=True)
SIGNED_ANSWER = {
    "blocks": [{"type": "text", "text": "Zürich 12°C, Oslo 4°C."}, {"type": "text", "text": " Time: 14:05."},
               {"type": "text", "text": "", "signature": "c2lnLWFuc3dlcg=="}],
    "stop_reason": "STOP",
    "usage": USAGE,
}
# The signature on the thought part itself, as streams with thought summaries may send it.
SIGNED_THOUGHT = {
    "blocks": [{"type": "reasoning", "text": "**Comparing the forecasts**\n\nOslo is colder.", "signature": SIGNATURE},
               {"type": "text", "text": "Oslo is colder than Zürich today."}],
    "stop_reason": "STOP",
    "usage": USAGE,
}
