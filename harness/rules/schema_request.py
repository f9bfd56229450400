"""A whole request body judged against its format's request schema: every place the provider's validator refuses.

Each format states its request once, as a JSON Schema in its own rules module
(``chat_request``, ``anthropic_request``, ``responses_request``,
``gemini_request``): the keys it requires and their types, the top-level keys
its API has and the shape of each (tools and tool choice, the system prompt,
generation settings). :func:`refusals` reports every violation on its own, in
body order, each with its dotted path (``tools.0.input_schema``) and a message.
Where the provider's own 400 text for a violation is documented the message is
that text (``provider_text``); elsewhere it is ours and says what was expected,
never a guess at the provider's words.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from jsonschema import Draft202012Validator, ValidationError
from jsonschema.exceptions import best_match

from harness.clip import clip_json


@dataclass(frozen=True)
class RequestRefusal:
    """One thing a provider refuses in a request body: where it is and what is wrong."""

    path: str  # dotted, from the body: "max_tokens", "tools.0.function"; "(body)" for the body itself
    message: str
    provider_text: bool  # the message is the provider's documented 400 text (else ours)


# The provider's documented text for a violation, given the violation and its path; None where none is documented.
ProviderText = Callable[[ValidationError, str], "str | None"]


def _no_text(error: ValidationError, path: str) -> None:
    return None


def request_judge(schema: dict, provider_text: ProviderText = _no_text) -> Callable[[object], list[RequestRefusal]]:
    """The judge of request bodies by ``schema`` (checked here, so a malformed schema fails on import)."""
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema)

    def refusals(body: object) -> list[RequestRefusal]:
        found = []
        for error in sorted(validator.iter_errors(body), key=lambda e: [str(p) for p in e.absolute_path]):
            path = _path(error)
            text = provider_text(error, path)
            found.append(RequestRefusal(path, text, True) if text is not None else
                         RequestRefusal(path, _ours(error, path), False))
        return found

    return refusals


def _path(error: ValidationError) -> str:
    steps = [str(step) for step in error.absolute_path]
    if error.validator == "required":  # the missing key is the place, as providers name it
        missing = [key for key in error.validator_value
                   if isinstance(error.instance, dict) and key not in error.instance and repr(key) in error.message]
        steps += missing[:1]
    return ".".join(steps) or "(body)"


def _ours(error: ValidationError, path: str) -> str:
    if error.validator == "required":
        return f"{path}: required, and missing"
    if error.validator == "additionalProperties":
        known = error.schema.get("properties", {}) if isinstance(error.schema, dict) else {}
        extra = sorted(key for key in error.instance if key not in known)
        return f"{path}: has {', '.join(map(repr, extra))}, which this API does not have there"
    why = best_match(error.context).message if error.context else error.message
    return f"{path}: {clip_json(error.instance, 200)} is not a value this API accepts there ({why})"
