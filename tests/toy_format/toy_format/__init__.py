"""A toy sixth wire format, over NDJSON framing: the proof that a format is one row plus its own modules.

Nothing in ``harness`` names it. It plugs in through entry points (the
``toy_format-0.dist-info`` beside this package), so a test that puts this
folder on the import path of every process it starts has the gate, the
nightly's baseline, the loopback and the cross-format contracts run it.

The wire: one JSON object a line. ``{"block": i, "start": {...}}`` opens block
``i`` (a text, or a tool call with its id and name), ``{"block": i, "delta":
"..."}`` appends to its value (text, or arguments), and ``{"stop": reason,
"usage": ...}`` ends the turn; a body without its stop line was cut.
"""
