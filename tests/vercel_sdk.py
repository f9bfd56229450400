"""Whether the Vercel AI SDK examples can run here: the README's test command installs their packages.

Tests that need them fail with this reason (never skip): a missing package is
a broken setup, not a test that does not apply.
"""

from __future__ import annotations

import shutil
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "vercel-ai-adapter"
INSTALL = "npm ci --prefix examples/vercel-ai-adapter"


def missing() -> str | None:
    """Why the Vercel AI SDK examples cannot run here, or None."""
    if shutil.which("node") is None:
        return "node is not installed: the Vercel AI SDK examples need Node.js 20 or newer"
    for package in ("ai", "@ai-sdk/openai-compatible"):
        if not (EXAMPLE / "node_modules" / package / "package.json").is_file():
            return (
                f"examples/vercel-ai-adapter/node_modules has no {package}: run `{INSTALL}` "
                "(from the repository root) to install the examples' pinned packages"
            )
    return None
