"""The reference transport: one client per transport, closed with it, every one with the one SSL context."""

from __future__ import annotations

import ssl

import httpx
import pytest

from harness.adapter import LoadedAdapter
from harness.plugin.session import RunState
from harness.reference import adapter as reference, transport
from harness.testing.cassettes import replay
from harness.testing.scripted import ScriptedTool


def _turn(http) -> None:
    with replay("gateway_index_zero") as played:
        result = http.run_http_turn(played.base_url, "Oslo or Lisbon?", [ScriptedTool("get_weather")], {})
    assert result["events"][-1]["response"] == "Lisbon is warmer than Oslo today."


@pytest.fixture
def opened(monkeypatch) -> list[httpx.Client]:
    """Every httpx client the transport opens while the test runs."""
    clients: list[httpx.Client] = []

    class Counted(httpx.Client):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            clients.append(self)

    monkeypatch.setattr(httpx, "Client", Counted)
    return clients


def test_turns_on_one_transport_share_one_client_closed_with_the_transport(opened):
    with transport.HttpTransport() as http:
        for _ in range(3):
            _turn(http)
        assert len(opened) == 1, f"{len(opened)} clients opened for 3 turns"
        assert not opened[0].is_closed
    assert opened[0].is_closed


def test_a_turn_after_close_opens_a_new_client(opened):
    http = transport.HttpTransport()
    http.close()  # nothing opened yet: nothing to close
    _turn(http)
    http.close()
    _turn(http)
    try:
        assert len(opened) == 2 and opened[0].is_closed and not opened[1].is_closed
    finally:
        http.close()
    assert opened[1].is_closed


def test_the_session_closes_the_adapter_it_forgets(opened):
    _turn(reference)
    assert opened and not opened[-1].is_closed
    run = RunState(config=None, loaded=LoadedAdapter("harness.reference:adapter", reference, reference.capabilities))
    run.forget_adapter()
    assert opened[-1].is_closed and run.loaded is None


def test_an_adapter_without_close_is_left_as_it_is():
    LoadedAdapter("plain", object(), frozenset()).close()


def test_turns_build_one_ssl_context_between_them(monkeypatch):
    built = []
    real = ssl.create_default_context

    def counted(*args, **kwargs):
        built.append(args or kwargs)
        return real(*args, **kwargs)

    # httpx builds a client's context with ssl.create_default_context, looked up at each call.
    monkeypatch.setattr(ssl, "create_default_context", counted)
    transport._ssl_context.cache_clear()
    try:
        for _ in range(3):
            with transport.HttpTransport() as http:  # a client each, so only the shared context is counted once
                _turn(http)
    finally:
        transport._ssl_context.cache_clear()
    assert len(built) == 1, f"{len(built)} SSL contexts built for 3 clients"
