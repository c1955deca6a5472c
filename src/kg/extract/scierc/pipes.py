"""What both trained components share: batched annotation with spaCy's error handler, and a hand-over key.

Kept apart from the components so that the MiniLM ensemble and the relation
component depend on it and not on each other.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from spacy.pipeline import Pipe
from spacy.tokens import Doc
from spacy.util import minibatch

#: ``doc.user_data`` key of a second model's pair probabilities (see :data:`kg.extract.scierc.relations.PairOpinion`).
PAIR_OPINION_KEY = "kg_scierc_pair_opinion"


class BatchedPipe(Pipe):
    """A component that annotates whole batches (``_annotate``); a failing batch goes to the error handler."""

    name: str
    batch_size = 64

    def __call__(self, doc: Doc) -> Doc:
        return self._annotate([doc])[0]

    def pipe(self, stream: Iterable[Doc], *, batch_size: int | None = None) -> Iterator[Doc]:
        handler = self.get_error_handler()
        for docs in minibatch(stream, size=batch_size or self.batch_size):
            try:
                yield from self._annotate(docs)
            except Exception as error:  # noqa: BLE001 - spaCy's contract: the handler decides
                handler(self.name, self, docs, error)
                yield from docs

    def _annotate(self, docs: list[Doc]) -> list[Doc]:
        raise NotImplementedError
