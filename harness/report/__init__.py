"""Mutation reports: one model (``model``), one renderer per format.

``stryker_json`` builds the model from a run's results (known bugs, mutmut
mutants) and reads it back; ``merge`` joins shard reports; ``digest`` sums it
up; ``html``, ``junit``, ``markdown``, ``console`` and ``github`` render it;
``files`` writes every file into a report directory, and ``publish`` sends a
finished run's report everywhere it goes.
"""
