"""Check the nightly HTML report the way a person sees it: headless Chromium, from a file path, no network.

    python benchmarks/nightly_html_screenshot.py [REPORT_DIR] [--out shot.png]

With REPORT_DIR (one that ``harness nightly --report-dir`` or ``harness report
merge -o`` wrote) it shoots that report's ``mutation-report.html``; without,
it renders a small report from a real mutmut run of one reference file first.
It fails unless Chromium is installed (``apt-get install -y chromium``), the
screenshot is written, and the page Chromium loaded, dumped as DOM, holds
every mutant id of the report. Chromium runs with its network switched off
(``--proxy-server`` to a closed port), so a page that loaded anything from
outside would show it missing.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from harness.mutation.children import Children
from harness.mutation.workspace import Project
from harness.nightly.mutmut_run import run_mutmut
from harness.nightly.outputs import REPORT_FILES, write_outputs
from harness.nightly.report import all_mutants, build_nightly_report
from harness.nightly.score import Thresholds

_CHROMIUM = ("chromium", "chromium-browser", "google-chrome")
_OFFLINE = ["--headless", "--no-sandbox", "--disable-gpu", "--proxy-server=127.0.0.1:9", "--window-size=1280,2000"]


def sample_report(report_dir: Path) -> None:
    contracts = ("harness/contracts/test_vector_text.py", "harness/contracts/test_distillation_order.py")
    run = run_mutmut(Project.bundled(), Children(), 1, None, only=("harness/reference/distill.py",),
                     contracts=contracts)
    write_outputs(build_nightly_report([], run, Thresholds(), {}, {"shard": None}), Thresholds(), report_dir)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report_dir", nargs="?", type=Path)
    parser.add_argument("--out", type=Path, default=Path("nightly-report.png"))
    args = parser.parse_args()
    browser = next((shutil.which(name) for name in _CHROMIUM if shutil.which(name)), None)
    if browser is None:
        print("FAILED: no Chromium on PATH; install it with: apt-get install -y chromium")
        return 1
    with tempfile.TemporaryDirectory(prefix="harness-shot-") as tmp:
        report_dir = args.report_dir or Path(tmp)
        if args.report_dir is None:
            sample_report(report_dir)
        page = (report_dir / REPORT_FILES["html"]).resolve()
        ids = [m["id"] for _, m in all_mutants(json.loads((report_dir / REPORT_FILES["json"]).read_text("utf-8")))]
        url = page.as_uri()
        shot = subprocess.run([browser, *_OFFLINE, f"--screenshot={args.out.resolve()}", url],
                              capture_output=True, text=True, timeout=120)
        dom = subprocess.run([browser, *_OFFLINE, "--dump-dom", url], capture_output=True, text=True, timeout=120)
    missing = [i for i in ids if f'id="{i}"' not in dom.stdout]
    if shot.returncode or not args.out.exists() or args.out.stat().st_size < 10_000 or missing or not ids:
        print(f"FAILED: screenshot exit {shot.returncode}, {len(missing)} of {len(ids)} mutants missing from the "
              f"page Chromium loaded\n{shot.stderr[-2000:]}")
        return 1
    print(f"ok: {url} shows all {len(ids)} mutants; screenshot {args.out} ({args.out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
