"""Build, update and shrink a knowledge graph folder: plan -> extract -> resolve -> publish.

- :mod:`~kg.pipeline.plan` reads the inputs (never a build's own outputs) and
  names the pipeline version that makes each paper's cache key;
- :mod:`~kg.pipeline.extraction` extracts what the cache
  (:mod:`~kg.pipeline.cache`, :mod:`~kg.pipeline.partitions`) does not hold,
  through an executor (:mod:`kg.engines`) whose workers write each partition
  into it, recorded as done the moment it is;
- :mod:`~kg.pipeline.resolution` resolves entities over all papers, in
  sorted-id order, and builds the graph;
- :mod:`~kg.pipeline.publish` writes every output into a staging folder and
  swaps it in as the folder's next generation (:mod:`~kg.pipeline.folder`),
  with the typed manifest (:mod:`kg.buildfolder`) written last.

:func:`build` (and ``update=True``) and :func:`remove` share the folder's
:class:`~kg.buildfolder.BuildSettings`, stored in its manifest, and return a
:class:`BuildReport`.

Because the resolver sees the set of papers and never their order, an update
(``update=True``) or a removal gives exactly the graph a full build of the
same papers gives.

>>> import kg
>>> report = kg.build(["abstracts/"], "out/", kg.BuildSettings(min_confidence=0.5))  # doctest: +SKIP
>>> report.read == report.built + report.duplicates + report.rejected  # doctest: +SKIP
True
"""

from kg.buildfolder import BuildSettings
from kg.pipeline.plan import extractor_version, model_fingerprint
from kg.pipeline.report import BuildReport, Progress
from kg.pipeline.run import build, remove

__all__ = ["BuildReport", "BuildSettings", "Progress", "build", "extractor_version", "model_fingerprint", "remove"]
