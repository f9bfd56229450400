"""Policies: product decisions an adapter may take differently, as parameters with documented defaults.

A ``policy``-level contract reads its expectation from here instead of hard-coding
it. The defaults are the decisions the incidents took; a team that decided
otherwise sets its own value with ``--policy KEY=VALUE`` (repeatable) or in a
``[tool.harness.policy]`` table of the ``pyproject.toml`` in the folder the run
starts from. The option wins over the table. Both are checked against
``harness/schemas/policy.json``, which :func:`policy_schema` writes from
:data:`POLICIES`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from harness.config.pyproject import read_tool_table
from harness.config.table_schema import NON_BLANK, check


@dataclass(frozen=True)
class PolicySpec:
    default: str
    choices: tuple[str, ...] | None  # None: any non-empty text
    doc: str


_SENT_EFFORTS = ("low", "medium", "high", "max")

POLICIES: dict[str, PolicySpec] = {
    **{
        f"effort.{level}": PolicySpec(
            default={"medium": "low"}.get(level, level),
            choices=_SENT_EFFORTS,
            doc=f"the reasoning_effort DeepSeek gets for the slider position {level!r}"
            + (
                " (default low: DeepSeek reads medium as high, so passing it through would merge two slider "
                "positions; the effort-slider incident chose low)"
                if level == "medium"
                else ""
            ),
        )
        for level in _SENT_EFFORTS
    },
    "executor.thinking": PolicySpec(
        default="disabled",
        choices=("disabled", "default"),
        doc="what a sub-agent round with no effort of its own sends DeepSeek: thinking disabled, or nothing "
        "(the server default, thinking on at high effort)",
    ),
    "memory.reasoning": PolicySpec(
        default="included",
        choices=("included", "excluded"),
        doc="whether an event's reasoning is read into its distillation and its vector-search text (default "
        "included: the storage incident's decision, since a round's key clue often lives only there)",
    ),
    "reasoning.hosts": PolicySpec(
        default="api.deepseek.com",
        choices=None,
        doc="comma-separated hosts that get reasoning_content sent back (exact host match); every other host "
        "gets none, since strict endpoints reject the unknown field",
    ),
}


class PolicyError(ValueError):
    """A policy key or value that does not exist; the message names where it came from."""


class Policies(Mapping[str, str]):
    """The policy values in force for a run: defaults, then the pyproject table, then the options."""

    def __init__(self, values: Mapping[str, str]) -> None:
        self._values = {key: spec.default for key, spec in POLICIES.items()} | dict(values)

    def __getitem__(self, key: str) -> str:
        return self._values[key]

    def __iter__(self):
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def changed(self) -> dict[str, str]:
        """The values that differ from their defaults."""
        return {k: v for k, v in self._values.items() if v != POLICIES[k].default}

    def hosts(self, key: str) -> tuple[str, ...]:
        """A comma-separated policy as its lower-cased items."""
        return tuple(part.strip().lower() for part in self[key].split(",") if part.strip())

    def describe(self) -> str:
        changed = self.changed()
        if not changed:
            return "defaults"
        return ", ".join(f"{k}={v}" for k, v in sorted(changed.items())) + " (others default)"


def policy_schema() -> dict:
    """The JSON Schema of ``[tool.harness.policy]``, built from :data:`POLICIES`.

    ``harness/schemas/policy.json`` is this, written out (a test keeps the two
    equal), so editors and other tools can read it without importing the harness.
    """
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://agent-contract-harness.invalid/schemas/policy.json",
        "title": "[tool.harness.policy] in a pyproject.toml, and --policy KEY=VALUE",
        "$comment": "Generated from POLICIES in harness/rules/policy.py; edit that, not this file.",
        "type": "object",
        "additionalProperties": False,
        "properties": {
            key: {"description": spec.doc, "default": spec.default}
            | ({"enum": list(spec.choices)} if spec.choices is not None else {"type": "string", "pattern": NON_BLANK})
            for key, spec in POLICIES.items()
        },
    }


def _flat(table: dict, prefix: str = "") -> dict:
    """Dotted keys come back from TOML as nested tables: {"effort": {"medium": "high"}} is "effort.medium"."""
    flat: dict = {}
    for key, value in table.items():
        name = f"{prefix}.{key}" if prefix else key
        flat |= _flat(value, name) if isinstance(value, dict) else {name: value}
    return flat


def _from_pyproject(path: Path) -> dict[str, str]:
    found = read_tool_table(path, "policy", PolicyError)
    flat = _flat(found.table)
    check("policy.json", flat, found.place, PolicyError, noun="policy")
    return flat


def load_policies(options: Iterable[str], pyproject: Path) -> Policies:
    """Defaults, then ``pyproject``'s ``[tool.harness.policy]``, then ``KEY=VALUE`` options."""
    values = _from_pyproject(pyproject)
    for option in options:
        key, sep, value = option.partition("=")
        if not sep:
            raise PolicyError(f"--policy {option!r}: expected KEY=VALUE, e.g. effort.medium=high")
        given = {key.strip(): value.strip()}
        check("policy.json", given, lambda _table, _field, o=option: f"--policy {o!r}: ", PolicyError, noun="policy")
        values |= given
    return Policies(values)
