"""Tool documentation, read and rendered the same way for everyone who needs it.

``render`` turns a raw document into the one text every retriever and judge sees (loaders store
it, retrieval truncates it); ``fields`` reads names, parameters, returned keys and content words
out of the many shapes benchmarks document tools in (the offline judge, the platform rule and
sub-query name-leak checks use them). Both are pure functions of the document: no store, no
network, no model.
"""
