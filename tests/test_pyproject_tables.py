"""The [tool.harness.*] tables of a pyproject.toml: checked against their shipped schemas, errors say where."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from harness.config.table_schema import SCHEMAS, load_schema, problems
from harness.outcomes.score import ThresholdError, load_thresholds
from harness.rules.policy import POLICIES, PolicyError, load_policies, policy_schema

REPO = Path(__file__).resolve().parents[1]


def test_the_shipped_policy_schema_is_the_one_built_from_the_policies():
    shipped = json.loads((SCHEMAS / "policy.json").read_text(encoding="utf-8"))
    assert shipped == policy_schema(), (
        "harness/schemas/policy.json is out of date; regenerate it with\n"
        "python -c 'import json, harness.rules.policy as p; print(json.dumps(p.policy_schema(), indent=2))' "
        "> harness/schemas/policy.json"
    )
    assert list(shipped["properties"]) == list(POLICIES)


def test_the_repositorys_own_pyproject_validates():
    assert load_thresholds(REPO / "pyproject.toml").break_at is not None
    assert dict(load_policies([], REPO / "pyproject.toml")) == {k: s.default for k, s in POLICIES.items()}


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ('"effort.medium" = "huge"',
         ":3: [tool.harness.policy]: policy 'effort.medium' must be one of low, medium, high, max, got 'huge'"),
        ('effort.medium = "huge"',  # a bare dotted key is a nested table in TOML; the same policy
         ":3: [tool.harness.policy]: policy 'effort.medium' must be one of low, medium, high, max, got 'huge'"),
        ('"reasoning.hosts" = " "', (":3: [tool.harness.policy]: policy 'reasoning.hosts' must be a non-empty string, "
         "got ' '")),
        ('"executor.thinking" = 3',
         ":3: [tool.harness.policy]: policy 'executor.thinking' must be one of disabled, default, got 3"),
        ('"effort.meduim" = "high"', (":3: [tool.harness.policy]: unknown policy 'effort.meduim' "
         "(did you mean 'effort.medium'?); known: effort.high, effort.low,")),
    ],
    ids=["enum", "dotted", "blank", "type", "unknown"],
)
def test_a_bad_policy_table_names_the_file_line_table_and_policy(tmp_path, table, message):
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(f"[project]\n[tool.harness.policy]\n{table}\n")
    with pytest.raises(PolicyError) as info:
        load_policies([], pyproject)
    assert str(info.value).startswith(f"{pyproject}{message}"), info.value


def test_a_good_policy_table_and_options_are_read_and_the_option_wins(tmp_path):
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[tool.harness.policy]\neffort.medium = "high"\n"executor.thinking" = "default"\n')
    policies = load_policies(["executor.thinking=disabled"], pyproject)
    assert policies.changed() == {"effort.medium": "high"}


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("effort.medium=huge", ("--policy 'effort.medium=huge': policy 'effort.medium' must be one of low, medium, "
         "high, max, got 'huge'")),
        ("effort.meduim=high", ("--policy 'effort.meduim=high': unknown policy 'effort.meduim' "
         "(did you mean 'effort.medium'?)")),
        ("effort.medium", "--policy 'effort.medium': expected KEY=VALUE"),
    ],
)
def test_a_bad_policy_option_names_itself(tmp_path, option, message):
    with pytest.raises(PolicyError) as info:
        load_policies([option], tmp_path / "pyproject.toml")
    assert str(info.value).startswith(message), info.value


@pytest.mark.parametrize("load, error", [(load_thresholds, ThresholdError),
                                         (lambda path: load_policies([], path), PolicyError)])
@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[tool.harness.nigthly]\nhigh = 90\n",
         ":2: [tool.harness]: unknown table 'nigthly' (did you mean 'nightly'?); known: nightly, policy"),
        ("[tool.harness]\npolicy = 3\n", ":3: [tool.harness]: table 'policy' must be a table, got 3"),
        ("[tool]\nharness = 3\n", ": [tool.harness]: must be a table, got 3"),
    ],
    ids=["misspelt-table", "not-a-table", "harness-not-a-table"],
)
def test_every_reader_refuses_a_misspelt_or_malformed_harness_table(tmp_path, load, error, text, message):
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text("[project]\n" + text)
    with pytest.raises(error) as info:
        load(pyproject)
    assert str(info.value).startswith(f"{pyproject}{message}"), info.value


def test_a_pyproject_that_is_not_toml_is_named(tmp_path):
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text("[tool.harness.nightly\n")
    for load, error in [(load_thresholds, ThresholdError), (lambda path: load_policies([], path), PolicyError)]:
        with pytest.raises(error, match=r"pyproject.toml: not valid TOML"):
            load(pyproject)


@pytest.mark.parametrize("name", sorted(p.name for p in SCHEMAS.glob("*.json")))
def test_every_shipped_schema_is_a_valid_schema(name):
    problems(name, {}, lambda table, field: "")  # builds the validator, which checks the schema itself
    assert load_schema(name)["$id"].endswith(f"/{name}")


def test_a_pyproject_that_is_not_utf8_is_named_with_its_line(tmp_path):
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_bytes(NOT_UTF8)
    expected = f"{pyproject}:2: not UTF-8 (byte 21 is 0xe9); TOML files are UTF-8: save it so"
    for load, error in [(load_thresholds, ThresholdError), (lambda path: load_policies([], path), PolicyError)]:
        with pytest.raises(error) as info:
            load(pyproject)
        assert str(info.value) == expected, info.value


NOT_UTF8 = b'[project]\nname = "caf\xe9"\n'  # Latin-1, as an editor on Windows may save it
CONTRACT = str(Path(__import__("harness.contracts", fromlist=["x"]).__file__).parent / "test_sse_framing.py")


@pytest.mark.parametrize(
    ("command", "code"),
    [
        (["harness", "check", "--hypothesis-profile", "ci", "-k", "framing"], 2),
        (["harness", "gate", "--report-dir", "reports"], 2),
        (["harness", "mutate", "--only", "accumulate-by-position"], 2),
        (["harness", "nightly", "--report-dir", "reports"], 2),
        (["pytest", CONTRACT, "-p", "no:cacheprovider"], pytest.ExitCode.USAGE_ERROR),  # the plugin, in pytest's words
    ],
    ids=["check", "gate", "mutate", "nightly", "pytest-plugin"],
)
def test_every_command_refuses_a_pyproject_that_is_not_utf8_as_a_usage_error(tmp_path, command, code):
    (tmp_path / "pyproject.toml").write_bytes(NOT_UTF8)
    run = subprocess.run([sys.executable, "-m", *command], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    out = run.stdout + run.stderr
    assert run.returncode == code, out
    assert "pyproject.toml:2: not UTF-8 (byte 21 is 0xe9)" in out, out
    assert "Traceback" not in out and "INTERNALERROR" not in out, out
