"""Contract classes a project subclasses in its own test tree, one subclass per adapter.

    # tests/test_my_adapters.py
    from harness.testing import AdapterContracts

    class TestMyCodec(AdapterContracts):
        adapter = MyCodec()

    class TestNodeKernel(AdapterContracts):
        adapter_cmd = "node kernel/bridge.js"

Each subclass gets every contract of ``harness.contracts`` as a nested class
per contract module (``TestMyCodec::TestSseFraming::test_...``), run against
its own adapter: several adapters in one pytest session. It is the same
implementation as ``--adapter``: the same contract functions, capability
fixtures, levels, policies, guards and reports.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any, ClassVar

import pytest

from harness import CONTRACTS_DIR
from harness.adapter import CAPABILITIES, LoadedAdapter, capabilities_of, format_of
from harness.bridge import DEFAULT_TIMEOUT, load_bridge
from harness.plugin.session import capability_fixture
from harness.testing import formats


def _contract_modules() -> list[Any]:
    names = sorted(m.name for m in pkgutil.iter_modules([str(CONTRACTS_DIR)]) if m.name.startswith("test_"))
    return [importlib.import_module(f"harness.contracts.{name}") for name in names]


def _class_name(module) -> str:
    return "Test" + "".join(part.title() for part in module.__name__.rsplit(".", 1)[1].split("_")[1:])


class AdapterContracts:
    """Every contract, run against this class's ``adapter`` (an object) or ``adapter_cmd`` (a bridge command)."""

    adapter: ClassVar[Any] = None
    adapter_cmd: ClassVar[str | None] = None
    adapter_timeout: ClassVar[float] = DEFAULT_TIMEOUT  # per request, for adapter_cmd

    _loaded: ClassVar[LoadedAdapter | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.adapter is None and cls.adapter_cmd is None:
            return  # an intermediate base of the project's own
        cls._loaded = None
        for module in _contract_modules():
            body: dict[str, Any] = {"harness_owner": cls, "__module__": cls.__module__}
            if hasattr(module, "pytestmark"):
                body["pytestmark"] = module.pytestmark
            for name, function in vars(module).items():
                if name.startswith("test") and callable(function) and function.__module__ == module.__name__:
                    body[name] = staticmethod(function)
            setattr(cls, _class_name(module), type(_class_name(module), (), body))

    @classmethod
    def harness_loaded(cls, config: pytest.Config) -> LoadedAdapter:
        """This class's adapter, loaded once per session and closed at its end (:meth:`LoadedAdapter.close`)."""
        if cls._loaded is None:
            spec = f"{cls.__module__}.{cls.__qualname__}"
            if cls.adapter_cmd is not None:
                cls._loaded = load_bridge(cls.adapter_cmd, cls.adapter_timeout)
                config.add_cleanup(cls._forget)
            else:
                cls._loaded = LoadedAdapter(spec=spec, obj=cls.adapter, capabilities=capabilities_of(cls.adapter),
                                            format=format_of(cls.adapter))
            config.add_cleanup(cls._loaded.close)
        return cls._loaded

    @classmethod
    def _forget(cls) -> None:
        cls._loaded = None


# The capability fixtures, per class: each nested contract class asks its owner for the adapter.
for _capability in CAPABILITIES:
    setattr(AdapterContracts, f"_{_capability}_fixture", capability_fixture(_capability, "class"))
# The format the cross-format contracts draw from: this class's adapter's.
AdapterContracts._wire_format_fixture = formats.class_fixture()
