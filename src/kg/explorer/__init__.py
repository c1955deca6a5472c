"""The explorer: the page that shows a graph in a browser, its layout, its search and its script.

One explorer, two ways to get it:

- ``graph.html``, one offline file with the whole graph inlined, written by the
  exporter :mod:`kg.export.html` (which reads the graph from the store);
- ``kg serve``'s ``/explore`` (:mod:`kg.serve.explore`), the same page frame,
  script and styles, fetching the graph from the server a piece at a time.

Modules:

- :mod:`kg.explorer.page`: the page (``assets/explorer.html``), its
  Content-Security-Policy, vis-network from the installed pyvis package, and
  :func:`~kg.explorer.page.generate_html`, the one-file page of a NetworkX graph;
- :mod:`kg.explorer.payload`: the data the script reads, made from a NetworkX
  graph (or a piece of one) by :func:`~kg.explorer.payload.explorer_payload`;
- :mod:`kg.explorer.layout`: the deterministic force layout the page draws with;
- :mod:`kg.explorer.search`: the script's search rules in Python, for a server;
- ``assets/``: ``explorer.js``, ``explorer.css`` and ``explorer.html``, shipped
  as package data and tested in a browser (``tests/test_explorer_browser.py``).

The explorer takes plain data (NetworkX graphs, mappings) and never reads the
store itself, so both callers feed it the same shapes. Importing this package
imports none of its modules.
"""
