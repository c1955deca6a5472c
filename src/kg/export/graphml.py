"""``graph.graphml``: the NetworkX view as GraphML, for Gephi, yEd or Cytoscape.

Nodes are IRIs with ``type``, ``label``, ``alt_labels`` and ``support``; edges
are keyed by relation (the GraphML edge ``id``) with ``relation``, ``support``,
``papers``, ``evidence`` and ``confidence``. Numeric results are nodes of type
``Result`` (:func:`with_results`).

Limits and dangers
------------------
- **No lists in GraphML.** A list-valued attribute (``alt_labels``,
  ``papers``, ``evidence``) is written as one string holding a JSON array,
  e.g. ``["BERT", "bert-base"]``: a plain separator would be ambiguous as soon
  as a label contains it. Read it back with :func:`parse_list` (``json.loads``).
  Gephi and yEd show the array text as it is.
- **Characters XML 1.0 cannot hold are removed.** GraphML is XML 1.0, which
  cannot represent most control characters even as ``&#...;`` references: C0
  controls other than tab, line feed and carriage return, U+FFFE, U+FFFF and
  lone surrogates. :func:`xml_safe` removes them from every string (node ids,
  keys, values, list items) before writing. Every other string, including
  quotes, backslashes, ``<``, ``>``, ``&``, braces and line breaks, reads back
  exactly with ``networkx.read_graphml``; a carriage return is written as
  ``&#13;`` so that XML's line-end normalisation does not turn it into ``\\n``.
- **Empty strings** are written, but NetworkX's reader drops empty elements,
  so an empty string reads back as a missing attribute.
- ``None`` values are left out; numbers and booleans keep their GraphML types
  (``int``, ``double``, ``boolean``); anything else is written as JSON.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import networkx as nx
from networkx.readwrite.graphml import GraphMLWriter

from kg.errors import KgError
from kg.io import atomic_write

if TYPE_CHECKING:
    from kg.views.graph import KnowledgeGraph

__all__ = ["generate_graphml", "parse_list", "write_graphml", "xml_safe"]

# Everything outside XML 1.0's Char production.
_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_safe(text: str) -> str:
    """``text`` without the characters XML 1.0 cannot hold.

    >>> xml_safe("a\\x00b\\x1bc\\td\\ufffe")
    'abc\\td'
    """
    return _NOT_XML.sub("", text)


def parse_list(value: str | None) -> list[str]:
    """The list a list-valued GraphML attribute was written from.

    >>> parse_list('["a, b", "c"]')
    ['a, b', 'c']
    >>> parse_list(None)
    []
    """
    return [] if value is None else list(json.loads(value))


def _value(value: Any) -> Any:
    """A GraphML-ready value: XML-safe strings, numbers, or JSON text; None for none."""
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, str):
        return xml_safe(value)
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value, key=str) if isinstance(value, (set, frozenset)) else value
        return json.dumps([xml_safe(v) if isinstance(v, str) else v for v in items], ensure_ascii=False)
    return json.dumps(value, ensure_ascii=False, default=str)


def _attrs(attrs: Mapping[str, Any]) -> dict[str, Any]:
    ready = {xml_safe(str(k)): _value(v) for k, v in attrs.items()}
    return {k: v for k, v in ready.items() if v is not None}


def _node(node: Any) -> Any:
    return xml_safe(node) if isinstance(node, str) else node


def _ready(graph: nx.Graph) -> nx.Graph:
    """A copy of ``graph`` that NetworkX's GraphML writer can write losslessly."""
    ready = graph.__class__()
    ready.graph.update(_attrs(graph.graph))
    ready.add_nodes_from((_node(n), _attrs(d)) for n, d in graph.nodes(data=True))
    if graph.is_multigraph():
        ready.add_edges_from((_node(u), _node(v), _node(k), _attrs(d)) for u, v, k, d in graph.edges(keys=True, data=True))
    else:
        ready.add_edges_from((_node(u), _node(v), _attrs(d)) for u, v, d in graph.edges(data=True))
    return ready


def generate_graphml(graph: nx.Graph) -> str:
    """The GraphML document for ``graph``, as text (UTF-8 declared).

    Examples
    --------
    >>> import io, networkx as nx
    >>> g = nx.MultiDiGraph()
    >>> g.add_node("m", label='say "hi"\\r\\n<&>', alt_labels=["a|b", "c"], support=2)
    >>> back = nx.read_graphml(io.BytesIO(generate_graphml(g).encode("utf-8")))
    >>> back.nodes["m"]["label"] == 'say "hi"\\r\\n<&>', parse_list(back.nodes["m"]["alt_labels"])
    (True, ['a|b', 'c'])
    """
    # Not nx.generate_graphml: it splits its output with str.splitlines, which also breaks at
    # CR, U+2028 and other separators inside values, so they would come back as "\n".
    writer = GraphMLWriter(encoding="utf-8", prettyprint=True)
    writer.add_graph_element(_ready(graph))
    text = '<?xml version="1.0" encoding="utf-8"?>\n' + str(writer)
    # ElementTree escapes CR in attributes but not in text, where a parser would read it
    # back as LF. Every raw CR left is in text content, so a character reference is exact.
    return text.replace("\r", "&#13;") + "\n"


def _check(path: Path) -> None:
    try:
        ET.parse(path)
    except ET.ParseError as error:
        raise KgError("E350", path=path, reason=f"not well-formed XML: {error}") from None


def with_results(graph: nx.MultiDiGraph, kg: KnowledgeGraph) -> nx.MultiDiGraph:
    """A copy of the NetworkX view with each numeric result as a node of type ``Result``.

    The node's ``label`` reads "value unit metric"; it carries ``value``,
    ``value_text``, ``unit``, ``kind``, ``metric``, ``evidence``, ``confidence`` and
    ``paper``, and edges ``method``, ``metric``, ``onDataset``, ``forTask`` and
    ``comparedTo`` to the entities it names.
    """
    rows = kg.results()
    if not rows:
        return graph
    graph = graph.copy()
    for row, iri in zip(rows, _result_iris(kg)):
        label = " ".join(part for part in (row.value_text, row.unit, row.metric_label) if part)
        graph.add_node(iri, type="Result", label=label, value=float(row.value), value_text=row.value_text, unit=row.unit,
                       kind=row.kind, metric=row.metric_label, evidence=row.evidence, confidence=row.confidence, paper=row.paper_id)
        for relation, target in (("method", row.method), ("metric", row.metric), ("onDataset", row.dataset), ("forTask", row.task), ("comparedTo", row.compared_to)):
            if target and target in graph:
                graph.add_edge(iri, target, key=relation, relation=relation)
    return graph


def _result_iris(kg: KnowledgeGraph) -> list[str]:
    """The result nodes' IRIs in the order of :meth:`KnowledgeGraph.results`."""
    rows = kg.select("SELECT ?r ?id ?start WHERE { ?r a kg:Result ; kg:valueStart ?start ; prov:wasDerivedFrom/dcterms:identifier ?id }")
    return [row["r"] for row in sorted(rows, key=lambda r: (str(r["id"]), int(r["start"])))]


def write_graphml(kg: KnowledgeGraph, path: str | Path) -> None:
    """Write ``graph.graphml`` for ``kg`` to ``path``, atomically and re-parsed first."""
    text = generate_graphml(with_results(kg.to_networkx(), kg))
    with atomic_write(path, "w", encoding="utf-8", newline="\n", check=_check) as handle:
        handle.write(text)
