/* kg serve's query editor: YASGUI (from the installed oxigraph package) on this server's /sparql,
   completing the bound prefixes and the kg vocabulary from the page, never from a remote service. */
(function () {
  "use strict";
  var terms = JSON.parse(document.getElementById("kg-terms").textContent);
  var Yasqe = Yasgui.Yasqe;

  Yasqe.registerAutocompleter({
    name: "kgTerms",
    bulk: true,
    autoShow: true,
    get: function () { return terms; },
    // A prefixed name being typed ("kg:add"): its prefix, a colon, then name characters.
    isValidCompletionPosition: function (yasqe) {
      var token = yasqe.getCompleteToken();
      return /^[A-Za-z][\w-]*:[\w-]*$/.test(token.string || "");
    }
  }, false);
  // Only what this page knows: no prefix.cc, no LOV (both are on the internet).
  Yasqe.defaults.autocompleters = ["kgTerms", "variables"];

  var yasgui = new Yasgui(document.getElementById("yasgui"), {
    requestConfig: {endpoint: "/sparql", method: "POST"},
    copyEndpointOnNewTab: false,
    endpointCatalogueOptions: {getData: function () { return []; }, keys: []},
    persistenceId: null,
    yasqe: {autocompleters: ["kgTerms", "variables"], value: document.getElementById("yasgui").dataset.query || undefined},
    yasr: {persistenceId: null}
  });

  // Each IRI in the results gets an "explore" link that opens it in the graph explorer.
  function linkIris(yasr) {
    yasr.resultsEl.querySelectorAll("a.iri").forEach(function (a) {
      if (a.dataset.kgExplore) { return; }
      a.dataset.kgExplore = "1";
      var go = document.createElement("a");
      go.className = "kg-explore";
      go.textContent = "explore";
      go.title = "Show this node in the graph explorer";
      go.href = "/explore?iri=" + encodeURIComponent(a.getAttribute("href"));
      a.parentNode.insertBefore(go, a.nextSibling);
      a.parentNode.insertBefore(document.createTextNode(" "), go);
    });
  }
  function watch(tab) {
    var yasr = tab.getYasr();
    yasr.on("drawn", function () { linkIris(yasr); });
  }
  watch(yasgui.getTab());
  yasgui.on("tabAdd", function (_, id) { watch(yasgui.getTab(id)); });
  window.kgYasgui = yasgui;
}());
