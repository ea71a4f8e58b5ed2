"""The expansion pipeline: decompose, candidates, verify, assemble, audit (see runner.py).

It owns its own tables (``verdicts``, ``stage_failures``, ``dependencies``,
``rule_rejections``; ``make owners`` checks the list) and the assembly's staging tables, with
their SQL in ``sql/stages/`` (one folder per stage, in run order); what its stages decide for the
expansion tables (sub-queries, candidates, combinations, their product counts and audit
statuses, the expansion's config) is written by their one owner, ``toolex.expansions``, from
typed records.
"""
