"""Runs inside the isolated copy: mutmut over the reference, then its results as JSON.

Started as a script (``python mutmut_driver.py SPEC_JSON``) with the copy as
the working directory, where ``pyproject.toml`` holds mutmut's configuration;
``python mutmut_driver.py --count REQUESTS_JSON OUT_JSON`` lists the mutants
mutmut makes on each exempted line, for the exemptions' check (see
``harness.nightly.equivalents``).

It lists every mutant mutmut will make, keeps this shard's share (every n-th
name in sorted order, from the k-th), runs mutmut's own ``run`` command on
exactly those, and writes one record per mutant from mutmut's output files
(``mutants/*.py.meta``, ``mutants/mutmut-stats.json``): mutmut's status, its
diff, the contracts that ran the mutated function and the one that killed
it. Listing the mutants, those of an exempted line and rendering a
diff have no command of their own: those call mutmut's functions, which is why
``pyproject.toml`` pins mutmut and ``tests/test_nightly_mutmut_slice.py`` and
``tests/test_nightly_exemptions.py`` run them for real.

Only the standard library and mutmut are imported: this file must not pull the
unmutated package in ahead of mutmut's copy.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def mutant_names() -> list[str]:
    """Every mutant mutmut generates for the configured files, sorted."""
    from mutmut.mutation.file_mutation import mutate_file_contents
    from mutmut.utils.file_utils import walk_mutatable_files
    from mutmut.utils.format_utils import get_mutant_name

    names: list[str] = []
    for path in walk_mutatable_files():
        mutated = mutate_file_contents(str(path), path.read_text(encoding="utf-8"))
        names += [get_mutant_name(path, name) for name in mutated.mutant_names]
    return sorted(names)


def _shard_type():
    """harness.mutation.shard.Shard, loaded from its file: importing ``harness`` would load the unmutated package."""
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "mutation" / "shard.py"
    spec = importlib.util.spec_from_file_location("_harness_shard", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module.Shard


def select(names: list[str], shard: str | None) -> list[str]:
    """This shard's share of the sorted names, by the one rule every command uses."""
    return _shard_type().parse(shard).select(names) if shard else names


def run(names: list[str], jobs: int, everything: bool) -> None:
    from mutmut.__main__ import cli

    # Naming no mutant runs them all; naming them is how a shard runs its share.
    cli.main(["run", "--max-children", str(jobs), *([] if everything else names)], "mutmut", standalone_mode=False)


def _kill(probe: Path, name: str) -> dict:
    path = probe / "kills" / name
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def _meta_files() -> list[tuple[Path, dict]]:
    """(source path, data) of every meta file mutmut wrote: its output, one JSON file per mutated source."""
    root = Path("mutants")
    found = []
    for meta in sorted(root.rglob("*.py.meta")):
        source = meta.relative_to(root).with_suffix("")  # x/y.py.meta -> x/y.py
        found.append((source, json.loads(meta.read_text(encoding="utf-8"))))
    return found


def export(names: list[str], probe: Path) -> list[dict]:
    """One record per mutant of ``names``, read from mutmut's output files.

    Statuses and durations come from the ``mutants/*.py.meta`` files and the
    contracts that ran each function from ``mutants/mutmut-stats.json``; the
    diff and the naming helpers are mutmut's own (pinned version;
    ``tests/test_nightly_mutmut_slice.py`` runs the whole path for real).
    """
    from mutmut.mutation.diff_apply import get_diff_for_mutant
    from mutmut.stats import status_by_exit_code
    from mutmut.utils.format_utils import mangled_name_from_mutant_name, orig_function_and_class_names_from_key

    stats_file = Path("mutants") / "mutmut-stats.json"
    stats = json.loads(stats_file.read_text(encoding="utf-8")) if stats_file.exists() else {}
    tests_by_function = stats.get("tests_by_mangled_function_name", {})
    wanted = set(names)
    records = []
    for path, data in _meta_files():
        durations = data.get("durations_by_key", {})
        for name, exit_code in data.get("exit_code_by_key", {}).items():
            if name not in wanted:
                continue
            function, cls = orig_function_and_class_names_from_key(name)
            records.append(
                {
                    "name": name,
                    "file": path.as_posix(),
                    "function": f"{cls}.{function}" if cls else function,
                    "status": status_by_exit_code[exit_code],
                    "duration": durations.get(name),
                    "diff": get_diff_for_mutant(name, path=path),
                    "covered_by": sorted(tests_by_function.get(mangled_name_from_mutant_name(name), ())),
                    "kill": _kill(probe, name),
                }
            )
    return records


def mutated_lines(requests: list[dict]) -> list[list[str]]:
    """For each ``{"file", "line", "source"}``, the text ``line`` of ``source`` takes in each mutant mutmut makes on it.

    ``source`` is the file (or its enclosing top-level statement, see
    ``harness.nightly.equivalents.snippet``) with that line's pragma removed.
    """
    from mutmut.mutation.file_mutation import create_mutations

    found = []
    for r in requests:
        module, mutations, *_ = create_mutations(r["file"], r["source"], covered_lines={r["line"]})
        texts = (module.deep_replace(m.original_node, m.mutated_node).code.splitlines() for m in mutations)
        found.append([text[r["line"] - 1] if len(text) >= r["line"] else "" for text in texts])
    return found


def main(spec_path: str) -> int:
    # sys.path[0] is this script's directory inside the installed package: drop it,
    # so nothing there can stand in for a module mutmut or the contracts import.
    del sys.path[0]
    spec = json.loads(Path(spec_path).read_text(encoding="utf-8"))
    names = mutant_names()
    selected = select(names, spec["shard"])
    Path(spec["selected"]).write_text(json.dumps(selected), encoding="utf-8")
    if selected:
        run(selected, spec["jobs"], everything=selected == names)
    records = export(selected, Path(spec["probe"]))
    Path(spec["out"]).write_text(json.dumps({"total": len(names), "mutants": records}), encoding="utf-8")
    return 0


def count_main(requests_path: str, out_path: str) -> int:
    del sys.path[0]
    requests = json.loads(Path(requests_path).read_text(encoding="utf-8"))
    Path(out_path).write_text(json.dumps(mutated_lines(requests)), encoding="utf-8")
    return 0


if __name__ == "__main__":
    if sys.argv[1] == "--count":
        raise SystemExit(count_main(sys.argv[2], sys.argv[3]))
    raise SystemExit(main(sys.argv[1]))
