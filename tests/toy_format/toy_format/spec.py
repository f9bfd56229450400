"""The toy format's row of the format table (entry point group ``harness.formats``)."""

from __future__ import annotations

from pathlib import Path

from harness.formats.spec import FormatSpec
from harness.wire.codecs import Codec, same
from harness.wire.framing import NDJSON
from toy_format.codec import Cut, turn_body

NAME = "toy-ndjson"
PATH = "/toy/turn"
SPEC = FormatSpec(
    name=NAME,
    label="Toy NDJSON",
    endpoint=f"POST {PATH}",
    codec=Codec(NAME, turn_body, same, Cut),
    framing=NDJSON,
    rules=("body-not-json", "messages-missing"),
    reference="toy_format.reference:adapter",
    catalogues=(str(Path(__file__).with_name("mutants.toml")),),
    blank_turn={"blocks": [], "stop_reason": "end_turn", "usage": None},
    tool_round_ends=("tool_use", None),
    usage={"input_tokens": 3, "output_tokens": 1},
    terminal="the stop line",
)


