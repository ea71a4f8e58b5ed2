"""The Spark engine: a session (``session``) and the shipped SQL run on it (``engine``).

pyspark is an optional extra (``pip install 'toolex[spark]'``) and is imported only when a
session starts, so ``import toolex.engines.spark`` costs nothing without it.
"""
