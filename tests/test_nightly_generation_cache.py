"""mutmut's mutants kept between nightly runs: the same mutants from the cache as from mutmut, made again when
the file changed or the entry is not one the cache wrote."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.mutation.workspace import Project
from harness.nightly import mutmut_run
from harness.nightly.generation_cache import GenerationCache
from harness.processes import Children

FILE = "harness/reference/distill.py"


def _project(root: Path, text: str) -> Project:
    (root / FILE).parent.mkdir(parents=True, exist_ok=True)
    (root / FILE).write_text(text, encoding="utf-8")
    return Project(root=root, files=(FILE,))


def _generate(project: Project, cache: GenerationCache) -> mutmut_run.Generated:
    with Children() as children:
        return mutmut_run.generate_mutants(project, children, None, only=(FILE,), cache=cache)


def test_a_second_generation_of_an_unchanged_file_runs_no_generator_and_gives_the_same_mutants(
        tmp_path: Path, monkeypatch) -> None:
    original = (Project.bundled().root / FILE).read_text(encoding="utf-8")
    project, cache = _project(tmp_path / "project", original), GenerationCache(tmp_path / "cache")
    first = _generate(project, cache)
    assert first.total > 5 and first.kept == 0, f"{first.total} mutants made, {first.kept} files kept"

    def no_generator(*args, **kwargs):
        raise AssertionError("mutmut's generator ran for a file the cache holds")

    monkeypatch.setattr(mutmut_run, "run_child", no_generator)
    second = _generate(project, cache)
    assert second.kept == 1 and second.mutants == first.mutants and second.total == first.total

    monkeypatch.undo()
    changed = _generate(_project(tmp_path / "project", original + "\n\ndef extra(x):\n    return x + 1\n"), cache)
    assert changed.kept == 0 and changed.total > first.total, "a changed file's mutants are made again"


@pytest.mark.parametrize("entry", ["{not json", "[]\n", '[{"name": "x"}]', '[{"name": "n", "file": "other.py", '
                                   '"function": "f", "diff": "d"}]'])
def test_an_entry_the_cache_did_not_write_is_not_trusted(tmp_path: Path, entry: str) -> None:
    cache = GenerationCache(tmp_path)
    cache.save(FILE, "text", [])
    (written,) = tmp_path.glob("*.json")
    assert cache.load(FILE, "text") == []
    written.write_text(entry, encoding="utf-8")
    expected = [] if entry == "[]\n" else None
    assert cache.load(FILE, "text") == expected, f"entry {entry!r} read as {cache.load(FILE, 'text')!r}"
    assert cache.load(FILE, "other text") is None, "another text of the file is another entry"
