"""An integer too long for Python to print (over 4,300 digits) in an adapter's value is judged, and shown by its size.

Python refuses ``str()`` of such an int with a ``ValueError``; a message that
quoted the value whole once failed the contract with that error, blamed on the
adapter, instead of with the rule's own words.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from harness import exit_codes
from harness.clip import clip_json, clip_repr

TESTS = Path(__file__).parent
ENV = {**{k: v for k, v in os.environ.items() if k != "HARNESS_ADAPTER"}, "PYTHONPATH": str(TESTS)}


def test_a_huge_integer_is_shown_by_its_size_in_either_form():
    value = {"usage": {"prompt_tokens": 10**5000}, "n": [10**5000, 7]}
    assert clip_repr(value) == ("{'usage': {'prompt_tokens': <an integer of about 5,001 digits>}, "
                                "'n': [<an integer of about 5,001 digits>, 7]}")
    assert clip_json(value) == ('{"usage": {"prompt_tokens": <an integer of about 5,001 digits>}, '
                                '"n": [<an integer of about 5,001 digits>, 7]}')


def test_a_contract_judges_a_usage_with_a_5001_digit_count_by_its_rule():
    run = subprocess.run(
        [sys.executable, "-m", "harness", "check", "--hypothesis-profile", "ci",
         "--adapter", "huge_usage_adapter:adapter", "-k", "usage_chunk_is_kept"],
        capture_output=True, text=True, env=ENV, timeout=600,
    )
    out = run.stdout
    assert run.returncode == exit_codes.CONTRACTS_FAILED, out[-3000:] + run.stderr[-3000:]
    assert "Exceeds the limit" not in out, out[-3000:]
    assert "usage={'prompt_tokens': <an integer of about 5,001 digits>, 'completion_tokens': 1, " \
           "'total_tokens': 2}, but should hold the counts" in out, out[-3000:]
