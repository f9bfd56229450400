"""The nightly report as Markdown, for a CI job summary: the score, then what needs a person."""

from __future__ import annotations

import re

from harness.nightly.diff_view import diff_text
from harness.nightly.digest import Digest, counts_line, run_line


def _fenced(text: str, info: str = "text") -> str:
    # The fence must be longer than any backtick run in the text, or the text would close it.
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{info}\n{text}\n{fence}"


def _code(text: str) -> str:
    return "`" + text.replace("`", "'").replace("|", "\\|").replace("\n", " ") + "`"


def _verdict(d: Digest) -> str:
    if d.thresholds.break_at is None:
        return "no break threshold"
    return f"{'BELOW' if d.below_break else 'meets'} the break threshold of {d.thresholds.break_at}%"


def render_summary(report: dict, d: Digest) -> str:
    sources = {file: entry.get("source", "") for file, entry in report["files"].items()}
    known_total = sum(d.known.values())
    lines = [
        f"## Nightly mutation report: mutation score {d.mutmut.text()} ({_verdict(d)})",
        "",
        f"- mutmut over the reference: {d.mutmut.total} mutants · {counts_line(d.mutmut.counts)}",
        f"- exemptions: {d.exemptions_line()}",
        f"- known bugs: {d.known['Killed']}/{known_total} killed · {counts_line(d.known)}",
        f"- every mutant, as Stryker counts them: {d.everything.text()}",
        "- score = (Killed + Timeout) / (Killed + Timeout + Survived + NoCoverage) over every mutant mutmut "
        "makes, out of scope included; "
        f"thresholds high {d.thresholds.high}%, low {d.thresholds.low}%",
        *(f"- {run_line(run)}" for run in d.runs),
    ]
    if d.known_failures:
        lines += ["", f"### Known bugs not killed: {len(d.known_failures)}", ""]
        lines += [f"- `{m['id']}` ({file}): {m['status']}: {m.get('statusReason', '').splitlines()[0]}"
                  for file, m in d.known_failures]
    if d.gaps:
        lines += ["", f"### Contract gaps: {len(d.gaps)} surviving mutants", ""]
        lines += ["A contract ran each of these mutants and stayed green: strengthen a contract. Only a mutant "
                  "no input can tell from the original (`equivalent`), or behaviour no contract should pin for any "
                  "adapter (`out of scope`), is exempted, beside the code: `# pragma: no mutate (KIND: reason)`."]
    for file, m in d.gaps:
        covered = ", ".join(f"`{t}`" for t in m.get("coveredBy", [])[:3]) or "none"
        lines += ["", f"#### `{m['id']}`", "", f"{m['description']} · covered by {covered}", "",
                  _fenced(diff_text(sources.get(file, ""), m, file), "diff")]
    if d.untested:
        lines += ["", f"### Not run by any contract: {len(d.untested)} mutants", "", "| mutant | where | change |",
                  "| --- | --- | --- |"]
        lines += [f"| `{m['id']}` | {file}:{m['location']['start']['line']} | {_code(m['description'])} |"
                  for file, m in d.untested]
    if d.out_of_scope:
        lines += ["", f"### Out of scope: {len(d.out_of_scope)} mutants (counted in the score)", ""]
        lines += [f"- `{m['id']}` {file}:{m['location']['start']['line']} {m['status']}: "
                  f"{m['statusReason'].splitlines()[0].removeprefix('out of scope: ')}" for file, m in d.out_of_scope]
    return "\n".join(lines) + "\n"
