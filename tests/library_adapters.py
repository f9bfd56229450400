"""What the library adapter tests share: a library that is not importable fails the test with the install
command, or skips it, naming the library, under ``HARNESS_SKIP_LIBRARIES=1``."""

from __future__ import annotations

import importlib
import os

import pytest

SKIP_VAR = "HARNESS_SKIP_LIBRARIES"


def require(import_name: str, distribution: str) -> None:
    """Fail, or skip under HARNESS_SKIP_LIBRARIES=1, when the library is not importable."""
    if import_name == "litellm":
        os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # no cost-map download at import
    try:
        importlib.import_module(import_name)
        return
    except ImportError as exc:
        reason = f"{distribution} is not importable ({exc})"
    if os.environ.get(SKIP_VAR) == "1":
        pytest.skip(f"{reason}; skipped because {SKIP_VAR}=1")
    pytest.fail(f"{reason}: install the extras with pip install -e '.[test]', or set {SKIP_VAR}=1 to skip "
                "the library adapter tests", pytrace=False)


def library_adapter(module: str, import_name: str, distribution: str):
    """``harness.libraries.<module>.adapter``, once its library is importable."""
    require(import_name, distribution)
    return importlib.import_module(f"harness.libraries.{module}").adapter
