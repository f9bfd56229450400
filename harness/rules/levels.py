"""Rule levels: how far beyond the wire format the adapter speaks a contract's rule reaches.

Every contract carries exactly one level as a pytest marker (``@pytest.mark.wire``
and so on), so ``-m wire`` selects in plain pytest and ``harness check --levels``
selects by name. Reports group results by level.
"""

from __future__ import annotations

LEVELS: dict[str, str] = {
    "wire": "what the adapter's wire format (chat completions, Anthropic Messages) and the SSE rules require, "
    "and what the format's provider rejects; a correct client library passes every one",
    "robust": "tolerance of shapes real gateways send outside the format; each names the endpoints that send it",
    "provider": "a provider's own documented rule, by provider profile and era",
    "policy": "a product decision an adapter may take differently; a parameter with a documented default "
    "(--policy KEY=VALUE)",
}


def parse_levels(text: str) -> tuple[str, ...]:
    """``"wire,provider"`` to its levels, in the order of :data:`LEVELS`; an unknown name is a ValueError."""
    asked = {part.strip() for part in text.split(",") if part.strip()}
    unknown = asked - LEVELS.keys()
    if unknown or not asked:
        raise ValueError(f"unknown level(s) {sorted(unknown) or [text]}; levels are {', '.join(LEVELS)}")
    return tuple(level for level in LEVELS if level in asked)


def marker_expression(levels: tuple[str, ...]) -> str:
    """The ``-m`` expression that selects contracts of ``levels``."""
    return " or ".join(levels)
