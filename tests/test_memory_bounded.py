"""An in-process adapter whose values hold 100 MB: harness check stays small whatever it returns or raises.

Every value a contract puts in a message is cut before it is formatted, and
pytest's own account of a failure (which reprs values whole) is not built from
them, so the run's peak memory is the adapter's own 100 MB plus the harness's
usual size, not several copies of it.
"""

import os
import re
import subprocess
import sys
import textwrap

import pytest

SIZE = 100 * 1024 * 1024  # characters of each huge value
PEAK_LIMIT_MB = 500
ENV = {k: v for k, v in os.environ.items() if k != "HARNESS_ADAPTER"}

ADAPTERS = textwrap.dedent(f'''
    """Adapters whose values hold {SIZE} characters."""
    from harness.reference import adapter as reference

    PAD = "x" * {SIZE}


    class _PaddedRequests:
        """The scripted model, sent each request with its user messages' content replaced by PAD."""

        def __init__(self, model):
            self._model = model

        def __call__(self, request):
            messages = [{{**m, "content": PAD}} if m.get("role") == "user" else m for m in request["messages"]]
            return self._model({{**request, "messages": messages}})


    class Valid:
        """Every reply well shaped, its text {SIZE} characters long (more than the guard lets a contract judge)."""

        name = "100 MB replies"

        def __getattr__(self, attr):
            return getattr(reference, attr)

        def parse_stream(self, body):
            return {{**reference.parse_stream(body), "content": PAD}}

        def serialize_message(self, message):
            return {{**reference.serialize_message(message), "content": PAD}}

        def run_turn(self, user_input, model, tools):
            return reference.run_turn(PAD, model, tools)


    class Wrong:
        """Answers the contracts judge wrong, each holding PAD: the messages that report them are formatted."""

        name = "100 MB wrong answers"

        def __getattr__(self, attr):
            return getattr(reference, attr)

        def parse_stream(self, body):
            raise ValueError(PAD)

        def run_turn(self, user_input, model, tools):
            return reference.run_turn(user_input, _PaddedRequests(model), tools)


    valid = Valid()
    wrong = Wrong()
''')

# Runs harness check as its own child, so the peak it reports is that run's alone.
PEAK = textwrap.dedent("""
    import resource, subprocess, sys
    run = subprocess.run([sys.executable, "-m", "harness", "check", *sys.argv[1:]], capture_output=True, text=True)
    sys.stdout.write(run.stdout)
    print("PEAK_KB", resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    sys.exit(run.returncode)
""")

# The contracts that reach each way a huge value used to be formatted whole.
CASES = {
    # a guarded call's message naming the kernel's ScriptedModel argument, which holds the requests;
    # pytest's long traceback repr'ing that argument; the guard refusing a huge reply
    "valid": "sent_requests or reasoning_top_level or sse_framing",
    # an adapter's exception message; a failed comparison of the requests the kernel sent
    "wrong": "sse_framing or turn_words",
}


@pytest.mark.parametrize("variant", sorted(CASES))
def test_a_100_mb_adapter_keeps_harness_check_under_500_mb(tmp_path, variant):
    (tmp_path / "huge_adapters.py").write_text(ADAPTERS)
    run = subprocess.run(
        [sys.executable, "-c", PEAK, "--hypothesis-profile", "ci", "--adapter", f"huge_adapters:{variant}",
         "-k", CASES[variant]],
        capture_output=True, text=True, cwd=tmp_path, env=ENV | {"PYTHONPATH": str(tmp_path)}, timeout=600,
    )
    lines = run.stdout.splitlines()
    assert run.returncode == 1, run.stdout[-3000:] + run.stderr[-3000:]
    # The contracts met the huge values and failed or errored on them.
    counts = re.fullmatch(r"\d+ passed, (\d+) failed(?:, (\d+) error)?", lines[-2])
    assert counts and int(counts[1]) + int(counts[2] or 0) > 0, lines[-3:]
    peak_mb = int(lines[-1].split()[1]) / 1024
    assert peak_mb < PEAK_LIMIT_MB, f"harness check peaked at {peak_mb:.0f} MB"
    assert len(run.stdout) < 200_000, f"{len(run.stdout)} characters of output"
