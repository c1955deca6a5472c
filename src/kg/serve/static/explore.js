// The data source of kg serve's explorer (/explore): the explorer script that graph.html inlines
// reads the graph through it, fetching an overview, searches and neighbourhoods from this server
// (the /api/explore/ endpoints) instead of one embedded block. Written for this project; no request
// leaves the server's own origin. It must run before explorer.js, which looks for it.
"use strict";

(function () {
  var PATIENCE = 600;  // seconds to keep asking while the server reads the graph (E375)

  function pause(seconds) { return new Promise(function (done) { setTimeout(done, seconds * 1000); }); }

  function getJson(path, waited) {
    return fetch(path, {headers: {Accept: "application/json"}}).then(function (response) {
      if (response.ok) { return response.json(); }
      // Errors are one line of text, e.g. "E374: no node ... in the graph".
      return response.text().then(function (text) {
        var after = Number(response.headers.get("Retry-After")) || 1;
        if (response.status === 503 && /^E375:/.test(text) && (waited || 0) < PATIENCE) {
          // The server reads the graph once after a start or a rebuild; say so and ask again.
          document.getElementById("status").textContent = "Reading the graph on the server (" + text.match(/\d+ s/) + " so far)…";
          return pause(after).then(function () { return getJson(path, (waited || 0) + after); });
        }
        throw new Error(text.trim() || String(response.status));
      });
    });
  }

  var wanted = new URLSearchParams(window.location.search).get("iri");
  window.kgExplorerSource = {
    load: function () { return getJson("/api/explore/overview"); },
    search: function (query) { return getJson("/api/explore/search?q=" + encodeURIComponent(query)); },
    neighbourhood: function (iri, hops) {
      return getJson("/api/explore/node?iri=" + encodeURIComponent(iri) + "&hops=" + encodeURIComponent(String(hops)));
    },
    entityUrl: function (iri) { return "/entity?iri=" + encodeURIComponent(iri); },
    initial: wanted && wanted.trim() ? wanted.trim() : null
  };
})();
