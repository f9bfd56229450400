"""The contracts' process of ``harness check``: ``python -m harness.cli.check_child OPTIONS_JSON RECORDS_FD``.

It runs the contracts and every report as :func:`harness.cli.check.run_contracts`
does, writing each record to the watcher (:mod:`harness.cli.check_watch`) on
``RECORDS_FD``. It is started in a session of its own, so a terminal's Ctrl-C
reaches only the watcher; the watcher's SIGTERM stops every process this one
started and ends it at once (:func:`harness.processes.exit_on_signals`), never
as an exception raised into whatever pytest or the adapter was doing.
"""

from __future__ import annotations

import json
import sys

from harness.cli.check import run_contracts
from harness.cli.check_options import CheckOptions
from harness.cli.check_records import DONE, RecordWriter
from harness.processes import exit_on_signals


def main(argv: list[str]) -> int:
    options_json, fd = argv
    fields = json.loads(options_json)
    options = CheckOptions(**{**fields, "levels": tuple(fields["levels"])})
    exit_on_signals()
    writer = RecordWriter(int(fd))
    code = run_contracts(options, writer)
    writer.write({DONE: True})
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
