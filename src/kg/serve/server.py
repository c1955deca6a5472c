"""Run the endpoint: check the folder, bind the socket, serve with uvicorn until Ctrl-C.

The socket is bound here, before uvicorn starts, so a port in use is a one-line
error (E342) rather than a log message, and ``port=0`` picks a free port whose
URL :func:`serve` reports through ``on_ready``.
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from pathlib import Path

import pyoxigraph as ox
import uvicorn

from kg.buildfolder import BuildFolder
from kg.errors import KgError, UserError
from kg.serve.app import Settings, make_app
from kg.serve.pool import DEFAULT_MEMORY, DEFAULT_QUEUE


def _check_store(store: Path) -> None:
    try:
        ox.Store.read_only(str(store))
    except OSError as error:
        raise KgError("E348", path=store, reason=" ".join(str(error).split())) from None


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        # Accepted connections inherit this: uvicorn writes a response's head and body
        # separately, and Nagle's algorithm would hold the body for the client's delayed ACK.
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError as error:
        sock.close()
        raise UserError("E342", host=host, port=port, reason=error.strerror or str(error)) from None
    return sock


def url_of(sock: socket.socket) -> str:
    """The base URL of a listening socket, e.g. ``http://127.0.0.1:7878/``."""
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def serve(
    folder: str | Path,
    *,
    host: str = "127.0.0.1",
    port: int = 7878,
    timeout: float = 30.0,
    limit: int = 10_000,
    workers: int = 2,
    lazy_explorer: bool = False,
    on_ready: Callable[[str], None] | None = None,
    memory: int | None = DEFAULT_MEMORY,
    max_bytes: int | None = Settings.max_bytes,
    max_body: int = Settings.max_body,
    queue: int = DEFAULT_QUEUE,
) -> None:
    """Serve the build in ``folder`` until interrupted (Ctrl-C returns normally).

    ``memory`` caps each worker's address space, ``max_bytes`` the result terms
    of one answer, ``max_body`` a request's body; ``queue`` requests may wait
    for a worker (see :mod:`kg.serve.pool`).

    Raises
    ------
    UserError
        E307/E341 when ``folder`` is not a build with a store, E342 when the
        address cannot be bound.
    KgError
        E348 when the store cannot be opened.
    """
    folder = Path(folder)
    _check_store(BuildFolder(folder).served_store())
    settings = Settings(folder=folder, timeout=timeout, limit=limit, workers=workers, lazy_explorer=lazy_explorer, memory=memory, max_bytes=max_bytes, max_body=max_body, queue=queue)
    app = make_app(settings)
    sock = _bind(host, port)
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on", timeout_graceful_shutdown=5)
    server = uvicorn.Server(config)
    if on_ready is not None:
        on_ready(url_of(sock))
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn stops gracefully, then re-raises the signal
        pass
    finally:
        sock.close()
