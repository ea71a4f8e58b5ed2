"""Expansions: the one owner of the tables ``expansions``, ``subqueries``, ``combinations``,
``combination_items`` and ``combination_products`` (SQL in ``sql/expansions/``).

* :mod:`toolex.expansions.combinations` imports combinations made elsewhere;
* :mod:`toolex.expansions.subqueries` imports sub-queries made elsewhere;
* :mod:`toolex.expansions.originals` holds what both imports read of the benchmark.
"""
