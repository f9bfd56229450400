"""Policies: product decisions an adapter may take differently, as parameters with documented defaults.

A ``policy``-level contract reads its expectation from here instead of hard-coding
it. The defaults are the decisions the incidents took; a team that decided
otherwise sets its own value with ``--policy KEY=VALUE`` (repeatable) or in a
``[tool.harness.policy]`` table of the ``pyproject.toml`` in the folder the run
starts from. The option wins over the table.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path


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


def _checked(key: str, value: object, where: str) -> str:
    spec = POLICIES.get(key)
    if spec is None:
        raise PolicyError(f"{where}: unknown policy {key!r}; known: {', '.join(POLICIES)}")
    if not isinstance(value, str) or not value.strip():
        raise PolicyError(f"{where}: policy {key!r} must be a non-empty string, got {value!r}")
    if spec.choices is not None and value not in spec.choices:
        raise PolicyError(f"{where}: policy {key!r} is {value!r}; expected one of {', '.join(spec.choices)}")
    return value


def _from_pyproject(path: Path) -> dict[str, str]:
    if not path.is_file():
        return {}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise PolicyError(f"{path}: cannot read: {exc}") from None
    table = data.get("tool", {}).get("harness", {}).get("policy", {})
    if not isinstance(table, dict):
        raise PolicyError(f"{path}: [tool.harness.policy] must be a table")
    # Dotted keys come back as nested tables: {"effort": {"medium": "high"}}.
    flat: dict[str, str] = {}

    def walk(prefix: str, value: object) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                walk(f"{prefix}.{k}" if prefix else k, v)
        else:
            flat[prefix] = _checked(prefix, value, f"{path}: [tool.harness.policy]")

    walk("", table)
    return flat


def load_policies(options: Iterable[str], pyproject: Path) -> Policies:
    """Defaults, then ``pyproject``'s ``[tool.harness.policy]``, then ``KEY=VALUE`` options."""
    values = _from_pyproject(pyproject)
    for option in options:
        key, sep, value = option.partition("=")
        if not sep:
            raise PolicyError(f"--policy {option!r}: expected KEY=VALUE, e.g. effort.medium=high")
        values[key.strip()] = _checked(key.strip(), value.strip(), f"--policy {option!r}")
    return Policies(values)
