"""The ``serve``, ``probe`` and ``record`` subcommands: their arguments and their dispatch.

Importing this module imports no HTTP stack; each command does when it runs.
"""

from __future__ import annotations

import argparse
import threading

from harness.adapter import DEFAULT_FORMAT, FORMATS
from harness.cli import durations
from harness.rules import models
from harness.loopback.delivery import CLIENT_TIMEOUT
from harness.loopback.probe_case import MAX_REQUESTS
from harness.rules.reasoning import DEFAULT_ERA, ERAS

COMMANDS = ("serve", "probe", "record")
# The chat endpoints of the model table that speak a reasoning dialect are profiles of their row's name.
PROFILES = ("openai", "deepseek", "gateway", *(row.name for row in models.ROWS if row.dialect))
DELIVERY_HELP = ("how streamed bodies are cut: whole, bytes:N, inside-events, inside-crlf, inside-utf8 "
                 "(default: whole)")


def add_subcommands(sub) -> None:
    serve = sub.add_parser("serve", help="run the loopback provider: an OpenAI-compatible server on 127.0.0.1")
    source = serve.add_mutually_exclusive_group()
    source.add_argument("--cassette", metavar="NAME|PATH", help="play a recorded cassette (a bundled name or a file)")
    source.add_argument("--scenario", default="parallel-12", metavar="NAME",
                        help="play a scripted scenario (default: parallel-12; --list-scenarios shows them)")
    _provider_arguments(serve)
    serve.add_argument("--tool", action="append", default=[], metavar="NAME",
                       help="scenarios call only these tools among those a request declares (repeatable)")
    serve.add_argument("--host", metavar="ADDRESS", help="listen here instead of 127.0.0.1 (an explicit ask)")
    serve.add_argument("--port", type=_port, metavar="PORT", help="listen on this port, 0 to 65535 (default: an "
                       "ephemeral one)")
    serve.add_argument("--record-file", metavar="PATH", help="write every exchange as JSON when stopped")
    serve.add_argument("--duration", type=_run_length, metavar="SECONDS", help="stop by itself after this long")
    serve.add_argument("--client-timeout", type=durations.positive, default=CLIENT_TIMEOUT, metavar="SECONDS",
                       help=f"how long a client may take to send a request's headers, and its body; a slower one "
                            f"is answered 408 or disconnected (default: {CLIENT_TIMEOUT:g})")
    serve.add_argument("--list-scenarios", action="store_true", help="list the scripted scenarios and exit")

    probe = sub.add_parser("probe", help="run a scenario suite against an agent program you cannot import")
    probe.add_argument("--agent-cmd", required=True, metavar="COMMAND",
                       help='the agent, one run per user turn: placeholders {base_url}, {session}, {prompt}, '
                            '{provider}, {model}')
    probe.add_argument("--tool", action="append", default=[], metavar="NAME",
                       help="a tool the fake model may call (repeatable); no other tool is ever called")
    probe.add_argument("--scenario", action="append", default=[], metavar="NAME",
                       help="run only these scenarios (repeatable; default: the whole suite)")
    probe.add_argument("--format", choices=tuple(FORMATS), default=DEFAULT_FORMAT, help=_format_help())
    _provider_arguments(probe)
    probe.add_argument("--levels", type=_levels, default=(), metavar="LEVEL[,LEVEL]",
                       help="only checks of these rule levels: wire, robust, provider, policy (default: all)")
    probe.add_argument("--agent-timeout", type=durations.positive, default=60.0, metavar="SECONDS",
                       help="how long one run of the agent may take (default: 60)")
    probe.add_argument("--max-requests", type=_request_count, default=MAX_REQUESTS, metavar="N",
                       help=f"how many requests one run of the agent (one turn) may send; past them it is stopped "
                            f"and agent-finished fails it as looping (default: {MAX_REQUESTS})")
    probe.add_argument("--junitxml", metavar="PATH", help="also write a JUnit XML report")
    probe.add_argument("--markdown", metavar="PATH", help="also write the report as Markdown")
    probe.add_argument("--sarif", metavar="PATH", help="also write the failing checks as SARIF 2.1.0 (code scanning)")
    probe.add_argument("-v", "--verbose", action="store_true", help="show the agent's output of failed runs")

    record = sub.add_parser("record", help="record a provider's answers to a cassette (vcrpy YAML, no credentials)")
    record.add_argument("--base-url", required=True, metavar="URL", help="the provider, e.g. https://api.deepseek.com")
    record.add_argument("--output", "-o", required=True, metavar="PATH", help="the cassette to write")
    record.add_argument("--model", required=True, metavar="NAME", help="the model to ask")
    record.add_argument("--prompt", default="What is the weather in Paris and in Tokyo?", metavar="TEXT",
                        help="the user's question")
    record.add_argument("--tool", action="append", default=[], metavar="NAME",
                        help="offer a scripted tool of this name (repeatable; default: get_weather)")
    record.add_argument("--effort", choices=("off", "low", "medium", "high", "max"), help="the effort asked for")
    record.add_argument("--api-key-env", default="HARNESS_API_KEY", metavar="VAR",
                        help="environment variable that holds the API key (default: HARNESS_API_KEY)")
    record.add_argument("--adapter", metavar="MODULE:ATTR",
                        help="the transport adapter whose HTTP client records (default: the reference)")


def _format_help() -> str:
    """Each format, its label and what {base_url} is, from the format table and the loopback's rows."""
    from harness.formats import spec_for
    from harness.loopback.wires import WIRES

    def base(path: str) -> str:
        return f"ends in {path}" if path else "is the origin"

    rows = [f"{DEFAULT_FORMAT} ({spec_for(DEFAULT_FORMAT).label}, {{base_url}} {base('/v1')})"]
    rows += [f"{name} ({spec_for(name).label}, {{base_url}} {base(row.base_path)})" for name, row in WIRES.items()]
    return (f"the wire the agent talks: {', '.join(rows)}; each but {DEFAULT_FORMAT} is judged by the strict "
            "profile of its name")


def _provider_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--profile", choices=PROFILES, default=None,
                        help="the provider the server plays (serve default: gateway; probe default: openai)")
    parser.add_argument("--deepseek-era", choices=ERAS, default=DEFAULT_ERA,
                        help=f"DeepSeek's reasoning_content rule (default: {DEFAULT_ERA})")
    parser.add_argument("--delivery", default="whole", metavar="MODE", help=DELIVERY_HELP)
    parser.add_argument("--delay", type=durations.non_negative, default=0.0, metavar="MS", help="milliseconds between pieces")


def _run_length(value: str) -> float:
    seconds = durations.positive(value)
    if seconds > threading.TIMEOUT_MAX:
        raise argparse.ArgumentTypeError(f"{value!r} is longer than this platform can wait "
                                         f"({threading.TIMEOUT_MAX:g} s)")
    return seconds


def _request_count(value: str) -> int:
    try:
        count = int(value)
    except ValueError:
        count = 0
    if count < 1:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number of requests (1 or more)")
    return count


def _port(value: str) -> int:
    try:
        port = int(value)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{value!r} is not a TCP port (0 to 65535; 0 picks a free one)")
    return port


def _levels(value: str) -> tuple[str, ...]:
    from harness.rules.levels import parse_levels

    try:
        return parse_levels(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def run(args: argparse.Namespace) -> int:
    if args.command == "serve":
        if args.list_scenarios:
            from harness.loopback.scenarios import describe_all

            print(describe_all())
            return 0
        from harness.loopback.serve import run_serve

        args.profile = args.profile or "gateway"
        return run_serve(args)
    if args.command == "probe":
        from harness.cli.probe import run_probe

        args.profile = args.profile or "openai"
        return run_probe(args)
    if args.command == "record":
        from harness.cli.record import run_record

        return run_record(args)
    raise AssertionError(f"unhandled command {args.command}")
