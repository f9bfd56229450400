"""The contracts take their toolkit from ``harness.testing``: what they use is what a user gets."""

import ast
import importlib
from pathlib import Path

import harness.contracts
import harness.testing

CONTRACTS = Path(harness.contracts.__file__).parent


def _private_homes() -> dict[tuple[str, str], str]:
    """(module, name) -> public name, for every public toolkit object defined elsewhere."""
    homes = {}
    for public in harness.testing.__all__:
        obj = getattr(harness.testing, public)
        module = getattr(obj, "__module__", None)
        name = getattr(obj, "__name__", public)
        if module and module != "harness.testing":
            homes[(module, name)] = public
            # the objects are re-exported from their package too (harness.loopback)
            package = module.rsplit(".", 1)[0]
            if package != "harness.testing" and getattr(importlib.import_module(package), name, None) is obj:
                homes[(package, name)] = public
    return homes


def test_contracts_import_the_toolkit_from_harness_testing():
    homes = _private_homes()
    found = []
    for path in sorted(CONTRACTS.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                found += [
                    f"{path.name}:{node.lineno}: {alias.name} from {node.module}, public as harness.testing."
                    f"{homes[(node.module, alias.name)]}"
                    for alias in node.names
                    if (node.module, alias.name) in homes
                ]
    assert not found, "contracts import toolkit objects from their private homes:\n" + "\n".join(found)
