"""Progress of a mutant run: a live bar in a terminal, plain lines elsewhere."""

from __future__ import annotations

import sys
from collections import Counter

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from harness.outcomes.mutants import MutantResult, Verdict

_STYLE = {
    Verdict.KILLED: "green",
    Verdict.SURVIVED: "red",
    Verdict.UNREACHED: "red",
    Verdict.STALE: "yellow",
    Verdict.INVALID: "yellow",
    Verdict.TIMEOUT: "magenta",
}


class MutantProgress:
    """Use as a context manager; call :meth:`advance` with each result.

    ``misses_only`` (a run of many generic mutants): only results that are not kills get a line of their
    own, and a plain stream gets a tally line every tenth of the run.
    """

    def __init__(self, total: int, stream=None, label: str = "mutants", misses_only: bool = False) -> None:
        self.total = total
        self.label = label
        self.misses_only = misses_only
        self.stream = stream or sys.stdout
        self.counts: Counter[Verdict] = Counter()
        self.done = 0
        self.live = self.stream.isatty()
        self._progress: Progress | None = None

    def __enter__(self) -> MutantProgress:
        if self.live:
            self._progress = Progress(
                TextColumn(self.label),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[counts]}"),
                TimeElapsedColumn(),
                console=Console(file=self.stream),
            )
            self._progress.start()
            self._task = self._progress.add_task("mutants", total=self.total, counts="")
        return self

    def _counts(self) -> str:
        return " ".join(f"{v.value}={self.counts[v]}" for v in Verdict if self.counts[v])

    def advance(self, result: MutantResult) -> None:
        self.done += 1
        self.counts[result.verdict] += 1
        shown = not (self.misses_only and result.verdict is Verdict.KILLED)
        line = f"[{self.done}/{self.total}] {result.verdict.value:<9} {result.mutant.id} ({result.duration:.1f}s)"
        if self._progress is not None:
            style = _STYLE[result.verdict]
            if shown:
                self._progress.console.print(f"[{style}]{result.verdict.value:<9}[/] {result.mutant.id}",
                                             highlight=False)
            self._progress.update(self._task, advance=1, counts=self._counts())
            return
        if shown:
            print(line, file=self.stream, flush=True)
        step = max(1, self.total // 10)
        if self.misses_only and (self.done % step == 0 or self.done == self.total):
            print(f"{self.label}: {self.done}/{self.total} ({self._counts()})", file=self.stream, flush=True)

    def __exit__(self, *exc_info) -> None:
        if self._progress is not None:
            self._progress.stop()
