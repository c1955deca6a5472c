"""The knowledge graph: triples in Oxigraph, rdflib's API on top, NetworkX derived.

Oxigraph holds the triples and answers SPARQL (two-hop joins in milliseconds
where rdflib's own engine takes minutes); :attr:`KnowledgeGraph.rdflib` gives
the familiar rdflib ``Graph`` over the same store through oxrdflib; and
:meth:`KnowledgeGraph.to_networkx` derives a NetworkX view from the RDF, so
there is one source of truth.

>>> from kg.model import Paper, Resolution
>>> g = KnowledgeGraph.from_resolution([Paper(id="p1", abstract="We study X.")],
...                                    Resolution(entities=(), facts=()))
>>> g.select("SELECT (COUNT(?p) AS ?n) WHERE { ?p a kg:Paper }")
[{'n': 1}]
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import pyoxigraph as ox

from kg.errors import UserError
from kg.model import Paper, Resolution
from kg.store.namespace import PREFIXES, VOCAB
from kg.store.rdf import graph_triples

if TYPE_CHECKING:
    import networkx as nx
    import rdflib

#: Classes whose instances are nodes of the NetworkX view, by local type name.
NODE_TYPES: dict[str, str] = {
    VOCAB + "Paper": "Paper",
    VOCAB + "Method": "Method",
    VOCAB + "Task": "Task",
    VOCAB + "Dataset": "Dataset",
    VOCAB + "Metric": "Metric",
    PREFIXES["schema"] + "SoftwareSourceCode": "Code",
}

FORMATS: dict[str, ox.RdfFormat] = {
    "turtle": ox.RdfFormat.TURTLE,
    "ntriples": ox.RdfFormat.N_TRIPLES,
    "jsonld": ox.RdfFormat.JSON_LD,
}

_EXTENSIONS: dict[str, ox.RdfFormat] = {
    ".ttl": ox.RdfFormat.TURTLE,
    ".nt": ox.RdfFormat.N_TRIPLES,
    ".jsonld": ox.RdfFormat.JSON_LD,
    ".json": ox.RdfFormat.JSON_LD,
    ".nq": ox.RdfFormat.N_QUADS,
    ".rdf": ox.RdfFormat.RDF_XML,
    ".xml": ox.RdfFormat.RDF_XML,
}

# The first keyword of a SPARQL request after its prologue and comments.
_COMMENT = re.compile(r"#[^\n]*")
_PROLOGUE = re.compile(r"^\s*(?:(?:PREFIX\s+[^\s:]*:\s*<[^>]*>|BASE\s*<[^>]*>)\s*)*", re.IGNORECASE)
_UPDATE_KEYWORDS = {"INSERT", "DELETE", "LOAD", "CLEAR", "DROP", "CREATE", "ADD", "MOVE", "COPY", "WITH"}

_STATEMENTS = """
SELECT ?s ?p ?o ?paper ?id ?ev ?c ?x WHERE {
  ?st a rdf:Statement ; rdf:subject ?s ; rdf:predicate ?p ; rdf:object ?o ;
      prov:wasDerivedFrom ?paper ; kg:evidence ?ev ; kg:confidence ?c ; kg:extractor ?x .
  ?paper dcterms:identifier ?id .
}
"""


class FactRow(NamedTuple):
    """One fact as supported by one paper: a row of ``facts.csv``."""

    paper_id: str
    subject: str
    subject_label: str
    subject_type: str
    relation: str
    object: str
    object_label: str
    object_type: str
    evidence: str
    confidence: float
    extractor: str


def to_python(term: Any) -> Any:
    """A Python value for an RDF term: IRIs as strings, typed literals as numbers.

    >>> to_python(ox.Literal("3", datatype=ox.NamedNode(PREFIXES["xsd"] + "integer")))
    3
    """
    if term is None:
        return None
    if isinstance(term, ox.Literal):
        datatype = term.datatype.value
        if datatype.endswith("#integer") or datatype.endswith("#int") or datatype.endswith("#long"):
            return int(term.value)
        if datatype.endswith("#decimal") or datatype.endswith("#double") or datatype.endswith("#float"):
            return float(Decimal(term.value))
        if datatype.endswith("#boolean"):
            return term.value == "true"
        return term.value
    return term.value


def is_update(sparql: str) -> bool:
    """Whether a SPARQL request is an update rather than a read-only query.

    >>> is_update("PREFIX a: <http://a/> INSERT DATA { a:x a:y a:z }")
    True
    >>> is_update("# find\\nSELECT * WHERE { ?s ?p ?o }")
    False
    """
    body = _PROLOGUE.sub("", _COMMENT.sub(" ", sparql), count=1)
    first = re.match(r"\s*([A-Za-z]+)", body)
    return bool(first) and first.group(1).upper() in _UPDATE_KEYWORDS


def _local(iri: str) -> str:
    return iri[len(VOCAB):] if iri.startswith(VOCAB) else iri


class KnowledgeGraph:
    """A knowledge graph of papers and scientific entities, stored in Oxigraph.

    Parameters
    ----------
    store:
        An existing :class:`pyoxigraph.Store` (in memory or on disk); a new
        in-memory store by default.
    """

    def __init__(self, store: ox.Store | None = None) -> None:
        self.store = store if store is not None else ox.Store()
        # Derived views, kept while the store's size is unchanged: exporters ask for them
        # several times in a row. Call :meth:`forget_views` after editing the store in place.
        self._views: dict[str, tuple[int, Any]] = {}

    def _view(self, name: str, make: Any) -> Any:
        size = len(self.store)
        cached = self._views.get(name)
        if cached is None or cached[0] != size:
            cached = self._views[name] = (size, make())
        return cached[1]

    def forget_views(self) -> None:
        """Drop the cached fact table and NetworkX view (after editing the store in place)."""
        self._views.clear()

    # -- construction -------------------------------------------------------------

    @classmethod
    def from_resolution(cls, papers: Sequence[Paper], resolution: Resolution) -> KnowledgeGraph:
        """Build the graph of ``papers`` from the resolver's output."""
        graph = cls()
        graph.store.bulk_extend(ox.Quad(t.subject, t.predicate, t.object) for t in graph_triples(papers, resolution))
        return graph

    @classmethod
    def load(cls, path: str | Path) -> KnowledgeGraph:
        """Load a graph file (``.ttl``, ``.nt``, ``.jsonld``...) or a build folder.

        A build folder (one holding ``graph.nt``) loads its N-Triples; a folder
        holding an Oxigraph database opens it on disk.
        """
        path = Path(path)
        if path.is_dir():
            if (path / "graph.nt").is_file():
                path = path / "graph.nt"
            else:
                return cls(ox.Store(str(path)))
        if not path.is_file():
            raise UserError("E301", path=path)
        fmt = _EXTENSIONS.get(path.suffix.lower())
        if fmt is None:
            raise UserError("E302", path=path, reason="unknown RDF file extension (use .ttl, .nt or .jsonld)")
        graph = cls()
        try:
            graph.store.bulk_load(path=str(path), format=fmt)
        except (SyntaxError, ValueError, OSError) as error:
            raise UserError("E302", path=path, reason=str(error).splitlines()[0]) from None
        return graph

    def __len__(self) -> int:
        return len(self.store)

    # -- RDF views ------------------------------------------------------------------

    def triples(self) -> list[ox.Triple]:
        """All triples, sorted by their N-Triples form (a deterministic order)."""
        return list(self._view("triples", self._sorted_triples))

    def _sorted_triples(self) -> list[ox.Triple]:
        triples = [ox.Triple(q.subject, q.predicate, q.object) for q in self.store.quads_for_pattern(None, None, None, ox.DefaultGraph())]
        triples.sort(key=str)
        return triples

    def serialize(self, fmt: str = "turtle") -> bytes:
        """Serialise the graph as ``turtle``, ``ntriples`` (sorted) or ``jsonld``."""
        if fmt not in FORMATS:
            raise UserError("E305", name=fmt, choices=", ".join(FORMATS))
        if fmt == "ntriples":
            # Oxigraph writes canonical N-Triples; sorting the lines makes the file byte-stable.
            lines = ox.serialize(self.triples(), format=FORMATS[fmt]).splitlines(keepends=True)
            return b"".join(sorted(lines))
        # kgid: would only turn our IRIs into escaped local names (kgid:method\/x); full IRIs read better.
        prefixes = {k: v for k, v in PREFIXES.items() if k != "kgid"} if fmt == "turtle" else None
        return ox.serialize(self.triples(), format=FORMATS[fmt], prefixes=prefixes)

    @property
    def rdflib(self) -> rdflib.Graph:
        """An rdflib ``Graph`` over the same Oxigraph store (through oxrdflib)."""
        import rdflib
        from oxrdflib.store import OxigraphStore
        from rdflib.graph import DATASET_DEFAULT_GRAPH_ID

        # Our triples live in the default graph; rdflib would otherwise look in a fresh named graph.
        graph = rdflib.Graph(store=OxigraphStore(store=self.store), identifier=DATASET_DEFAULT_GRAPH_ID)
        for prefix, namespace in PREFIXES.items():
            graph.bind(prefix, namespace, override=True)
        return graph

    # -- SPARQL -------------------------------------------------------------------

    def query(self, sparql: str, bindings: Mapping[str, Any] | None = None) -> Any:
        """Run a read-only SPARQL query with the usual prefixes pre-bound.

        ``bindings`` maps variable names to values (strings become literals
        unless they are ``pyoxigraph`` terms), substituted safely rather than
        pasted into the query text; a bound variable must be in the SELECT
        projection (SPARQL SEP-0007). Returns pyoxigraph's result object.
        """
        if is_update(sparql):
            raise UserError("E304")
        substitutions = {ox.Variable(k): v if isinstance(v, (ox.NamedNode, ox.Literal, ox.BlankNode)) else ox.Literal(v) for k, v in (bindings or {}).items()}
        try:
            return self.store.query(sparql, prefixes=PREFIXES, substitutions=substitutions or None)
        except (SyntaxError, RuntimeError) as error:
            raise UserError("E303", reason=" ".join(str(error).split())) from None

    def select(self, sparql: str, bindings: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        """Run a SELECT query and return rows of plain Python values (ready for pandas)."""
        solutions = self.query(sparql, bindings)
        names = [v.value for v in solutions.variables]
        return [{name: to_python(row[name]) for name in names} for row in solutions]

    # -- derived views --------------------------------------------------------------

    def _labels(self) -> dict[str, str]:
        return {row["n"]: row["label"] for row in self.select("SELECT ?n ?label WHERE { ?n rdfs:label ?label }")}

    def _types(self) -> dict[str, str]:
        rows = self.select("SELECT ?n ?t WHERE { ?n a ?t }")
        return {row["n"]: NODE_TYPES[row["t"]] for row in rows if row["t"] in NODE_TYPES}

    def facts(self) -> Iterator[FactRow]:
        """One row per fact and supporting paper, sorted, with labels and types."""
        return iter(self._view("facts", self._fact_rows))

    def _fact_rows(self) -> list[FactRow]:
        labels, types = self._labels(), self._types()
        rows = []
        for row in self.select(_STATEMENTS):
            s, o = row["s"], row["o"]
            rows.append(
                FactRow(
                    paper_id=row["id"],
                    subject=s,
                    subject_label=labels.get(s, s),
                    subject_type=types.get(s, ""),
                    relation=_local(row["p"]),
                    object=o,
                    object_label=labels.get(o, o),
                    object_type=types.get(o, ""),
                    evidence=row["ev"],
                    confidence=row["c"],
                    extractor=row["x"],
                )
            )
        rows.sort()
        return rows

    def to_networkx(self) -> nx.MultiDiGraph:
        """A NetworkX MultiDiGraph derived from the RDF graph.

        Nodes are IRIs with ``type``, ``label``, ``alt_labels`` and ``support``
        (papers mentioning it; for a paper, 1); edges are keyed by relation and
        carry ``relation``, ``support`` (number of papers), ``papers``,
        ``evidence`` (one sentence per paper) and ``confidence`` (the highest).
        The same object is returned until the store changes size: copy it before editing.
        """
        return self._view("networkx", self._make_networkx)

    def _make_networkx(self) -> nx.MultiDiGraph:
        import networkx as nx

        labels, types = self._labels(), self._types()
        alts: dict[str, list[str]] = defaultdict(list)
        for row in self.select("SELECT ?n ?alt WHERE { ?n skos:altLabel ?alt }"):
            alts[row["n"]].append(row["alt"])
        support = {row["n"]: row["c"] for row in self.select("SELECT ?n (COUNT(DISTINCT ?p) AS ?c) WHERE { ?n kg:mentionedIn ?p } GROUP BY ?n")}
        graph = nx.MultiDiGraph()
        for node in sorted(types):
            attrs: dict[str, Any] = {"type": types[node], "label": labels.get(node, node), "alt_labels": sorted(alts.get(node, [])), "support": support.get(node, 1)}
            graph.add_node(node, **attrs)
        edges: dict[tuple[str, str, str], dict[str, Any]] = {}
        for fact in self.facts():
            key = (fact.subject, fact.object, fact.relation)
            edge = edges.setdefault(key, {"relation": fact.relation, "papers": [], "evidence": [], "confidence": 0.0})
            edge["papers"].append(fact.paper_id)
            edge["evidence"].append(fact.evidence)
            edge["confidence"] = max(edge["confidence"], fact.confidence)
        for (s, o, relation), attrs in sorted(edges.items()):
            for node in (s, o):
                if node not in graph:
                    graph.add_node(node, type=types.get(node, ""), label=labels.get(node, node), alt_labels=[], support=1)
            graph.add_edge(s, o, key=relation, support=len(set(attrs["papers"])), **attrs)
        return graph

    def stats(self) -> dict[str, dict[str, int]]:
        """Counts of nodes by class and of facts (direct triples) by relation."""
        classes = {_local(r["t"]): r["n"] for r in self.select("SELECT ?t (COUNT(?s) AS ?n) WHERE { ?s a ?t FILTER(STRSTARTS(STR(?t), STR(kg:))) } GROUP BY ?t")}
        relations = {
            _local(r["p"]): r["n"]
            for r in self.select("SELECT ?p (COUNT(*) AS ?n) WHERE { ?s ?p ?o FILTER(STRSTARTS(STR(?p), STR(kg:)) && ?p NOT IN (kg:evidence, kg:evidenceStart, kg:evidenceEnd, kg:confidence, kg:extractor, kg:mentionedIn, kg:mentionCount, kg:doi)) } GROUP BY ?p")
        }
        return {"classes": dict(sorted(classes.items())), "relations": dict(sorted(relations.items()))}


def load(path: str | Path) -> KnowledgeGraph:
    """Load a graph file or build folder; see :meth:`KnowledgeGraph.load`."""
    return KnowledgeGraph.load(path)
