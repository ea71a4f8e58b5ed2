"""The code behind toolex's public Python API. Import it from ``toolex`` itself
(``toolex.open``, ``toolex.evaluate``, ...): the names in ``toolex.__all__`` are the stable
surface, and the module layout here is private.

Each module holds one concern and is what the matching `toolex` command calls:

* :mod:`~toolex.api.store`: opening or creating a store;
* :mod:`~toolex.api.load`: loading benchmarks (`toolex load`);
* :mod:`~toolex.api.runs`, :mod:`~toolex.api.frames`: importing, listing and deleting runs,
  from files or from a DataFrame, a dict or a ranx ``Run`` (`toolex runs`);
* :mod:`~toolex.api.retrieve`: running a retriever (`toolex retrieve`);
* :mod:`~toolex.api.expand`: the settings and the run of the pipeline (`toolex expand`);
* :mod:`~toolex.api.evaluate`: old vs new scores (`toolex eval`);
* :mod:`~toolex.api.reports`: stats, trust figures and exports (`toolex stats`, `export`);
* :mod:`~toolex.api.sql`: read-only SQL returning Arrow or pandas (`toolex sql`).
"""
