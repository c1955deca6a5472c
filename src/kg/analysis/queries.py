"""The SPARQL behind every analysis, one named query each, and the helper that runs them.

Each analysis in :mod:`kg.analysis` starts from one of these queries and only
shapes its rows with pandas, so a result (and every plot of ``kg report``) can
be reproduced with ``kg query DIR @file.rq`` or at a SPARQL endpoint. The
queries use the prefixes :meth:`kg.views.KnowledgeGraph.query` pre-binds.
Nothing here builds SPARQL from strings: the texts are constants.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any


from kg import vocab

if TYPE_CHECKING:
    import pandas as pd

    from kg.views import KnowledgeGraph

#: The ``kg:`` vocabulary IRI, from the vocabulary table.
VOCAB = vocab.VOCAB

__all__ = ["COOCCURRENCE", "CONFIDENCES", "ENTITIES", "FACT_SUPPORT", "LEADERBOARD", "MENTIONS", "METHOD_DATASET", "METHOD_TARGETS", "METHOD_TASKS", "PAPERS_PER_YEAR", "RELATIONS", "TASK_GAPS", "TRENDS", "USAGE", "frame", "local_name"]

#: Every entity (not papers) with its class and label.
ENTITIES = """
SELECT ?entity ?type ?label WHERE {
  VALUES ?type { kg:Method kg:Task kg:Dataset kg:Metric }
  ?entity a ?type ; rdfs:label ?label .
}"""

#: How many papers mention each entity: the most used tasks, datasets, metrics and methods.
USAGE = """
SELECT ?entity ?type ?label (COUNT(DISTINCT ?paper) AS ?papers) WHERE {
  VALUES ?type { kg:Method kg:Task kg:Dataset kg:Metric }
  ?entity a ?type ; rdfs:label ?label ; kg:mentionedIn ?paper .
} GROUP BY ?entity ?type ?label
ORDER BY DESC(?papers) ?label"""

#: Which paper mentions which entity (the raw material of co-occurrence).
MENTIONS = """
SELECT ?entity ?type ?paper WHERE {
  VALUES ?type { kg:Method kg:Task kg:Dataset kg:Metric }
  ?entity a ?type ; kg:mentionedIn ?paper .
}"""

#: Pairs of entities mentioned in the same abstract, with the number of papers they share.
COOCCURRENCE = """
SELECT ?a ?b (COUNT(DISTINCT ?paper) AS ?papers) WHERE {
  ?a kg:mentionedIn ?paper . ?b kg:mentionedIn ?paper .
  FILTER(STR(?a) < STR(?b))
} GROUP BY ?a ?b
ORDER BY DESC(?papers)"""

#: Every fact with its support (papers stating it) and its highest confidence.
FACT_SUPPORT = """
SELECT ?subject ?relation ?object (COUNT(DISTINCT ?paper) AS ?support) (MAX(?c) AS ?confidence) WHERE {
  ?statement a rdf:Statement ; rdf:subject ?subject ; rdf:predicate ?relation ;
             rdf:object ?object ; prov:wasDerivedFrom ?paper ; kg:confidence ?c .
} GROUP BY ?subject ?relation ?object"""

#: Every fact between two things, as its direct triple (no support: the fast way to know who is linked).
RELATIONS = """
SELECT ?subject ?relation ?object WHERE {
  VALUES ?relation { kg:addresses kg:evaluatedOn kg:measuredBy kg:outperforms kg:uses kg:comparedWith kg:subtypeOf }
  ?subject ?relation ?object .
}"""

#: The confidence of every fact as stated by one paper.
CONFIDENCES = """
SELECT ?relation ?confidence WHERE {
  ?statement a rdf:Statement ; rdf:predicate ?relation ; kg:confidence ?confidence .
}"""

#: Methods per task, with the papers stating that the method addresses the task.
METHOD_TASKS = """
SELECT ?task ?taskLabel ?method ?methodLabel ?papers WHERE {
  { SELECT ?method ?task (COUNT(DISTINCT ?paper) AS ?papers) WHERE {
      ?statement rdf:subject ?method ; rdf:predicate kg:addresses ; rdf:object ?task ;
                 prov:wasDerivedFrom ?paper .
    } GROUP BY ?method ?task }
  ?task rdfs:label ?taskLabel . ?method rdfs:label ?methodLabel .
}"""

#: The datasets and metrics each method is evaluated with.
METHOD_TARGETS = """
SELECT ?method ?relation ?targetLabel WHERE {
  VALUES ?relation { kg:evaluatedOn kg:measuredBy }
  ?method ?relation ?target . ?target rdfs:label ?targetLabel .
}"""

#: The leaderboard's two queries, as the report shows them.
LEADERBOARD = "# 1. methods per task\n" + METHOD_TASKS.strip() + "\n\n# 2. the datasets and metrics of each method\n" + METHOD_TARGETS.strip()

#: For each task (bind ?task to choose one), the methods addressing it and the datasets they are evaluated on, with support.
METHOD_DATASET = """
SELECT ?task ?taskLabel ?method ?methodLabel ?dataset ?datasetLabel (COUNT(DISTINCT ?paper) AS ?papers) WHERE {
  ?method kg:addresses ?task .
  ?statement rdf:subject ?method ; rdf:predicate kg:evaluatedOn ; rdf:object ?dataset ;
             prov:wasDerivedFrom ?paper .
  ?task rdfs:label ?taskLabel . ?method rdfs:label ?methodLabel . ?dataset rdfs:label ?datasetLabel .
} GROUP BY ?task ?taskLabel ?method ?methodLabel ?dataset ?datasetLabel"""

#: Per task: papers mentioning it, methods addressing it, datasets those methods are evaluated on.
TASK_GAPS = """
SELECT ?task ?label ?papers (COALESCE(?m, 0) AS ?methods) (COALESCE(?d, 0) AS ?datasets) WHERE {
  { SELECT ?task (COUNT(DISTINCT ?paper) AS ?papers) WHERE { ?task a kg:Task ; kg:mentionedIn ?paper } GROUP BY ?task }
  ?task rdfs:label ?label .
  OPTIONAL {
    { SELECT ?task (COUNT(DISTINCT ?method) AS ?m) (COUNT(DISTINCT ?dataset) AS ?d) WHERE {
        ?method kg:addresses ?task . OPTIONAL { ?method kg:evaluatedOn ?dataset }
      } GROUP BY ?task }
  }
}
ORDER BY DESC(?papers) ?label"""

#: Dated papers per year.
PAPERS_PER_YEAR = """
SELECT ?year (COUNT(DISTINCT ?paper) AS ?papers) WHERE {
  ?paper a kg:Paper ; dcterms:date ?date .
  BIND(xsd:integer(STR(?date)) AS ?year)
} GROUP BY ?year
ORDER BY ?year"""

#: Papers per year mentioning each entity.
TRENDS = """
SELECT ?year ?entity ?type ?label (COUNT(DISTINCT ?paper) AS ?papers) WHERE {
  VALUES ?type { kg:Method kg:Task kg:Dataset kg:Metric }
  ?entity a ?type ; rdfs:label ?label ; kg:mentionedIn ?paper .
  ?paper dcterms:date ?date .
  BIND(xsd:integer(STR(?date)) AS ?year)
} GROUP BY ?year ?entity ?type ?label
ORDER BY ?year DESC(?papers)"""


def local_name(iri: str) -> str:
    """The ``kg:`` local name of a vocabulary IRI (``Task``, ``addresses``); other IRIs unchanged.

    >>> local_name(VOCAB + "evaluatedOn"), local_name("https://example.org/x")
    ('evaluatedOn', 'https://example.org/x')
    """
    return iri[len(VOCAB):] if iri.startswith(VOCAB) else iri


def frame(graph: KnowledgeGraph, sparql: str, columns: list[str], *, local: tuple[str, ...] = ("type", "relation"), bindings: Mapping[str, Any] | None = None) -> pd.DataFrame:
    """Run ``sparql`` and return its rows as a DataFrame with ``columns``, even when there are none.

    Columns named in ``local`` (vocabulary IRIs) are shortened to their local names;
    ``bindings`` are passed to :meth:`~kg.views.KnowledgeGraph.select` (values, never query text).

    >>> from kg.analysis.sample import tiny_graph
    >>> sorted(frame(tiny_graph(), ENTITIES, ["entity", "type", "label"]).type.value_counts().items())
    [('Dataset', 3), ('Method', 5), ('Metric', 2), ('Task', 2)]
    """
    import pandas as pd

    table = pd.DataFrame(graph.select(sparql, bindings), columns=columns)
    for column in local:
        if column in table:
            table[column] = table[column].map(local_name, na_action="ignore")
    return table
