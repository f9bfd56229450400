"""The report as Markdown, for a CI job summary: the score, the known bugs, then what needs a person."""

from __future__ import annotations

from collections import Counter

from harness.outcomes.mutants import Verdict
from harness.outcomes.results import Result
from harness.mutation.diff_scope import scope_lines
from harness.report.diff import diff_text
from harness.report.digest import Digest, Located, counts_line, reused_lines, run_line
from harness.report.format_scores import format_score_items
from harness.report.markdown_text import code, fenced
from harness.report.model import Report, as_result, exempted_by, label, without_outcome
from harness.report.results_markdown import Column, failure_lines, name_column, results_table


def _verdict(d: Digest) -> str:
    if d.thresholds.break_at is None:
        return "no break threshold"
    return f"{'BELOW' if d.below_break else 'meets'} the break threshold of {d.thresholds.break_at}%"


def _where(r: Result) -> str:
    # A stale known bug has no anchor: its location is a placeholder the schema needs, not a line.
    file, line = r.location or ("", 0)
    return file if r.kind == Verdict.STALE.value else f"{file}:{line}"


KNOWN_BUG_COLUMNS = (  # a known bug's row, in the gate's table and the nightly's
    name_column("id"),
    Column("verdict", lambda r: r.kind),
    Column("file:line", _where),
    Column("why", lambda r: without_outcome(r.message)),
)

_UNTESTED_COLUMNS = (name_column("mutant"), Column("where", _where), Column("change", lambda r: r.title, as_code=True))


def _known_bugs(d: Digest, level: str) -> list[str]:
    """Every known bug in one table, then each one not killed with its whole reason."""
    counts = Counter(label(m) for _, m in d.known_bugs)
    lines = [
        f"{level} Known bugs: {counts[Verdict.KILLED.value]}/{len(d.known_bugs)} killed",
        "",
        " · ".join(f"{v.value}: {counts[v.value]}" for v in Verdict),
        "",
        *([*(f"- {line}" for line in reused_lines(d)), ""] if reused_lines(d) else []),
        *([*(f"- {line}" for line in d.format_lines()), ""] if d.by_format else []),
        *results_table([as_result(f, m) for f, m in d.known_bugs], KNOWN_BUG_COLUMNS),
    ]
    if d.known_failures:
        lines += ["", f"{level}# Needs attention",
                  *failure_lines([as_result(f, m) for f, m in d.known_failures], f"{level}##", lambda r: r.kind,
                                fenced_details=True)]
    return lines


def _score(d: Digest) -> list[str]:
    return [
        f"- mutmut over the reference: {d.mutmut.total} mutants · {counts_line(d.mutmut.counts)}",
        f"- exemptions: {d.exemptions_line()}",
        f"- known bugs: {d.known['Killed']}/{len(d.known_bugs)} killed · {counts_line(d.known)}",
        f"- every mutant, as Stryker counts them: {d.everything.text()}",
        "- score = (Killed + Timeout) / (Killed + Timeout + Survived + NoCoverage) over every mutant mutmut "
        "makes, out of scope included; "
        f"thresholds high {d.thresholds.high}%, low {d.thresholds.low}%",
        *(f"- {run_line(run)}" for run in d.runs),
    ]


def _gaps(report: Report, gaps: list[Located]) -> list[str]:
    if not gaps:
        return []
    lines = ["", f"### Contract gaps: {len(gaps)} surviving mutants", "",
             "A contract ran each of these mutants and stayed green: strengthen a contract. Only a mutant "
             "no input can tell from the original (`equivalent`), or behaviour no contract should pin for any "
             "adapter (`out of scope`), is exempted, beside the code, by name: "
             "``# pragma: no mutate (KIND: `ORIGINAL` -> `REPLACEMENT`: reason)`` (docs/nightly.md)."]
    for file, m in gaps:
        covered = ", ".join(f"`{t}`" for t in m.get("coveredBy", [])[:3]) or "none"
        source = report["files"][file].get("source", "")
        lines += ["", f"#### `{m['id']}`", "", f"{m['description']} · covered by {covered}", "",
                  fenced(diff_text(source, m, file), "diff")]
    return lines


def _untested(untested: list[Located]) -> list[str]:
    if not untested:
        return []
    return ["", f"### Not run by any contract: {len(untested)} mutants", "",
            *results_table([as_result(f, m) for f, m in untested], _UNTESTED_COLUMNS)]


def _exemptions(d: Digest) -> list[str]:
    """Each pragma with the mutants it names: the only mutants of its line that are exempt."""
    if not d.exemptions:
        return []
    named = sum(len(located) for _, located in d.exemptions)
    lines = ["", f"### Exemptions: {len(d.exemptions)} pragmas name {named} mutants", "",
             "Out of scope: counted in the score, never a gap. Equivalent: `Ignored`, not in the score. "
             "Every other mutant of an exempted line is counted like any other.", ""]
    for exemption, located in d.exemptions:
        lines.append(f"- {exemption}")
        lines += [f"  - `{m['id']}` {code(m['description'])}: {m['status']} ({exempted_by(m)[1]})" for _, m in located]
    return lines


def _scopes(d: Digest) -> list[str]:
    """What a diff-scoped run selected and why (``harness mutate --in-diff``, ``--base``)."""
    scoped = [run["scope"] for run in d.runs if run.get("scope")]
    return [line for scope in scoped for line in ["", "### Diff scope", "", *map(_scope_item, scope_lines(scope))]]


def _scope_item(line: str) -> str:
    if line.startswith("  "):  # a known bug in scope: ``  id: why``
        mutant, _, why = line.strip().partition(": ")
        return f"  - {code(mutant)}: {why}"
    return f"- {line.removeprefix('diff scope: ')}"


def render_markdown(report: Report, d: Digest) -> str:
    """The known bugs alone (the gate), or under the mutation score when mutmut ran (the nightly)."""
    if not d.has_mutmut:
        return "\n".join(_known_bugs(d, "##") + _scopes(d)) + "\n"
    lines = [f"## Nightly mutation report: mutation score {d.mutmut.text()} ({_verdict(d)})", "", *_score(d),
             *format_score_items(report)]
    if d.known_bugs:
        lines += ["", *_known_bugs(d, "###")]
    lines += _gaps(report, d.gaps) + _untested(d.untested) + _exemptions(d) + _scopes(d)
    return "\n".join(lines) + "\n"
