"""Served build folders for the ``kg serve`` tests, made with the real exporters but without a build, and a server to run on them.

A folder holds ``graph.nt``, the on-disk store (the ``store`` exporter) and a
manifest, which is what ``kg serve`` needs; the two ``publish`` helpers replace
one the two ways a build can (a swapped folder, or a swapped store inside it).
:class:`Server` runs ``kg serve`` on a free loopback port; :func:`http` talks to it.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
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


class Server:
    """A ``kg serve`` child process on a free loopback port (``--port 0``), and its base URL."""

    def __init__(self, folder: Path, *extra: str) -> None:
        self.folder = folder
        args = [sys.executable, "-m", "kg.cli", "serve", str(folder), "--port", "0", *extra]
        self.process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.url = self._read_url(deadline=time.monotonic() + 60)
        self.endpoint = self.url + "sparql"

    def _read_url(self, deadline: float) -> str:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.process.stdout], [], [], 1.0)
            if ready:
                line = self.process.stdout.readline()
                if "http://" in line:
                    return line.split(" at ")[1].split()[0]
                if not line and self.process.poll() is not None:
                    break
        self.process.kill()
        raise AssertionError(f"kg serve did not start: {self.process.stderr.read()}")

    def stop(self) -> tuple[int, str]:
        """Ctrl-C; the exit status and what was printed on stderr."""
        self.process.send_signal(signal.SIGINT)
        try:
            _, err = self.process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise
        return self.process.returncode, err


# Straight to the loopback server, whatever *_proxy variables say.
_DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def http(url: str, data: bytes | None = None, headers: dict[str, str] | None = None, method: str | None = None) -> tuple[int, dict[str, str], bytes]:
    """Status, headers (lower-case names) and body of one request, error statuses included."""
    request = urllib.request.Request(url, data=data, headers=headers or {}, method=method)
    try:
        with _DIRECT.open(request, timeout=120) as response:
            return response.status, {k.lower(): v for k, v in response.headers.items()}, response.read()
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()
