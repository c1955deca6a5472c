"""The read side: plain functions that answer questions from a store.

Every function takes a :class:`pyoxigraph.Store` (a read-only one on disk,
opened by :func:`kg.store.disk.open_graph`, or one in memory) and derives its
answer from the triples each time: nothing is cached beside the store, so a
view can never be stale.

- :mod:`kg.views.sparql`: ``select``, ``query``, and ``run_query`` (offline, bounded, streaming)
- :mod:`kg.views.queries`: named queries (``run_named``)
- :mod:`kg.views.facts`: ``facts`` (rows of ``facts.csv``)
- :mod:`kg.views.network`: ``to_networkx``
- :mod:`kg.views.stats`, :mod:`kg.views.explain`, :mod:`kg.views.validate`
- :mod:`kg.views.bridge`: ``rdflib_graph`` (rdflib's API over the same store)
- :mod:`kg.views.results`: streaming writers for query results (CSV, JSON, N-Triples)
"""
