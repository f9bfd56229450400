"""The ``[runner]`` table: how to test a project that is not the bundled Python reference.

::

    [runner]
    command = "node --test ..."      # run with /bin/sh in the copy's root
    junit = "junit.xml"              # the JUnit file the command writes (test outcomes)
    coverage = "lcov.info"           # the line coverage file it writes (reach)
    coverage_format = "lcov"         # or "cobertura"; default from the file name
    root = "."                       # the project, relative to the catalogue (default: its folder)
    assertion_pattern = "AssertionError|assert"  # a failure matching this is an assertion
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from harness.mutation.coverage_files import format_of
from harness.mutation.junit_read import DEFAULT_ASSERTION_PATTERN


class RunnerConfigError(Exception):
    pass


@dataclass(frozen=True)
class RunnerConfig:
    command: str
    junit: str
    coverage: str
    coverage_format: str
    root: Path
    assertion_pattern: str


def runner_config(table: dict, catalogue_path: Path, where: str) -> RunnerConfig:
    """The table ``harness/schemas/catalogue.json`` accepted, with its defaults and the checks it cannot make.

    ``where`` starts every message: the catalogue, the line and ``[runner]``.
    """
    fmt = table.get("coverage_format") or format_of(table["coverage"])
    pattern = table.get("assertion_pattern", DEFAULT_ASSERTION_PATTERN)
    try:
        re.compile(pattern)
    except re.error as exc:
        raise RunnerConfigError(f"{where}field 'assertion_pattern' is not a regular expression: {exc}") from exc
    root = (catalogue_path.parent / table.get("root", ".")).resolve()
    if not root.is_dir():
        raise RunnerConfigError(f"{where}field 'root' names {root}, which is not a directory")
    return RunnerConfig(table["command"], table["junit"], table["coverage"], fmt, root, pattern)
