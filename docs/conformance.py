"""Run the contracts against every shipped adapter and write ``docs/conformance.md``.

    python docs/conformance.py [--output docs/conformance.md] [--only NAME ...]

Each adapter runs under ``harness check --hypothesis-profile ci`` with a JUnit
report; the tables count passed / failed / not applicable by wire format, rule
level and capability (a contract of another format than the adapter's is left
out of its row), and every failure is listed with the finding that explains it
(``docs/findings/findings.toml``). A ``wire`` failure that no finding explains
is a harness defect or an unconfirmed library bug, and so is any failure of a format's
reference: the script then exits 1.
The gateway table is read from the gateways' recorded results
(``examples/conform-litellm/recorded.json``, written by that example with
``--record`` and held to by ``tests/test_conform_gateway.py``): every failure in
it is linked to a finding (``docs/findings/gateways.toml``), and one that no
finding explains exits 1 too.
Needs the library extras (``pip install '.[test]'``) and the Vercel adapters'
packages (``npm ci --prefix examples/vercel-ai-adapter``, and the same for
``examples/vercel-ai-anthropic``, ``examples/vercel-ai-responses`` and ``examples/vercel-ai-google``).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import tomllib
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from harness.adapter import DEFAULT_FORMAT, FORMATS
from harness.formats import SPECS

REPO = Path(__file__).resolve().parent.parent
FINDINGS = REPO / "docs" / "findings" / "findings.toml"
GATEWAY_RECORDS = [REPO / "examples" / "conform-litellm" / "recorded.json"]  # one per gateway under conform
GATEWAY_FINDINGS = REPO / "docs" / "findings" / "gateways.toml"
LEVELS = ("wire", "robust", "provider", "policy")

# Each format's bundled reference runs first, from the format table: it must pass every contract of its format.
REFERENCES = [
    ("reference" if name == DEFAULT_FORMAT else f"reference ({name})", name, ["--adapter", spec.reference])
    for name, spec in SPECS.items()
]
# The shipped library adapters: (name shown, wire format, harness check arguments); names are unique across
# formats (findings.toml uses them).
LIBRARIES = [
    ("openai-python", "chat", ["--adapter", "harness.libraries.openai_sdk:adapter"]),
    ("langchain-openai", "chat", ["--adapter", "harness.libraries.langchain_openai:adapter"]),
    ("litellm", "chat", ["--adapter", "harness.libraries.litellm_sdk:adapter"]),
    ("Vercel AI SDK", "chat", ["--adapter-cmd", "node examples/vercel-ai-adapter/bridge.js"]),
    ("anthropic-python", "anthropic", ["--adapter", "harness.libraries.anthropic_sdk:adapter"]),
    ("langchain-anthropic", "anthropic", ["--adapter", "harness.libraries.langchain_anthropic:adapter"]),
    ("litellm (Anthropic)", "anthropic", ["--adapter", "harness.libraries.litellm_anthropic:adapter"]),
    ("Vercel AI SDK (Anthropic)", "anthropic", ["--adapter-cmd", "node examples/vercel-ai-anthropic/bridge.js"]),
    ("openai-python (Responses)", "openai-responses", ["--adapter", "harness.libraries.openai_responses:adapter"]),
    ("langchain-openai (Responses)", "openai-responses",
     ["--adapter", "harness.libraries.langchain_openai_responses:adapter"]),
    ("OpenAI Agents SDK", "openai-responses", ["--adapter", "harness.libraries.openai_agents:adapter"]),
    ("Vercel AI SDK (Responses)", "openai-responses", ["--adapter-cmd", "node examples/vercel-ai-responses/bridge.js"]),
    ("google-genai", "gemini", ["--adapter", "harness.libraries.google_genai:adapter"]),
    ("Vercel AI SDK (Gemini)", "gemini", ["--adapter-cmd", "node examples/vercel-ai-google/bridge.js"]),
    ("botocore", "bedrock", ["--adapter", "harness.libraries.botocore_converse:adapter"]),
    ("langchain-aws", "bedrock", ["--adapter", "harness.libraries.langchain_aws:adapter"]),
    ("litellm (Bedrock)", "bedrock", ["--adapter", "harness.libraries.litellm_bedrock:adapter"]),
]
ADAPTERS = REFERENCES + LIBRARIES
REFERENCE_NAMES = {name for name, _, _ in REFERENCES}


@dataclass
class Outcome:
    nodeid: str
    level: str
    capability: str
    status: str  # passed | failed | not applicable
    message: str


def _outcomes(junit: Path) -> list[Outcome]:
    found = []
    for case in ET.parse(junit).getroot().iter("testcase"):
        props = {p.get("name"): p.get("value") for p in case.iter("property")}
        classname = case.get("classname", "")
        nodeid = f"{classname.rsplit('.', 1)[-1]}.py::{case.get('name')}"
        failure = case.find("failure") if case.find("failure") is not None else case.find("error")
        skipped = case.find("skipped")
        if failure is not None:
            status, message = "failed", (failure.get("message") or "").splitlines()[0:1]
        elif skipped is not None:
            status, message = "not applicable", []
        else:
            status, message = "passed", []
        found.append(Outcome(nodeid, props.get("level", "?"), props.get("capability", "?"), status,
                             message[0] if message else ""))
    return found


def _run(name: str, args: list[str]) -> tuple[list[Outcome], str]:
    with tempfile.TemporaryDirectory(prefix="harness-conformance-") as tmp:
        junit = Path(tmp) / "junit.xml"
        run = subprocess.run(
            [sys.executable, "-m", "harness", "check", "--hypothesis-profile", "ci", "--junitxml", str(junit), *args],
            cwd=REPO, capture_output=True, text=True, timeout=1800,
        )
        header = run.stdout.splitlines()[0] if run.stdout else ""
        if not junit.exists():
            raise SystemExit(f"{name}: harness check wrote no report (exit {run.returncode}):\n{run.stdout}{run.stderr}")
        return _outcomes(junit), header


def _findings() -> list[dict]:
    return tomllib.loads(FINDINGS.read_text())["finding"] if FINDINGS.exists() else []


def _explained(name: str, nodeid: str, findings: list[dict]) -> dict | None:
    for finding in findings:
        if finding["adapter"] == name and any(nodeid.startswith(c) for c in finding["contracts"]):
            return finding
    return None


def _cell(outcomes: list[Outcome]) -> str:
    counts = Counter(o.status for o in outcomes)
    if not outcomes:
        return ""
    if counts["not applicable"] == len(outcomes):
        return "n/a"
    text = f"{counts['passed']} ✓"
    if counts["failed"]:
        text += f" **{counts['failed']} ✗**"
    if counts["not applicable"]:
        text += f" ({counts['not applicable']} n/a)"
    return text


def _tables(results: dict[str, tuple[list[Outcome], str]]) -> list[str]:
    """Per format that has results, a table per rule level: its adapters by the capabilities its contracts call."""
    formats = {name: fmt for name, fmt, _ in ADAPTERS}
    lines = []
    for fmt, title in FORMATS.items():
        rows = {name: outcomes for name, (outcomes, _) in results.items() if formats.get(name) == fmt}
        if not rows:
            continue
        capabilities = sorted({o.capability for outcomes in rows.values() for o in outcomes})
        lines += [f"## {fmt}: {title}", ""]
        for level in LEVELS:
            if not any(o.level == level for outcomes in rows.values() for o in outcomes):
                continue  # no contract of this format at this level yet
            lines += [f"### {level}", "", "| library | " + " | ".join(capabilities) + " |",
                      "|---|" + "---|" * len(capabilities)]
            for name, outcomes in rows.items():
                cells = [_cell([o for o in outcomes if o.level == level and o.capability == cap])
                         for cap in capabilities]
                lines.append(f"| {name} | " + " | ".join(cells) + " |")
            lines.append("")
    return lines


def render(results: dict[str, tuple[list[Outcome], str]], findings: list[dict]) -> tuple[str, list[str]]:
    unexplained = []
    failures: list[str] = ["## Failures", ""]
    for name, (outcomes, header) in results.items():
        failed = [o for o in outcomes if o.status == "failed"]
        failures += [f"### {name}", "", f"`{header}`", ""]
        if not failed:
            failures += ["No failure.", ""]
            continue
        failures += ["| level | contract | finding |", "|---|---|---|"]
        for o in sorted(failed, key=lambda o: (LEVELS.index(o.level) if o.level in LEVELS else 9, o.nodeid)):
            finding = _explained(name, o.nodeid, findings)
            if name in REFERENCE_NAMES:
                link = "**the reference fails its own contract**"
                unexplained.append(f"{name}: {o.nodeid}: {o.message}")
            elif finding is not None:
                link = f"[{finding['slug']}](findings/{finding['slug']}.md)"
            elif o.level == "wire":
                link = "**unexplained**"
                unexplained.append(f"{name}: {o.nodeid}: {o.message}")
            else:
                link = f"beyond the format ({o.level})"
            failures.append(f"| {o.level} | `{o.nodeid}` | {link} |")
        failures.append("")
    head = [
        "# Conformance of widely used client libraries",
        "",
        "Generated by `python docs/conformance.py`; do not edit by hand. Each library runs the",
        "contracts through a thin adapter over its own code (`harness/libraries/`, the Vercel AI SDK",
        "bridges `examples/vercel-ai-*/`), in memory, no network. Each format's reference runs first:",
        "the bundled reference passes every contract of its format, at every level.",
        "Cells: passed ✓, failed ✗, not applicable. Each library runs the contracts of the wire format",
        "its adapter speaks: one set of tables per format, one table per rule level that has contracts.",
        "A correct client library passes every `wire` contract; `robust`, `provider` and `policy`",
        "rules go beyond the format (README, \"Rule levels\").",
        "",
    ]
    return "\n".join(head + _tables(results) + failures), unexplained


def _gateway_findings() -> list[dict]:
    return tomllib.loads(GATEWAY_FINDINGS.read_text())["finding"] if GATEWAY_FINDINGS.exists() else []


def gateway_section(records: list[dict], findings: list[dict]) -> tuple[list[str], list[str]]:
    """The gateways' table (a row per format a gateway serves, a cell per level) and their failures, each linked
    to its finding; the failures no finding explains."""
    lines = ["## Gateways under `harness conform`", "",
             "Recorded by `examples/conform-litellm/run.py --record` (the gateway between `harness conform` and the",
             "loopback, every format it serves; `docs/conform.md`); `tests/test_conform_gateway.py` holds each run",
             "of the gateway to the record. Cells: passed ✓, failed ✗, not applicable, by check level.", "",
             "| gateway | format | " + " | ".join(LEVELS) + " |", "|---|---|" + "---|" * len(LEVELS)]
    failures, unexplained = ["### Gateway failures", "", "| gateway | format | level | check | finding |",
                             "|---|---|---|---|---|"], []
    for record in records:
        gateway = f"{record['gateway']} {record['version']}"
        for fmt in [name for name in SPECS if name in record["formats"]]:
            checks = record["formats"][fmt]
            cells = [_cell([Outcome(check, r["level"], "", r["status"], "") for check, r in checks.items()
                            if r["level"] == level]) for level in LEVELS]
            lines.append(f"| {gateway} | {fmt} | " + " | ".join(cells) + " |")
            for check, r in sorted(checks.items(), key=lambda item: (LEVELS.index(item[1]["level"]), item[0])):
                if r["status"] != "failed":
                    continue
                finding = next((f for f in findings if f["gateway"] == record["gateway"]
                                and f"{fmt}: {check}" in f["checks"]), None)
                if finding is None:
                    link = "**unexplained**"
                    unexplained.append(f"{gateway}: {fmt}: {check}")
                else:
                    link = f"[{finding['slug']}](findings/{finding['slug']}.md)"
                failures.append(f"| {gateway} | {fmt} | {r['level']} | `{check}` | {link} |")
    return lines + [""] + failures + [""], unexplained


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=REPO / "docs" / "conformance.md")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="run only these adapters (names as in the table)")
    args = parser.parse_args()
    results = {}
    for name, _, adapter_args in ADAPTERS:
        if args.only and name not in args.only:
            continue
        print(f"{name}: running the contracts ...", flush=True)
        results[name] = _run(name, adapter_args)
    text, unexplained = render(results, _findings())
    gateways, unexplained_gateways = gateway_section(
        [json.loads(path.read_text(encoding="utf-8")) for path in GATEWAY_RECORDS], _gateway_findings())
    text += "\n\n" + "\n".join(gateways)
    unexplained += unexplained_gateways
    args.output.write_text(text + "\n")
    print(f"wrote {args.output}")
    for line in unexplained:
        print(f"unexplained wire failure: {line}")
    return 1 if unexplained else 0


if __name__ == "__main__":
    raise SystemExit(main())
