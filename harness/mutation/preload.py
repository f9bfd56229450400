"""Importing the code under test before any contract runs, in a warm worker or a copy's run.

What its modules run at import then counts for every contract, whatever order
they come in, and a fork finds them imported. Standard library only.
"""

from __future__ import annotations

import importlib
import pkgutil


def import_tree(package: str) -> None:
    """Import ``package`` and every module under it; whatever one raises propagates."""
    module = importlib.import_module(package)
    for info in pkgutil.walk_packages(getattr(module, "__path__", []), package + "."):
        importlib.import_module(info.name)
