"""Imports paid only when used: what starting a command, or loading the default pipeline, imports.

Each check runs in a fresh interpreter, since the test process has imported
everything already. How long starting takes is measured by
``benchmarks/startup.py``, not here.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

import pytest

#: Modules no command needs just to start, nor kg query or kg stats to answer.
HEAVY = ("torch", "transformers", "spacy", "thinc", "sklearn", "pandas", "dask", "distributed", "pyvis", "networkx", "rdflib", "matplotlib", "scipy", "numpy")

_LOADED = """
import json, sys
{code}
print(json.dumps(sorted(m for m in {names!r} if m in sys.modules)))
"""


def loaded(code: str, names: tuple[str, ...] = HEAVY) -> list[str]:
    """Which of ``names`` a fresh interpreter has imported after running ``code``."""
    done = subprocess.run([sys.executable, "-c", _LOADED.format(code=code, names=names)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def test_importing_the_cli_imports_nothing_heavy():
    assert loaded("import kg.cli") == []


def test_kg_help_imports_nothing_heavy_nor_rich():
    code = "import contextlib, io, kg.cli\nwith contextlib.redirect_stdout(io.StringIO()) as out:\n    assert kg.cli.main(['--help']) == 0\nassert 'query' in out.getvalue()"
    assert loaded(code, (*HEAVY, "rich")) == []


@pytest.mark.parametrize("command", [["query", "{graph}", "SELECT ?s WHERE { ?s a kg:Method }", "--format", "csv"], ["query", "{graph}", "SELECT ?s WHERE { ?s a kg:Method }"], ["stats", "{graph}"]])
def test_query_and_stats_import_neither_rdflib_nor_the_extraction(tmp_path, tiny_graph, command):
    graph = tmp_path / "g.nt"
    graph.write_bytes(tiny_graph.serialize("ntriples"))
    argv = [str(graph) if arg == "{graph}" else arg for arg in command]
    code = f"import contextlib, io, kg.cli\nwith contextlib.redirect_stdout(io.StringIO()) as out:\n    assert kg.cli.main({argv!r}) == 0\nassert 'foonet' in out.getvalue().lower() or 'Method' in out.getvalue()"
    assert loaded(code) == []


def test_the_vocabulary_namespace_imports_rdflib_only_when_used():
    assert loaded("from kg.store.namespace import PREFIXES, entity_iri") == []
    code = "from kg.store.namespace import KG\nassert str(KG.addresses).endswith('#addresses')\ntry:\n    KG.adresses\nexcept AttributeError:\n    pass\nelse:\n    raise SystemExit('KG is not closed')"
    assert loaded(code, ("rdflib",)) == ["rdflib"]


needs_torch = pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch (the transformer extra) is not installed: nothing to keep out")


@needs_torch
@pytest.mark.slow
def test_the_default_pipeline_loads_without_torch():
    code = "from kg.extract import load_pipeline\nnlp = load_pipeline()\nassert 'scierc_spans' in nlp.pipe_names\nnlp('We propose FooNet for question answering.')"
    assert loaded(code, ("torch", "transformers", "thinc")) == ["thinc"]


@needs_torch
def test_torch_imported_first_is_left_to_thinc():
    """Someone who imported torch before kg keeps thinc's torch layers (a transformer pipeline beside kg's)."""
    code = "import torch, kg.extract, thinc.compat\nassert thinc.compat.has_torch"
    assert "torch" in loaded(code, ("torch",))


@needs_torch
def test_torch_still_imports_after_the_pipeline_modules():
    """MiniLM imports torch itself, after spaCy came without it."""
    code = "import kg.extract, thinc.compat\nassert not thinc.compat.has_torch\nimport torch\nassert torch.zeros(2).sum().item() == 0"
    assert loaded(code, ("torch",)) == ["torch"]
