"""LiteLLM's proxy between ``harness conform`` and the loopback: what a real gateway emits, and what crosses it.

The loopback is the proxy's one upstream model (``openai/loopback-model``: the
proxy calls its chat completions route, or its Responses route for a model
declared to reason, as it chooses; chat under the strict ``openai`` profile);
the proxy is started on a free port with a config that routes
``loopback-model`` there (declared as a reasoning model with parallel tool
calls, as the conversations ask for both); then ``harness conform`` speaks each
format the proxy serves to it, and holds every turn it emitted to the turn the
loopback streamed for it (:mod:`harness.conform.crossing`). One Markdown
report per format is written to ``--out``. Needs the ``gateway`` extra (LiteLLM
with its proxy), in an environment of its own (it pins an older litellm than the
``litellm`` extra)::

    python examples/conform-litellm/run.py --out conform-litellm/ [--litellm PATH] [--record]

``--record`` writes every check's status to :data:`RECORDED` (the results
``docs/conformance.py`` shows and ``tests/test_conform_gateway.py`` holds each
run to); without it the exit status is 1 when the run differs from them.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from harness.conform import Target, conform
from harness.conform.upstream import STRICT_CHAT, upstream_turns
from harness.formats import SPECS, spec_for
from harness.loopback.server import LoopbackProvider
from harness.report.results_markdown import render_markdown

RECORDED = Path(__file__).with_name("recorded.json")
GATEWAY = "LiteLLM proxy"
MODEL = "loopback-model"
UPSTREAM = "chat"  # the loopback route the proxy is configured with (its API base)
STARTUP = 300.0  # seconds the proxy may take to answer its health check (it imports for long on a loaded machine)
SERVED = ("chat", "anthropic", "openai-responses", "gemini")  # the client APIs the proxy serves
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
ENVIRONMENT = {
    "HARNESS_CONFORM_API_KEY": "sk-conform",
    "LITELLM_LOCAL_MODEL_COST_MAP": "True",  # no fetch from the network at start-up
    # The proxy runs on 127.0.0.1 only, for this run: it is started without a master key.
    "LITELLM_DANGEROUSLY_PERMIT_WEAK_OR_UNSET_MASTER_KEY": "true",
}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_healthy(url: str, proxy: subprocess.Popen) -> None:
    deadline = time.monotonic() + STARTUP
    while time.monotonic() < deadline:
        if proxy.poll() is not None:
            raise RuntimeError(f"the proxy exited with status {proxy.returncode} before it answered")
        try:
            with urllib.request.urlopen(url + "/health/liveliness", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.5)  # polling a process we do not control; no verdict depends on it
    raise RuntimeError(f"the proxy did not answer {url}/health/liveliness within {STARTUP:g} s")


def proxy_version(command: str) -> str:
    """The litellm version installed beside ``command`` (the proxy's own environment)."""
    python = Path(command).with_name("python")
    run = subprocess.run([str(python) if python.exists() else sys.executable, "-c",
                          "from importlib.metadata import version; print(version('litellm'))"],
                         capture_output=True, text=True, timeout=120)
    return run.stdout.strip() or "unknown"


@contextmanager
def gateway(command: str, log: Path) -> Iterator[tuple[str, LoopbackProvider]]:
    """The proxy (``command``) on a free 127.0.0.1 port in front of a fresh loopback: its base URL and the loopback."""
    for key, value in ENVIRONMENT.items():
        os.environ.setdefault(key, value)
    with LoopbackProvider(profile=STRICT_CHAT) as provider, tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "config.yaml"
        config.write_text(CONFIG.format(model=MODEL, base=provider.route_url(UPSTREAM)), encoding="utf-8")
        port = _free_port()
        with log.open("w") as proxy_log:
            proxy = subprocess.Popen([command, "--config", str(config), "--host", "127.0.0.1", "--port", str(port)],
                                     stdout=proxy_log, stderr=subprocess.STDOUT, start_new_session=True)
            try:
                base = f"http://127.0.0.1:{port}"
                _wait_healthy(base, proxy)
                yield base, provider
            finally:
                if proxy.poll() is None:
                    os.killpg(proxy.pid, signal.SIGTERM)
                    proxy.wait(60)


def run(command: str, out: Path) -> dict[str, list]:
    """Conform in every format the proxy serves, each held to what the loopback streamed: the checks by format."""
    out.mkdir(parents=True, exist_ok=True)
    checks: dict[str, list] = {}
    with gateway(command, out / "proxy.log") as (base, provider):
        for name in SERVED:
            first = len(provider.record)
            found, log = conform(Target(base, SPECS[name], MODEL), upstream=upstream_turns(provider, first))
            checks[name] = found
            header = [f"target: {GATEWAY} at {base}, upstream: the loopback", f"format: {name}",
                      f"requests: {len(log)}"]
            (out / f"{name}.md").write_text(render_markdown(f"harness conform: {GATEWAY}, {name}", header,
                                                            [c.result() for c in found], "check",
                                                            by_capability=False, every=True), encoding="utf-8")
    return checks


def recorded_form(checks: dict[str, list], version: str) -> dict:
    """The run as :data:`RECORDED` keeps it: every check's level and status, by format."""
    return {"gateway": GATEWAY, "version": version,
            "formats": {name: {f"{c.scenario}::{c.rule}": {"level": c.level, "status": c.status} for c in found}
                        for name, found in checks.items()}}


def differences(got: dict, recorded: dict) -> list[str]:
    """What a run did otherwise than recorded: each check whose status changed, appeared or went."""
    lines = []
    if got["version"] != recorded["version"]:
        lines.append(f"litellm {got['version']} ran; the results recorded are of {recorded['version']}")
    for name in sorted(set(got["formats"]) | set(recorded["formats"])):
        mine, theirs = got["formats"].get(name, {}), recorded["formats"].get(name, {})
        for check in sorted(set(mine) | set(theirs)):
            now = mine.get(check, {}).get("status", "not run")
            then = theirs.get(check, {}).get("status", "not recorded")
            if now != then:
                lines.append(f"{name}: {check}: {now}, recorded {then}")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("conform-litellm"), help="where the reports go")
    parser.add_argument("--litellm", default="litellm", help="the proxy's command (the gateway extra's `litellm`)")
    parser.add_argument("--record", action="store_true", help=f"write the results to {RECORDED.name}")
    args = parser.parse_args()
    checks = run(args.litellm, args.out)
    got = recorded_form(checks, proxy_version(args.litellm))
    for name, found in checks.items():
        failed = [f"{c.scenario}::{c.rule}" for c in found if c.status == "failed"]
        print(f"{name}: {len(found) - len(failed)} of {len(found)} checks not failed; failed: "
              f"{', '.join(failed) or 'none'}", flush=True)
    if args.record:
        RECORDED.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {RECORDED}")
        return 0
    changed = differences(got, json.loads(RECORDED.read_text(encoding="utf-8")))
    for line in changed:
        print(f"differs from the record: {line}")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
