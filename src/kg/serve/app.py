"""The Starlette app: the SPARQL 1.1 Protocol at ``/sparql``, a query page at ``/``, entity pages.

Routes
------
- ``GET /sparql?query=...`` and ``POST /sparql`` with a form (``query=...``) or an
  ``application/sparql-query`` body, as the SPARQL 1.1 Protocol says, with
  ``default-graph-uri`` / ``named-graph-uri``; results by ``Accept`` (or
  ``format=json|xml|csv|tsv|turtle|ntriples|jsonld``). Updates (an ``update``
  parameter, an ``application/sparql-update`` body, or update text) get 403,
  other methods 405, malformed queries 400, a query past the timeout 503.
- ``GET /``: a query editor with the example queries (:mod:`kg.serve.examples`).
- ``GET /entity?iri=...``: an entity's label, types, facts and evidence.
- ``GET /explore``: graph.html's explorer, fetching what it draws from
  ``/api/explore/overview``, ``/api/explore/search?q=`` and
  ``/api/explore/node?iri=&hops=1|2`` (JSON in graph.html's data shapes, made
  in the workers by :mod:`kg.serve.explore`); its script and styles are the
  ones graph.html inlines (:mod:`kg.explorer`), vis-network comes from the
  installed pyvis package (``/explore/vis-network.min.js``).
- ``GET /static/...``: the pages' own scripts and style sheet.

Bounds: a request body over ``max_body`` bytes is refused with 413 (E379)
before more of it is read; queries wait in a bounded, fair queue and run in
workers with a memory cap (:mod:`kg.serve.pool`); answers are cut at ``limit``
rows or ``max_bytes`` of terms (:mod:`kg.serve.results`).

Every response forbids loading anything from elsewhere (Content-Security-Policy),
so the pages work offline and leak nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import html
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qsl

import jinja2
import pyoxigraph as ox
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kg.buildfolder import BuildFolder
from kg.errors import KgError, UserError
from kg.explorer.page import explorer_asset, explorer_page, vis_network_js
from kg.serve import explore
from kg.serve.entity import describe
from kg.serve.examples import EXAMPLES
from kg.serve.graph_index import start_reading
from kg.serve.pool import DEFAULT_MEMORY, DEFAULT_QUEUE, QueryPool
from kg.serve.results import Answer
from kg.serve.worker import Job, answer, error_answer, warm
from kg.store.namespace import PREFIXES

HERE = Path(__file__).parent
SECURITY_HEADERS = {
    "content-security-policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
        "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
    ),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}
_UPDATE_TYPES = {"application/sparql-update"}
#: The explorer's own files, shared with graph.html, and vis-network from pyvis: name -> (read, media type).
_EXPLORER_FILES: dict[str, tuple[Callable[[], str], str]] = {
    "explorer.js": (lambda: explorer_asset("explorer.js"), "text/javascript; charset=utf-8"),
    "explorer.css": (lambda: explorer_asset("explorer.css"), "text/css; charset=utf-8"),
    "vis-network.min.js": (vis_network_js, "text/javascript; charset=utf-8"),
}
_EXPLORER_HEAD = '<link rel="stylesheet" href="/explore/explorer.css">\n<script src="/explore/vis-network.min.js"></script>'
_EXPLORER_SCRIPTS = '<script src="/static/explore.js"></script>\n<script src="/explore/explorer.js"></script>'
_MAX_QUERY = 200
# The page repeats the header's policy in a <meta> (as graph.html carries its own), less what a <meta> cannot say.
_PAGE_POLICY = "; ".join(part for part in SECURITY_HEADERS["content-security-policy"].split("; ") if not part.startswith("frame-ancestors"))
_FORM = "application/x-www-form-urlencoded"
_QUERY = "application/sparql-query"


@dataclass(frozen=True)
class Settings:
    """What ``kg serve`` was asked for."""

    folder: Path
    timeout: float = 30.0
    limit: int = 10_000
    workers: int = 2
    #: Read the explorer's index in each worker only on the first explorer request (less memory
    #: for a server used only for SPARQL), rather than from the start.
    lazy_explorer: bool = False
    #: Each worker's address space in bytes (None: no cap).
    memory: int | None = DEFAULT_MEMORY
    #: Bytes of result terms an answer holds at most (None: no cap).
    max_bytes: int | None = 64 * 2**20
    #: Bytes a request body may have.
    max_body: int = 2**20
    #: Requests that may wait for a worker.
    queue: int = DEFAULT_QUEUE


class SecurityHeaders:
    """ASGI middleware adding :data:`SECURITY_HEADERS` to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items() if k.encode() not in names]
                message = {**message, "headers": list(message.get("headers", [])) + extra}
            await send(message)

        await self.app(scope, receive, send_with_headers if scope["type"] == "http" else send)


def _curie(iri: str) -> str:
    """``kg:addresses`` for a vocabulary IRI; other IRIs unchanged."""
    for prefix, namespace in PREFIXES.items():
        if iri.startswith(namespace) and len(iri) > len(namespace):
            return f"{prefix}:{iri[len(namespace):]}"
    return iri


def _templates() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(HERE / "templates"), autoescape=True, undefined=jinja2.StrictUndefined)
    env.filters["curie"] = _curie
    return env


def _to_response(result: Answer) -> Response:
    return Response(result.body, status_code=result.status, media_type=result.media_type, headers=result.headers)


def _text_error(error: KgError) -> Response:
    return _to_response(error_answer(error))


def _one(params: list[tuple[str, str]], name: str) -> str | None:
    values = [value for key, value in params if key == name]
    if len(values) > 1:
        raise UserError("E371", name=name)
    return values[0] if values else None


def _megabytes(size: int) -> str:
    return f"{size / 2**20:g} MB"


async def _body(request: Request, limit: int) -> bytes:
    """The request's body; E379 (413) as soon as it is known to be over ``limit`` bytes, before the rest is read."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise UserError("E379", size=_megabytes(limit))
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():  # a chunked body declares no length: count it as it comes
        size += len(chunk)
        if size > limit:
            raise UserError("E379", size=_megabytes(limit))
        chunks.append(chunk)
    return b"".join(chunks)


def _client(request: Request) -> str:
    """Whose turn a request waits for: its client's address."""
    return request.client.host if request.client else ""


async def _request_params(request: Request, max_body: int) -> tuple[list[tuple[str, str]], str | None]:
    """The protocol parameters of a request and the query text (None when there is none)."""
    params = list(request.query_params.multi_items())
    if request.method == "GET":
        return params, _one(params, "query")
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype in _UPDATE_TYPES:
        raise UserError("E304")
    body = await _body(request, max_body)
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        raise UserError("E370", reason=str(error)) from None
    if ctype == _FORM:
        params += parse_qsl(text, keep_blank_values=True)
        return params, _one(params, "query")
    if ctype == _QUERY:
        return params, text
    raise UserError("E346", ctype=ctype or "none")


async def sparql_endpoint(request: Request) -> Response:
    """The SPARQL 1.1 Protocol's query operation."""
    settings: Settings = request.app.state.settings
    try:
        params, text = await _request_params(request, settings.max_body)
        if any(key == "update" for key, _ in params):
            raise UserError("E304")
        if text is None or not text.strip():
            raise UserError("E345")
        job = Job(
            store=request.app.state.store,
            generation=BuildFolder(settings.folder).generation(),
            sparql=text,
            accept=request.headers.get("accept"),
            fmt=_one(params, "format"),
            limit=settings.limit,
            max_bytes=settings.max_bytes,
            default_graphs=tuple(v for k, v in params if k == "default-graph-uri"),
            named_graphs=tuple(v for k, v in params if k == "named-graph-uri"),
        )
        result: Answer = await request.app.state.pool.run(answer, job, client=_client(request))
    except KgError as error:
        return _text_error(error)
    return _to_response(result)


async def landing_page(request: Request) -> Response:
    """The query editor with the example queries."""
    settings: Settings = request.app.state.settings
    page = request.app.state.templates.get_template("index.html").render(
        folder=settings.folder.name, examples=[example._asdict() for example in EXAMPLES], limit=settings.limit, timeout=settings.timeout, prefixes=PREFIXES
    )
    return HTMLResponse(page)


# YASGUI sets styles on its own elements, so the editor's page allows inline styles (scripts stay 'self').
_QUERY_POLICY = _PAGE_POLICY.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")


async def query_page(request: Request) -> Response:
    """The query editor of YASGUI (highlighting, completion, sortable and paged results); the plain page without it."""
    from starlette.concurrency import run_in_threadpool
    from starlette.responses import RedirectResponse

    from kg.serve.yasgui import yasgui_assets
    from kg.vocab import term_names

    if not await run_in_threadpool(yasgui_assets):
        return RedirectResponse("/", status_code=307)
    settings: Settings = request.app.state.settings
    terms = sorted(f"{prefix}:" for prefix in PREFIXES) + [f"kg:{name}" for name in term_names()]
    # The editor marks an undeclared prefix as an error though the server binds it: the first query declares its own.
    default_query = (
        f"PREFIX kg: <{PREFIXES['kg']}>\nPREFIX rdfs: <{PREFIXES['rdfs']}>\n\n"
        "SELECT ?method ?task WHERE {\n  ?m kg:addresses ?t .\n  ?m rdfs:label ?method .\n  ?t rdfs:label ?task .\n}\nLIMIT 100"
    )
    page = request.app.state.templates.get_template("query.html").render(
        folder=settings.folder.name, limit=settings.limit, timeout=settings.timeout, prefixes=PREFIXES, terms=terms, default_query=default_query
    )
    return HTMLResponse(page, headers={"content-security-policy": _QUERY_POLICY})


async def yasgui_file(request: Request) -> Response:
    """yasgui.min.js or yasgui.min.css, as the installed Oxigraph server ships them (:mod:`kg.serve.yasgui`)."""
    from starlette.concurrency import run_in_threadpool

    from kg.serve.yasgui import ASSETS, yasgui_assets

    name = request.path_params["name"]
    found = (await run_in_threadpool(yasgui_assets)).get(name)
    if found is None:
        return PlainTextResponse("not found\n", status_code=404)
    return Response(found, media_type=ASSETS[name], headers={"cache-control": "public, max-age=3600"})


async def entity_page(request: Request) -> Response:
    """One node's page: its label, types, properties, links in and the evidence of its facts."""
    settings: Settings = request.app.state.settings
    iris = request.query_params.getlist("iri")
    if len(iris) != 1 or not iris[0].strip():
        return _text_error(UserError("E349"))
    try:
        data = await request.app.state.pool.run(describe, request.app.state.store, BuildFolder(settings.folder).generation(), iris[0], client=_client(request))
    except ValueError:  # not an IRI pyoxigraph accepts
        return _text_error(UserError("E349"))
    except KgError as error:  # stopped, or the store could not be opened
        return _text_error(error)
    page = request.app.state.templates.get_template("entity.html").render(entity=data)
    return HTMLResponse(page, status_code=200 if data["found"] else 404)


async def explorer_page_route(request: Request) -> Response:
    """The explorer, served: graph.html's page with its data fetched from the endpoints below."""
    settings: Settings = request.app.state.settings
    summary = html.escape(
        f"The graph in {settings.folder.name}: the most supported nodes are drawn first; find any node by name, "
        "or click one, to fetch and draw its neighbours. Scroll to zoom, drag to pan."
    )
    page = explorer_page(
        csp=_PAGE_POLICY,
        title=f"kg explorer · {settings.folder.name}",
        summary=summary + ' <a href="/">SPARQL query page</a>',
        head=_EXPLORER_HEAD,
        scripts=_EXPLORER_SCRIPTS,
    )
    return HTMLResponse(page)


async def explorer_file(request: Request) -> Response:
    """explorer.js and explorer.css from the package, vis-network's script from pyvis."""
    found = _EXPLORER_FILES.get(request.path_params["name"])
    if found is None:
        return Response("Not Found", status_code=404, media_type="text/plain")
    read, media = found
    return Response(read(), media_type=media)


def _param(request: Request, name: str, example: str) -> str:
    """The one non-empty query parameter ``name``; E373 (400) naming it when it is missing, E371 when repeated."""
    values = request.query_params.getlist(name)
    if len(values) > 1:
        raise UserError("E371", name=name)
    if not values or not values[0].strip():
        raise UserError("E373", reason=f"the {name!r} parameter is missing: {example}")
    return values[0]


async def _explore(request: Request, function: Callable[..., Answer], *args: object) -> Response:
    settings: Settings = request.app.state.settings
    # A worker reading the graph's index answers 503 (E375) well before the timeout would stop it.
    ask = functools.partial(function, wait=min(explore.WAIT, settings.timeout / 2))
    try:
        result: Answer = await request.app.state.pool.run(ask, request.app.state.store, BuildFolder(settings.folder).generation(), *args, client=_client(request))
    except KgError as error:  # stopped after the timeout (503)
        return _text_error(error)
    return _to_response(result)


async def explore_overview(request: Request) -> Response:
    """The explorer's opening data: the most supported nodes and the facts among them."""
    return await _explore(request, explore.overview, explore.OVERVIEW, request.app.state.settings.limit)


async def explore_search(request: Request) -> Response:
    """``?q=TEXT``: the nodes matching TEXT, best first, as graph.html ranks them."""
    try:
        query = _param(request, "q", "/api/explore/search?q=lora")
        if len(query) > _MAX_QUERY:
            raise UserError("E373", reason=f"'q' is longer than {_MAX_QUERY} characters")
    except KgError as error:
        return _text_error(error)
    return await _explore(request, explore.search, query)


async def explore_node(request: Request) -> Response:
    """``?iri=IRI&hops=1|2``: a node, its neighbours within the hops and the facts among them."""
    example = "/api/explore/node?iri=IRI&hops=1"
    try:
        iri = _param(request, "iri", example).strip()
        hops = request.query_params.getlist("hops") or ["1"]
        if len(hops) > 1:
            raise UserError("E371", name="hops")
        if hops[0] not in ("1", "2"):
            raise UserError("E373", reason=f"'hops' must be 1 or 2, not {hops[0][:20]!r}")
        try:
            ox.NamedNode(iri)
        except ValueError:
            raise UserError("E373", reason=f"'iri' is not an IRI: {iri[:80]!r}") from None
    except KgError as error:
        return _text_error(error)
    return await _explore(request, explore.neighbourhood, iri, int(hops[0]), request.app.state.settings.limit)


async def no_icon(request: Request) -> Response:
    """No icon: an empty answer, so that browsers do not log a failed request for it."""
    return Response(status_code=204)


def make_app(settings: Settings) -> Starlette:
    """The ASGI app serving the build in ``settings.folder`` (checked here: E307/E341)."""
    store = BuildFolder(settings.folder).served_store()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        pool = QueryPool(settings.workers, settings.timeout, memory=settings.memory, queue=max(settings.queue, settings.workers))
        app.state.pool = pool
        try:
            # Open the store (and, unless lazy, begin reading the explorer's index) in the workers now.
            start = warm if settings.lazy_explorer else start_reading
            await asyncio.gather(*(pool.run(start, str(store), BuildFolder(settings.folder).generation()) for _ in range(settings.workers)))
            yield
        finally:
            pool.close()

    routes = [
        Route("/", landing_page, methods=["GET"]),
        Route("/sparql", sparql_endpoint, methods=["GET", "POST"]),
        Route("/entity", entity_page, methods=["GET"]),
        Route("/query", query_page, methods=["GET"]),
        Route("/yasgui/{name:str}", yasgui_file, methods=["GET"]),
        Route("/explore", explorer_page_route, methods=["GET"]),
        Route("/favicon.ico", no_icon, methods=["GET"]),
        Route("/explore/{name:str}", explorer_file, methods=["GET"]),
        Route("/api/explore/overview", explore_overview, methods=["GET"]),
        Route("/api/explore/search", explore_search, methods=["GET"]),
        Route("/api/explore/node", explore_node, methods=["GET"]),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.settings = settings
    app.state.store = str(store)
    app.state.templates = _templates()
    app.add_middleware(SecurityHeaders)
    return app
