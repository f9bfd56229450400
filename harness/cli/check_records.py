"""What the contracts' process tells the ``harness check`` process that watches it: one JSON line per event.

The contracts run in a child process (:mod:`harness.cli.check_child`) so that
nothing an adapter does there (hanging, spinning, ``os._exit``, a crash in C)
and no signal can take the run's account with it: the watcher
(:mod:`harness.cli.check_watch`) holds every result as soon as it is decided,
and the contract in flight, and can say what ran however the child ends.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field

import pytest

from harness.outcomes.results import Quote, Result

DONE = "done"  # the child's last record: the run ended by its own code (its exit code is the verdict)


def result_record(result: Result) -> dict:
    fields = asdict(result)
    fields["details"] = [d if isinstance(d, str) else {"label": d.label, "text": d.text} for d in result.details]
    return {"result": fields}


def result_from(fields: dict) -> Result:
    details = tuple(d if isinstance(d, str) else Quote(d["label"], d["text"]) for d in fields["details"])
    location = tuple(fields["location"]) if fields["location"] else None
    return Result(**{**fields, "details": details, "location": location})


class RecordWriter:
    """A pytest plugin of the child: each contract's start and each decided result, written as they happen.

    :meth:`decided` is the check session's ``decided`` callback: a result is written before its line is printed.
    """

    def __init__(self, fd: int) -> None:
        os.set_inheritable(fd, False)  # the adapter's own processes never hold the watcher's pipe open
        self._out = os.fdopen(fd, "w", encoding="utf-8")

    def write(self, record: dict) -> None:
        self._out.write(json.dumps(record) + "\n")
        self._out.flush()

    @pytest.hookimpl(trylast=True)
    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.write({"collected": len(session.items)})

    def pytest_runtest_logstart(self, nodeid: str, location) -> None:
        self.write({"started": nodeid})

    def decided(self, result: Result) -> None:
        self.write(result_record(result))


@dataclass
class Records:
    """What the watcher has heard: the results in the order decided, the contract in flight, the end."""

    results: dict[str, Result] = field(default_factory=dict)
    collected: int = 0
    running: str | None = None
    done: bool = False

    def add(self, line: str) -> None:
        record = json.loads(line)
        if "result" in record:
            result = result_from(record["result"])
            self.results[result.name] = result
            self.running = None
        elif "started" in record:
            self.running = record["started"]
        elif "collected" in record:
            self.collected = record["collected"]
        elif record.get(DONE):
            self.done = True
