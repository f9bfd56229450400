"""The shadow guard: mutmut's verdicts count only if the contracts imported mutmut's mutated copy.

An installed copy of the package that wins the import (an editable install,
or one imported before mutmut put its ``mutants/`` directory first on the
path) makes the contracts test the unmutated reference: every mutant then
"survives" or has "no tests". The probe plugin records where each reference
module came from; this module refuses a run where any came from elsewhere.
"""

from __future__ import annotations

import json
from pathlib import Path


class ShadowedRun(Exception):
    """mutmut's test runs did not import the mutated copy."""


def read_imports(path: Path) -> dict[str, str] | None:
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


def check_imports(imports: dict[str, str] | None, mutated_root: Path) -> None:
    """Raise :class:`ShadowedRun` unless every reference module was imported from under ``mutated_root``."""
    root = mutated_root.resolve()
    if not imports:
        raise ShadowedRun(
            "mutmut's test runs never reported which harness.reference they imported (the probe plugin did "
            f"not run), so nothing proves they tested the mutated copy under {root}; no mutmut verdict is reported"
        )
    outside = {name: file for name, file in imports.items() if root not in Path(file).resolve().parents}
    if outside:
        name, file = next(iter(outside.items()))
        raise ShadowedRun(
            f"mutmut tested the unmutated code: {name} was imported from {file}, not from mutmut's mutated copy "
            f"under {root} ({len(outside)} of {len(imports)} reference modules came from elsewhere). An installed "
            "copy of harness shadows the copy (an editable install, or harness imported before mutmut set up its "
            "path); every mutant would look survived or untested, so no mutmut verdict is reported"
        )
