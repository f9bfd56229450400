"""Contract: a recorded reply gives the same turn in one piece, in many small pieces and compressed, and an HTTP error stays one.

Incident: every real stream reaches the client in many network reads, cut
wherever TCP and the proxies in between cut it; replay in one piece never
shows a client that reads one network read as the whole body, or joins reads
wrongly (incident `sse-index-accumulation`'s fingerprint, tool calls with cut
arguments, came back that way). And incident `deepseek-reasoning-400` fails
over only because an HTTP error surfaces as an error naming its status
("all 2 providers failed, last error: api error 400"), including when the
error body is not text: a proxy's binary page, a Latin-1 message. Providers
and the CDNs before them also compress streams (``Content-Encoding: gzip``,
``deflate``, ``br``) for a client that offers it; a client that offers a
coding and frames the bytes as they came reads nothing.

Rule: for each recorded cassette, played by the loopback provider once in
one piece and once in each of several cuttings (pieces of 1 byte; of 7 bytes;
every event cut in its middle, with a pause so each piece is a read of its
own), the turn has the same outcome: the same requests sent (their JSON
bodies, in order), the tools run with the same arguments in the same order,
the same persisted events (timestamps aside); the options and the tools the
caller passed are left as they were. The same holds for the reply sent in
each content coding (gzip, deflate, br; by the in-process player or the
loopback provider), which the players use only when the request's
``Accept-Encoding`` offers it (else the best offered one, else none): a
client decodes every coding it offers. An HTTP error status (400, 429, 500,
503) whose body is JSON, HTML, empty or not UTF-8 fails the turn with an
error that names the status.

Level: per case. The OpenAI cassette is wire; the gateway cassette (every
call at ``index`` 0) is robust, as its own contract's; the DeepSeek thinking
cassette is provider. The same outcome is the rule in every case: HTTP and
SSE promise nothing about where a read ends, and HTTP content coding is part
of the transport every HTTP client honours. The error cases are wire (the
format's error responses).

Production fingerprint: tool calls with truncated or empty arguments, answers
with ``\\ufffd`` or glued words, only in production and never against a mock
serving whole bodies; a ``UnicodeDecodeError`` instead of a failover when a
proxy answers 502 with a binary page; ``JSONDecodeError`` on ``\\x1f\\x8b...``
once a CDN starts compressing the stream.
"""

import base64
import copy
import tempfile
from pathlib import Path

import pytest

from harness.clip import clip_repr, shown
from harness.loopback.content_coding import CODINGS, IDENTITY, choose
from harness.testing import Delivery, ScriptedTool, play
from harness.under_test.invoke import refusal

CASSETTES = {
    "openai_parallel_tool_calls": ("Weather in Paris and Tokyo, and the time in Tokyo?", ["get_time", "get_weather"],
                                   {"effort": "high", "model": "o4-mini"}),
    "gateway_index_zero": ("Is it warmer in Oslo or in Lisbon?", ["get_weather"], {"effort": "low"}),
    "deepseek_thinking_tools": ("Was invoice INV-0312 paid? Check the ledger too.", ["sql_query", "read_file"],
                                {"effort": "high"}),
}
LEVELS = {"openai_parallel_tool_calls": pytest.mark.wire, "gateway_index_zero": pytest.mark.robust,
          "deepseek_thinking_tools": pytest.mark.provider}
WHOLE = Delivery("whole")
CUTS = [Delivery("bytes", 1), Delivery("bytes", 7), Delivery("inside-events", delay=0.002)]


def _outcome(transport, cassette: str, delivery: Delivery | None, coding: str = IDENTITY):
    question, names, options = CASSETTES[cassette]
    tools = [ScriptedTool(name) for name in names]
    given_tools, options_before = list(tools), copy.deepcopy(options)
    with play(cassette, transport, delivery=delivery, coding=coding) as played:
        asked = played.options(options)
        asked_before = copy.deepcopy(asked)
        try:
            result = transport.run_http_turn(played.base_url, question, tools, asked)
            events = [{k: v for k, v in e.items() if k != "timestamp"} for e in result["events"]]
            ended = ("answered", events)
        except Exception as exc:  # compared with the whole delivery's outcome
            ended = ("failed", type(exc).__name__)
    assert asked == asked_before and options == options_before, (
        f"run_http_turn changed the options it was given to {shown(asked)}; they were {asked_before}"
    )
    assert tools == given_tools, f"run_http_turn changed the tools list it was given to {[t.name for t in tools]}"
    runs = [(tool.name, [run.arguments for run in tool.runs]) for tool in tools]
    offers = [request.headers.get("Accept-Encoding") for request in played.sent]
    codings = [f"{choose(coding, offer)} (Accept-Encoding {offer!r})" for offer in offers]
    return {"requests": played.sent_bodies(), "tool runs": runs, "turn": ended}, codings


@pytest.mark.parametrize("delivery", CUTS, ids=lambda d: d.describe().replace(" ", ""))
@pytest.mark.parametrize("cassette", [pytest.param(c, marks=LEVELS[c]) for c in CASSETTES])
def test_a_reply_in_pieces_gives_the_turn_it_gives_whole(transport, cassette, delivery):
    whole, _ = _outcome(transport, cassette, WHOLE)
    assert whole["turn"][0] == "answered", (
        f"{cassette} in one piece: the turn failed with {whole['turn'][1]}, but the recorded reply is valid"
    )
    cut, _ = _outcome(transport, cassette, delivery)
    differ = [key for key in whole if whole[key] != cut[key]]
    assert not differ, (
        f"{cassette} delivered as {delivery.describe()}: {', '.join(differ)} differ from the same reply in one "
        "piece:\n" + "\n".join(f"  {k}: in pieces {clip_repr(cut[k], 700)}\n  {' ' * len(k)}  whole     "
                               f"{clip_repr(whole[k], 700)}" for k in differ)
    )


@pytest.mark.parametrize("coding", CODINGS)
@pytest.mark.parametrize("cassette", [pytest.param(c, marks=LEVELS[c]) for c in CASSETTES])
def test_a_compressed_reply_gives_the_turn_it_gives_plain(transport, cassette, coding):
    plain, _ = _outcome(transport, cassette, None)
    assert plain["turn"][0] == "answered", (
        f"{cassette} uncompressed: the turn failed with {plain['turn'][1]}, but the recorded reply is valid"
    )
    coded, used = _outcome(transport, cassette, None, coding)
    differ = [key for key in plain if plain[key] != coded[key]]
    assert not differ, (
        f"{cassette} answered, request by request, in the content coding {', '.join(used)} (the player prefers "
        f"{coding} when offered): {', '.join(differ)} differ from the same reply "
        "uncompressed:\n" + "\n".join(f"  {k}: coded {clip_repr(coded[k], 700)}\n  {' ' * len(k)}  plain "
                                      f"{clip_repr(plain[k], 700)}" for k in differ)
    )


_ERROR_BODIES = {
    "json": b'{"error":{"message":"The reasoning_content in the thinking mode must be passed back to the API."}}',
    "html": b"<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>",
    "empty": b"",
    "not-utf8": b"\xff\xfe<\x00h\x00t\x00m\x00l\x00>\x00 \xe9chec \x80\x81",
}


def _error_cassette(status: int, body: bytes) -> str:
    encoded = base64.b64encode(body).decode()
    return f"""\
interactions:
- request:
    body: '{{"model": "deepseek-chat", "stream": true, "messages": []}}'
    headers:
      Content-Type:
      - application/json
    method: POST
    uri: https://api.deepseek.com/chat/completions
  response:
    body:
      string: !!binary |
        {encoded or '""'}
    headers:
      Content-Type:
      - text/html; charset=iso-8859-1
    status:
      code: {status}
      message: Error
version: 1
"""


@pytest.mark.wire
@pytest.mark.parametrize("body", _ERROR_BODIES)
@pytest.mark.parametrize("status", [400, 429, 500, 503])
def test_an_http_error_fails_the_turn_naming_its_status(transport, status, body):
    with tempfile.TemporaryDirectory(prefix="harness-http-error-") as tmp:
        cassette = Path(tmp) / f"http_{status}.yaml"
        cassette.write_text(_error_cassette(status, _ERROR_BODIES[body]), encoding="utf-8")
        with play(cassette, transport) as played:
            error = refusal(transport.run_http_turn, played.base_url, "What did we decide yesterday?", [],
                            played.options({}), why=f"the provider answered HTTP {status} with a {body} body")
    assert str(status) in str(error), (
        f"the turn failed with {type(error).__name__}: {shown(str(error)[:700])}, which should name the HTTP status "
        f"{status} (the provider answered it with a {body} body)"
    )
