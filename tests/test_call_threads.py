"""Guarded adapter calls reuse threads; a hung call keeps its own, and never blocks the calls after it."""

import os
import threading

from harness.under_test import call_threads
from harness.under_test.call_threads import Call

WAIT = 60  # a bound on waits that end at once when the code is right, not a claim about time


def _ident() -> int:
    return threading.get_ident()


def _call(function, *args) -> Call:
    return Call(function, args, {}, name="adapter test")


def test_calls_that_return_in_time_run_in_one_reused_thread():
    first, second = _call(_ident), _call(_ident)
    assert call_threads.run(first, WAIT) is None and call_threads.run(second, WAIT) is None
    assert first.outcome["value"] == second.outcome["value"], (
        f"two calls in a row ran in threads {first.outcome['value']} and {second.outcome['value']}: "
        "expected the first call's thread to be reused"
    )
    assert first.outcome["value"] != threading.get_ident(), "the call ran in the caller's thread"


def test_a_hung_call_is_abandoned_with_its_thread_and_the_next_call_runs_in_another():
    release, started = threading.Event(), threading.Event()

    def hangs() -> str:
        started.set()
        release.wait(WAIT)
        return "late"

    hung = _call(hangs)
    abandoned = call_threads.run(hung, 0.05)
    assert abandoned is not None and abandoned.is_alive(), "a call still running past its limit was not abandoned"
    assert abandoned.name == "adapter test", abandoned.name
    assert started.wait(WAIT)
    after = _call(_ident)
    assert call_threads.run(after, WAIT) is None, "the call after a hung one did not return: it waited for the hang"
    assert after.outcome["value"] != abandoned.ident, "the call after a hung one was handed the hung call's thread"
    release.set()
    abandoned.join(WAIT)
    assert not abandoned.is_alive(), "an abandoned thread lives on once its call ended: it should stop, not be reused"
    assert hung.outcome == {"value": "late"}, hung.outcome


def test_an_exception_of_any_kind_is_the_calls_outcome_and_the_thread_serves_on():
    def raises() -> None:
        raise SystemExit(3)

    failed, after = _call(raises), _call(_ident)
    assert call_threads.run(failed, WAIT) is None and call_threads.run(after, WAIT) is None
    assert isinstance(failed.outcome["error"], SystemExit), failed.outcome
    assert "value" in after.outcome, after.outcome


def test_a_fork_does_not_hand_calls_to_the_threads_it_did_not_inherit():
    assert call_threads.run(_call(_ident), WAIT) is None  # an idle thread in this process
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: only its own thread exists; the call must get a live one
        child = _call(_ident)
        os.write(write, b"ok" if call_threads.run(child, WAIT) is None and "value" in child.outcome else b"hung")
        os._exit(0)
    os.close(write)
    said = os.read(read, 16)
    os.close(read)
    _, status = os.waitpid(pid, 0)
    assert said == b"ok" and os.waitstatus_to_exitcode(status) == 0, (
        f"a call in a forked child said {said!r}, exit {status}: expected it to run in a thread started in the child"
    )
