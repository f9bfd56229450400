"""The known-bug catalogue: the bundled one is valid, and bad entries are named precisely."""

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from harness.cli.mutate import BUNDLED_CATALOGUE
from harness.config.table_schema import load_schema, problems
from harness.mutation.catalogue import CatalogueError, load_catalogue
from harness.mutation.coverage_files import FORMATS
from harness.mutation.patch import apply_patch
from harness.mutation.workspace import Project

REPO = Path(__file__).resolve().parents[1]
SHIPPED = sorted([REPO / "mutants.toml", REPO / "harness" / "mutants.toml", *REPO.glob("examples/*/mutants.toml")])

GOOD = """
[[mutant]]
id = "one"
title = "t"
incident = "i"
file = "harness/reference/messages.py"
find = "a"
replace = "b"
contracts = ["test_x.py"]
"""


def test_bundled_catalogue_loads_and_every_anchor_applies():
    catalogue = load_catalogue(BUNDLED_CATALOGUE)
    project = Project.bundled()
    assert len(catalogue.mutants) >= 6
    for mutant in catalogue.mutants:
        source = project.read(mutant.file)
        assert source is not None, f"mutant {mutant.id}: {mutant.file} is not in the package"
        apply_patch(source, mutant.find, mutant.replace)  # raises StalePatch on drift


@pytest.mark.parametrize(
    "edit, message, line",
    [
        (('contracts = ["test_x.py"]', "contracts = []"),
         r"\[\[mutant\]\] #2 \('one'\): field 'contracts' must be a non-empty list of non-empty strings, got \[\]", 18),
        (('contracts = ["test_x.py"]', 'contracts = ["a", " "]'), r"field 'contracts' item #2 must be a non-empty string", 18),
        (('title = "t"', "title = 3"), r"field 'title' must be a non-empty string, got 3", 13),
        (('find = "a"', 'find = "  "'), r"field 'find' must be a non-empty string, got '  '", 16),
        (('id = "one"', 'id = "One Two"'), r"field 'id' must be lower-case letters, digits and '-'", 12),
        (('replace = "b"', 'replace = "a"'), r"field 'replace' equals 'find'", 17),
        (('file = "harness/reference/messages.py"', 'file = "../etc/passwd"'), r"field 'file' must be a path inside", 15),
        (('replace = "b"', 'replace = "b"\nseverity = 1'), r"unknown field 'severity'; known: contracts, file,", 18),
        (('find = "a"', 'fnd = "a"'), r"unknown field 'fnd' \(did you mean 'find'\?\)", 16),
        (('title = "t"\n', ""), r"#2 \('one'\): field 'title' must be a non-empty string \(it is missing\)", 11),
    ],
)
def test_bad_entry_names_file_line_entry_and_field(tmp_path, edit, message, line):
    path = tmp_path / "mutants.toml"
    second = GOOD.replace('id = "one"', 'id = "two"')
    path.write_text(second + GOOD.replace(*edit))
    with pytest.raises(CatalogueError, match=message) as info:
        load_catalogue(path)
    assert str(info.value).startswith(f"{path}:{line}: [[mutant]] #2"), f"should name the field's line: {info.value}"


def test_every_problem_is_listed_at_once_in_file_order(tmp_path):
    path = tmp_path / "mutants.toml"
    entries = [GOOD.replace('id = "one"', f'id = "e{n}"') for n in range(11)]
    entries[2] = entries[2].replace('title = "t"', "title = 1")  # #3 sorts before #11, not after
    entries[10] = entries[10].replace("contracts", "contract").replace('find = "a"\n', "")
    path.write_text("".join(entries))
    with pytest.raises(CatalogueError) as info:
        load_catalogue(path)
    lines = str(info.value).splitlines()
    assert lines[0] == "3 problems:", info.value
    assert "#3 ('e2'): field 'title'" in lines[1]
    # A misspelt key is one problem, not "unknown" plus "missing".
    last = " ".join(lines[2:])
    assert "#11 ('e10'): unknown field 'contract' (did you mean 'contracts'?)" in last
    assert "#11 ('e10'): field 'find' must be a non-empty string (it is missing)" in last
    assert "'contracts' must be" not in last


@pytest.mark.parametrize(
    "text, message",
    [
        ("mutants = 1\n" + GOOD, r"^{path}:1: top level: unknown field 'mutants' \(did you mean 'mutant'\?\); known: mutant, root, runner$"),
        ("root = 7\n" + GOOD, r"^{path}:1: top level: field 'root' must be a non-empty string, got 7$"),
        ("", r"^{path}: top level: field 'mutant' must be a non-empty list of tables \(it is missing\)$"),
        ("mutant = []", r"^{path}:1: top level: field 'mutant' must be a non-empty list of tables, got \[\]$"),
        ("runner = 3\n" + GOOD, r"^{path}:1: top level: field 'runner' must be a table, got 3$"),
        (GOOD + '[runner]\ncommand = "true"\njunit = "j.xml"\ncoverage = "c.info"\ncoverage_fmt = "lcov"\n',
         r"^{path}:14: \[runner\]: unknown field 'coverage_fmt' \(did you mean 'coverage_format'\?\)"),
        (GOOD + '[runner]\ncommand = "true"\njunit = "j.xml"\ncoverage = "c.info"\ncoverage_format = "gcov"\n',
         r"^{path}:14: \[runner\]: field 'coverage_format' must be one of lcov, cobertura, got 'gcov'$"),
        (GOOD + '[runner]\ncommand = "true"\njunit = "j.xml"\ncoverage = "c.info"\nassertion_pattern = "("\n',
         r"^{path}:10: \[runner\]: field 'assertion_pattern' is not a regular expression"),
    ],
    ids=["unknown-top-level", "root-type", "no-entries", "empty-entries", "runner-type", "runner-unknown",
         "runner-enum", "runner-regex"],
)
def test_top_level_and_runner_errors_name_file_line_table_and_field(tmp_path, text, message):
    path = tmp_path / "mutants.toml"
    path.write_text(text)
    with pytest.raises(CatalogueError, match=message.replace("{path}", re.escape(str(path)))):
        load_catalogue(path)


def test_the_coverage_formats_in_the_schema_are_the_readers():
    assert load_schema("catalogue.json")["$defs"]["runner"]["properties"]["coverage_format"]["enum"] == list(FORMATS)


@pytest.mark.parametrize("catalogue", SHIPPED, ids=lambda p: str(p.relative_to(REPO)))
def test_every_shipped_catalogue_validates(catalogue):
    data = tomllib.loads(catalogue.read_text(encoding="utf-8"))
    assert problems("catalogue.json", data, lambda table, field: f"{table} {field}: ") == []
    assert load_catalogue(catalogue).mutants


def test_duplicate_ids_and_bad_toml_are_reported(tmp_path):
    path = tmp_path / "mutants.toml"
    path.write_text(GOOD + GOOD)
    with pytest.raises(CatalogueError, match="field 'id' repeats mutant #1"):
        load_catalogue(path)
    path.write_text("[[mutant]\n")
    with pytest.raises(CatalogueError, match="not valid TOML"):
        load_catalogue(path)


def test_selecting_an_unknown_id_is_an_error(tmp_path):
    path = tmp_path / "mutants.toml"
    path.write_text(GOOD)
    with pytest.raises(CatalogueError, match="no mutant with id 'nope'"):
        load_catalogue(path).select(["nope"])


def test_incident_is_optional_and_a_root_names_the_project(tmp_path):
    (tmp_path / "project").mkdir()
    path = tmp_path / "mutants.toml"
    path.write_text('root = "project"\n' + GOOD.replace('incident = "i"\n', ""))
    catalogue = load_catalogue(path)
    assert catalogue.mutants[0].incident == "" and catalogue.root == (tmp_path / "project").resolve()
    path.write_text('root = "nowhere"\n' + GOOD)
    with pytest.raises(CatalogueError, match="'root' names .* which is not a directory"):
        load_catalogue(path)
    path.write_text(GOOD.replace('incident = "i"', "incident = 3"))
    with pytest.raises(CatalogueError, match="field 'incident' must be a string, got 3"):
        load_catalogue(path)


@pytest.mark.parametrize("root", ["7", "true", '["."]'])
def test_a_runner_root_that_is_not_a_string_is_a_catalogue_error(tmp_path, root):
    path = tmp_path / "mutants.toml"
    path.write_text(f'[runner]\ncommand = "true"\njunit = "j.xml"\ncoverage = "c.info"\nroot = {root}\n' + GOOD)
    with pytest.raises(CatalogueError, match=r"\[runner\]: field 'root' must be a string"):
        load_catalogue(path)


def test_a_catalogue_that_is_not_utf8_is_named_with_its_line(tmp_path):
    path = tmp_path / "mutants.toml"
    raw = GOOD.replace('title = "t"', 'title = "caf\xe9"').encode("latin-1")
    path.write_bytes(raw)
    with pytest.raises(CatalogueError) as info:
        load_catalogue(path)
    expected = f"{path}:4: not UTF-8 (byte {raw.index(0xE9)} is 0xe9); TOML files are UTF-8: save it so"
    assert str(info.value) == expected, info.value


@pytest.mark.parametrize("command", ["mutate"])  # the gate reads the table's catalogues, not --config
def test_mutate_refuses_a_catalogue_that_is_not_utf8_as_a_usage_error(tmp_path, command):
    path = tmp_path / "mutants.toml"
    path.write_bytes(b'[[mutant]]\nid = "caf\xe9"\n')
    run = subprocess.run([sys.executable, "-m", "harness", command, "--config", str(path)],
                         capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert run.returncode == 2, run.stdout + run.stderr
    assert f"{path}:2: not UTF-8 (byte 20 is 0xe9)" in run.stdout + run.stderr, run.stdout + run.stderr
    assert "Traceback" not in run.stdout + run.stderr
