"""``kg serve``: a read-only SPARQL 1.1 Protocol endpoint over a build's on-disk store.

The server is a small Starlette app run by uvicorn (the ``serve`` extra,
``pip install 'kg-lit[serve]'``); queries run in a pool of worker processes, each
holding the store open read-only, so a query that runs past the timeout is
stopped by ending its process. Nothing in the rest of ``kg`` imports this
package, and importing it imports neither Starlette nor uvicorn: the app lives
in :mod:`kg.serve.app`, the command's entry in :mod:`kg.serve.server`.

Why not Oxigraph's own ``oxigraph serve-read-only``? It speaks the same
protocol, but it cannot pre-bind the ``kg`` prefixes, cap result sizes, pick up
a rebuilt store without a restart, or serve the entity pages the explorer
builds on; ``docs/SERVING.md`` shows how to run it on a build when none of that
is needed.
"""
