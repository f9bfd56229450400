"""Check a mutation report page the way a person sees it: headless Chromium, from a file path, no network.

    python benchmarks/nightly_html_screenshot.py [REPORT_DIR] [--out shot.png]

With REPORT_DIR (one that ``harness nightly``, ``harness gate`` or ``harness
report merge`` wrote) it opens that report's ``mutation-report.html``;
without, it renders a small report first. It fails unless Chromium is
installed (``apt-get install -y chromium``), the screenshot is written, and
the page as rendered (the viewer draws inside shadow roots, so a script added
to a copy of the page gathers their text) shows the mutation score, every
file of the report, and the source line of a surviving mutant. Chromium runs
with its network switched off (``--proxy-server`` to a closed port), so a page
that loaded anything from outside would show it missing. CI runs this script.
"""

from __future__ import annotations

import argparse
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from harness.report.html import render_html

_CHROMIUM = ("chromium", "chromium-browser", "google-chrome")
_OFFLINE = ["--headless", "--no-sandbox", "--disable-gpu", "--proxy-server=127.0.0.1:9", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--window-size=1280,2000", "--virtual-time-budget=10000"]
# Appended to a copy of the page: the rendered text of every shadow root, into the light DOM.
_GATHER = """<script>
setTimeout(() => {
  const parts = [];
  const walk = (node) => {
    if (node.nodeName === "SCRIPT" || node.nodeName === "STYLE") return;
    if (node.nodeType === Node.TEXT_NODE) parts.push(node.textContent);
    if (node.shadowRoot) walk(node.shadowRoot);
    for (const child of node.childNodes) walk(child);
  };
  walk(document.body);
  const out = document.createElement("pre");
  out.id = "harness-rendered-text";
  out.textContent = parts.join(" ");
  document.body.appendChild(out);
}, 4000);
</script>"""

SAMPLE_SOURCE = "def add(a, b):\n    total = a + b\n    return total\n"


def sample_report() -> dict:
    """A killed and a surviving mutant in one file, a killed one in another; the files share a folder, as real ones do."""
    def mutant(mid: str, status: str, line: int, replacement: str) -> dict:
        return {"id": mid, "mutatorName": "known bug", "replacement": replacement, "status": status,
                "location": {"start": {"line": line, "column": 5}, "end": {"line": line, "column": 20}}}

    return {
        "schemaVersion": "2", "thresholds": {"high": 80, "low": 60},
        "files": {
            "pkg/calc.py": {"language": "python", "source": SAMPLE_SOURCE, "mutants": [
                mutant("m1", "Killed", 2, "total = a - b"), mutant("m2", "Survived", 3, "return 0")]},
            "pkg/util/more.py": {"language": "python", "source": SAMPLE_SOURCE, "mutants": [
                mutant("m3", "Killed", 2, "total = a * b")]},
        },
    }


def expected_score(report: dict) -> str:
    """The mutation score as the viewer shows it: detected over valid mutants, two decimals."""
    statuses = [m["status"] for f in report["files"].values() for m in f["mutants"]]
    detected = sum(s in ("Killed", "Timeout") for s in statuses)
    valid = detected + sum(s in ("Survived", "NoCoverage") for s in statuses)
    return f"{100 * detected / valid:.2f}" if valid else "n/a"


def survivor(report: dict) -> tuple[str, str] | None:
    """The file of a surviving mutant and the source line it changes."""
    for name, file in report["files"].items():
        for m in file["mutants"]:
            if m["status"] == "Survived":
                return name, file["source"].splitlines()[m["location"]["start"]["line"] - 1].strip()
    return None


def viewer_route(report: dict, name: str) -> str:
    """The viewer's route to a file: its path below the folder all the report's files share."""
    folders = [Path(other).parent.parts for other in report["files"]]
    shared = len(os.path.commonprefix(folders))
    return "/".join(Path(name).parts[shared:])


def rendered_text(browser: str, page: Path, fragment: str = "") -> str:
    """The text the viewer renders for ``page`` (at ``#fragment``), shadow roots included."""
    probe = page.with_name(f"probe-{page.name}")
    probe.write_text(page.read_text("utf-8").replace("</body>", _GATHER + "</body>"), encoding="utf-8")
    dom = subprocess.run([browser, *_OFFLINE, "--dump-dom", probe.as_uri() + fragment],
                         capture_output=True, text=True, timeout=180)
    probe.unlink()
    found = re.search(r'<pre id="harness-rendered-text">(.*?)</pre>', dom.stdout, re.S)
    return " ".join(html.unescape(found.group(1)).split()) if found else ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report_dir", nargs="?", type=Path)
    parser.add_argument("--out", type=Path, default=Path("mutation-report.png"))
    args = parser.parse_args()
    browser = next((shutil.which(name) for name in _CHROMIUM if shutil.which(name)), None)
    if browser is None:
        print("FAILED: no Chromium on PATH; install it with: apt-get install -y chromium")
        return 1
    with tempfile.TemporaryDirectory(prefix="harness-shot-") as tmp:
        if args.report_dir is None:
            report = sample_report()
            page = Path(tmp) / "mutation-report.html"
            page.write_text(render_html(report, "sample"), encoding="utf-8")
        else:
            report = json.loads((args.report_dir / "mutation-report.json").read_text("utf-8"))
            page = (args.report_dir / "mutation-report.html").resolve()
        shot = subprocess.run([browser, *_OFFLINE, f"--screenshot={args.out.resolve()}", page.as_uri()],
                              capture_output=True, text=True, timeout=180)
        text = rendered_text(browser, page)
        wanted = {"the mutation score": (text, expected_score(report))}
        wanted |= {f"file {name}": (text, Path(name).name) for name in report["files"]}
        found = survivor(report)
        if found:
            # The file view, where the viewer shows the source with its mutants inline.
            source_view = rendered_text(browser, page, f"#mutant/{viewer_route(report, found[0])}")
            # The viewer sets each token apart ("self . x"), so the line is compared without whitespace.
            wanted["a survivor's source line"] = ("".join(source_view.split()), "".join(found[1].split()))
    missing = [what for what, (shown, needle) in wanted.items() if needle not in shown]
    if shot.returncode or not args.out.exists() or args.out.stat().st_size < 10_000 or missing:
        print(f"FAILED: screenshot exit {shot.returncode}; missing from the rendered page: {missing}\n"
              f"rendered text: {text[:1500]!r}\n{shot.stderr[-1500:]}")
        return 1
    print(f"ok: {page.as_uri()} shows {', '.join(wanted)}; screenshot {args.out} ({args.out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
