"""``graph.nq`` and ``graph.trig``: the graph as a dataset with one named graph per paper.

Provenance moves to the graph level, as quad stores (Oxigraph, Jena TDB2,
GraphDB) expect: every triple a paper supports is in the named graph whose name
is that paper's IRI, so ``GRAPH ?paper { ?m kg:addresses ?t }`` asks which
papers state a fact. What belongs to the whole corpus stays in the default
graph.

Which graph a triple goes to:

- the paper's own triples (title, abstract, identifier, ``kg:hasCode``...): its graph;
- a fact's ``rdf:Statement`` (evidence, offsets, confidence, extractor), and a
  numeric result's ``kg:Result`` node: the graph of the paper it was derived from;
- a direct fact triple (``?m kg:addresses ?t``): the graph of *every* paper
  whose statement supports it, so it appears once per supporting paper;
- ``?entity kg:mentionedIn ?paper``: that paper's graph;
- an entity's type, labels and mention count, and the type of a code URL: the
  default graph.

Limits and dangers
------------------
- The union of all graphs is exactly the triples of ``graph.nt`` (a test checks
  it); query with the union as default graph (Oxigraph ``--union-default-graph``,
  Jena ``tdb2:unionDefaultGraph``; GraphDB does it by default), or use ``GRAPH``.
- Lines of ``graph.nq`` are sorted, so the file is byte-stable like ``graph.nt``;
  TriG groups by graph, in the same order. Both are held in memory once.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import TYPE_CHECKING, cast

import pyoxigraph as ox

from kg.errors import KgError
from kg.io import atomic_write
from kg.store.namespace import KG, PREFIXES

if TYPE_CHECKING:
    from kg.views.graph import KnowledgeGraph

__all__ = ["dataset_quads", "write_nquads", "write_trig"]

_STATEMENTS = """
SELECT ?st ?s ?p ?o ?paper WHERE {
  ?st rdf:subject ?s ; rdf:predicate ?p ; rdf:object ?o ; prov:wasDerivedFrom ?paper .
}
"""
_RESULTS = "SELECT ?r ?paper WHERE { ?r a kg:Result ; prov:wasDerivedFrom ?paper }"


def dataset_quads(kg: KnowledgeGraph) -> list[ox.Quad]:
    """Every triple of ``kg`` placed in its named graph (see the module's rules), sorted."""
    papers = {row["p"] for row in kg.select("SELECT ?p WHERE { ?p a kg:Paper }")}
    statement_paper: dict[str, str] = {}
    support: dict[tuple[str, str, str], set[str]] = defaultdict(set)
    for row in kg.select(_STATEMENTS):
        statement_paper[row["st"]] = row["paper"]
        support[(row["s"], row["p"], row["o"])].add(row["paper"])
    for row in kg.select(_RESULTS):
        statement_paper[row["r"]] = row["paper"]
    mentioned_in = str(KG.mentionedIn)
    quads = []
    for triple in kg.triples():
        # The graph holds no quoted triples (RDF-star), so every end has a value.
        subject, predicate, obj = triple.subject.value, triple.predicate.value, triple.object.value  # type: ignore[union-attr]
        if subject in papers:
            graphs = {subject}
        elif subject in statement_paper:
            graphs = {statement_paper[subject]}
        elif predicate == mentioned_in and obj in papers:
            graphs = {obj}
        else:
            graphs = support.get((subject, predicate, obj), set())
        if not graphs:
            quads.append(ox.Quad(triple.subject, triple.predicate, triple.object, ox.DefaultGraph()))
        quads += [ox.Quad(triple.subject, triple.predicate, triple.object, ox.NamedNode(g)) for g in sorted(graphs)]
    return quads


def _check(path: Path, fmt: ox.RdfFormat) -> None:
    try:
        for _ in ox.parse(path=str(path), format=fmt):
            pass
    except (SyntaxError, ValueError) as error:
        raise KgError("E350", path=path, reason=f"not valid {fmt}: {' '.join(str(error).split())}") from None


def write_nquads(kg: KnowledgeGraph, path: str | Path) -> None:
    """Write ``graph.nq``: sorted N-Quads, one named graph per paper; atomic, parsed back first."""
    lines = cast(bytes, ox.serialize(dataset_quads(kg), format=ox.RdfFormat.N_QUADS)).splitlines(keepends=True)  # serialize() without an output returns bytes; pyoxigraph's stub says bytes | None
    with atomic_write(path, "wb", check=lambda tmp: _check(tmp, ox.RdfFormat.N_QUADS)) as handle:
        handle.write(b"".join(sorted(lines)))


def write_trig(kg: KnowledgeGraph, path: str | Path) -> None:
    """Write ``graph.trig``: TriG with the kg prefixes, one named graph per paper; atomic, parsed back first."""
    quads = sorted(dataset_quads(kg), key=lambda q: (str(q.graph_name), str(q.triple)))
    prefixes = {k: v for k, v in PREFIXES.items() if k != "kgid"}
    data = ox.serialize(quads, format=ox.RdfFormat.TRIG, prefixes=prefixes)
    with atomic_write(path, "wb", check=lambda tmp: _check(tmp, ox.RdfFormat.TRIG)) as handle:
        handle.write(data)
