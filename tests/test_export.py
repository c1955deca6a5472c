"""The exporter registry, write_all, and the RDF writers on a real KnowledgeGraph."""

from __future__ import annotations

import pyoxigraph as ox
import pytest
from tests.test_export_support import small_kg

from kg.errors import KgError, UserError
from kg.export import EXPORTERS, OPTIONAL, write_all
from kg.export.rdf import RDF_FORMATS, check_rdf, rdf_writer, write_rdf

RDF_FILES = {"graph.ttl": "turtle", "graph.nt": "ntriples", "graph.jsonld": "jsonld"}


@pytest.fixture(scope="module")
def kg():
    return small_kg()


def triples(path, fmt):
    return {str(q.triple) for q in ox.parse(path=str(path), format=RDF_FORMATS[fmt])}


def test_write_all_writes_every_registered_file(kg, tmp_path):
    out = tmp_path / "new" / "folder"
    written = write_all(kg, out)
    default = [name for name in EXPORTERS if name not in OPTIONAL]
    assert [p.name for p in written] == default
    assert sorted(p.name for p in out.iterdir()) == sorted(default)  # no temporary files left
    assert all(p.stat().st_size > 0 for p in written)


def test_rdf_files_hold_the_same_triples_as_the_store(kg, tmp_path):
    write_all(kg, tmp_path, names=list(RDF_FILES))
    expected = {str(t) for t in kg.triples()}
    for name, fmt in RDF_FILES.items():
        assert triples(tmp_path / name, fmt) == expected, name


def test_ntriples_file_is_byte_stable(kg, tmp_path):
    write_all(kg, tmp_path / "a", names=["graph.nt"])
    write_all(small_kg(), tmp_path / "b", names=["graph.nt"])
    assert (tmp_path / "a" / "graph.nt").read_bytes() == (tmp_path / "b" / "graph.nt").read_bytes()


def test_write_all_writes_only_the_names_asked_in_registry_order(kg, tmp_path):
    written = write_all(kg, tmp_path, names=["facts.csv", "graph.nt", "facts.csv"])
    assert [p.name for p in written] == ["graph.nt", "facts.csv"]


def test_unknown_name_writes_nothing(kg, tmp_path):
    with pytest.raises(UserError) as error:
        write_all(kg, tmp_path, names=["graph.nt", "graph.pdf"])
    assert error.value.code == "E305" and "graph.pdf" in str(error.value)
    assert list(tmp_path.iterdir()) == []


class BrokenSerializer:
    """A graph whose serialiser returns bytes that are not RDF."""

    def serialize(self, fmt):
        return b"<http://a/x> <http://a/p> broken"


@pytest.mark.parametrize("fmt", list(RDF_FORMATS))
def test_rdf_that_does_not_parse_never_replaces_the_old_file(tmp_path, fmt):
    target = tmp_path / "graph.out"
    target.write_bytes(b"previous")
    with pytest.raises(KgError) as error:
        write_rdf(BrokenSerializer(), target, fmt)
    assert error.value.code == "E350"
    assert target.read_bytes() == b"previous"
    assert [p.name for p in tmp_path.iterdir()] == ["graph.out"]


def test_check_rdf_counts_triples(kg, tmp_path):
    write_all(kg, tmp_path, names=["graph.ttl"])
    assert check_rdf(tmp_path / "graph.ttl", "turtle") == len(kg.triples())


def test_rdf_writer_rejects_unknown_format():
    with pytest.raises(ValueError):
        rdf_writer("rdfxml")
