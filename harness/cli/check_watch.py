"""``harness check``'s own process: it starts the contracts' process, hears its records, and outlives it.

The contracts run in a child (:mod:`harness.cli.check_child`) that writes what
it decides as it goes (:mod:`harness.cli.check_records`). This process runs no
adapter code and no pytest, so a signal reaches it at once whatever the adapter
is doing: SIGINT or SIGTERM stops the child (and every process it started)
within :data:`GRACE` seconds, and the caller reports what ran. A child that
ends without saying it is done (an adapter's ``os._exit``, a crash in C, the
kernel's OOM killer) is reported the same way, with how it ended.
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import sys
from dataclasses import asdict, dataclass

from harness.cli.check_options import CheckOptions
from harness.cli.check_records import Records
from harness.processes import Children, kill_group

GRACE = 3.0  # seconds the child has to stop its own children after the watcher's SIGTERM, before SIGKILL
_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@dataclass
class Watched:
    records: Records
    returncode: int  # the child's: its verdict when ``records.done``, else how it ended
    signum: int | None  # the signal that stopped the run, if one did


def watch(options: CheckOptions) -> Watched:
    """Run the contracts in a child process to its end, or until SIGINT or SIGTERM."""
    records_r, records_w = os.pipe()
    wake_r, wake_w = os.pipe()  # the signal handler only writes here: nothing is raised into this loop
    caught: list[int] = []

    def on_signal(signum, frame) -> None:
        caught.append(signum)
        os.write(wake_w, b"!")

    saved = {signum: signal.signal(signum, on_signal) for signum in _SIGNALS}
    try:
        with Children(handle_signals=False) as children:
            proc = children.start(
                [sys.executable, "-m", "harness.cli.check_child", json.dumps(asdict(options)), str(records_w)],
                pass_fds=(records_w,),
            )
            os.close(records_w)
            records = Records()
            pending = _hear(records_r, wake_r, caught, records)
            if caught:
                _stop(proc)
            proc.wait()
            # What the child wrote before it stopped is part of the account: a result whose line was
            # printed before the signal is counted, though the loop above stopped reading at the signal.
            _drain(records_r, records, pending)
    finally:
        for signum, handler in saved.items():
            signal.signal(signum, handler)
        for fd in (records_r, wake_r, wake_w):
            os.close(fd)
    return Watched(records, proc.returncode, caught[0] if caught else None)


def _hear(records_r: int, wake_r: int, caught: list[int], records: Records) -> bytes:
    """Read the child's records into ``records`` until it closes its end (it ended) or a signal comes; the
    bytes of a record not yet ended."""
    pending = b""
    with selectors.DefaultSelector() as selector:
        selector.register(records_r, selectors.EVENT_READ)
        selector.register(wake_r, selectors.EVENT_READ)
        while not caught:
            for key, _ in selector.select():
                if key.fd == wake_r:
                    continue  # the loop's condition sees the signal
                chunk = os.read(records_r, 64 * 1024)
                if not chunk:
                    return pending
                pending = _take(records, pending + chunk)
    return pending


def _drain(records_r: int, records: Records, pending: bytes) -> None:
    """Every whole record still in the pipe once the child has ended (a record it was cut in is dropped)."""
    os.set_blocking(records_r, False)
    while True:
        try:
            chunk = os.read(records_r, 64 * 1024)
        except BlockingIOError:
            return  # a process the child started still holds the pipe: what is there is read
        if not chunk:
            return
        pending = _take(records, pending + chunk)


def _take(records: Records, data: bytes) -> bytes:
    *lines, pending = data.split(b"\n")
    for line in lines:
        records.add(line.decode("utf-8"))
    return pending


def _stop(proc: subprocess.Popen) -> None:
    """SIGTERM: the child stops every process it started and exits; whatever is left after GRACE, SIGKILL."""
    try:
        proc.send_signal(signal.SIGTERM)
        proc.wait(GRACE)
    except subprocess.TimeoutExpired:
        pass
    kill_group(proc.pid)
