"""The format table: every format in harness.adapter.FORMATS has a whole row, and no row names another format."""

from __future__ import annotations

import pytest

from harness.adapter import FORMATS, load_adapter
from harness.formats import SPECS, spec_for
from harness.mutation.catalogue import load_catalogue


def test_every_format_has_a_row_and_every_row_a_format():
    assert list(SPECS) == list(FORMATS), "the format table and harness.adapter.FORMATS list different formats"


@pytest.mark.parametrize("name", list(FORMATS))
def test_a_row_binds_its_own_parts(name):
    spec = spec_for(name)
    assert spec.name == name
    assert spec.label == FORMATS[name], f"{name}'s row and harness.adapter.FORMATS label it differently"
    assert spec.codec.format == name, f"{name}'s row holds the codec of {spec.codec.format}"
    assert load_adapter(spec.reference).format == name, f"{spec.reference} does not speak {name}"
    for path in spec.catalogue_paths:
        assert path.is_file(), f"{name}'s catalogue {path.name} is not in the package"
        assert load_catalogue(path).mutants, f"{name}'s catalogue {path.name} holds no known bug"
    assert spec.rules, f"{name}'s row names no history rule"


def test_an_unknown_format_names_the_known_ones():
    with pytest.raises(KeyError, match="formats: chat, anthropic"):
        spec_for("nope")
