"""A mutation report as one self-contained HTML page, in the standard viewer.

The page embeds ``mutation-testing-elements`` (the viewer Stryker, Stryker.NET,
Infection and PIT's report plugin share; vendored under ``harness/vendor/``
with its licence) and the report JSON, so it opens from a file path and loads
nothing from anywhere: per-file scores, every status, the source with its
mutants inline, filters and a test view.
"""

from __future__ import annotations

import json
from html import escape
from pathlib import Path

VIEWER_VERSION = "3.9.0"
VIEWER = Path(__file__).resolve().parent.parent / "vendor" / "mutation-testing-elements" / "mutation-test-elements.js"


def _viewer() -> str:
    script = VIEWER.read_text(encoding="utf-8")
    # Inlined as it is: the viewer's code holds no sequence that would close its <script> element early.
    if "</script" in script.lower():
        raise ValueError(f"{VIEWER} holds '</script' and cannot be inlined")
    return script


def _json(report: dict) -> str:
    """The report as a JSON literal that may sit inside a <script> element."""
    return json.dumps(report, ensure_ascii=False).replace("</", "<\\/")


def render_html(report: dict, title: str) -> str:
    """The page for ``report`` (a mutation-testing-report-schema object)."""
    return (
        "<!doctype html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{escape(title)}</title>\n"
        f"<!-- mutation-testing-elements {VIEWER_VERSION}, Apache-2.0 -->\n"
        f"<script>{_viewer()}</script>\n"
        "</head>\n<body>\n"
        f'<mutation-test-report-app title-postfix="{escape(title)}"></mutation-test-report-app>\n'
        '<script>document.querySelector("mutation-test-report-app").report = '
        f"{_json(report)};</script>\n"
        "</body>\n</html>\n"
    )
