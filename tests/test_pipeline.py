"""The build orchestration: cache keys and build-folder bookkeeping."""

from __future__ import annotations


def test_cache_keys_follow_the_trained_model(monkeypatch):
    from kg.pipeline import plan as pipeline

    stamp = pipeline.model_fingerprint()
    assert stamp == "none" or (len(stamp) == 12 and int(stamp, 16) >= 0)
    assert pipeline.extractor_version(None).endswith("+" + stamp)
    assert pipeline.extractor_version(None, "minilm") != pipeline.extractor_version(None)
    assert pipeline.model_fingerprint("minilm") != stamp
    monkeypatch.setattr(pipeline, "model_fingerprint", lambda model=None: "retrained")
    assert pipeline.extractor_version(None).endswith("+retrained")


def test_cache_keys_follow_the_fact_confidence_model(monkeypatch, tmp_path):
    from kg.extract import pairs
    from kg.pipeline import plan

    stamp = plan.model_fingerprint()
    retrained = tmp_path / "fact_scores.json"
    retrained.write_text('{"version": "x", "bias": 0.0, "weights": {}}', encoding="utf-8")
    monkeypatch.setattr(pairs, "MODEL_PATH", retrained)
    assert plan.model_fingerprint() != stamp
