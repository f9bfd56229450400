"""Which of pytest's nodes are contracts, and what the plugin records on one.

Small on purpose: the entry point (:mod:`harness.plugin`) asks these questions of
every node it sees before anything heavy is loaded.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from harness import CONTRACTS_DIR
from harness.adapter import CAPABILITIES, DEFAULT_FORMAT, FIXTURE_NAMES, FORMATS

ADAPTER_ERROR = "error"  # the contract could not run: the adapter faulted, or its process crashed or broke the protocol

level_key = pytest.StashKey[str]()  # a contract item's rule level (harness.rules.levels)
capability_key = pytest.StashKey[str]()  # the capabilities it calls, "+"-joined (capability_of)
formats_key = pytest.StashKey[tuple]()  # the wire formats it holds for (formats_of)


def is_contract(node: pytest.Item | pytest.Collector) -> bool:
    """A contract: collected from the contracts package, or one of its functions in an AdapterContracts class."""
    if getattr(getattr(node, "function", None), "__module__", "").startswith("harness.contracts."):
        return True
    path = getattr(node, "path", None)
    return path is not None and CONTRACTS_DIR in Path(path).resolve().parents


def owner(node: pytest.Item | pytest.Collector | pytest.FixtureRequest) -> type | None:
    """The :class:`harness.testing.AdapterContracts` subclass a contract class, item or fixture request runs under."""
    return getattr(getattr(node, "cls", None), "harness_owner", None)


def formats_of(item: pytest.Item) -> tuple[str, ...]:
    """The wire formats a contract holds for: its ``formats`` marker's names, else the default format alone."""
    marker = item.get_closest_marker("formats")
    if marker is None:
        return (DEFAULT_FORMAT,)
    unknown = [name for name in marker.args if name not in FORMATS]
    if unknown or not marker.args:
        raise pytest.UsageError(
            f"contract {item.nodeid} has formats marker {list(marker.args)}; formats are {', '.join(FORMATS)}"
        )
    return tuple(marker.args)


def capability_of(item: pytest.Item) -> str:
    """The capabilities a contract calls (by the fixtures it asks for), ``"+"``-joined; ``"none"`` if it calls none."""
    used = [cap for cap in CAPABILITIES if FIXTURE_NAMES[cap] in getattr(item, "fixturenames", ())]
    return "+".join(used) or "none"
