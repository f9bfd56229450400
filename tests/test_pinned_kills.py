"""Every known bug is killed by a pinned example, not only by drawn ones.

The gate runs Hypothesis derandomized, yet what it draws depends on things like the installed path: a bug that only
drawn examples kill can pass a plain install that the editable checkout kills (``gemini-error-chunk-ignored`` did).
So ``harness gate --pinned-only`` (the ``pinned`` profile: ``@example``s and the formats' pinned inputs, no draw)
must kill every bundled known bug but those of ``DRAWN_ONLY``, each a rule no incident's input reaches, with why.
The gate test runs every format (slow; ``.ci/run`` runs it); the profile test is quick.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import Phase

from harness import exit_codes
from harness.config.hypothesis_profiles import PROFILES, register, registered_name
from harness.formats import SPECS

DRAWN_ONLY = {
    "signature-on-call-by-position": "a signature on a call at another place in its chunk than its index: Gemini "
                                     "signs only a step's first call, so no incident's stream has one",
    "details-without-index-joined": "reasoning_details entries sent whole without an index: no incident's stream "
                                    "shows one (only the index joins pieces, a rule the drawn streams hold)",
}


def test_the_pinned_profile_is_the_ci_profile_without_draws():
    from hypothesis import settings

    register()
    pinned, ci = settings.get_profile(registered_name("pinned")), settings.get_profile(registered_name("ci"))
    assert tuple(pinned.phases) == (Phase.explicit,), pinned.phases
    same = {k: (getattr(pinned, k), getattr(ci, k)) for k in PROFILES["ci"] if k not in ("phases", "max_examples")}
    assert all(a == b for a, b in same.values()), same


@pytest.mark.slow
def test_the_pinned_examples_alone_kill_every_known_bug(tmp_path):
    out = tmp_path / "out"
    run = subprocess.run([sys.executable, "-m", "harness", "gate", "--pinned-only", "--no-incremental", "--jobs", "1",
                          "--report-dir", str(out)], cwd=tmp_path, capture_output=True, text=True, timeout=1800)
    assert run.returncode in (exit_codes.OK, exit_codes.SURVIVED), run.stdout[-4000:] + run.stderr
    report = json.loads((out / "mutation-report.json").read_text())
    entries = [m for f in report["files"].values() for m in f["mutants"]]
    assert {e.get("harness", {}).get("format") for e in entries} == set(SPECS), "every format's known bugs ran"
    left = sorted(e["id"] for e in entries if e["status"] != "Killed")
    assert left == sorted(DRAWN_ONLY), (
        f"known bugs not killed by any pinned example (only drawn ones kill them, if any): "
        f"{sorted(set(left) - set(DRAWN_ONLY))}; listed in DRAWN_ONLY but killed by a pinned example now: "
        f"{sorted(set(DRAWN_ONLY) - set(left))}"
    )
