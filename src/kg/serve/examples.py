"""Ten example queries for the landing page, each answering a question people ask of the graph.

Every query runs as written on the endpoint (the ``kg`` prefixes are pre-bound);
the ones about one task or method find it by label, so they can be edited to
ask about another. A test runs them all on the example build.

>>> len(EXAMPLES), EXAMPLES[0].title
(10, 'Methods for a task')
"""

from __future__ import annotations

from typing import NamedTuple


class Example(NamedTuple):
    """One example on the landing page."""

    title: str
    question: str
    sparql: str


EXAMPLES: tuple[Example, ...] = (
    Example(
        "Methods for a task",
        "Which methods address federated learning, and in how many papers?",
        """SELECT ?method ?label (COUNT(DISTINCT ?paper) AS ?papers) WHERE {
  ?task a kg:Task ; rdfs:label ?taskLabel .
  FILTER(LCASE(STR(?taskLabel)) = "federated learning")
  ?method kg:addresses ?task ; rdfs:label ?label .
  ?st rdf:subject ?method ; rdf:predicate kg:addresses ; rdf:object ?task ;
      prov:wasDerivedFrom ?paper .
}
GROUP BY ?method ?label
ORDER BY DESC(?papers) ?label""",
    ),
    Example(
        "Datasets per method",
        "On which datasets was each method evaluated?",
        """SELECT ?method ?label (COUNT(?dataset) AS ?n)
       (GROUP_CONCAT(?datasetLabel; SEPARATOR=" | ") AS ?datasets) WHERE {
  ?method kg:evaluatedOn ?dataset ; rdfs:label ?label .
  ?dataset rdfs:label ?datasetLabel .
}
GROUP BY ?method ?label
ORDER BY DESC(?n) ?label""",
    ),
    Example(
        "What outperforms what",
        "Which methods are reported to outperform which, and where?",
        """SELECT ?winner ?winnerLabel ?loser ?loserLabel ?paper ?evidence WHERE {
  ?winner kg:outperforms ?loser ; rdfs:label ?winnerLabel .
  ?loser rdfs:label ?loserLabel .
  ?st rdf:subject ?winner ; rdf:predicate kg:outperforms ; rdf:object ?loser ;
      prov:wasDerivedFrom ?paper ; kg:evidence ?evidence .
}
ORDER BY ?winnerLabel""",
    ),
    Example(
        "The evidence of a fact",
        "Which sentences say that a method addresses image classification, and how sure is the extractor?",
        """SELECT ?method ?label ?paper ?evidence ?confidence ?extractor WHERE {
  ?task rdfs:label ?taskLabel .
  FILTER(LCASE(STR(?taskLabel)) = "image classification")
  ?st a rdf:Statement ; rdf:subject ?method ; rdf:predicate kg:addresses ;
      rdf:object ?task ; prov:wasDerivedFrom ?paper ; kg:evidence ?evidence ;
      kg:confidence ?confidence ; kg:extractor ?extractor .
  ?method rdfs:label ?label .
}
ORDER BY DESC(?confidence)""",
    ),
    Example(
        "The most connected tasks",
        "Which tasks are linked to the most methods, datasets and papers?",
        """SELECT ?task ?label (COUNT(DISTINCT ?other) AS ?neighbours) WHERE {
  ?task a kg:Task ; rdfs:label ?label .
  { ?other ?relation ?task } UNION { ?task ?relation ?other }
  FILTER(?relation NOT IN (rdf:type, rdfs:label, skos:altLabel, kg:mentionCount, rdf:subject, rdf:object))
}
GROUP BY ?task ?label
ORDER BY DESC(?neighbours) ?label
LIMIT 20""",
    ),
    Example(
        "Top datasets",
        "Which datasets are used to evaluate the most methods?",
        """SELECT ?dataset ?label (COUNT(DISTINCT ?method) AS ?methods) WHERE {
  ?method kg:evaluatedOn ?dataset .
  ?dataset rdfs:label ?label .
}
GROUP BY ?dataset ?label
ORDER BY DESC(?methods) ?label
LIMIT 20""",
    ),
    Example(
        "Methods with code",
        "Which papers propose a method and link to its code?",
        """SELECT ?paper ?title ?method ?label ?code WHERE {
  ?paper kg:proposes ?method ; kg:hasCode ?code ; rdfs:label ?title .
  ?method a kg:Method ; rdfs:label ?label .
}
ORDER BY ?title""",
    ),
    Example(
        "Metrics of a method",
        "Which metrics are results measured by, for methods evaluated on a dataset?",
        """SELECT ?method ?label ?metric ?metricLabel ?dataset ?datasetLabel WHERE {
  ?method kg:measuredBy ?metric ; rdfs:label ?label .
  ?metric rdfs:label ?metricLabel .
  OPTIONAL { ?method kg:evaluatedOn ?dataset . ?dataset rdfs:label ?datasetLabel }
}
ORDER BY ?label""",
    ),
    Example(
        "Most merged entities",
        "Which entities gather the most surface forms across papers?",
        """SELECT ?entity ?label ?type (COUNT(?alt) AS ?forms)
       (GROUP_CONCAT(?alt; SEPARATOR=" | ") AS ?aliases) WHERE {
  ?entity skos:altLabel ?alt ; rdfs:label ?label ; a ?type .
}
GROUP BY ?entity ?label ?type
ORDER BY DESC(?forms) ?label
LIMIT 20""",
    ),
    Example(
        "A task's neighbourhood as RDF",
        "What does the graph say around federated learning? (CONSTRUCT: Turtle, N-Triples or JSON-LD)",
        """CONSTRUCT {
  ?method kg:addresses ?task ; rdfs:label ?label .
  ?paper kg:proposes ?method .
} WHERE {
  ?task rdfs:label ?taskLabel .
  FILTER(LCASE(STR(?taskLabel)) = "federated learning")
  ?method kg:addresses ?task ; rdfs:label ?label .
  OPTIONAL { ?paper kg:proposes ?method }
}""",
    ),
)
