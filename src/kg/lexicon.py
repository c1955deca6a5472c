"""Word lists shared by the extraction and resolution stages.

Both stages must agree on which words say nothing about *what* a phrase
names: the extractors strip them from the front of a mention ("a novel
framework" names nothing), the resolver refuses to make an entity of a phrase
built only from them ("our proposed method"). Keeping one copy here means the
two stages cannot drift apart; each stage adds only the few words that matter
to it alone (:data:`kg.extract.cues.mention_heads_v1` and
:mod:`kg.resolve.generic`).

This module sits below both stages and imports nothing from either.

>>> "novel" in GENERIC_MODIFIERS and "the" in DETERMINERS
True
>>> GENERIC_MODIFIERS & DETERMINERS
frozenset()
"""

from __future__ import annotations

#: Articles, possessives, demonstratives and small quantifiers that open a noun
#: phrase and are never part of a name. Deliberately without "few", "one", "all",
#: "multiple" and the like, which also start names ("few-shot learning").
DETERMINERS = frozenset(
    """a an the this that these those our their its his her my your we such other
    various several many different more two three four five""".split()
)

#: Modifiers that praise, date or rank a thing without saying what it is
#: ("novel", "existing", "state-of-the-art" once folded to "sota").
GENERIC_MODIFIERS = frozenset(
    """proposed novel new simple effective efficient existing previous prior current recent
    sota conventional traditional standard general generic unified robust improved
    original overall resulting underlying corresponding respective particular specific same
    first second final key main leading advanced modern classical classic alternative
    baseline representative mainstream dominant typical common popular powerful strong
    competitive comparable promising extensive comprehensive preliminary additional further
    empirical experimental numerical theoretical qualitative quantitative""".split()
)

#: Acronyms of whole model families ("LLM", "VLM"): a class of models, not the name
#: of one. The extractors never take them for a method's name, and the resolver
#: does not read "LLM architectures" as the name "LLM" plus a class word.
MODEL_FAMILY_ACRONYMS = frozenset("llm llms mllm mllms vlm vlms lm lms".split())
