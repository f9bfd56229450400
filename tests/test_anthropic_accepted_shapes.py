"""A history in a shape Anthropic accepts passes the history contracts: no false wire failure.

``tests/accepted_shapes.py`` renders each round's results and the next
question as two user messages, and an empty result as ``content: []``; the
render contract passes it, as it passes the reference.
"""

import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).parent
ENV = {**{k: v for k, v in os.environ.items() if k != "HARNESS_ADAPTER"}, "PYTHONPATH": str(TESTS)}


def test_results_and_question_in_two_user_messages_pass_the_render_contract():
    run = subprocess.run([sys.executable, "-m", "harness", "check", "--adapter", "accepted_shapes:split_question",
                          "-k", "history_render"], capture_output=True, text=True, timeout=600, env=ENV)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert " 0 failed" in run.stdout.splitlines()[-1] and "3 passed" in run.stdout.splitlines()[-1], run.stdout[-2000:]
