"""Contract: a stream cut into any network reads, plain or compressed, gives the same turn as the stream in one piece.

Incident: providers and the proxies before them hand a stream to the client in
whatever pieces TCP makes: an event ends in the middle of a read, a ``\\r\\n``
straddles two reads, a UTF-8 character is split between them. A client that
parses each read as whole events drops or garbles the event cut in two: a
tool-call fragment lost is a tool run with truncated arguments (incident
`sse-index-accumulation`'s fingerprint, "has empty arguments"), a character
cut in two is mojibake persisted as the answer. Replay in one piece never
shows it; the loopback provider (``harness.loopback``) cuts the stream on
purpose, with a pause between pieces so that each arrives in a read of its
own. A compressed stream (``Content-Encoding: gzip``, ``deflate``, ``br``,
flushed piece by piece as a server streaming it does) is cut the same way,
and must be decoded before it is framed.

Rule: for each delivery (every event cut in its middle; every ``\\r\\n`` cut
between ``\\r`` and ``\\n``; every multi-byte character cut after its first
byte; one byte at a time), a turn against the scripted ``split-stream``
scenario (reasoning, three parallel calls with interleaved argument
fragments, a usage chunk, then an answer with non-ASCII text) runs each tool
once with the arguments streamed for its call, sends a follow-up request
(read from the provider's record) that carries every call with its streamed
id and arguments followed by one tool message per call, and persists the
answer exactly as streamed. The same holds with each delivery's pieces sent in
a content coding (gzip, deflate, br), which the loopback provider uses only
when the request's ``Accept-Encoding`` offers it (else the best offered one,
else none): a client decodes every coding it offers.

Level: wire (HTTP and SSE promise nothing about where a read ends; HTTP
content coding is part of the transport every HTTP client honours).

Production fingerprint: intermittent tool runs with empty or cut arguments
and answers with ``\\ufffd`` in them, that never reproduce against a local
mock serving whole bodies; a ``JSONDecodeError`` on ``\\x1f\\x8b...`` once a CDN
compresses the stream.
"""

import pytest

from harness.clip import clip_json, shown
from harness.loopback.content_coding import IDENTITY, choose
from harness.testing import Delivery, LoopbackProvider, ScriptedTool, pairing_violations, same_arguments
from harness.under_test.invoke import valid

pytestmark = pytest.mark.wire

QUESTION = "Weather in Zürich, Tokyo and Lisbon?"
PAUSE = 0.002  # seconds between pieces: each piece reaches the client in a read of its own
DELIVERIES = [
    pytest.param(Delivery("inside-events", delay=PAUSE), IDENTITY, id="inside-events"),
    pytest.param(Delivery("inside-crlf", delay=PAUSE), IDENTITY, id="inside-crlf"),
    pytest.param(Delivery("inside-utf8", delay=PAUSE), IDENTITY, id="inside-utf8"),
    pytest.param(Delivery("bytes", 1), IDENTITY, id="one-byte-pieces"),
    # every delivery mode and every coding at least once, without the whole product
    pytest.param(Delivery("whole"), "gzip", id="whole-gzip"),
    pytest.param(Delivery("inside-events", delay=PAUSE), "gzip", id="inside-events-gzip"),
    pytest.param(Delivery("inside-crlf", delay=PAUSE), "deflate", id="inside-crlf-deflate"),
    pytest.param(Delivery("inside-utf8", delay=PAUSE), "br", id="inside-utf8-br"),
    pytest.param(Delivery("bytes", 1), "deflate", id="one-byte-pieces-deflate"),
    pytest.param(Delivery("bytes", 7), "br", id="seven-byte-pieces-br"),
]


class CityTool(ScriptedTool):
    """A scripted tool whose schema asks for a city and a number of days, so every call's arguments differ."""

    @property
    def schema(self) -> dict:
        return {"type": "function", "function": {
            "name": self.name, "description": f"scripted tool {self.name}",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"},
                                                            "days": {"type": "integer", "maximum": 7}},
                           "required": ["city"]}}}


def _turn(transport, delivery, coding):
    tools = [CityTool("get_weather"), CityTool("get_forecast")]
    with LoopbackProvider(scenario="split-stream", delivery=delivery, coding=coding) as provider:
        result = valid(transport).run_http_turn(provider.base_url, QUESTION, tools, {})
    return provider.record.exchanges, tools, result


@pytest.mark.parametrize("delivery, coding", DELIVERIES)
def test_a_stream_cut_anywhere_gives_the_same_turn(transport, delivery, coding):
    exchanges, tools, result = _turn(transport, delivery, coding)
    offer = exchanges[0].headers.get("Accept-Encoding") or exchanges[0].headers.get("accept-encoding")
    delivery = f"{delivery.describe()} in content coding {choose(coding, offer)} (Accept-Encoding {offer!r})"
    streamed = exchanges[0].streamed
    calls = {c["id"]: (c["name"], c["arguments"]) for c in streamed.calls}
    runs = sorted((tool.name, run.arguments) for tool in tools for run in tool.runs)
    expected = sorted(calls.values())
    same = len(runs) == len(expected) and all(
        name == want_name and same_arguments(arguments, want)
        for (name, arguments), (want_name, want) in zip(runs, expected)
    )
    assert same, (
        f"delivery {delivery}: the tools ran as {shown(runs)}, but the stream carried the calls {shown(expected)} "
        f"(cut into {exchanges[0].pieces} pieces)"
    )
    assert len(exchanges) >= 2, f"delivery {delivery}: the client sent no follow-up request"
    messages = exchanges[1].messages
    sent = {c.get("id"): (c.get("function", {}).get("name"), c.get("function", {}).get("arguments"))
            for m in messages if m.get("role") == "assistant" for c in m.get("tool_calls") or ()}
    assert sent.keys() == calls.keys() and all(
        sent[cid][0] == name and same_arguments(sent[cid][1], arguments) for cid, (name, arguments) in calls.items()
    ), f"delivery {delivery}: the follow-up request sent the calls {sent}, expected {shown(calls)}"
    problems = pairing_violations(messages)
    assert not problems, (
        f"delivery {delivery}: the follow-up request breaks the pairing rule:\n" + "\n".join(problems)
        + "\nmessages: " + clip_json(messages, 1500)
    )
    answer = result["events"][-1]["response"] if result["events"] else None
    assert answer == exchanges[-1].streamed.text, (
        f"delivery {delivery}: the turn persisted the answer {shown(answer)}, but the stream carried "
        f"{exchanges[-1].streamed.text!r}"
    )
