"""The body to send: the reasoning effort, and under ``store: false`` the encrypted reasoning asked for.

Without server-side storage the provider keeps nothing between requests: a
reasoning item can go back only with its ``encrypted_content``, which the
stream carries only when ``include`` asks for ``reasoning.encrypted_content``.
"""

from __future__ import annotations

import copy

ENCRYPTED = "reasoning.encrypted_content"
# The reasoning.effort each effort level asks for ("off": the least reasoning the model allows).
EFFORTS = {"off": "minimal", "low": "low", "medium": "medium", "high": "high", "max": "high"}


def transform_request(body: dict, options: dict) -> dict:
    sent = copy.deepcopy(body)  # pragma: no mutate (equivalent: `copy.deepcopy(body)` -> `copy.copy(body)`: only top-level keys are given new values below, so neither copy writes into a value of body, and both return equal bodies)
    effort = options.get("effort")
    if effort is not None:
        if effort not in EFFORTS:
            raise ValueError(f"effort {effort!r}: expected one of {', '.join(EFFORTS)}")  # pragma: no mutate (out of scope: `f"effort {effort!r}: expected one of {', '.join(EFFORTS)}"` -> *: error wording; an effort outside the neutral levels is refused either way)
        sent["reasoning"] = {**(sent.get("reasoning") or {}), "effort": EFFORTS[effort]}
    if sent.get("store") is False:
        include = list(sent.get("include") or [])
        if ENCRYPTED not in include:
            include.append(ENCRYPTED)
        sent["include"] = include
    return sent
