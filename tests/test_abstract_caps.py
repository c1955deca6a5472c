"""Bounded work per abstract: caps on the mention pairs of one sentence, and one abstract under a memory limit.

Time and memory per number of names are measured by ``benchmarks/abstract_caps.py``, not asserted here.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from kg.extract.scierc.relations import (
    MAX_MENTIONS_PER_SENTENCE,
    MAX_PAIR_SPAN,
    TokenTable,
    candidate_pairs,
    capped,
)


def table(sentences: list[int]) -> TokenTable:
    """A token table of consecutive sentences of the given lengths (no words needed by the pairing)."""
    sent, sent_end, start = [], [], 0
    for length in sentences:
        sent += [start] * length
        sent_end += [start + length] * length
        start += length
    return TokenTable(lower=[], lemma=[], dep=[], head=[], sent=sent, sent_end=sent_end, parsed=False)


def test_pairs_of_a_small_sentence_are_all_there():
    mentions = [(0, 1, "Method"), (2, 3, "Task"), (5, 7, "Material")]
    pairs = candidate_pairs(table([10]), mentions)
    assert len(pairs) == 6 and capped(table([10]), mentions) is None


def test_only_the_first_mentions_of_a_crowded_sentence_are_paired():
    many = MAX_MENTIONS_PER_SENTENCE * 3
    mentions = [(i, i + 1, "Method") for i in range(many)] + [(many + 5, many + 6, "Task")]
    layout = table([many + 2, 10])  # the last mention is in a sentence of its own
    pairs = candidate_pairs(layout, mentions)
    paired = {a for a, _, _ in pairs}
    assert paired == set(mentions[:MAX_MENTIONS_PER_SENTENCE])
    assert len(pairs) == MAX_MENTIONS_PER_SENTENCE * (MAX_MENTIONS_PER_SENTENCE - 1)
    assert f"{many} mentions" in (capped(layout, mentions) or "")


def test_mentions_too_far_apart_are_not_paired():
    # near..far covers exactly MAX_PAIR_SPAN tokens; near..farther one more.
    near, far = (0, 1, "Method"), (MAX_PAIR_SPAN - 1, MAX_PAIR_SPAN, "Task")
    farther = (MAX_PAIR_SPAN, MAX_PAIR_SPAN + 1, "Task")
    pairs = candidate_pairs(table([MAX_PAIR_SPAN + 10]), [near, far, farther])
    assert {(a, b) for a, b, _ in pairs} == {(near, far), (far, near), (far, farther), (farther, far)}
    assert capped(table([MAX_PAIR_SPAN + 10]), [near, far, farther]) == (
        f"1 pair of mentions more than {MAX_PAIR_SPAN} tokens apart not paired"
    )


def test_minilm_pairs_have_the_same_caps():
    pytest.importorskip("torch")
    from kg.extract.scierc.encoder import sentence_pairs

    spans = [(i, i) for i in range(MAX_MENTIONS_PER_SENTENCE + 20)]
    pairs = sentence_pairs(spans, [(0, len(spans))])
    assert len(pairs) == MAX_MENTIONS_PER_SENTENCE * (MAX_MENTIONS_PER_SENTENCE - 1)
    assert sentence_pairs([(0, 0), (MAX_PAIR_SPAN, MAX_PAIR_SPAN)], [(0, MAX_PAIR_SPAN + 1)]) == []


_UNDER_LIMIT = """
import json, logging, resource, sys
resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
notes = []
class Keep(logging.Handler):
    def emit(self, record):
        notes.append(record.getMessage())
logging.getLogger("kg.extract").addHandler(Keep())
from kg.extract import extract, load_pipeline
from kg.model import Paper
nlp = load_pipeline()
names = {{
    "issue": [f"Net{{i}}-{{i}}" for i in range(2000)],
    "network": [f"the Net{{i}} network" for i in range(2000)],
}}
papers = [Paper(id=kind, abstract="We compare " + ", ".join(found) + " on ImageNet.") for kind, found in names.items()]
counts = {{e.paper_id: len(e.mentions) for e in extract(papers, nlp)}}
print(json.dumps({{"mentions": counts, "notes": notes}}))
"""


@pytest.mark.slow
def test_a_sentence_of_2000_names_fits_in_3_gb():
    """Issue 15's reproduction, and a variant whose names are all mentions, each under RLIMIT_AS of 3 GB."""
    limit = 3 * 2**30
    code = textwrap.dedent(_UNDER_LIMIT.format(limit=limit))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=900, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["mentions"]["issue"] >= 1 and result["mentions"]["network"] >= 2000
    capped_notes = [note for note in result["notes"] if "only its first 64 are paired" in note]
    assert len(capped_notes) == 1 and "'We compare the Net0 network" in capped_notes[0]


# -- the rule stages, the fact scorer, facts and evidence per paper (issue 27, items 2 and 5) ----------

from kg.extract.bounds import MAX_EVIDENCE_CHARS, MAX_FACTS_PER_PAPER, MAX_RULE_MENTIONS, cap_facts, crowd_cap, evidence_window  # noqa: E402
from kg.model import Fact, Mention  # noqa: E402


def test_the_rules_see_the_first_mentions_of_a_crowded_sentence_in_text_order():
    crowded = [Mention(i * 2, i * 2 + 1, "Method", f"m{i}") for i in reversed(range(100))]
    alone = Mention(1000, 1001, "Task", "t")
    kept, note = crowd_cap([(0, 500), (500, 2000)], [*crowded, alone])
    assert set(kept) == set(crowded[-MAX_RULE_MENTIONS:]) | {alone}
    assert "100 mentions" in note
    assert crowd_cap([(0, 500)], crowded[:MAX_RULE_MENTIONS]) == (tuple(crowded[:MAX_RULE_MENTIONS]), None)


def test_a_paper_keeps_its_first_facts():
    m = Mention(0, 1, "Method", "x")
    facts = [Fact("uses", m, Mention(i, i + 1, "Method", "y"), (0, 1), "t", 1.0) for i in range(MAX_FACTS_PER_PAPER + 5)]
    kept, note = cap_facts(facts)
    assert kept == tuple(facts[:MAX_FACTS_PER_PAPER]) and note.startswith(f"{MAX_FACTS_PER_PAPER + 5} facts")
    assert cap_facts(facts[:3]) == (tuple(facts[:3]), None)


@pytest.mark.parametrize("subject_at,object_at", [(100, 40_000), (39_000, 40_000), (None, 59_990)])
def test_long_evidence_is_narrowed_around_the_fact_verbatim(subject_at, object_at):
    text = "".join(chr(97 + i % 26) for i in range(60_000))
    obj = Mention(object_at, object_at + 8, "Task", text[object_at : object_at + 8])
    subject = None if subject_at is None else Mention(subject_at, subject_at + 5, "Method", text[subject_at : subject_at + 5])
    fact = evidence_window(Fact("addresses", subject, obj, (0, 60_000), "t", 1.0))
    start, end = fact.sentence
    assert end - start == MAX_EVIDENCE_CHARS and 0 <= start and end <= 60_000
    assert start <= obj.start and obj.end <= end
    if subject is not None and obj.end - subject.start <= MAX_EVIDENCE_CHARS:
        assert start <= subject.start


_BUILD_UNDER_LIMIT = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
from kg.cli import main
sys.exit(main(["build", {source!r}, "--out", {out!r}]))
"""


def _camel_case_names(n: int) -> list[str]:
    first = "Alpha Beta Gamma Delta Omega Sigma Nova Vita Luma Terra Astro Cyber Deep Hyper Meta Neuro Quant Sparse Turbo Ultra Mono Poly Graph Sonic Velo".split()
    second = "Res Dense Mobile Efficient Swin Conv Trans Graph Mix Flash Lite Tiny Grand Swift Bright Clear Sharp Fast Smart Wide".split()
    third = "Net Former Mixer Flow Seg Det Rank Fuse Grad Bert".split()
    return [a + b + c for a in first for b in second for c in third][:n]


@pytest.mark.slow
def test_we_propose_5000_names_builds_under_3_gb_with_a_warning(tmp_path):
    """Issue 27's reproduction: before the caps, MemoryError at 3.3 GB after 91 s and a 113 MB graph.nt."""
    abstract = "We propose " + ", ".join(_camel_case_names(5000)) + " for image classification and evaluate them on ImageNet with accuracy."
    source = tmp_path / "hostile.jsonl"
    source.write_text(json.dumps({"id": "hostile", "abstract": abstract}) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    code = textwrap.dedent(_BUILD_UNDER_LIMIT.format(limit=3 * 2**30, source=str(source), out=str(out)))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=900, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "the rules pair only its first 64" in done.stderr and f"only the first {MAX_FACTS_PER_PAPER} are kept" in done.stderr
    assert "Traceback" not in done.stderr
    assert (out / "graph.nt").stat().st_size < 20 * 2**20
