"""The shadow guard: a run whose contracts imported an installed copy instead of mutmut's is refused.

The real probe plugin runs in a real pytest process here, once with nothing
under ``mutants/`` (the installed package wins, as with an editable install)
and once with the package copied there (the copy wins).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from harness.mutation.workspace import Project
from harness.nightly.kill_recorder import PROBE_ENV
from harness.nightly.shadow_guard import ShadowedRun, check_imports, read_imports


def test_guard_accepts_a_run_that_imported_the_copy(tmp_path: Path) -> None:
    copy = tmp_path / "mutants"
    check_imports({"harness.reference": str(copy / "harness/reference/__init__.py")}, copy)


def test_guard_names_the_module_and_where_it_came_from(tmp_path: Path) -> None:
    imports = {
        "harness.reference": str(tmp_path / "mutants/harness/reference/__init__.py"),
        "harness.reference.sse": "/site-packages/harness/reference/sse.py",
    }
    with pytest.raises(ShadowedRun) as excinfo:
        check_imports(imports, tmp_path / "mutants")
    message = str(excinfo.value)
    assert message.startswith("mutmut tested the unmutated code: harness.reference.sse was imported from "
                              "/site-packages/harness/reference/sse.py, not from mutmut's mutated copy under")
    assert "(1 of 2 reference modules came from elsewhere)" in message
    assert "an editable install" in message


def test_guard_refuses_a_run_the_probe_never_saw(tmp_path: Path) -> None:
    with pytest.raises(ShadowedRun, match="never reported which harness.reference they imported"):
        check_imports(read_imports(tmp_path / "imports.json"), tmp_path / "mutants")


def _probe_run(root: Path) -> dict[str, str] | None:
    """A pytest process like mutmut's: mutants/ first on the path, the probe plugin loaded."""
    tests = root / "tests"
    tests.mkdir()
    (tests / "test_uses_reference.py").write_text("def test_uses_reference():\n    import harness.reference\n")
    probe = root / "probe"
    probe.mkdir()
    env = {**os.environ, "PYTHONPATH": str(root / "mutants"), PROBE_ENV: str(probe), "MUTANT_UNDER_TEST": "stats"}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "harness.nightly.kill_recorder",
         str(tests)],
        cwd=root, env=env, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return read_imports(probe / "imports.json")


def test_real_probe_catches_the_installed_package_shadowing_the_copy(tmp_path: Path) -> None:
    (tmp_path / "mutants").mkdir()  # mutmut's copy holds no harness: the installed one is imported
    imports = _probe_run(tmp_path)
    # Whichever installed copy wins (editable source or site-packages), it is not mutmut's.
    assert imports and not any(Path(f).is_relative_to(tmp_path / "mutants") for f in imports.values())
    with pytest.raises(ShadowedRun, match="was imported from .*, not from mutmut's mutated copy"):
        check_imports(imports, tmp_path / "mutants")


def test_real_probe_passes_when_the_copy_comes_first(tmp_path: Path) -> None:
    project = Project.bundled()
    for relative in project.files:
        destination = tmp_path / "mutants" / relative
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(project.root / relative, destination)
    imports = _probe_run(tmp_path)
    assert imports and "harness.reference" in imports
    check_imports(imports, tmp_path / "mutants")
