"""The nightly report as one self-contained HTML page: opens from disk, loads nothing from anywhere.

A summary with the score, then one section per file: every mutant with its
status, where it is, what it changes (as a diff), which contract killed or
ran it, and the reason for its status. Survivors are open; the rest fold.
"""

from __future__ import annotations

from html import escape

from harness.nightly.diff_view import diff_lines
from harness.nightly.digest import STATUS_ORDER, Digest, counts_line, run_line
from harness.nightly.score import is_mutmut

_CSS = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 70rem; padding: 0 1rem; color: #1d232a; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.15rem; margin-top: 2.2rem; border-bottom: 1px solid #d0d7de; }
.score { font-size: 2.4rem; font-weight: 700; }
.high { color: #1a7f37; } .medium { color: #9a6700; } .low, .none { color: #cf222e; }
table.counts { border-collapse: collapse; margin: .6rem 0; }
table.counts td, table.counts th { border: 1px solid #d0d7de; padding: .2rem .6rem; text-align: right; }
table.counts th:first-child, table.counts td:first-child { text-align: left; }
details { border: 1px solid #d0d7de; border-radius: 6px; margin: .35rem 0; padding: .25rem .6rem; }
summary { cursor: pointer; }
.badge { display: inline-block; min-width: 6.5rem; font-weight: 600; }
.Killed, .Timeout { color: #1a7f37; } .Survived, .NoCoverage { color: #cf222e; }
.RuntimeError, .CompileError, .Pending { color: #9a6700; } .Ignored { color: #57606a; }
.origin { color: #57606a; font-size: .85em; }
pre { background: #f6f8fa; padding: .5rem; overflow-x: auto; font-size: 12.5px; margin: .35rem 0; }
.diff span { display: block; white-space: pre; }
.diff .del { background: #ffebe9; } .diff .add { background: #dafbe1; }
code { font-size: 12.5px; }
"""


def _statuses(counts) -> str:
    head = "".join(f"<th>{s}</th>" for s in STATUS_ORDER if counts[s])
    cells = "".join(f'<td class="{s}">{counts[s]}</td>' for s in STATUS_ORDER if counts[s])
    return f"<tr><th>status</th>{head}</tr><tr><td>mutmut mutants</td>{cells}</tr>"


def _diff(source: str, mutant: dict) -> str:
    rows = diff_lines(source, mutant)
    if not rows:
        return "<p>No source to show.</p>"
    css = {" ": "ctx", "-": "del", "+": "add"}
    body = "".join(
        f'<span class="{css[r.kind]}">{r.kind} {"" if r.number is None else r.number:>4} {escape(r.text)}</span>'
        for r in rows
    )
    return f'<pre class="diff">{body}</pre>'


def _tests(label: str, ids: list[str]) -> str:
    return f"<p>{label}: " + (", ".join(f"<code>{escape(t)}</code>" for t in ids) or "none") + "</p>"


def _mutant(source: str, mutant: dict) -> str:
    status = mutant["status"]
    origin = "mutmut" if is_mutmut(mutant) else "known bug"
    line = mutant["location"]["start"]["line"]
    opened = " open" if status == "Survived" else ""
    parts = [
        f'<details id="{escape(mutant["id"])}"{opened}><summary><span class="badge {status}">{status}</span> '
        f'<code>{escape(mutant["id"])}</code> <span class="origin">{origin}, line {line}</span> '
        f'{escape(mutant.get("description", ""))}</summary>',
        _diff(source, mutant),
    ]
    if mutant.get("killedBy"):
        parts.append(_tests("killed by", mutant["killedBy"]))
    parts.append(_tests("covered by", mutant.get("coveredBy", [])))
    if mutant.get("statusReason"):
        parts.append(f"<pre>{escape(mutant['statusReason'])}</pre>")
    parts.append("</details>")
    return "\n".join(parts)


def _reading_order(mutant: dict) -> tuple[int, int]:
    return STATUS_ORDER.index(mutant["status"]), mutant["location"]["start"]["line"]


def _anchor(file: str) -> str:
    return "file-" + "".join(c if c.isalnum() else "-" for c in file)


def render_page(report: dict, d: Digest) -> str:
    files = sorted(report["files"].items())
    toc = "".join(
        f'<li><a href="#{_anchor(f)}">{escape(f)}</a>: {len(e["mutants"])} mutants, '
        f"{sum(m['status'] == 'Survived' for m in e['mutants'])} survived</li>"
        for f, e in files
    )
    runs = "".join(f"<li>{escape(run_line(run))}</li>" for run in d.runs)
    sections = []
    for file, entry in files:
        order = sorted(entry["mutants"], key=_reading_order)
        mutants = "\n".join(_mutant(entry.get("source", ""), m) for m in order)
        sections.append(f'<section id="{_anchor(file)}"><h2>{escape(file)}</h2>\n{mutants}\n</section>')
    breaks = "no break threshold" if d.thresholds.break_at is None else f"break below {d.thresholds.break_at}%"
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Nightly mutation report</title>
<style>{_CSS}</style></head>
<body>
<h1>Nightly mutation report</h1>
<p>mutation score (mutmut over the reference): <span class="score {d.band}">{d.mutmut.text()}</span>
&nbsp; thresholds: high {d.thresholds.high}%, low {d.thresholds.low}%, {breaks}</p>
<p>score = (Killed + Timeout) / (Killed + Timeout + Survived + NoCoverage). Every mutant, as Stryker counts them:
{d.everything.text()}. Without the {len(d.equivalents)} reviewed equivalents (counted as survivors):
{d.unreviewed.text()}. Known bugs: {d.known['Killed']}/{sum(d.known.values())} killed.</p>
<table class="counts">{_statuses(d.mutmut.counts)}</table>
<p>mutmut: {escape(counts_line(d.mutmut.counts))}<br>known bugs: {escape(counts_line(d.known))}</p>
<h2>Runs</h2><ul>{runs or "<li>none recorded</li>"}</ul>
<h2>Files</h2><ul>{toc}</ul>
{"".join(sections)}
</body></html>
"""
