"""``harness conform --upstream-port``: conform plays the gateway's upstream and checks what crossed the gateway.

The gateway here is a relay on 127.0.0.1 that forwards each request to the
upstream port and answers with what came back, its stream passed through a
rewrite: as it is (a faithful gateway: every check of what crossed passes), or
with every signature changed (the opaque-value check must fail).
"""

from __future__ import annotations

import re
import socket
import threading
import urllib.error
import urllib.request
from collections.abc import Callable
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from harness import exit_codes
from harness.cli import main

FORMAT = "anthropic"  # its streams carry signatures, so an opaque value can be bent on the way


@pytest.fixture(autouse=True)
def _credential(monkeypatch):
    monkeypatch.setenv("HARNESS_CONFORM_API_KEY", "sk-conform-upstream")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def relay(upstream_port: int, rewrite: Callable[[bytes], bytes]):
    """A gateway forwarding every POST to the upstream port, its answer's body through ``rewrite``; its origin."""
    class Forward(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 (the handler's name is http.server's)
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "content-length")}
            request = urllib.request.Request(f"http://127.0.0.1:{upstream_port}{self.path}", data=body, method="POST",
                                             headers=headers)
            try:
                with urllib.request.urlopen(request, timeout=60) as answer:
                    status, kind, data = answer.status, answer.headers.get("Content-Type", ""), rewrite(answer.read())
            except urllib.error.HTTPError as refused:
                status, kind, data = refused.code, refused.headers.get("Content-Type", ""), refused.read()
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):  # quiet
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Forward)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def _conform(origin: str, upstream_port: int, junit) -> int:
    return main(["conform", "--base-url", origin, "--format", FORMAT, "--model", "m", "--no-strictness",
                 "--upstream-port", str(upstream_port), "--junitxml", str(junit)])


def _crossing(junit) -> dict[str, bool]:
    import xml.etree.ElementTree as ET

    cases = ET.parse(junit).getroot().iter("testcase")
    return {c.get("name"): c.find("failure") is None for c in cases if c.get("classname") == "conform.crossing"}


def test_a_faithful_gateway_passes_every_check_of_what_crossed(tmp_path, capsys):
    port = _free_port()
    with relay(port, lambda body: body) as origin:
        code = _conform(origin, port, tmp_path / "r.xml")
    out = capsys.readouterr().out
    crossing = _crossing(tmp_path / "r.xml")
    assert code == exit_codes.OK, out
    assert crossing and all(crossing.values()), crossing
    assert f"upstream: the loopback provider, chat completions at http://127.0.0.1:{port}" in out, out


def test_a_gateway_that_bends_signatures_fails_the_opaque_value_check(tmp_path, capsys):
    port = _free_port()
    bent = re.compile(rb'("signature": ?")')
    with relay(port, lambda body: bent.sub(rb"\1gateway:", body)) as origin:
        code = _conform(origin, port, tmp_path / "r.xml")
    out = capsys.readouterr().out
    crossing = _crossing(tmp_path / "r.xml")
    assert code == exit_codes.CONTRACTS_FAILED, out
    assert crossing.get("gateway-opaque-kept") is False, (crossing, out)


def test_an_upstream_port_already_taken_is_a_usage_error(capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        code = main(["conform", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--upstream-port", str(port)])
    assert code == exit_codes.USAGE
    assert f"--upstream-port {port}: cannot listen there" in capsys.readouterr().err


@pytest.mark.parametrize("port", ["0", "65536", "http"])
def test_an_upstream_port_out_of_range_is_refused(port, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["conform", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--upstream-port", port])
    assert exit_.value.code == 2
    assert "expected a port from 1 to 65535" in capsys.readouterr().err
