"""Served build folders for the ``kg serve`` tests, made without running a build.

TEMPORARY, until the store exporter lands (``EXPORTERS["store"]``, the store
helper's branch): :func:`write_store` stands in for it by bulk-loading
``graph.nt`` into ``DIR/store``. At merge, replace its body with
``write_all(kg, folder, names=["store"])`` and keep the rest.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pyoxigraph as ox

from kg.export import write_all


def write_store(folder: Path) -> Path:
    """TEMPORARY stand-in for the store exporter: ``folder/graph.nt`` into ``folder/store``."""
    store = ox.Store(str(folder / "store"))
    store.bulk_load(path=str(folder / "graph.nt"), format=ox.RdfFormat.N_TRIPLES)
    store.flush()
    del store  # closes the database (pyoxigraph has no close())
    return folder / "store"


def make_build(folder: Path, kg) -> Path:
    """A build folder holding ``kg``: graph.nt, a manifest and the on-disk store."""
    folder.mkdir(parents=True, exist_ok=True)
    write_all(kg, folder, names=["graph.nt"])
    write_store(folder)
    (folder / "manifest.json").write_text(json.dumps({"triples": len(kg)}), encoding="utf-8")
    return folder


def publish_folder(folder: Path, kg) -> None:
    """Replace the build in ``folder`` by ``kg`` as the build does: a new generation beside it, then the folders swapped."""
    staging = make_build(folder.with_name(f".{folder.name}.kg-staging"), kg)
    old = folder.with_name(f".{folder.name}.kg-old")
    os.rename(folder, old)
    os.rename(staging, folder)
    shutil.rmtree(old)


def publish(folder: Path, kg) -> None:
    """Replace the build in ``folder`` by ``kg`` inside the folder: a whole new store, then the manifest."""
    staging = make_build(folder.with_name(folder.name + ".next"), kg)
    old = folder / "store.old"
    os.replace(folder / "store", old)
    os.replace(staging / "store", folder / "store")
    os.replace(staging / "graph.nt", folder / "graph.nt")
    os.replace(staging / "manifest.json", folder / "manifest.json")
    shutil.rmtree(old)
    shutil.rmtree(staging)
