"""The loopback provider as a server: where it listens, what it serves, how it delivers, what it records."""

import concurrent.futures
import json
import os
import subprocess
import sys

import httpx
import pytest

from harness.loopback import Delivery, LoopbackProvider, NotLoopback, is_loopback
from harness.wire.sse import chunks

TOOLS = [{"type": "function", "function": {"name": name, "parameters": {
    "type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer", "maximum": 7}},
    "required": ["city"]}}} for name in ("get_weather", "get_time", "delete_everything")]


def _stream(provider, body):
    """The pieces the client read (one per chunk of the chunked encoding) and the exchange recorded."""
    with httpx.stream("POST", provider.base_url + "/chat/completions", json=body, timeout=10) as response:
        pieces = list(response.iter_raw())
    return response, pieces, provider.record.exchanges[-1]


def _body(**extra):
    return {"model": "m", "stream": True, "messages": [{"role": "user", "content": "Weather in Zürich?"}],
            "tools": TOOLS, **extra}


def test_it_listens_on_127_0_0_1_and_an_ephemeral_port_by_default():
    with LoopbackProvider() as provider:
        addresses = [address[0] for address in provider.sockets]
        assert addresses == ["127.0.0.1"] and provider.port > 0
        assert provider.base_url == f"http://127.0.0.1:{provider.port}/v1"


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.10", "example.com"])
def test_it_refuses_a_non_loopback_address_unless_asked_explicitly(host):
    with pytest.raises(NotLoopback, match="not a loopback address"):
        LoopbackProvider(host=host)
    assert not is_loopback(host)


def test_harness_serve_listens_on_loopback_without_host_and_stops_by_itself():
    run = subprocess.run([sys.executable, "-m", "harness", "serve", "--duration", "0.5"], capture_output=True,
                         text=True, timeout=60, env={**os.environ})
    assert run.returncode == 0, run.stderr
    first = run.stdout.splitlines()[0]
    assert first.startswith("harness serve: listening at http://127.0.0.1:"), run.stdout


def test_a_streamed_scenario_round_and_the_same_round_unstreamed():
    with LoopbackProvider(scenario="index-zero") as provider:
        response, pieces, exchange = _stream(provider, _body())
        events = chunks(b"".join(pieces))
        unstreamed = httpx.post(provider.base_url + "/chat/completions", json=_body(stream=False), timeout=10).json()
    assert response.headers["content-type"].startswith("text/event-stream")
    assert b"".join(pieces).endswith(b"data: [DONE]\n\n")
    fragments = [f for e in events for c in e["choices"] for f in c["delta"].get("tool_calls") or ()]
    assert {f["index"] for f in fragments} == {0} and len({f["id"] for f in fragments if "id" in f}) == 3
    calls = unstreamed["choices"][0]["message"]["tool_calls"]
    assert [(c["id"], c["function"]["name"], c["function"]["arguments"]) for c in calls] == [
        (c["id"], c["name"], c["arguments"]) for c in exchange.streamed.calls]
    assert unstreamed["choices"][0]["finish_reason"] == "tool_calls"


def test_the_fake_model_calls_only_declared_and_allowed_tools_with_schema_arguments():
    with LoopbackProvider(scenario="parallel-12", allowed_tools={"get_weather", "get_time", "not_declared"}) as p:
        _, _, exchange = _stream(p, _body())
    calls = exchange.streamed.calls
    assert len(calls) == 12 and {c["name"] for c in calls} == {"get_weather", "get_time"}
    arguments = [json.loads(c["arguments"]) for c in calls]
    assert all(isinstance(a["city"], str) and 0 <= a["days"] <= 7 for a in arguments)
    assert len({c["arguments"] for c in calls}) == 12, "every call gets arguments of its own"


def test_no_allowed_tool_means_no_call():
    with LoopbackProvider(scenario="parallel-12", allowed_tools=set()) as provider:
        _, pieces, exchange = _stream(provider, _body())
    assert exchange.streamed.calls == [] and b"tool_calls" not in b"".join(pieces)


def test_a_request_for_usage_gets_a_usage_chunk_and_keep_alives_are_comments():
    with LoopbackProvider(scenario="keep-alive") as provider:
        _, pieces, _ = _stream(provider, _body(stream_options={"include_usage": True}))
    body = b"".join(pieces)
    assert body.startswith(b": keep-alive\n\n") and body.count(b": keep-alive") > 5
    last = chunks(body)[-1]
    assert last["choices"] == [] and last["usage"]["total_tokens"] > 0


def test_an_error_inside_the_stream_ends_it_without_done():
    with LoopbackProvider(scenario="stream-error") as provider:
        _, pieces, _ = _stream(provider, _body())
        unstreamed = httpx.post(provider.base_url + "/chat/completions", json=_body(stream=False), timeout=10)
    events = chunks(b"".join(pieces))
    assert events[-1]["error"]["type"] == "server_error" and b"[DONE]" not in b"".join(pieces)
    assert unstreamed.status_code == 500 and unstreamed.json()["error"]["type"] == "server_error"


def _cut_body(mode, size=0):
    with LoopbackProvider(scenario="thinking-tools", delivery=Delivery(mode, size, delay=0.005)) as provider:
        _, pieces, exchange = _stream(provider, _body())
    assert len(pieces) == exchange.pieces > 2, "each piece arrives in a read of its own"
    return pieces


def test_delivery_inside_events_never_ends_a_read_at_an_event_end():
    pieces = _cut_body("inside-events")
    assert not [p for p in pieces[:-1] if p.endswith(b"\n\n")], pieces[:3]
    assert not [p for p in pieces[1:] if p.startswith(b"data:")], "and never starts one at its start"


def test_delivery_inside_crlf_ends_every_read_between_cr_and_lf():
    pieces = _cut_body("inside-crlf")
    assert all(p.endswith(b"\r") for p in pieces[:-1]) and all(p.startswith(b"\n") for p in pieces[1:])


def test_delivery_inside_utf8_cuts_every_multibyte_character():
    pieces = _cut_body("inside-utf8")
    cut = [p for p in pieces[:-1] if p[-1] >= 0xC2]
    assert len(cut) == len(pieces) - 1
    with pytest.raises(UnicodeDecodeError):
        pieces[0].decode("utf-8")
    b"".join(pieces).decode("utf-8")


def test_delivery_in_n_byte_pieces():
    pieces = _cut_body("bytes", 7)
    assert {len(p) for p in pieces[:-1]} == {7}


def test_a_cassette_is_matched_by_request_and_played_once():
    with LoopbackProvider(cassette="openai_parallel_tool_calls") as provider:
        assert provider.base_url.endswith("/v1")
        url = provider.base_url + "/chat/completions"
        first = httpx.post(url, json=_body(), timeout=10)
        second = httpx.post(url, json=_body(), timeout=10)
        third = httpx.post(url, json=_body(), timeout=10)
        wrong = httpx.post(provider.origin + "/chat/completions", json=_body(), timeout=10)
    assert b"call_Wq3pX1" in first.content and b"The weather in Paris" in second.content or second.status_code == 200
    assert third.status_code == 500 and "all 2 were played" in third.json()["error"]["message"]
    assert wrong.status_code == 404 and wrong.json()["error"]["message"] == "Invalid URL (POST /chat/completions)"
    assert [e.source for e in provider.record.exchanges[:2]] == [
        "openai_parallel_tool_calls interaction #1", "openai_parallel_tool_calls interaction #2"]


def test_concurrent_requests_are_each_answered_and_numbered():
    with LoopbackProvider(scenario="interleaved", delivery=Delivery("bytes", 64)) as provider:
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            results = list(pool.map(lambda _: _stream(provider, _body())[1], range(16)))
    assert all(b"".join(r).endswith(b"[DONE]\n\n") for r in results)
    assert sorted(e.number for e in provider.record.exchanges) == list(range(1, 17))


def test_the_fixture_starts_and_stops_providers(loopback_provider):
    provider = loopback_provider(scenario="usage", profile="openai")
    response = httpx.post(provider.base_url + "/chat/completions", json=_body(stream=False), timeout=10)
    assert response.status_code == 200 and response.json()["usage"]["total_tokens"] > 0


def test_harness_serve_prints_each_request_and_writes_its_record(tmp_path):
    record = tmp_path / "record.json"
    serve = subprocess.Popen(
        [sys.executable, "-m", "harness", "serve", "--scenario", "thinking-tools", "--profile", "deepseek",
         "--deepseek-era", "v3.2", "--duration", "3", "--record-file", str(record)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = serve.stdout.readline().split()[-1]
        bad = {"model": "deepseek-chat", "tools": TOOLS, "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "c1", "content": "18 °C"}]}
        response = httpx.post(url + "/chat/completions", json=bad, timeout=10)
        out, _ = serve.communicate(timeout=30)
    finally:
        serve.kill()
    assert response.status_code == 400
    assert "#1 POST /v1/chat/completions -> 400" in out and "[provider] reasoning-missing (request #1, message #1" in out
    [exchange] = json.loads(record.read_text(encoding="utf-8"))
    assert exchange["violations"][0]["rule"] == "reasoning-missing" and exchange["status"] == 400


@pytest.mark.parametrize("coding, offer, expected", [
    ("gzip", "gzip, deflate", "gzip"),
    ("deflate", "gzip, deflate", "deflate"),
    ("br", "br, gzip", "br"),
    ("br", "gzip, deflate", "gzip"),  # br not offered: the best offered coding instead
    ("br", "deflate;q=0.5, gzip;q=0.8", "gzip"),
    ("gzip", "identity", None),
    ("gzip", "gzip;q=0, deflate", "deflate"),
    ("gzip", None, None),  # no Accept-Encoding: an identity body
    ("identity", "gzip, deflate, br", None),
])
def test_a_stream_is_compressed_only_in_a_coding_the_request_offers(coding, offer, expected):
    with LoopbackProvider(scenario="thinking-tools", coding=coding) as plain_provider:
        plain = httpx.post(plain_provider.base_url + "/chat/completions", json=_body(),
                           headers={"Accept-Encoding": "identity"}, timeout=10).content
    with LoopbackProvider(scenario="thinking-tools", coding=coding) as provider, httpx.Client(timeout=10) as client:
        client.headers.pop("Accept-Encoding")
        response = client.post(provider.base_url + "/chat/completions", json=_body(),
                               headers={"Accept-Encoding": offer} if offer is not None else {})
    assert response.headers.get("Content-Encoding") == expected
    assert response.content == plain and provider.record.exchanges[-1].response == plain


@pytest.mark.parametrize("coding", ["gzip", "deflate", "br"])
@pytest.mark.parametrize("mode", ["inside-events", "inside-crlf", "inside-utf8", "bytes"])
def test_every_delivery_keeps_its_cuts_in_a_coding(mode, coding):
    """Each piece is flushed on its own: decoded read by read, the pieces are the delivery's own cuts."""
    import zlib

    import brotli

    delivery = Delivery(mode, 7 if mode == "bytes" else 0, delay=0.005)
    with LoopbackProvider(scenario="thinking-tools", delivery=delivery, coding=coding) as provider:
        response, pieces, exchange = _stream(provider, _body())
    assert response.headers["Content-Encoding"] == coding and len(pieces) == exchange.pieces > 2
    decoder = brotli.Decompressor() if coding == "br" else zlib.decompressobj(31 if coding == "gzip" else 15)
    decoded = [decoder.process(p) if coding == "br" else decoder.decompress(p) for p in pieces]
    plain = delivery.pieces(exchange.response)
    assert decoded == plain, (decoded[:3], plain[:3])
