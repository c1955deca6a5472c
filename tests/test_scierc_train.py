"""Training on a tiny slice of SciERC produces a model that loads and runs."""

from __future__ import annotations

import json

import pytest
import spacy

from kg.extract.scierc import add_trained_components
from kg.extract.scierc.labels import ENTITY_LABELS, SPANS_KEY
from kg.training.data import make_doc, read_dygie, split_path
from kg.training.save import model_size

from .conftest import SCIERC

needs_scierc = pytest.mark.skipif(not (SCIERC / "train.json").is_file(), reason="../shared/data/scierc is absent")


@pytest.mark.slow
@pytest.mark.scierc
@needs_scierc
def test_training_on_a_tiny_slice_writes_a_loadable_model(tmp_path):
    from kg.training.train import train_scierc

    lines: list[str] = []
    report = train_scierc(SCIERC, tmp_path / "model", seed=0, epochs=3, max_steps=1, limit_docs=4, on_progress=lines.append)
    assert report.stopped_early and report.epochs_run == 1
    assert set(report.dev) == {"entities", "relations", "relations_strict"}
    assert 0 < report.model_bytes <= model_size(tmp_path / "model") < 25_000_000
    assert json.loads((tmp_path / "model" / "report.json").read_text())["seed"] == 0
    assert lines, "progress lines are reported"

    nlp = add_trained_components(spacy.blank("en"), tmp_path / "model")
    record = read_dygie(split_path(SCIERC, "dev"))[0]
    doc = nlp(make_doc(nlp.vocab, record["sentences"]))
    assert {s.label_ for s in doc.spans[SPANS_KEY]} <= set(ENTITY_LABELS)
    assert isinstance(doc._.scierc_relations, tuple)


def test_missing_data_folder_is_a_user_error(tmp_path):
    from kg.errors import UserError
    from kg.training.train import train_scierc

    with pytest.raises(UserError) as info:
        train_scierc(tmp_path, tmp_path / "model")
    assert info.value.code == "E204"


def test_training_refuses_to_overwrite_a_folder_that_is_not_a_model(tmp_path):
    from kg.errors import UserError
    from kg.training.train import train_scierc

    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(UserError) as info:
        train_scierc(tmp_path, tmp_path)
    assert info.value.code == "E311"
    assert (tmp_path / "notes.txt").read_text() == "mine"
