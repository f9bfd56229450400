"""The report as the lines a terminal shows when a run ends: what needs a person first, then the tallies."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path

from harness.mutation.verdict import some
from harness.outcomes.mutants import Verdict
from harness.report.digest import Digest, counts_line, reused_lines
from harness.report.model import as_result, kill_kind, label, needs_attention, patched_by
from harness.report.results_console import result_lines

SHOWN_LINES = 12  # of a known bug's reason, per known bug not killed
_USUAL_ENGINE = "in-memory: code swap"  # said only when a known bug was patched some other way


def _known_bugs(d: Digest) -> list[str]:
    lines = []
    for file, m in d.known_bugs:
        engine = patched_by(m)
        if needs_attention(m):  # its details say what it is: beside its id goes where it patches
            result = as_result(file, m)
            lines += result_lines(replace(result, title=":".join(map(str, result.location))), shown=SHOWN_LINES,
                                  word=label(m))
        elif engine and not engine.startswith(_USUAL_ENGINE):
            lines.append(f"    {m['id']}: patched by {engine}")
    counts = Counter(label(m) for _, m in d.known_bugs)
    detail = ", ".join(f"{counts[v.value]} {v.value}" for v in Verdict if counts[v.value])
    crashes = [m["id"] for _, m in d.known_bugs if kill_kind(m) == "crash"]
    if crashes:
        detail += f"; killed by a crash of the code under test: {some(crashes, 'bug')}"
    # A nightly's wall time is mostly mutmut's: it goes on the score's line.
    took = f" in {d.wall:.1f}s wall" if d.wall is not None and not d.has_mutmut else ""
    lines += d.format_lines()
    lines.append(f"{counts[Verdict.KILLED.value]}/{len(d.known_bugs)} known bugs killed ({detail or 'none run'}){took}")
    return lines + reused_lines(d)


def _mutmut(d: Digest) -> list[str]:
    lines = [
        f"mutation score (mutmut): {d.mutmut.text()} over {d.mutmut.total} mutants: {counts_line(d.mutmut.counts)}"
        + (f" ({d.wall:.0f}s wall)" if d.wall is not None else ""),
        f"exemptions: {d.exemptions_line()}",
    ]
    if d.gaps:
        lines.append(f"contract gaps: {len(d.gaps)} surviving mutmut mutants (listed in the reports)")
    if d.below_break:
        lines.append(f"BELOW THRESHOLD: {d.mutmut.text()} < break {d.thresholds.break_at}%")
    return lines


def render_console(d: Digest, paths: dict[str, Path] | None = None) -> str:
    """Known bugs not killed (with their messages), the tallies, the score when mutmut ran, the files written."""
    lines = _known_bugs(d) if d.known_bugs else []
    lines += _mutmut(d) if d.has_mutmut else []
    if paths:
        lines.append("reports: " + ", ".join(str(p) for p in paths.values()))
    return "\n".join(lines)
