"""The entity graph with communities and centralities as node attributes, for Gephi and Cytoscape.

:func:`annotated_graph` returns the graph; :func:`write_gexf` and
:func:`write_graphml` write it atomically (temporary file, check, rename).
The default ``graph.graphml`` of a build is not touched: this is a separate,
analysed view of the entities.

Limits and dangers
------------------
- Every attribute is a scalar (string, integer or float), because GEXF and
  GraphML have no lists: an edge's ``relations`` is one ``;``-separated string.
- Strings lose the characters XML 1.0 cannot hold (see
  :func:`kg.export.graphml.xml_safe`).
- Betweenness above a few thousand nodes is an estimate
  (:func:`kg.analysis.networks.centrality`).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import TYPE_CHECKING

import networkx as nx

from kg.analysis.networks import centrality, communities, entity_graph
from kg.errors import KgError
from kg.io import atomic_write
from kg.export.graphml import generate_graphml, xml_safe

if TYPE_CHECKING:
    from kg.views import KnowledgeGraph

__all__ = ["annotated_graph", "write_gexf", "write_graphml"]


def annotated_graph(graph: KnowledgeGraph, *, seed: int = 0, samples: int = 8) -> nx.Graph:
    """:func:`~kg.analysis.networks.entity_graph` with ``community``, ``community_size``, ``degree``, ``strength``, ``pagerank`` and ``betweenness`` on every node.

    ``seed`` fixes Louvain and the betweenness sample; ``samples`` is the
    number of sources betweenness is estimated from on large graphs
    (:func:`~kg.analysis.networks.centrality`).

    >>> from kg.analysis.sample import tiny_graph
    >>> G = annotated_graph(tiny_graph())
    >>> node = G.nodes["https://w3id.org/kg-lit/id/method/adam"]
    >>> node["label"], node["community"], round(node["betweenness"], 3)
    ('Adam', 1, 0.545)
    """
    G = entity_graph(graph)
    for row in communities(G, seed=seed).itertuples(index=False):
        G.nodes[row.node].update(community=int(row.community), community_size=int(row.size))
    for row in centrality(G, seed=seed, samples=samples).itertuples(index=False):
        G.nodes[row.node].update(degree=int(row.degree), strength=int(row.strength), pagerank=float(row.pagerank), betweenness=float(row.betweenness))
    return G


def _safe(G: nx.Graph) -> nx.Graph:
    """A copy of ``G`` whose strings XML can hold.

    >>> G = nx.Graph()
    >>> G.add_node("a\\x00", label="b\\x1b")
    >>> list(_safe(G).nodes(data="label"))
    [('a', 'b')]
    """
    clean = lambda value: xml_safe(value) if isinstance(value, str) else value  # noqa: E731
    safe = nx.Graph()
    safe.add_nodes_from((clean(n), {k: clean(v) for k, v in d.items()}) for n, d in G.nodes(data=True))
    safe.add_edges_from((clean(u), clean(v), {k: clean(x) for k, x in d.items()}) for u, v, d in G.edges(data=True))
    return safe


def _check_xml(path: Path) -> None:
    """Refuse a written file that is not well-formed XML (``E350``), before it replaces anything.

    >>> import tempfile, pathlib
    >>> bad = pathlib.Path(tempfile.mkdtemp()) / "x.gexf"
    >>> _ = bad.write_text("<gexf>")
    >>> _check_xml(bad)
    Traceback (most recent call last):
    ...
    kg.errors.KgError: E350: ... failed its check after writing (not well-formed XML: ...); the previous file was kept (a bug in kg: please report it)
    """
    try:
        ET.parse(path)
    except ET.ParseError as error:
        raise KgError("E350", path=path, reason=f"not well-formed XML: {error}") from None


def write_gexf(G: nx.Graph, path: str | Path) -> None:
    """Write ``G`` as GEXF 1.2 (NetworkX's writer), atomically; Gephi colours by ``community`` from there.

    >>> import tempfile, pathlib
    >>> from kg.analysis.sample import tiny_graph
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "entities.gexf"
    >>> write_gexf(annotated_graph(tiny_graph()), target)
    >>> back = nx.read_gexf(target)
    >>> back.nodes["https://w3id.org/kg-lit/id/method/adam"]["community"]
    1
    """
    with atomic_write(path, "wb", check=_check_xml) as handle:
        nx.write_gexf(_safe(G), handle)


def write_graphml(G: nx.Graph, path: str | Path) -> None:
    """Write ``G`` as GraphML (the build's GraphML writer), atomically; Cytoscape reads the attributes as columns.

    >>> import tempfile, pathlib
    >>> from kg.analysis.sample import tiny_graph
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "entities.graphml"
    >>> write_graphml(annotated_graph(tiny_graph()), target)
    >>> sorted(set(nx.read_graphml(target).nodes(data="community")))[:2]
    [('https://w3id.org/kg-lit/id/dataset/glue', 0), ('https://w3id.org/kg-lit/id/dataset/imagenet', 1)]
    """
    text = generate_graphml(G)
    with atomic_write(path, "w", encoding="utf-8", newline="\n", check=_check_xml) as handle:
        handle.write(text)
