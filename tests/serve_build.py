"""Served build folders for the ``kg serve`` tests, made with the real exporters but without a build.

A folder holds ``graph.nt``, the on-disk store (the ``store`` exporter) and a
manifest, which is what ``kg serve`` needs; the two ``publish`` helpers replace
one the two ways a build can (a swapped folder, or a swapped store inside it).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from kg.export import write_all


def make_build(folder: Path, kg) -> Path:
    """A build folder holding ``kg``: graph.nt, a manifest and the on-disk store."""
    folder.mkdir(parents=True, exist_ok=True)
    write_all(kg, folder, names=["graph.nt", "store"])
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
