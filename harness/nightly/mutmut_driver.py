"""Runs inside the isolated copy: mutmut's generator over the reference, its mutants as JSON.

Started as a script (``python mutmut_driver.py SPEC_JSON``) with the copy as
the working directory, where ``pyproject.toml`` holds mutmut's configuration;
``python mutmut_driver.py --count REQUESTS_JSON OUT_JSON`` lists the mutants
mutmut makes on each exempted line, for the exemptions' check (see
``harness.nightly.equivalents``).

It makes every mutant mutmut makes in the files the spec names
(:func:`generate`: mutmut's name, its function and its diff) and writes them
out; the harness starts one driver per job over a share of the files, takes a
shard's share of the names and runs them (:mod:`harness.nightly.generic_run`). Listing the mutants, those of an
exempted line and rendering a diff have no command of their own: those call
mutmut's functions, which is why ``pyproject.toml`` pins mutmut and
``tests/test_nightly_mutmut_slice.py`` and ``tests/test_nightly_exemptions.py``
hold them against mutmut's own.

Only the standard library, libcst and mutmut are imported.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def generate(files: list[str] | None = None) -> list[dict]:
    """Every mutant mutmut makes for the configured files (those of ``files`` only, if given), as mutmut names
    and diffs it, sorted by name.

    mutmut's generator makes the mutations; the names and diffs follow mutmut's
    own rules (a function's mutants numbered in the order they are made; the
    diff of the function against its mutant, as ``mutmut show`` prints it),
    without writing the trampolined copy mutmut's runner needs.
    ``tests/test_nightly_mutmut_slice.py`` holds both against mutmut's own.
    """
    from difflib import unified_diff

    import libcst as cst
    from mutmut.mutation.file_mutation import create_mutations, deep_replace, group_by_top_level_node
    from mutmut.mutation.trampoline_templates import mangle_function_name
    from mutmut.utils.file_utils import walk_mutatable_files
    from mutmut.utils.format_utils import get_mutant_name

    def code(function) -> list[str]:
        return cst.Module([function]).code.strip().split("\n")

    records = []
    for path in walk_mutatable_files():
        if files is not None and path.as_posix() not in files:
            continue
        module, mutations, *_ = create_mutations(str(path), path.read_text(encoding="utf-8"))
        grouped = group_by_top_level_node(mutations)
        functions = []
        for statement in module.body:
            if isinstance(statement, cst.FunctionDef):
                functions.append((statement, None))
            elif isinstance(statement, cst.ClassDef) and isinstance(statement.body, cst.IndentedBlock):
                functions += [(m, statement.name.value) for m in statement.body.body if isinstance(m, cst.FunctionDef)]
        for function, cls in functions:
            made = grouped.get(function)
            if not made:
                continue
            mangled = mangle_function_name(name=function.name.value, class_name=cls) + "__mutmut"
            original = code(function)
            for i, mutation in enumerate(made):
                mutant = code(deep_replace(function, mutation.original_node, mutation.mutated_node))
                diff = "\n".join(unified_diff(original, mutant, fromfile=str(path), tofile=str(path), lineterm=""))
                records.append({
                    "name": get_mutant_name(path, f"{mangled}_{i + 1}"),
                    "file": path.as_posix(),
                    "function": f"{cls}.{function.name.value}" if cls else function.name.value,
                    "diff": diff,
                })
    return sorted(records, key=lambda r: r["name"])


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
    # so nothing there can stand in for a module mutmut imports.
    del sys.path[0]
    spec = json.loads(Path(spec_path).read_text(encoding="utf-8"))
    Path(spec["out"]).write_text(json.dumps(generate(spec["files"])), encoding="utf-8")
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
