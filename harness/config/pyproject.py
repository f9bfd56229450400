"""Reading one ``[tool.harness.NAME]`` table of a ``pyproject.toml``, and saying where its fields are.

Every reader of a table checks the names under ``[tool.harness]`` first
(``harness/schemas/tool-harness.json``), so a misspelt table such as
``[tool.harness.nigthly]`` is an error instead of a run with the defaults.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from harness.config.table_schema import check, header_line, key_line, parse_text, read_text


@dataclass(frozen=True)
class ToolTable:
    path: Path
    text: str
    name: str
    table: dict  # {} when the file or the table is absent

    def place(self, _table: tuple, field: str | None) -> str:
        """The start of a message about ``field`` of this table: file, line (when known) and table."""
        return _where(self.path, self.text, f"[tool.harness.{self.name}]", field)


def _where(path: Path, text: str, header: str, field: str | None) -> str:
    start = header_line(text, header)
    line = (key_line(text, field, start) if field and start else None) or start
    return f"{path}:{line}: {header}: " if line else f"{path}: {header}: "


def read_tool_table(path: Path, name: str, error: type[Exception]) -> ToolTable:
    """``[tool.harness.<name>]`` of ``path``, after checking the names under ``[tool.harness]``."""
    if not path.is_file():
        return ToolTable(path, "", name, {})
    text = read_text(path, error)
    data = parse_text(path, text, error)
    tool = data.get("tool", {})
    tables = tool.get("harness", {}) if isinstance(tool, dict) else {}

    def place(_table: tuple, field: str | None) -> str:
        # A table under [tool.harness] has its own header more often than a key in [tool.harness].
        line = header_line(text, f"[tool.harness.{field}]") if field else None
        return f"{path}:{line}: [tool.harness]: " if line else _where(path, text, "[tool.harness]", field)

    check("tool-harness.json", tables, place, error, noun="table")
    return ToolTable(path, text, name, tables.get(name, {}))
