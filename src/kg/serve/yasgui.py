"""YASGUI (the SPARQL editor and result tables Oxigraph's own server uses), taken from the installed ``oxigraph`` package.

The ``oxigraph`` distribution on PyPI (the ``serve`` extra) installs the Oxigraph
server as one executable with YASGUI built in: it serves ``/yasgui.min.js`` and
``/yasgui.min.css`` with its query page. Nothing is copied into this repository
and nothing is fetched from the internet: the first time kg serve's query page
asks for YASGUI, :func:`yasgui_assets` starts that executable on a free
loopback port with an empty in-memory store, reads the two files over HTTP,
stops it and keeps the bytes in memory.

Limits
------
- Without the ``oxigraph`` executable (or when it does not answer within
  :data:`START_SECONDS`) there are no assets, and the query page falls back to
  its plain editor.
- YASGUI's own completers that call remote services (prefix.cc, LOV) are left
  out by the page's script; it completes the bound prefixes and the ``kg``
  vocabulary from :func:`kg.vocab.term_names` instead.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from functools import lru_cache

__all__ = ["ASSETS", "START_SECONDS", "oxigraph_executable", "yasgui_assets"]

#: The files taken from the Oxigraph server, with their media types.
ASSETS = {"yasgui.min.js": "text/javascript; charset=utf-8", "yasgui.min.css": "text/css; charset=utf-8"}
#: Seconds the Oxigraph server has to start and answer.
START_SECONDS = 15.0
# Never through a proxy: the server is on this machine.
_DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def oxigraph_executable() -> str | None:
    """The ``oxigraph`` executable of the ``oxigraph`` package: beside this Python's, else on the PATH."""
    beside = os.path.join(os.path.dirname(sys.executable), "oxigraph")
    if os.access(beside, os.X_OK):
        return beside
    return shutil.which("oxigraph")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _read(url: str, deadline: float) -> bytes | None:
    while time.monotonic() < deadline:
        try:
            with _DIRECT.open(url, timeout=5) as response:
                return bytes(response.read())
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.1)
    return None


@lru_cache(maxsize=1)
def yasgui_assets() -> dict[str, bytes]:
    """``{"yasgui.min.js": ..., "yasgui.min.css": ...}`` from the installed Oxigraph server; empty without it."""
    executable = oxigraph_executable()
    if executable is None:
        return {}
    port = _free_port()
    with tempfile.TemporaryDirectory(prefix="kg-yasgui-") as home:  # the server writes nothing, but give it a place
        process = subprocess.Popen(
            [executable, "serve", "--bind", f"127.0.0.1:{port}"], cwd=home, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        try:
            deadline = time.monotonic() + START_SECONDS
            found = {name: _read(f"http://127.0.0.1:{port}/{name}", deadline) for name in ASSETS}
        finally:
            process.terminate()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
    return {name: data for name, data in found.items() if data} if all(found.values()) else {}
