"""What an in-memory worker knows of the live project before it forks: built once, shared by every fork.

The modules of the code under test, the names outside it that captured one
of theirs (which make a re-import unsafe), each project file's namespaces
(where a swap puts the reach marker), the compiled original of each file of
the code under test, and every live function of the project by its code's key.
"""

from __future__ import annotations

import gc
import sys
import types
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from . import in_memory_patch
from .in_memory_patch import FunctionKey


@dataclass
class WarmIndex:
    code_modules: list[str]
    reimport_blockers: list[str]
    namespaces: dict[str, list[dict]]  # project file -> the namespaces of the modules loaded from it
    originals: dict[str, types.CodeType]  # file of the code under test -> its compiled original
    live: dict[FunctionKey, list[types.FunctionType]]


def build(root: str, in_code: Callable[[str], bool]) -> WarmIndex:
    """Index the process as it is now; ``root`` ends with a separator."""
    code_modules = [
        name for name, module in list(sys.modules.items()) if in_code(getattr(module, "__file__", None) or "")
    ]
    namespaces: dict[str, list[dict]] = {}
    for module in list(sys.modules.values()):
        filename = getattr(module, "__file__", None) or ""
        if filename.endswith(".py") and filename.startswith(root):
            namespaces.setdefault(filename, []).append(module.__dict__)
    # Compiled once here rather than in every fork.
    originals = {}
    for filename in namespaces:
        if in_code(filename):
            try:
                originals[filename] = compile(
                    Path(filename).read_text(encoding="utf-8"), filename, "exec", dont_inherit=True
                )
            except (OSError, SyntaxError, ValueError):
                pass
    live: dict[FunctionKey, list[types.FunctionType]] = {}
    for obj in gc.get_objects():
        if type(obj) is types.FunctionType and obj.__code__.co_filename.startswith(root):
            live.setdefault(in_memory_patch.function_key(obj.__code__), []).append(obj)
    return WarmIndex(code_modules, in_memory_patch.captured_names(set(code_modules)), namespaces, originals, live)
