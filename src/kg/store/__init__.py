"""The graph store: the low floor of the read side.

RDF terms and IRIs (:mod:`kg.store.namespace`), the triples of a build
(:mod:`kg.store.rdf`), opening a build's on-disk Oxigraph store read-only or a
graph file into memory (:mod:`kg.store.disk`) and writing the graph
(:mod:`kg.store.serialize`). Nothing here imports :mod:`kg.views`, the facade
and the questions asked of a store, which build on it.
"""
