"""The README's table of library adapters by format names adapters that exist and speak that format, and no shipped one is missing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from harness.adapter import load_adapter

REPO = Path(__file__).resolve().parent.parent
LITELLM_ENV = {"LITELLM_LOCAL_MODEL_COST_MAP": "True"}  # no cost-map download at import


def _table() -> dict[str, tuple[set[str], set[str]]]:
    """Format -> (harness.libraries modules, examples/ bridge folders) as the README lists them."""
    section = (REPO / "README.md").read_text(encoding="utf-8").split("## Real client libraries", 1)[1]
    rows = {}
    for fmt, cell in re.findall(r"^\| `([a-z-]+)` \| (.+) \|$", section.split("\n## ", 1)[0], re.M):
        modules, _, bridges = cell.partition(";")
        rows[fmt] = (set(re.findall(r"`([a-z_]+)`", modules)), set(re.findall(r"`examples/([a-z-]+)`", bridges)))
    return rows


def test_every_shipped_library_adapter_is_in_the_table():
    listed = {m for modules, _ in _table().values() for m in modules}
    shipped = {p.stem for p in (REPO / "harness" / "libraries").glob("*.py")
               if p.stem != "__init__" and "adapter = " in p.read_text(encoding="utf-8")}
    assert listed == shipped, f"README lists {sorted(listed)}, harness/libraries ships {sorted(shipped)}"
    bridges = {b for _, folders in _table().values() for b in folders}
    vercel = {p.parent.name for p in (REPO / "examples").glob("vercel-ai-*/bridge.js")}
    assert bridges == vercel, f"README lists bridges {sorted(bridges)}, examples/ has {sorted(vercel)}"


@pytest.mark.parametrize("fmt,module", [(f, m) for f, (modules, _) in _table().items() for m in sorted(modules)])
def test_each_listed_module_speaks_its_format(monkeypatch, fmt, module):
    for key, value in LITELLM_ENV.items():
        monkeypatch.setenv(key, value)
    assert load_adapter(f"harness.libraries.{module}:adapter").format == fmt


@pytest.mark.parametrize("fmt,folder", [(f, b) for f, (_, folders) in _table().items() for b in sorted(folders)])
def test_each_listed_bridge_declares_its_format(fmt, folder):
    source = (REPO / "examples" / folder / "bridge.js").read_text(encoding="utf-8")
    declared = re.search(r"^const FORMAT = '([a-z-]+)';$", source, re.M)
    assert (declared.group(1) if declared else "chat") == fmt, f"examples/{folder}/bridge.js speaks another format"
