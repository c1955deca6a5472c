"""The explorer's data: a NetworkX graph (or a piece of one) as the JSON the page's script reads.

:func:`explorer_payload` is the one function that makes it, for the one-file
page (:func:`kg.explorer.page.generate_html`, all of a build's graph) and for
``kg serve``'s ``/explore`` (:mod:`kg.serve.explore`, a neighbourhood at a time),
so both pages get one shape and one script reads both.

Data
----
``nodes`` (list; the index is the id) with ``label``, ``type``, ``support``, ``x``, ``y``,
``iri`` and optionally ``alt`` (other names), ``paper`` (index into
``papers``), ``in`` (indexes of the papers mentioning it), ``link``, ``res`` (the numeric
results it reached or that were reported on it: ``[text, paper index, sentence, [[start, end]]]``,
the value highlighted); ``edges`` with ``from``, ``to``, ``rel``, ``support``,
``conf`` and ``ev``, a list of ``[paper index, sentence, [[start, end], ...]]``
(mention offsets in UTF-16 code units, as JavaScript counts), followed by
``naming sentence, [[start, end], ...]`` when the subject is named in another
sentence of the abstract than the one stating the fact; ``papers`` with
``id`` and optionally ``title`` (else ``label``, the abstract's first words), ``year``, ``authors``, ``link``, ``abstract``,
``node``; ``types``, ``relations``, ``colours`` and ``cap``. The script reads
it through a *source* object, so a served page can fetch the same shapes:
``kg serve``'s ``/explore`` adds ``centre`` (the node a piece is about),
node fields ``facts`` (all its facts), ``more`` (neighbours left out) and
``inMore`` (mentioning papers left out), and, for the whole graph, ``counts``,
``total`` and ``years``. Search rules have a Python twin in :mod:`kg.explorer.search`.

Limits
------
Each edge keeps at most :data:`MAX_EVIDENCE` sentences of :data:`MAX_TEXT`
characters, each node :data:`MAX_ALT_LABELS` other names, each paper
:data:`MAX_ABSTRACT` characters of abstract. Only ``http(s)`` URLs become
links (a paper's URL, else its DOI at doi.org; a ``hasCode`` URL).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import networkx as nx

from kg import vocab
from kg.model import paper_label

__all__ = ["COLOURS", "MAX_ABSTRACT", "MAX_ALT_LABELS", "MAX_EVIDENCE", "MAX_TEXT", "explorer_payload", "mention_matches", "mention_spans", "paper_record"]

#: Node colours by type, in legend order (from the vocabulary table); the last is for anything else.
COLOURS: dict[str, str] = vocab.COLOURS
#: Evidence sentences kept per edge, other names per node, characters per sentence and abstract.
MAX_EVIDENCE = 25
MAX_ALT_LABELS = 12
MAX_TEXT = 600
MAX_ABSTRACT = 4000
_HTTP = re.compile(r"^https?://[^\s]+$", re.IGNORECASE)


def _cut(text: str, limit: int = MAX_TEXT) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _as_list(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value]


def _http(url: Any) -> str | None:
    """``url`` when it is an http(s) URL (the only links the page makes), else None."""
    return str(url) if url and _HTTP.match(str(url)) else None


def _utf16(text: str, index: int) -> int:
    """The offset in UTF-16 code units (what JavaScript counts) of ``text[index]``."""
    return len(text[:index].encode("utf-16-le")) // 2


def mention_spans(sentence: str, *names: Sequence[str]) -> list[list[int]]:
    """Where each list of ``names`` is first mentioned in ``sentence``, as JavaScript offsets.

    For each list (a node's label and other names), the longest name found as
    a whole word, ignoring case, gives one ``[start, end)``; lists with no name
    in the sentence give nothing, and a span overlapping an earlier one is dropped.

    >>> mention_spans("We apply LoRA to question answering.", ["Low-Rank Adaptation", "LoRA"], ["QA", "question answering"])
    [[9, 13], [17, 35]]
    >>> mention_spans("Nothing here.", ["BERT"])
    []
    """
    return [[_utf16(sentence, a), _utf16(sentence, b)] for a, b in mention_matches(sentence, *names)]


def mention_matches(sentence: str, *names: Sequence[str]) -> list[tuple[int, int]]:
    """:func:`mention_spans` in Python string offsets, in the order of ``names``."""
    spans: list[tuple[int, int]] = []
    for forms in names:
        for form in sorted({f for f in forms if len(f.strip()) >= 2}, key=lambda f: (-len(f), f)):
            match = re.search(rf"(?<!\w){re.escape(form)}(?!\w)", sentence, flags=re.IGNORECASE)
            if match and not any(match.start() < end and start < match.end() for start, end in spans):
                spans.append((match.start(), match.end()))
                break
    return spans


def paper_record(iri: str, fields: Mapping[str, Any], authors: Iterable[str] = ()) -> dict[str, Any]:
    """One paper's metadata as the explorer keeps it, from its stored ``title``, ``abstract``, ``year``, ``doi``, ``url``.

    ``link`` is the URL when it is http(s), else the DOI as a ``https://doi.org/``
    link; ``year`` the first four digits of the date; authors are sorted (RDF keeps no order).

    >>> paper_record("i", {"year": "2021", "doi": "10.1/x", "url": "ftp://x"}, ["B", "A"])
    {'iri': 'i', 'authors': ['A', 'B'], 'year': 2021, 'link': 'https://doi.org/10.1/x'}
    """
    record: dict[str, Any] = {"iri": iri, "authors": sorted(str(a) for a in authors)}
    for field in ("title", "abstract", "label"):
        if fields.get(field) is not None:
            record[field] = str(fields[field])
    year = re.match(r"\d{4}", str(fields.get("year") or ""))
    if year:
        record["year"] = int(year.group(0))
    doi = fields.get("doi")
    record["link"] = _http(fields.get("url")) or (f"https://doi.org/{doi}" if doi else None)
    return record


def _paper_entry(paper_id: str, record: Mapping[str, Any], node: int | None) -> dict[str, Any]:
    entry: dict[str, Any] = {"id": paper_id}
    if record.get("title"):
        entry["title"] = str(record["title"])
    else:  # what a person reads instead of the id: the abstract's first words
        entry["label"] = str(record.get("label") or paper_label(None, record.get("abstract"), paper_id))
    if record.get("year"):
        entry["year"] = int(record["year"])
    if record.get("authors"):
        entry["authors"] = [str(a) for a in record["authors"]]
    if _http(record.get("link")):
        entry["link"] = record["link"]
    if record.get("abstract"):
        entry["abstract"] = _cut(str(record["abstract"]), MAX_ABSTRACT)
    if node is not None:
        entry["node"] = node
    return entry


def _edge_items(graph: nx.Graph) -> list[tuple[Any, Any, Mapping[str, Any]]]:
    if graph.is_multigraph():
        items = sorted(graph.edges(keys=True, data=True), key=lambda e: (str(e[0]), str(e[1]), str(e[2])))
        return [(u, v, d) for u, v, _k, d in items]
    return sorted(graph.edges(data=True), key=lambda e: (str(e[0]), str(e[1])))


def explorer_payload(
    graph: nx.Graph,
    papers: Mapping[str, Mapping[str, Any]],
    mentions: Mapping[str, Sequence[str]],
    positions: Mapping[Any, tuple[float, float]],
    cap: int,
    results: Mapping[str, Sequence[Mapping[str, Any]]] | None = None,
) -> dict[str, Any]:
    """The explorer's data (see Data above): nodes at ``positions``, edges with their evidence, papers, colours.

    ``graph`` is a NetworkX view as :func:`generate_html` takes it; the served
    explorer passes a neighbourhood of the stored graph, so both pages get one shape.
    """
    order = sorted(graph.nodes, key=str)
    ids = {node: i for i, node in enumerate(order)}
    paper_of_iri = {str(r.get("iri")): pid for pid, r in papers.items() if r.get("iri")}
    edge_items = _edge_items(graph)
    drawn = {pid for iri, pid in paper_of_iri.items() if iri in graph}
    named = {str(p) for node in graph for p in mentions.get(str(node), ())}
    results = results or {}
    reporting = {str(r["paper"]) for node in graph for r in results.get(str(node), ())}
    cited = sorted({str(p) for _u, _v, attrs in edge_items for p in _as_list(attrs.get("papers"))} | drawn | named | reporting)
    paper_index = {pid: i for i, pid in enumerate(cited)}
    paper_node: dict[str, int] = {}
    nodes = []
    for node in order:
        attrs = graph.nodes[node]
        kind = str(attrs.get("type") or "Other")
        label = str(attrs.get("label", node))
        x, y = positions[node]
        item: dict[str, Any] = {
            "label": label,
            "type": kind if kind in COLOURS else "Other",
            "support": max(1, int(attrs.get("support", 1))),
            "x": x,
            "y": y,
            "iri": str(node),
        }
        if kind != item["type"]:
            item["kind"] = kind
        alts = [a for a in _as_list(attrs.get("alt_labels")) if a != label][:MAX_ALT_LABELS]
        if alts:
            item["alt"] = alts
        if mentions.get(str(node)) and kind != "Paper":
            item["in"] = [paper_index[str(p)] for p in mentions[str(node)]]
        if kind == "Code" and _http(node):
            item["link"] = str(node)
        if results.get(str(node)):
            item["res"] = [
                [str(r["text"]), paper_index[str(r["paper"])], _cut(str(r["sentence"])), mention_spans(_cut(str(r["sentence"])), [str(r["value"])])]
                for r in results[str(node)][:MAX_EVIDENCE]
            ]
        pid = paper_of_iri.get(str(node))
        if pid is not None:
            item["paper"] = paper_index[pid]
            paper_node[pid] = ids[node]
        nodes.append(item)
    parallel: defaultdict[frozenset[int], int] = defaultdict(int)
    edges = []
    for source, target, attrs in edge_items:
        pair = frozenset((ids[source], ids[target]))
        rank = parallel[pair]  # parallel or opposite edges of one pair bend apart
        parallel[pair] += 1
        ends = [_names(graph.nodes[source]), _names(graph.nodes[target])]
        cited_by = _as_list(attrs.get("papers"))
        evidence = _as_list(attrs.get("evidence"))
        naming = _as_list(attrs.get("subject_evidence"))
        sources = []
        for k, pid in enumerate(cited_by[:MAX_EVIDENCE]):
            sentence = _cut(evidence[k]) if k < len(evidence) else ""
            entry = [paper_index[pid], sentence, mention_spans(sentence, *ends) if sentence else []]
            naming_sentence = _cut(naming[k]) if k < len(naming) and naming[k] else ""
            if naming_sentence:  # the sentence naming the subject, when the evidence does not
                entry += [naming_sentence, mention_spans(naming_sentence, *ends)]
            sources.append(entry)
        edge: dict[str, Any] = {
            "from": ids[source],
            "to": ids[target],
            "rel": str(attrs.get("relation", "")),
            "support": max(1, int(attrs.get("support", len(set(cited_by)) or 1))),
            "conf": round(float(attrs["confidence"]), 4) if attrs.get("confidence") is not None else 1.0,
            "ev": sources,
        }
        if rank:
            edge["bend"] = round(0.15 * rank, 2)
        edges.append(edge)
    present = {node["type"] for node in nodes}
    return {
        "colours": COLOURS,
        "types": [kind for kind in COLOURS if kind in present],
        "relations": sorted({edge["rel"] for edge in edges}),
        "cap": cap,
        "nodes": nodes,
        "edges": edges,
        "papers": [_paper_entry(pid, papers.get(pid, {}), paper_node.get(pid)) for pid in cited],
    }


def _names(attrs: Mapping[str, Any]) -> list[str]:
    """The names a node may be mentioned by: its label and other names (a paper: none)."""
    if attrs.get("type") == "Paper":
        return []
    return [str(attrs.get("label", ""))] + _as_list(attrs.get("alt_labels"))
