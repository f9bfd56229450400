"""``harness serve``: the loopback provider on the command line, until stopped.

The first line printed is the base URL to give a chat client; then the
provider's settings, and one line per route it serves (chat's, then every
row of :mod:`harness.loopback.wires`: the format, its request, the URL its
clients are given, its scenario and strict profile); then one line per
request (number, path, status, what answered it, the pieces) and one per rule
it broke. ``--record-file`` writes every exchange as JSON when the server
stops; ``--duration`` stops it by itself.

A server that runs for hours keeps the bytes of its newest requests and
answers only, :data:`KEPT_BYTES` in all: older ones are forgotten (the record
file says how many bytes each lost) while every request's line, status and
violations are kept. A client slower than ``--client-timeout`` to send its
request is answered 408 or disconnected.
"""

from __future__ import annotations

import json
import signal
import sys
import threading
from pathlib import Path

from harness import exit_codes

KEPT_BYTES = 16 * 1024 * 1024  # of requests and answers, the newest


def run_serve(args) -> int:
    from harness.loopback.delivery import Delivery
    from harness.loopback.server import DEFAULT_HOST, LoopbackProvider, is_loopback

    host = args.host or DEFAULT_HOST
    if not is_loopback(host):  # before anything else: the URLs printed next reach beyond this machine
        print(f"harness serve: warning: listening on {host}, not only on loopback (asked with --host); anyone who "
              "can reach it can use it", file=sys.stderr, flush=True)
    try:
        delivery = Delivery.parse(args.delivery, (args.delay or 0) / 1000)
        provider = LoopbackProvider(
            cassette=args.cassette,
            scenario=args.scenario if args.cassette is None else None,
            profile=args.profile,
            era=args.deepseek_era,
            delivery=delivery,
            allowed_tools=frozenset(args.tool) if args.tool else None,
            host=host,
            port=args.port or 0,
            allow_remote=args.host is not None,
            listener=_print_exchange,
            client_timeout=args.client_timeout,
            kept_bytes=KEPT_BYTES,
        )
    except (ValueError, FileNotFoundError) as exc:
        print(f"harness serve: {exc}", file=sys.stderr)
        return exit_codes.USAGE
    stop = threading.Event()
    previous = {sig: signal.signal(sig, lambda *_: stop.set()) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        try:
            provider.start()
        except OSError as exc:
            print(f"harness serve: cannot listen on {provider.host}:{provider.port}: {exc}", file=sys.stderr)
            return exit_codes.USAGE
        print(f"harness serve: listening at {provider.base_url}", flush=True)
        print(f"harness serve: {provider.describe()}", flush=True)
        for line in routes_served(provider):
            print(f"harness serve: {line}", flush=True)
        stop.wait(args.duration)
    finally:
        provider.stop()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if args.record_file:
        Path(args.record_file).write_text(
            json.dumps([e.to_json() for e in provider.record.exchanges], ensure_ascii=False, indent=2) + "\n",
            encoding="utf-8",
        )
    record = provider.record
    forgotten = (f"; the bytes of the {record.forgotten} oldest were not kept (over {KEPT_BYTES // 2**20} MiB)"
                 if record.forgotten else "")
    print(f"harness serve: stopped after {len(record)} request(s), {len(record.violations)} violation(s)"
          + forgotten)
    return exit_codes.OK


def routes_served(provider) -> list[str]:
    """One line per route: chat's at the base URL, then each other format's at the URL its clients are given."""
    from harness.adapter import DEFAULT_FORMAT
    from harness.formats import spec_for

    chat = spec_for(DEFAULT_FORMAT)
    lines = [f"{chat.label} ({chat.endpoint}) at {provider.route_url(chat.name)}, profile "
             f"{provider.profile.describe()}"]
    for route in provider.routes:
        spec = spec_for(route.wire.name)
        lines.append(f"{spec.label} ({spec.endpoint}) at {provider.route_url(spec.name)}, scenario "
                     f"{route.scenario.name}, profile {route.profile.describe()}")
    return lines


def _print_exchange(exchange) -> None:
    print(f"#{exchange.number} {exchange.method} {exchange.path} -> {exchange.status}"
          + (f" ({exchange.source}, {exchange.pieces} piece(s))" if exchange.source else "")
          + (f": {exchange.note}" if exchange.note else ""), flush=True)
    for violation in exchange.violations:
        print(f"  {violation.describe()}", flush=True)
