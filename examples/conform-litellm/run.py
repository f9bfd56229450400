"""LiteLLM's proxy between ``harness conform`` and the loopback: what a real gateway emits, and what crosses it.

The loopback is the proxy's one upstream model (``openai/loopback-model``: the
proxy calls its chat completions route, or its Responses route for a model
declared to reason, as it chooses; chat under the strict ``openai`` profile); the proxy is started on a free port with a config
that routes ``loopback-model`` there (declared as a reasoning model with
parallel tool calls, as the conversations ask for both); then ``harness conform`` speaks each
format the proxy serves (chat completions, Anthropic Messages, OpenAI
Responses, Gemini) to it, and holds every turn it emitted to the turn the
loopback streamed for it, each decoded in the format of the route that served it (:mod:`harness.conform.crossing`). One Markdown
report per format is written to ``--out``; the exit status is 1 when a check
failed. Needs the ``litellm`` command with its proxy dependencies
(``litellm[proxy]``)::

    python examples/conform-litellm/run.py --out conform-litellm/
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from harness.conform import Target, conform
from harness.formats import SPECS, spec_for
from harness.loopback.server import LoopbackProvider
from harness.outcomes.results import FAILED
from harness.report.results_markdown import render_markdown

MODEL = "loopback-model"
UPSTREAM = "chat"  # the loopback route the proxy is configured with (its API base)
STARTUP = 180.0  # seconds the proxy may take to answer its health check
CONFIG = """model_list:
  - model_name: {model}
    litellm_params:
      model: openai/{model}
      api_base: {base}
      api_key: loopback-key
    model_info:
      supports_reasoning: true
      supports_function_calling: true
      supports_parallel_function_calling: true
router_settings:
  disable_cooldowns: true  # one refused request must not take the model out for the next format's run
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_healthy(url: str, proxy: subprocess.Popen) -> None:
    deadline = time.monotonic() + STARTUP
    while time.monotonic() < deadline:
        if proxy.poll() is not None:
            raise SystemExit(f"the proxy exited with status {proxy.returncode} before it answered")
        try:
            with urllib.request.urlopen(url + "/health/liveliness", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.5)  # polling a process we do not control; no verdict depends on it
    raise SystemExit(f"the proxy did not answer {url}/health/liveliness within {STARTUP:g} s")


def _served_format(provider: LoopbackProvider, exchange) -> str:
    """The format of the loopback route that answered ``exchange`` (the proxy picks the upstream API itself)."""
    route = next((r for r in provider.routes if r.accepts(exchange.method, exchange.path)), None)
    return route.wire.name if route is not None else UPSTREAM


def upstream_turns(provider: LoopbackProvider, first: int):
    """The turns the loopback streamed from exchange ``first`` on, in order, each decoded by its route's format."""
    def turns() -> list[dict]:
        found = []
        for exchange in provider.record.exchanges[first:]:
            spec = spec_for(_served_format(provider, exchange))
            if exchange.status == 200 and exchange.pieces and spec.framing.read(exchange.response):
                found.append(spec.codec.decode(spec.reference_adapter().parse_stream(exchange.response)))
        return found
    return turns


def _report(args: argparse.Namespace, base: str, name: str, checks, log) -> bool:
    """Write and print one format's results; whether a check failed."""
    spec = spec_for(name)
    results = [c.result() for c in checks]
    bad = [r for r in results if r.status == FAILED]
    header = [f"target: LiteLLM proxy ({args.litellm}) at {base}, upstream: the loopback",
              f"format: {name} ({spec.label})", f"requests: {len(log)}"]
    (args.out / f"{name}.md").write_text(render_markdown(f"harness conform: LiteLLM proxy, {name}", header, results,
                                                         "check", by_capability=False, every=True), encoding="utf-8")
    print(f"{name}: {len(results) - len(bad)} of {len(results)} checks not failed; failed: "
          f"{', '.join(r.name for r in bad) or 'none'}", flush=True)
    return bool(bad)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("conform-litellm"), help="where the reports go")
    parser.add_argument("--litellm", default="litellm", help="the proxy's command")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("HARNESS_CONFORM_API_KEY", "sk-conform")
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # no fetch from the network at start-up
    # The proxy runs on 127.0.0.1 only, for this run: it is started without a master key.
    os.environ.setdefault("LITELLM_DANGEROUSLY_PERMIT_WEAK_OR_UNSET_MASTER_KEY", "true")
    failed = False
    with LoopbackProvider(profile="openai") as provider, tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "config.yaml"
        config.write_text(CONFIG.format(model=MODEL, base=provider.route_url(UPSTREAM)), encoding="utf-8")
        base = f"http://127.0.0.1:{_free_port()}"
        with (args.out / "proxy.log").open("w") as proxy_log:
            proxy = subprocess.Popen([args.litellm, "--config", str(config), "--host", "127.0.0.1", "--port",
                                      base.rsplit(":", 1)[1]], stdout=proxy_log, stderr=subprocess.STDOUT,
                                     start_new_session=True)
            try:
                _wait_healthy(base, proxy)
                for name, spec in SPECS.items():
                    first = len(provider.record)
                    checks, log = conform(Target(base, spec, MODEL), upstream=upstream_turns(provider, first))
                    failed = _report(args, base, name, checks, log) or failed
            finally:
                if proxy.poll() is None:
                    os.killpg(proxy.pid, signal.SIGTERM)
                    proxy.wait(30)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
