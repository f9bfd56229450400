"""The nightly mutation report: generic mutation testing (mutmut) of the reference next to the known bugs.

Kept light on purpose: ``harness.nightly.kill_recorder`` is loaded as a pytest
plugin inside mutmut's copy, and importing this package must not pull in the
reference ahead of the mutated copy.
"""
