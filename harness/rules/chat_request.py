"""What a chat completions request declares: its function tools, as the API reads them."""

from __future__ import annotations


def declared_tools(body: dict) -> dict[str, dict]:
    """The function tools a chat request declares, by name: ``{"description", "parameters"}``.

    Chat declares each as ``{"type": "function", "function": {"name", "description", "parameters"}}``.
    """
    tools = body.get("tools")
    found = {}
    for tool in tools if isinstance(tools, list) else ():
        function = tool.get("function") if isinstance(tool, dict) and tool.get("type") == "function" else None
        if isinstance(function, dict) and isinstance(function.get("name"), str):
            found[function["name"]] = {"description": function.get("description"),
                                       "parameters": function.get("parameters")}
    return found
