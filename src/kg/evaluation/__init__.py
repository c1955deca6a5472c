"""Scoring what a build extracts against hand annotations.

- :mod:`kg.evaluation.facts`: a graph's facts against annotated abstracts
  (``kg eval facts GOLD.json``), strict and lenient, per relation.
"""
