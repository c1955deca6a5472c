"""Scoring a built graph's facts against hand-annotated abstracts (a "facts gold" file).

A gold file is a JSON list with one record per abstract (format in
``docs/EVALUATION.md``): the abstract, its entities (name, aliases, type) and
its triples ``[subject name | "PAPER", relation, object name]``. Scoring
follows the seeds dev gold guidelines exactly:

- a gold record is the paper with the same id (the record's ``id``, else the
  first 12 hex digits of the SHA-1 of its whitespace-normalised abstract);
- a paper's predicted facts are the graph's statements derived from it, with
  ``proposes`` read as ``introduces`` (a fact whose subject is the paper);
- a node matches a gold entity when one of its labels equals the entity's
  name or an alias after :func:`normalise` (*strict*), or, *leniently*, when a
  label and a gold form share at least half their words (:func:`jaccard`);
- a predicted fact is correct when a gold triple of its paper has the same
  relation and both ends match; recall counts the gold triples some predicted
  fact matches. Figures are micro-averaged, per relation and overall.

Only the six gold relations are scored; the graph's other relations
(``hasCode``, ``comparedWith``, ``subtypeOf``) are counted apart.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kg.errors import UserError
from kg.model import normalise_whitespace

#: The relations of a gold file, in report order.
RELATIONS = ("introduces", "addresses", "uses", "outperforms", "evaluatedOn", "measuredBy")
#: Graph relation -> gold relation where the names differ.
GRAPH_TO_GOLD = {"proposes": "introduces"}
PAPER = "PAPER"
ENTITY_TYPES = frozenset({"Method", "Task", "Dataset", "Metric"})
STOP_WORDS = frozenset("the a an of for and on in with to".split())
#: The corpus files of records that give a ``source_id`` instead of an abstract: none, one, or several.
Corpora = str | Path | Sequence[str | Path] | None
#: Lenient matching: a label and a gold form overlapping at least this much (token-set Jaccard).
LENIENT_JACCARD = 0.5

_NON_ALNUM = re.compile(r"[^a-z0-9]+")


def gold_id(abstract: str) -> str:
    """The id of a gold record without one: 12 hex digits of the SHA-1 of the normalised abstract.

    >>> gold_id("A  b") == gold_id("A b")
    True
    >>> len(gold_id("x"))
    12
    """
    return hashlib.sha1(normalise_whitespace(abstract).encode("utf-8")).hexdigest()[:12]


def _words(text: str) -> list[str]:
    """Lower-case words (runs of a-z and 0-9), a final "s" dropped from words longer than three letters."""
    return [w[:-1] if len(w) > 3 and w.endswith("s") else w for w in _NON_ALNUM.split(text.lower()) if w]


def normalise(text: str) -> str:
    """The strict matching key: lower case, only a-z and 0-9, plural "s" of longer words dropped.

    >>> normalise("Vision Transformers (ViT)") == normalise("vision-transformer vit")
    True
    >>> normalise("GANs"), normalise("loss")
    ('gan', 'los')
    """
    return "".join(_words(text))


def token_set(text: str) -> frozenset[str]:
    """The words lenient matching compares, stop words left out.

    >>> sorted(token_set("the Segmentation of Images"))
    ['image', 'segmentation']
    """
    return frozenset(w for w in _words(text) if w not in STOP_WORDS)


def jaccard(a: str, b: str) -> float:
    """Token-set Jaccard overlap of two names (0 when either has no words).

    >>> jaccard("graph neural network", "graph network")
    0.6666666666666666
    """
    left, right = token_set(a), token_set(b)
    return len(left & right) / len(left | right) if left and right else 0.0


def forms_match(labels: Iterable[str], forms: Iterable[str], lenient: bool) -> bool:
    """Whether one of a node's labels matches one of a gold entity's forms.

    >>> forms_match(["LAMP score"], ["layer-adaptive magnitude-based pruning", "LAMP"], False)
    False
    >>> forms_match(["LAMP score"], ["layer-adaptive magnitude-based pruning", "LAMP"], True)
    True
    """
    forms = list(forms)
    keys = {normalise(f) for f in forms}
    for label in labels:
        if normalise(label) in keys:
            return True
        if lenient and any(jaccard(label, form) >= LENIENT_JACCARD for form in forms):
            return True
    return False


@dataclass(frozen=True)
class GoldEntity:
    name: str
    type: str
    aliases: tuple[str, ...] = ()

    @property
    def forms(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)


@dataclass(frozen=True)
class GoldRecord:
    """One annotated abstract."""

    id: str
    abstract: str
    entities: dict[str, GoldEntity]
    triples: tuple[tuple[str, str, str], ...]
    code: tuple[str, ...] = ()


@dataclass(frozen=True)
class Node:
    """One end of a predicted fact: the paper (``labels == ()`` and ``paper=True``) or an entity."""

    labels: tuple[str, ...]
    type: str = ""
    paper: bool = False

    @property
    def label(self) -> str:
        return PAPER if self.paper else (self.labels[0] if self.labels else "")


@dataclass(frozen=True)
class PredictedFact:
    """A fact of the graph, as the scorer sees it (relation already in the gold vocabulary)."""

    paper_id: str
    relation: str
    subject: Node
    object: Node
    evidence: str = ""
    extractor: str = ""
    confidence: float = 0.0


@dataclass
class Counts:
    """Precision and recall counts of one relation (or all)."""

    gold: int = 0
    predicted: int = 0
    correct_predicted: int = 0  # predicted facts that match a gold triple
    matched_gold: int = 0  # gold triples matched by some predicted fact

    @property
    def precision(self) -> float:
        return 100.0 * self.correct_predicted / self.predicted if self.predicted else 0.0

    @property
    def recall(self) -> float:
        return 100.0 * self.matched_gold / self.gold if self.gold else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


@dataclass
class FactScores:
    """Per-relation and overall counts, strict and lenient, and every miss and false positive."""

    strict: dict[str, Counts]
    lenient: dict[str, Counts]
    errors: list[dict[str, Any]] = field(default_factory=list)
    unscored: dict[str, int] = field(default_factory=dict)
    records: int = 0
    unmatched_records: list[str] = field(default_factory=list)


def gold_error(path: Path, where: str, reason: str) -> UserError:
    """The one-line error (E220) for a gold file: the file, where in it, what is wrong."""
    return UserError("E220", path=path, where=where, reason=reason)


def _entity(path: Path, where: str, raw: Any) -> GoldEntity:
    if not isinstance(raw, dict) or not isinstance(raw.get("name"), str) or not raw["name"].strip():
        raise gold_error(path, where, "an entity needs a non-empty 'name'")
    if raw.get("type") not in ENTITY_TYPES:
        raise gold_error(path, where, f"entity {raw['name']!r} has type {raw.get('type')!r}, not one of {', '.join(sorted(ENTITY_TYPES))}")
    aliases = raw.get("aliases", [])
    if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
        raise gold_error(path, where, f"the aliases of {raw['name']!r} must be a list of strings")
    return GoldEntity(raw["name"], raw["type"], tuple(aliases))


def _is_triple(triple: Any) -> bool:
    """Whether ``triple`` is ``[subject, relation, object]``, optionally followed by the list of sentence numbers that state it.

    >>> _is_triple(["PAPER", "introduces", "X"]), _is_triple(["PAPER", "introduces", "X", [0, 2]])
    (True, True)
    >>> _is_triple(["PAPER", "introduces", "X", "0"])
    False
    """
    if not isinstance(triple, list) or len(triple) not in (3, 4) or not all(isinstance(t, str) for t in triple[:3]):
        return False
    return len(triple) == 3 or (isinstance(triple[3], list) and all(isinstance(n, int) and not isinstance(n, bool) for n in triple[3]))


def parse_gold(data: Any, path: Path) -> list[GoldRecord]:
    """Check and read the records of a gold file already parsed from JSON.

    Raises ``UserError("E220")`` naming the record and what is wrong with it.

    >>> parse_gold([{"abstract": "We propose X.", "entities": [{"name": "X", "type": "Method"}],
    ...              "triples": [["PAPER", "introduces", "X"]]}], Path("g.json"))[0].triples
    (('PAPER', 'introduces', 'X'),)
    """
    if not isinstance(data, list):
        raise gold_error(path, "top level", "a gold file is a JSON list of records")
    records = []
    for number, raw in enumerate(data, 1):
        where = f"record {number}"
        if not isinstance(raw, dict) or not isinstance(raw.get("abstract"), str) or not raw["abstract"].strip():
            raise gold_error(path, where, "a record is an object with a non-empty 'abstract'")
        entities: dict[str, GoldEntity] = {}
        for item in raw.get("entities", []):
            entity = _entity(path, where, item)
            entities[entity.name] = entity
        triples = []
        for triple in raw.get("triples", []):
            if not _is_triple(triple):
                raise gold_error(path, where, f"a triple is a list of three strings (and, optionally, its sentence numbers), not {triple!r}")
            subject, relation, obj = triple[:3]
            if relation not in RELATIONS:
                raise gold_error(path, where, f"unknown relation {relation!r} (use {', '.join(RELATIONS)})")
            for end in (subject, obj):
                if end != PAPER and end not in entities:
                    raise gold_error(path, where, f"triple {triple!r} names {end!r}, which is not an entity of the record")
            triples.append((subject, relation, obj))
        record_id = raw.get("id") or gold_id(raw["abstract"])
        records.append(GoldRecord(str(record_id), raw["abstract"], entities, tuple(triples), tuple(raw.get("code", []))))
    return records


def read_gold(path: str | Path, corpus: Corpora = None) -> list[GoldRecord]:
    """The records of a gold file; ``UserError`` E220 (bad content) or E221 (unreadable).

    A record may leave out its ``abstract`` and name a record of a JSON Lines
    ``corpus`` (fields ``id`` and ``abstract``; one file or several) in ``source_id``
    instead: annotations of a corpus that is not the annotator's to copy are kept
    apart from its text.
    """
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise UserError("E221", path=path, reason=error.strerror or str(error)) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise UserError("E221", path=path, reason=f"not valid JSON ({error})") from None
    if isinstance(data, list) and any(isinstance(r, dict) and "abstract" not in r for r in data):
        data = with_abstracts(data, path, corpus)
    return parse_gold(data, path)


def corpus_paths(corpus: Corpora) -> list[Path]:
    """The corpus files of a ``corpus`` argument: none, one path, or several.

    >>> corpus_paths(None), corpus_paths("a.jsonl"), corpus_paths(["a.jsonl", Path("b.jsonl")])
    ([], [PosixPath('a.jsonl')], [PosixPath('a.jsonl'), PosixPath('b.jsonl')])
    """
    if corpus is None:
        return []
    if isinstance(corpus, (str, Path)):
        return [Path(corpus)]
    return [Path(c) for c in corpus]


def with_abstracts(data: list[Any], path: Path, corpus: Corpora) -> list[Any]:
    """The records, each without an ``abstract`` given the whitespace-normalised text of its ``source_id`` in ``corpus``.

    >>> import tempfile, os
    >>> folder = tempfile.mkdtemp()
    >>> corpus = os.path.join(folder, "c.jsonl")
    >>> _ = open(corpus, "w").write(json.dumps({"id": "p1", "abstract": "We propose  X."}))
    >>> with_abstracts([{"source_id": "p1", "entities": []}], Path("g.json"), corpus)[0]["abstract"]
    'We propose X.'
    """
    wanted = {r.get("source_id") for r in data if isinstance(r, dict) and "abstract" not in r}
    corpora = corpus_paths(corpus)
    if not corpora:
        raise gold_error(path, "records without 'abstract'", "name the corpus their 'source_id' points into (--corpus)")
    texts: dict[str, str] = {}
    for one in corpora:
        texts.update(_corpus_texts(one, wanted))
    missing_in = corpora[0] if len(corpora) == 1 else ", ".join(str(c) for c in corpora)
    filled = []
    for number, raw in enumerate(data, 1):
        if isinstance(raw, dict) and "abstract" not in raw:
            if raw.get("source_id") not in texts:
                raise gold_error(path, f"record {number}", f"its source_id {raw.get('source_id')!r} is not a record of {missing_in}")
            raw = {**raw, "abstract": texts[raw["source_id"]]}
        filled.append(raw)
    return filled


def _corpus_texts(corpus: Path, wanted: set[Any]) -> dict[str, str]:
    """The whitespace-normalised abstracts of the ``wanted`` ids of one JSON Lines corpus."""
    texts: dict[str, str] = {}
    try:
        with corpus.open(encoding="utf-8") as handle:
            for number, line in enumerate(handle, 1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                except json.JSONDecodeError:
                    raise UserError("E221", path=corpus, reason=f"line {number} is not valid JSON") from None
                if isinstance(record, dict) and record.get("id") in wanted and isinstance(record.get("abstract"), str):
                    texts[record["id"]] = normalise_whitespace(record["abstract"])
    except OSError as error:
        raise UserError("E221", path=corpus, reason=error.strerror or str(error)) from None
    return texts


def _end_matches(node: Node, name: str, record: GoldRecord, lenient: bool) -> bool:
    if name == PAPER:
        return node.paper
    return not node.paper and forms_match(node.labels, record.entities[name].forms, lenient)


def _fact_matches(fact: PredictedFact, triple: tuple[str, str, str], record: GoldRecord, lenient: bool) -> bool:
    subject, relation, obj = triple
    return (
        fact.relation == relation
        and _end_matches(fact.subject, subject, record, lenient)
        and _end_matches(fact.object, obj, record, lenient)
    )


def _nearest_nodes(name: str, record: GoldRecord, nodes: Sequence[Node]) -> list[str]:
    """Labels of the paper's nodes that match a gold end leniently (for the error file)."""
    if name == PAPER:
        return [PAPER]
    return [n.label for n in nodes if not n.paper and forms_match(n.labels, record.entities[name].forms, True)]


def score(records: Sequence[GoldRecord], predicted: Mapping[str, Sequence[PredictedFact]], nodes: Mapping[str, Sequence[Node]] | None = None) -> FactScores:
    """Precision, recall and F1 of ``predicted`` facts (by paper id) against ``records``.

    ``nodes`` (paper id -> the entity nodes mentioned in it) only enriches the
    error list: for a miss it says which of the paper's nodes match each end.

    >>> rec = parse_gold([{"id": "p", "abstract": "We propose X for Y.", "entities": [
    ...     {"name": "X", "type": "Method"}, {"name": "image segmentation", "type": "Task"}],
    ...     "triples": [["PAPER", "introduces", "X"], ["X", "addresses", "image segmentation"]]}], Path("g"))
    >>> facts = [PredictedFact("p", "introduces", Node((), paper=True), Node(("X",))),
    ...          PredictedFact("p", "addresses", Node(("X",)), Node(("segmentation",)))]
    >>> s = score(rec, {"p": facts})
    >>> s.strict["all"].matched_gold, s.lenient["all"].matched_gold
    (1, 2)
    """
    scores = FactScores({r: Counts() for r in (*RELATIONS, "all")}, {r: Counts() for r in (*RELATIONS, "all")})
    scores.records = len(records)
    nodes = nodes or {}
    for record in records:
        facts = [f for f in predicted.get(record.id, ()) if f.relation in RELATIONS]
        if record.id not in predicted:
            scores.unmatched_records.append(record.id)
        for mode, table in (("strict", scores.strict), ("lenient", scores.lenient)):
            lenient = mode == "lenient"
            hit = [False] * len(record.triples)
            for fact in facts:
                matches = [i for i, t in enumerate(record.triples) if _fact_matches(fact, t, record, lenient)]
                for i in matches:
                    hit[i] = True
                for key in (fact.relation, "all"):
                    table[key].predicted += 1
                    table[key].correct_predicted += bool(matches)
                if lenient and not matches:
                    scores.errors.append(_false_positive(fact))
            for triple, found in zip(record.triples, hit):
                for key in (triple[1], "all"):
                    table[key].gold += 1
                    table[key].matched_gold += found
                if lenient and not found:
                    scores.errors.append(_miss(record, triple, nodes.get(record.id, ())))
    for listed in predicted.values():
        for fact in listed:
            if fact.relation not in RELATIONS:
                scores.unscored[fact.relation] = scores.unscored.get(fact.relation, 0) + 1
    return scores


def _false_positive(fact: PredictedFact) -> dict[str, Any]:
    return {
        "kind": "false_positive",
        "paper": fact.paper_id,
        "relation": fact.relation,
        "subject": fact.subject.label,
        "subject_type": fact.subject.type,
        "object": fact.object.label,
        "object_type": fact.object.type,
        "evidence": fact.evidence,
        "extractor": fact.extractor,
        "confidence": fact.confidence,
    }


def _miss(record: GoldRecord, triple: tuple[str, str, str], nodes: Sequence[Node]) -> dict[str, Any]:
    subject, relation, obj = triple
    return {
        "kind": "miss",
        "paper": record.id,
        "relation": relation,
        "subject": subject,
        "object": obj,
        "object_type": record.entities[obj].type,
        "subject_nodes": _nearest_nodes(subject, record, nodes),
        "object_nodes": _nearest_nodes(obj, record, nodes),
        "abstract": record.abstract,
    }


# -- reading a graph ------------------------------------------------------------------

_STATEMENTS = """
SELECT ?paper ?s ?p ?o ?evidence ?extractor ?confidence WHERE {
  ?st a rdf:Statement ; rdf:subject ?s ; rdf:predicate ?p ; rdf:object ?o ; prov:wasDerivedFrom ?paper .
  OPTIONAL { ?st kg:evidence ?evidence } OPTIONAL { ?st kg:extractor ?extractor }
  OPTIONAL { ?st kg:confidence ?confidence }
}"""
_LABELS = "SELECT ?n ?label WHERE { { ?n rdfs:label ?label } UNION { ?n skos:altLabel ?label } }"
_TYPES = "SELECT ?n ?t WHERE { ?n a ?t }"
_PAPERS = "SELECT ?paper ?id WHERE { ?paper a kg:Paper ; dcterms:identifier ?id }"
_MENTIONED = "SELECT ?n ?paper WHERE { ?n kg:mentionedIn ?paper }"


def _local(iri: str) -> str:
    return iri.rsplit("#", 1)[-1].rsplit("/", 1)[-1]


def graph_facts(graph: Any) -> tuple[dict[str, list[PredictedFact]], dict[str, list[Node]]]:
    """The facts of a :class:`~kg.views.KnowledgeGraph` by paper id, and each paper's entity nodes.

    Relations are renamed to the gold vocabulary (``proposes`` -> ``introduces``).
    """
    ids = {row["paper"]: str(row["id"]) for row in graph.select(_PAPERS)}
    labels: dict[str, list[str]] = {}
    for row in graph.select(_LABELS):
        labels.setdefault(row["n"], []).append(str(row["label"]))
    types = {row["n"]: _local(row["t"]) for row in graph.select(_TYPES) if row["n"] not in ids}

    def node(iri: str) -> Node:
        if iri in ids:
            return Node((), "Paper", paper=True)
        # the rdfs:label first (it is the canonical name), then the alternatives, sorted
        forms = labels.get(iri, [iri])  # a URL (hasCode) has no label
        return Node(tuple(forms[:1] + sorted(forms[1:])), types.get(iri, ""))

    facts: dict[str, list[PredictedFact]] = {paper_id: [] for paper_id in ids.values()}
    for row in graph.select(_STATEMENTS):
        paper_id = ids.get(row["paper"])
        if paper_id is None:
            continue
        relation = _local(row["p"])
        facts[paper_id].append(
            PredictedFact(
                paper_id,
                GRAPH_TO_GOLD.get(relation, relation),
                node(row["s"]),
                node(row["o"]),
                str(row.get("evidence") or ""),
                str(row.get("extractor") or ""),
                float(row.get("confidence") or 0.0),
            )
        )
    nodes: dict[str, list[Node]] = {}
    for row in graph.select(_MENTIONED):
        if row["paper"] in ids:
            nodes.setdefault(ids[row["paper"]], []).append(node(row["n"]))
    for paper_facts in facts.values():
        paper_facts.sort(key=lambda f: (f.relation, f.subject.label, f.object.label))
    return facts, nodes


def write_gold_inputs(records: Sequence[GoldRecord], path: Path) -> None:
    """The records' abstracts as a JSON Lines input file (``id`` and ``abstract``) for ``kg build``."""
    with path.open("w", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps({"id": record.id, "abstract": record.abstract}, ensure_ascii=False) + "\n")


def evaluate_facts(
    gold: str | Path,
    *,
    scierc_model: str | None = None,
    spacy_model: str | None = None,
    workdir: str | Path | None = None,
    corpus: Corpora = None,
    min_confidence: float | None = None,
) -> FactScores:
    """Build the gold file's abstracts as ``kg build`` does and score the graph's facts.

    ``workdir`` keeps the build folder there (else a temporary folder is used and removed);
    ``corpus`` gives the text of records that name a ``source_id`` instead (:func:`read_gold`);
    ``min_confidence`` is passed to the build (facts below it are left out), as ``kg build`` takes it.
    """
    import tempfile

    from kg.buildfolder import NTRIPLES, BuildFolder, BuildSettings
    from kg.pipeline import build
    from kg.views import KnowledgeGraph

    records = read_gold(gold, corpus)
    with tempfile.TemporaryDirectory(prefix="kg-eval-facts-") as tmp:
        folder = Path(workdir) if workdir is not None else Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        inputs = folder / "gold-abstracts.jsonl"
        write_gold_inputs(records, inputs)
        out = folder / "build"
        build([inputs], out, BuildSettings(spacy_model, scierc_model, min_confidence), formats=[NTRIPLES])
        facts, nodes = graph_facts(KnowledgeGraph.load(BuildFolder(out).ntriples))
    return score(records, facts, nodes)


def write_errors(scores: FactScores, path: str | Path) -> None:
    """Every miss and false positive (lenient), one JSON object a line."""
    with Path(path).open("w", encoding="utf-8") as handle:
        for error in scores.errors:
            handle.write(json.dumps(error, ensure_ascii=False) + "\n")
