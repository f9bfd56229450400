"""The nightly mutation report: generic mutation testing (mutmut's mutants) of the reference next to the known bugs."""
