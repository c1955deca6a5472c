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
    capped_notes = [note for note in result["notes"] if "only its first" in note]
    assert len(capped_notes) == 1 and "'We compare the Net0 network" in capped_notes[0]
