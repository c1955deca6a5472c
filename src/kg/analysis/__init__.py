"""Analyses a surveyor asks of a literature graph, as plain functions over a loaded graph.

>>> import kg
>>> from kg.analysis import tiny_graph, top_entities
>>> top_entities(tiny_graph(), "Task").label.tolist()
['question answering', 'image classification']

Every function takes a :class:`kg.views.KnowledgeGraph` (``kg.load(DIR)``)
or a NetworkX graph made from one, and returns a pandas DataFrame or a
NetworkX graph; nothing prints. Each table starts from a SPARQL query in
:mod:`kg.analysis.queries`, so any number can be reproduced with ``kg query``.

- tables: :func:`usage`, :func:`top_entities`, :func:`leaderboard`,
  :func:`result_leaderboards` (reported numbers, best first), :func:`claimed_improvements`,
  :func:`method_dataset_matrix`, :func:`cooccurrence`, :func:`entity_pairs`, :func:`task_gaps`,
  :func:`papers_per_year`, :func:`trends`
- networks: :func:`entity_graph`, :func:`fact_table`, :func:`bipartite`,
  :func:`projection`, :func:`communities`, :func:`community_table`,
  :func:`centrality`, :func:`bridges`, :func:`single_community_datasets`
- quality: :func:`support_by_relation`, :func:`support_share`,
  :func:`confidences`, :func:`rejections`
- Gephi and Cytoscape: :func:`annotated_graph`, :func:`write_gexf`,
  :func:`write_graphml`
- the report: :mod:`kg.analysis.report` (``kg report``), figures in
  :mod:`kg.analysis.plots`

Needs pandas (and matplotlib for plots): ``pip install 'kg-lit[analysis]'``.
"""

from kg.analysis.annotate import annotated_graph, write_gexf, write_graphml
from kg.analysis.networks import bipartite, bridges, centrality, communities, community_table, entity_graph, fact_table, projection, single_community_datasets
from kg.analysis.quality import confidences, rejections, support_by_relation, support_share
from kg.analysis.sample import synthetic_graph, tiny_graph
from kg.analysis.tables import (
    claimed_improvements, cooccurrence, entity_pairs, leaderboard, method_dataset_matrix, papers_per_year, result_leaderboards, task_gaps, top_entities, trends, usage,
)

__all__ = [
    "annotated_graph", "bipartite", "bridges", "centrality", "claimed_improvements", "communities", "community_table", "confidences",
    "cooccurrence", "entity_graph", "entity_pairs", "fact_table", "leaderboard", "method_dataset_matrix", "papers_per_year",
    "projection", "rejections", "result_leaderboards", "single_community_datasets", "support_by_relation", "support_share",
    "synthetic_graph", "task_gaps", "tiny_graph", "top_entities", "trends", "usage", "write_gexf", "write_graphml",
]
