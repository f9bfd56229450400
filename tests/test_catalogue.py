"""The known-bug catalogue: the bundled one is valid, and bad entries are named precisely."""

import pytest

from harness.mutation.catalogue import CatalogueError, load_catalogue
from harness.mutation.command import BUNDLED_CATALOGUE
from harness.mutation.patch import apply_patch
from harness.mutation.workspace import Project

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
    "edit, message",
    [
        (('contracts = ["test_x.py"]', "contracts = []"), r"mutant #2 \('one'\): field 'contracts' must be"),
        (('title = "t"', "title = 3"), r"field 'title' must be a non-empty string"),
        (('id = "one"', 'id = "One Two"'), r"field 'id' must be lower-case"),
        (('replace = "b"', 'replace = "a"'), r"field 'replace' equals 'find'"),
        (('file = "harness/reference/messages.py"', 'file = "../etc/passwd"'), r"field 'file' must be a path inside"),
        (('replace = "b"', 'replace = "b"\nseverity = 1'), r"unknown field\(s\) \['severity'\]"),
    ],
)
def test_bad_entry_names_file_line_entry_and_field(tmp_path, edit, message):
    path = tmp_path / "mutants.toml"
    second = GOOD.replace('id = "one"', 'id = "two"')
    path.write_text(second + GOOD.replace(*edit))
    with pytest.raises(CatalogueError, match=message) as info:
        load_catalogue(path)
    assert f"{path}:11" in str(info.value), f"error should name the entry's line: {info.value}"


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
    with pytest.raises(CatalogueError, match="field 'incident' must be a string"):
        load_catalogue(path)


@pytest.mark.parametrize("root", ["7", "true", '["."]'])
def test_a_runner_root_that_is_not_a_string_is_a_catalogue_error(tmp_path, root):
    path = tmp_path / "mutants.toml"
    path.write_text(f'[runner]\ncommand = "true"\njunit = "j.xml"\ncoverage = "c.info"\nroot = {root}\n' + GOOD)
    with pytest.raises(CatalogueError, match=r"\[runner\]: field 'root' must be a string"):
        load_catalogue(path)
