"""`harness serve` as a user runs it, against clients that would hold it: slow ones, and bodies that add up.

A client that never ends its headers or its body is answered 408 or
disconnected after ``--client-timeout``, while other clients are served; the
bytes the server keeps are bounded (:data:`harness.loopback.serve.KEPT_BYTES`),
the oldest forgotten with every request's violations kept.
"""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
from urllib.parse import urlsplit

import httpx
import pytest

from harness import exit_codes
from harness.loopback.serve import KEPT_BYTES

WAIT = 120  # seconds before the test gives up on an event; never a verdict by itself


@pytest.fixture
def serve(tmp_path):
    """A `harness serve` child with a 2 s client timeout; yields (base URL, record path, process)."""
    record = tmp_path / "record.json"
    child = subprocess.Popen([sys.executable, "-m", "harness", "serve", "--client-timeout", "2", "--record-file",
                              str(record)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = child.stdout.readline().split()[-1]
        assert url.startswith("http://127.0.0.1:"), (url, child.stderr.read())
        yield url, record, child
    finally:
        child.kill()
        child.wait()


def _stop(child) -> str:
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=WAIT)
    assert child.returncode == exit_codes.OK, f"exit {child.returncode}\n{out[-2000:]}{err[-2000:]}"
    return out


def _connect(url: str) -> socket.socket:
    parts = urlsplit(url)
    sock = socket.create_connection((parts.hostname, parts.port), timeout=WAIT)
    return sock


def _read_all(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (a closed connection is the event waited for)."""
    chunks = []
    while chunk := sock.recv(65536):
        chunks.append(chunk)
    return b"".join(chunks)


def test_a_client_that_never_sends_its_body_is_answered_408_while_others_are_served(serve):
    url, record, child = serve
    slow = _connect(url)
    slow.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                 b"Content-Length: 1000\r\n\r\n{\"model\":")  # and nothing more
    served = httpx.post(url + "/chat/completions", timeout=WAIT, json={
        "model": "m", "messages": [{"role": "user", "content": "hi"}]})
    answer = _read_all(slow)
    slow.close()
    out = _stop(child)
    assert served.status_code == 200, f"a client beside the slow one got {served.status_code}: {served.text[:300]}"
    assert answer.startswith(b"HTTP/1.1 408"), f"the slow client got {answer[:300]!r}, expected a 408 then a close"
    assert "did not send its body within 2 s" in out, out[-2000:]


def test_a_client_that_never_ends_its_headers_is_disconnected(serve):
    url, _, child = serve
    slow = _connect(url)
    slow.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n")  # the headers never end
    answer = _read_all(slow)
    slow.close()
    _stop(child)
    assert answer == b"", f"expected the connection closed without an answer, got {answer[:300]!r}"


def test_the_bytes_kept_are_bounded_and_every_violation_is_kept(serve):
    url, record, child = serve
    size = KEPT_BYTES // 2 - 1024  # three of them do not fit; two do
    statuses = [httpx.post(url + "/chat/completions", content=bytes([ord("a") + n]) * size, timeout=WAIT,
                           headers={"Content-Type": "application/json"}).status_code for n in range(3)]
    out = _stop(child)
    assert statuses == [400, 400, 400], statuses
    assert "stopped after 3 request(s), 3 violation(s); the bytes of the 1 oldest were not kept" in out, out[-2000:]
    first, second, third = json.loads(record.read_text(encoding="utf-8"))
    assert first["request"].startswith("[not kept: "), str(first["request"])[:200]
    assert [e["violations"][0]["rule"] for e in (first, second, third)] == ["body-not-json"] * 3
    assert second["request"] == "b" * size and third["request"] == "c" * size, "the newest bodies were not kept"
