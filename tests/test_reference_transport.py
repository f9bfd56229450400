"""The reference transport: one client per transport, closed with it, every one with the one SSL context."""

from __future__ import annotations

import subprocess
import sys

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


def test_a_process_that_imported_the_transport_builds_no_ssl_context_for_its_turns():
    # A fresh process, so no earlier turn built anything: what it builds for its turns (on three clients) is what
    # each fork of a process that only imported the transport (a gate's worker) would build again.
    script = """
import ssl
from harness.reference import transport
from harness.testing.cassettes import replay
from harness.testing.scripted import ScriptedTool

built = []
real = ssl.create_default_context
def counted(*args, **kwargs):
    built.append(args or kwargs)
    return real(*args, **kwargs)
ssl.create_default_context = counted  # httpx builds a client's context with it, looked up at each call
for _ in range(3):
    with transport.HttpTransport() as http, replay("gateway_index_zero") as played:
        http.run_http_turn(played.base_url, "Oslo or Lisbon?", [ScriptedTool("get_weather")], {})
print(len(built))
"""
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.strip() == "0", (
        f"{run.stdout.strip()} SSL contexts built for 3 turns on 3 clients after the import: expected none, the "
        "import builds the one they share"
    )
