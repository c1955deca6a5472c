"""Sorted N-Triples in bounded memory: chunks serialised and sorted, spilled to disk, merged.

``graph.nt`` holds each triple of the store once, as Oxigraph serialises it,
one a line, the lines sorted by their bytes, so the same graph always gives the
same file. :func:`sorted_lines` makes those lines from any iterable of triples
without holding them all: it serialises ``chunk`` triples at a time, sorts the
chunk's lines and, when there is more than one chunk, writes each sorted run to
a temporary file and merges the runs (:func:`heapq.merge`). Lines that repeat
are written once, as a store would hold the triple once.

Limits and dangers
------------------
- Memory is about one chunk: ``chunk`` triples and their lines (about 30–60 MB
  at the default). The runs take about as much disk as the output; they go to
  ``spill`` (the output's own folder, so not to a ``/tmp`` that may live in
  memory) and are removed when the lines have been read or the generator is
  closed.
- The lines are those of the triples given: a typed literal such as
  ``"0.5000"^^xsd:decimal`` stays as it is, whereas Oxigraph's store keeps the
  value and gives it back canonical (``"0.5"``). Pass a store's triples to get
  the store's file.
"""

from __future__ import annotations

import contextlib
import heapq
import itertools
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, cast

import pyoxigraph as ox

__all__ = ["CHUNK", "FAN_IN", "sorted_lines", "store_triples"]

#: Triples serialised and sorted at once: a bounded chunk of memory, and few enough runs to merge.
CHUNK = 100_000
#: Most runs merged at once (each holds a file open); more runs are first merged in groups.
FAN_IN = 64


def store_triples(store: ox.Store) -> Iterator[ox.Triple]:
    """The triples of ``store``'s default graph, streamed from the store (in no particular order)."""
    for quad in store.quads_for_pattern(None, None, None, ox.DefaultGraph()):
        yield ox.Triple(quad.subject, quad.predicate, quad.object)


def _unique(lines: Iterable[bytes]) -> Iterator[bytes]:
    """``lines`` (sorted) without repeats."""
    previous = None
    for line in lines:
        if line != previous:
            yield line
            previous = line


def _sorted_chunks(triples: Iterable[ox.Triple], chunk: int) -> Iterator[list[bytes]]:
    """The N-Triples lines of ``chunk`` triples at a time, each list sorted and without repeats."""
    it = iter(triples)
    while batch := list(itertools.islice(it, chunk)):
        # serialize() without an output returns bytes; pyoxigraph's stub says bytes | None.
        lines = cast(bytes, ox.serialize(batch, format=ox.RdfFormat.N_TRIPLES)).splitlines(keepends=True)
        del batch
        lines.sort()
        yield list(_unique(lines))


def _spill(lines: Iterable[bytes], path: Path) -> Path:
    with path.open("wb") as handle:
        handle.writelines(lines)
    return path


def _merged(runs: list[Path], stack: contextlib.ExitStack) -> Iterator[bytes]:
    handles: list[IO[bytes]] = [stack.enter_context(run.open("rb")) for run in runs]
    return heapq.merge(*handles)


def sorted_lines(triples: Iterable[ox.Triple], *, chunk: int = CHUNK, spill: str | Path | None = None,
                 fan_in: int = FAN_IN) -> Iterator[bytes]:
    """The N-Triples lines of ``triples``, sorted by their bytes, each once, in bounded memory.

    Parameters
    ----------
    triples
        Any iterable of triples, read once.
    chunk
        Triples sorted in memory at once; a graph of at most ``chunk`` triples never touches the disk.
    spill
        The folder for the sorted runs (a temporary folder is made in it); the system's by default.
    fan_in
        Most runs merged at once.

    Examples
    --------
    >>> t = [ox.Triple(ox.NamedNode(f"http://a/{c}"), ox.NamedNode("http://a/p"), ox.Literal("1")) for c in "cab"]
    >>> b"".join(sorted_lines(t + t, chunk=2))
    b'<http://a/a> <http://a/p> "1" .\\n<http://a/b> <http://a/p> "1" .\\n<http://a/c> <http://a/p> "1" .\\n'
    """
    chunks = _sorted_chunks(triples, chunk)
    first = next(chunks, [])
    second = next(chunks, None)
    if second is None:  # one chunk: sorted in memory, nothing spilled
        yield from first
        return
    with tempfile.TemporaryDirectory(prefix=".kg-sort-", dir=spill) as name, contextlib.ExitStack() as stack:
        names = (Path(name, f"{n}.nt") for n in itertools.count())
        runs = [_spill(first, next(names)), _spill(second, next(names))]
        del first, second  # hold one chunk at a time
        runs += [_spill(lines, next(names)) for lines in chunks]
        while len(runs) > fan_in:  # merge in groups, so no more than fan_in files are open at once
            groups, runs = [runs[i:i + fan_in] for i in range(0, len(runs), fan_in)], []
            for group in groups:
                with contextlib.ExitStack() as inner:
                    runs.append(_spill(_unique(_merged(group, inner)), next(names)))
                for run in group:
                    run.unlink()
        yield from _unique(_merged(runs, stack))
