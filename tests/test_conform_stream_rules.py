"""Each format's stream rules agree with the streams the contracts feed clients: the provider's layouts pass them,
every relay's layout breaks one.

The bodies are the ones the client contracts send (each row's codec writing
its pinned turns), rewritten into every shape of the row's strategies
(:mod:`harness.testing.shapes`): a shape inside the format (its provider or
its servers send it) must break no stream rule, a shape a relay sends outside
it must break at least one, so ``harness conform`` reports a gateway that
emits it.
"""

from __future__ import annotations

import pytest

from harness.formats import SPECS
from harness.rules.stream_faults import event_values
from harness.testing.formats import STRATEGIES
from harness.testing.shapes import shaped


JUDGED = {name: spec for name, spec in SPECS.items() if spec.stream_rules is not None}  # rows that state a layout


def _cases():
    for name, spec in JUDGED.items():
        for n, (turn, _) in enumerate(STRATEGIES[name].streamed_turns.pinned):
            yield pytest.param(spec, turn, id=f"{name}-pinned{n}")


def _faults(spec, body: bytes) -> list:
    return spec.stream_rules(event_values(spec.framing.read(body)))


@pytest.mark.parametrize(("spec", "turn"), list(_cases()))
def test_the_provider_layouts_break_no_rule_and_every_relay_layout_breaks_one(spec, turn):
    body = spec.codec.body(turn)
    assert _faults(spec, body) == [], f"{spec.name}: the codec's own stream of {turn} breaks the stream rules"
    for shape in STRATEGIES[spec.name].shapes:
        varied = shaped(spec, body, shape)
        if varied is None:
            continue  # the shape leaves this turn's body as it is
        found = _faults(spec, varied)
        if shape.relay:
            assert found, f"{spec.name}: the relay layout {shape.name!r} ({shape.sender}) breaks no stream rule"
        else:
            assert found == [], f"{spec.name}: the layout {shape.name!r} that {shape.sender} send is refused: {found}"


def test_every_bundled_format_states_its_layout():
    bundled = {name for name, spec in SPECS.items() if spec.reference.startswith("harness.reference")}
    assert bundled and bundled <= set(JUDGED), f"bundled rows without stream_rules: {bundled - set(JUDGED)}"


@pytest.mark.parametrize("name", list(JUDGED))
def test_every_rule_a_format_names_is_in_the_registry_and_every_fault_names_one_of_them(name):
    from harness.rules.registry import RULES

    rules = SPECS[name].stream_rules
    assert set(rules.names) <= set(RULES), set(rules.names) - set(RULES)
    garbage = ["not json", 7, {"type": None}, [], {}]
    assert {fault.rule for fault in rules(garbage)} <= set(rules.names)
