#!/usr/bin/env bash
# The acceptance line of "declared and validated": `pip install .` into a fresh venv, without the
# `test` extra and not in place, gives a harness whose `nightly --help` and `gate` work. Run from a
# scratch folder outside the clone, so only the installed package (its code, its declared
# dependencies and its package data: catalogue, schemas, cassettes) can answer.
# Usage: .ci/plain_install.sh [PYTHON]   (default python3; any Python >= 3.11)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
python="${1:-python3}"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

"$python" -m venv "$scratch/venv"
"$scratch/venv/bin/python" -m pip install --quiet --upgrade pip
"$scratch/venv/bin/python" -m pip install --quiet "$repo"
cd "$scratch"

"$scratch/venv/bin/harness" nightly --help > /dev/null
# The whole gate, as the README's first command runs it (the gate has no --only: it is every known
# bug by definition; the bundled catalogue takes well under a minute on two cores).
"$scratch/venv/bin/harness" gate --report-dir "$scratch/reports"
for report in mutation-report.json junit.xml summary.md; do
    test -s "$scratch/reports/$report" || { echo "plain install: the gate wrote no $report" >&2; exit 1; }
done
echo "plain install: harness nightly --help and harness gate work without the test extra"
