"""Generated documents are current: docs/rules.md is what the contracts say today."""

import subprocess
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_rules_page_matches_the_contracts():
    run = subprocess.run([sys.executable, str(DOCS / "rules.py"), "--check"], capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
