"""Gazetteers: well-known names of datasets, metrics, methods and tasks.

A gazetteer file holds one entry a line; ``#`` starts a comment. Entries are
matched on lower-cased tokens, except those written ``=Name``, matched exactly
as written: they are names that are also ordinary words ("GLUE", "MATH").

>>> read_entries(["# comment", "ImageNet", "=GLUE", ""])
[('ImageNet', False), ('GLUE', True)]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from spacy.matcher import PhraseMatcher
from spacy.tokens import Doc
from spacy.vocab import Vocab


def read_entries(lines: Iterable[str]) -> list[tuple[str, bool]]:
    """``(entry, case_sensitive)`` for every entry line."""
    entries = []
    for raw in lines:
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        exact = line.startswith("=")
        entries.append((line[1:] if exact else line, exact))
    return entries


@dataclass(frozen=True)
class Gazetteer:
    """Two phrase matchers (exact and case-insensitive) whose match ids are labels."""

    exact: PhraseMatcher
    folded: PhraseMatcher

    def __call__(self, doc: Doc) -> list[tuple[int, int, str]]:
        """``(start, end, label)`` token spans of every entry found in ``doc``."""
        strings = doc.vocab.strings
        found = [(s, e, strings[k]) for k, s, e in self.exact(doc)]
        found += [(s, e, strings[k]) for k, s, e in self.folded(doc)]
        return found


def build_gazetteer(vocab: Vocab, files: Mapping[str, Path], make_doc=None) -> Gazetteer:
    """Matchers for the entries of ``files`` (label -> path), tokenised by ``make_doc``.

    ``make_doc`` must be the pipeline's tokenizer so that entries split into the
    same tokens as the texts ("CIFAR-10", "GPT-4").
    """
    exact = PhraseMatcher(vocab, attr="ORTH")
    folded = PhraseMatcher(vocab, attr="LOWER")
    tokenize = make_doc or (lambda text: Doc(vocab, words=text.split()))
    for label, path in files.items():
        entries = read_entries(Path(path).read_text(encoding="utf-8").splitlines())
        exact_docs = [tokenize(text) for text, is_exact in entries if is_exact]
        folded_docs = [tokenize(text) for text, is_exact in entries if not is_exact]
        if exact_docs:
            exact.add(label, exact_docs)
        if folded_docs:
            folded.add(label, folded_docs)
    return Gazetteer(exact, folded)
