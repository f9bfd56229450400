"""Reports: one result model (:mod:`harness.outcomes.results`), one writer per format, for every command.

``junit``, ``markdown_text``, ``annotations`` and ``results_console`` /
``results_markdown`` write any command's results (a contract of ``check``, a
check of ``probe``, a mutant through ``model.as_result``); ``ordering`` puts
the most important first. For mutation runs, ``stryker_json`` builds the
report model (``model``) from a run's results and reads it back; ``merge``
joins shard reports; ``digest`` sums it up; ``html`` and ``github`` render
it, and ``markdown`` and ``console`` compose the run's own sections (scores,
thresholds, diffs of survivors) around the shared writers' rows and lines for
each known bug; ``files`` writes every file into a report
directory, and ``publish`` sends a finished run's report everywhere it goes.
"""
