/* The explorer of graph.html: search, details panel, filters and focus over vis-network.
 *
 * Written for kg; no third-party code here (vis-network is inlined by kg.export.html from the
 * installed pyvis package). Text from the graph reaches the screen only as DOM text
 * (textContent, createTextNode), never as HTML, and no element gets an inline handler.
 *
 * Data comes from a *source*: load() returns a Promise of the payload described in
 * kg.export.html. graph.html's source reads the embedded JSON block and has nothing else, so
 * everything is searched and drawn here. A served page (kg serve's /explore) sets
 * window.kgExplorerSource before this script runs, with also search(query) (a Promise of
 * {nodes, hits, total, complete}, ranked by the server as search() below ranks) and
 * neighbourhood(iri, hops) (a Promise of a payload piece around one node, its `centre`);
 * pieces are merged into what is loaded by IRI and paper id (see merge()), and entityUrl(iri)
 * and initial (an IRI to show first) are optional.
 */
(function () {
  "use strict";

  var DIM_NODE = "rgba(190,190,190,0.25)";
  var DIM_EDGE = "rgba(200,200,200,0.15)";
  var EDGE_COLOUR = "#b8bec4";
  var SUGGESTIONS = 12;
  var FACTS_PER_GROUP = 60;

  function embeddedSource(id) {
    return {
      load: function () {
        return Promise.resolve(JSON.parse(document.getElementById(id).textContent));
      }
    };
  }

  // ---- text helpers ------------------------------------------------------------------------

  function singular(word) {
    if (word.length > 4 && /ies$/.test(word)) { return word.slice(0, -3) + "y"; }
    if (/(ss|x|ch|sh)es$/.test(word)) { return word.slice(0, -2); }
    if (word.length > 3 && /s$/.test(word) && !/(ss|us|is)$/.test(word)) { return word.slice(0, -1); }
    return word;
  }

  /** Lower case, accents, hyphens and punctuation dropped, each word made singular. */
  function normalise(text) {
    var plain = String(text).normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
    var words = plain.split(/[^\p{L}\p{N}+#]+/u).filter(Boolean);  // "C++", "C#" and "LoRA+" stay apart
    return words.map(singular).join(" ");
  }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    return node;
  }

  function plural(count, word) {
    return count.toLocaleString("en") + " " + word + (count === 1 ? "" : /(s|x|ch|sh)$/.test(word) ? "es" : "s");
  }

  function safeLink(url) {
    return typeof url === "string" && /^https?:\/\//i.test(url) ? url : null;
  }

  function link(url, text) {
    var href = safeLink(url);
    if (!href) { return el("span", null, text); }
    var a = el("a", null, text);
    a.href = href;
    a.target = "_blank";
    a.rel = "noopener noreferrer";
    return a;
  }

  /** Whether a paper id is a hash of its abstract (no id was given): people read its label instead. */
  function hashed(id) { return /^sha256-/.test(id); }

  /** The sentence with the [start, end) spans in `marks` wrapped in <mark>. */
  function highlighted(sentence, marks) {
    var box = el("q", "evidence");
    var spans = (marks || []).slice().sort(function (a, b) { return a[0] - b[0]; });
    var at = 0;
    spans.forEach(function (span) {
      if (span[0] < at) { return; }
      box.appendChild(document.createTextNode(sentence.slice(at, span[0])));
      box.appendChild(el("mark", null, sentence.slice(span[0], span[1])));
      at = span[1];
    });
    box.appendChild(document.createTextNode(sentence.slice(at)));
    return box;
  }

  // ---- the model: indexes over the payload ---------------------------------------------------

  function buildModel(data) {
    var nodes = data.nodes, edges = data.edges, papers = data.papers;
    var adjacency = nodes.map(function () { return []; });
    edges.forEach(function (edge, e) {
      adjacency[edge.from].push(e);
      if (edge.to !== edge.from) { adjacency[edge.to].push(e); }
      var years = [];
      edge.ev.forEach(function (item) {
        var year = papers[item[0]] && papers[item[0]].year;
        if (year) { years.push(year); }
      });
      edge.years = years;
    });
    var namedIn = papers.map(function () { return []; });  // paper -> the nodes it mentions
    nodes.forEach(function (node, i) { (node.in || []).forEach(function (p) { namedIn[p].push(i); }); });
    var paperFacts = papers.map(function () { return []; });
    edges.forEach(function (edge, e) {
      edge.ev.forEach(function (item, k) { paperFacts[item[0]].push([e, k]); });
    });
    // Each name twice: its words, and the words run together ("GPT-4" is found by "gpt4" too).
    var keys = nodes.map(function (node) {
      var names = [normalise(node.label)].concat((node.alt || []).map(normalise));
      return names.map(function (name) { return [name, name.replace(/ /g, "")]; });
    });
    var order = nodes.map(function (_, i) { return i; });
    order.sort(function (a, b) {
      return nodes[b].support - nodes[a].support || adjacency[b].length - adjacency[a].length || a - b;
    });
    var years = data.years || papers.map(function (p) { return p.year; }).filter(Boolean);
    return {
      data: data, nodes: nodes, edges: edges, papers: papers, adjacency: adjacency,
      paperFacts: paperFacts, namedIn: namedIn, keys: keys, order: order,
      minYear: years.length ? Math.min.apply(null, years) : null,
      maxYear: years.length ? Math.max.apply(null, years) : null
    };
  }

  /** Whether a later word of `name` (words joined by spaces) starts the run `compact` ("lora" in "qa lora tuning"). */
  function wordPrefix(name, compact) {
    var words = name.split(" ");
    for (var w = 1; w < words.length; w++) {
      if (words.slice(w).join("").lastIndexOf(compact, 0) === 0) { return true; }
    }
    return false;
  }

  /** Nodes matching `query`: exact label > exact other name > prefix > a word's prefix > substring, then support. */
  function search(model, query) {
    var wanted = normalise(query);
    if (!wanted) { return []; }
    var compact = wanted.replace(/ /g, "");
    var hits = [];
    model.keys.forEach(function (names, i) {
      var best = 5, via = -1;
      for (var k = 0; k < names.length && best > 0; k++) {
        var name = names[k][0], run = names[k][1], rank = 5;
        if (name === wanted || run === compact) { rank = k === 0 ? 0 : 1; }
        else if (name.lastIndexOf(wanted, 0) === 0 || run.lastIndexOf(compact, 0) === 0) { rank = 2; }
        else if (run.indexOf(compact) >= 0) { rank = wordPrefix(name, compact) ? 3 : 4; }
        if (rank < best || (rank === best && via > 0 && k === 0)) { best = rank; via = k; }
      }
      if (best < 5) { hits.push({node: i, rank: best, via: via}); }
    });
    hits.sort(function (a, b) {
      return a.rank - b.rank || model.nodes[b.node].support - model.nodes[a.node].support ||
        (model.nodes[a.node].label < model.nodes[b.node].label ? -1 : 1);
    });
    return hits;
  }

  /** Nodes within `hops` steps of `start` over edges that `edgeOk` accepts. */
  function neighbourhood(model, start, hops, edgeOk) {
    var seen = new Set([start]), frontier = [start];
    for (var step = 0; step < hops; step++) {
      var next = [];
      frontier.forEach(function (node) {
        model.adjacency[node].forEach(function (e) {
          if (!edgeOk[e]) { return; }
          var edge = model.edges[e], other = edge.from === node ? edge.to : edge.from;
          if (!seen.has(other)) { seen.add(other); next.push(other); }
        });
      });
      frontier = next;
    }
    return seen;
  }

  // ---- the explorer ------------------------------------------------------------------------

  function start(data) {
    var model = buildModel(data);
    var ui = {
      graph: document.getElementById("graph"),
      controls: document.getElementById("controls"),
      controlsToggle: document.getElementById("controls-toggle"),
      search: document.getElementById("search"),
      suggestions: document.getElementById("suggestions"),
      matches: document.getElementById("matches"),
      status: document.getElementById("status"),
      legend: document.getElementById("legend"),
      relations: document.getElementById("relations"),
      minSupport: document.getElementById("min-support"),
      minConfidence: document.getElementById("min-confidence"),
      confidenceValue: document.getElementById("confidence-value"),
      yearFrom: document.getElementById("year-from"),
      yearTo: document.getElementById("year-to"),
      hops: document.getElementById("hops"),
      clearFocus: document.getElementById("clear-focus"),
      reset: document.getElementById("reset"),
      more: document.getElementById("show-more"),
      details: document.getElementById("details"),
      detailsBody: document.getElementById("details-body"),
      detailsToggle: document.getElementById("details-toggle")
    };
    var cap0 = data.cap;
    var state = {};
    var typeBoxes = {}, relationBoxes = {};

    function resetState() {
      state.types = new Set(data.types);
      state.relations = new Set(data.relations);
      state.minSupport = 1;
      state.minConfidence = 0;
      state.yearFrom = model.minYear;
      state.yearTo = model.maxYear;
      state.cap = cap0;
      state.focus = null;
      state.hops = 1;
    }
    resetState();

    // -- controls built from the data (types, relations, years)
    data.types.forEach(function (type) {
      var count = data.counts ? data.counts.types[type] || 0 : model.nodes.filter(function (n) { return n.type === type; }).length;
      var row = el("li"), label = el("label"), box = el("input");
      box.type = "checkbox";
      box.checked = true;
      box.value = type;
      box.addEventListener("change", function () { toggle(state.types, type, box.checked); });
      var swatch = el("span", "swatch");
      swatch.style.background = data.colours[type] || data.colours.Other;
      label.appendChild(box);
      label.appendChild(swatch);
      label.appendChild(document.createTextNode(type + " (" + count.toLocaleString("en") + ")"));
      row.appendChild(label);
      ui.legend.appendChild(row);
      typeBoxes[type] = box;
    });
    data.relations.forEach(function (relation) {
      var count = data.counts ? data.counts.relations[relation] || 0 : model.edges.filter(function (e) { return e.rel === relation; }).length;
      var label = el("label"), box = el("input");
      box.type = "checkbox";
      box.checked = true;
      box.addEventListener("change", function () { toggle(state.relations, relation, box.checked); });
      label.appendChild(box);
      label.appendChild(document.createTextNode(relation + " (" + count.toLocaleString("en") + ")"));
      ui.relations.appendChild(label);
      relationBoxes[relation] = box;
    });
    if (model.minYear === null) {
      ui.yearFrom.disabled = ui.yearTo.disabled = true;
      ui.yearFrom.placeholder = ui.yearTo.placeholder = "no years";
    } else {
      [ui.yearFrom, ui.yearTo].forEach(function (input) { input.min = model.minYear; input.max = model.maxYear; });
    }

    function toggle(set, value, on) {
      if (on) { set.add(value); } else { set.delete(value); }
      refresh();
    }

    function syncControls() {
      Object.keys(typeBoxes).forEach(function (t) { typeBoxes[t].checked = state.types.has(t); });
      Object.keys(relationBoxes).forEach(function (r) { relationBoxes[r].checked = state.relations.has(r); });
      ui.minSupport.value = state.minSupport;
      ui.minConfidence.value = state.minConfidence;
      ui.confidenceValue.textContent = Number(state.minConfidence).toFixed(2);
      ui.yearFrom.value = state.yearFrom === null ? "" : state.yearFrom;
      ui.yearTo.value = state.yearTo === null ? "" : state.yearTo;
      ui.hops.value = String(state.hops);
    }
    syncControls();

    // -- what is shown
    var visible = {nodes: new Set(), edges: new Set(), focus: new Set(), total: 0};

    function compute() {
      var years = model.minYear !== null && (state.yearFrom > model.minYear || state.yearTo < model.maxYear);
      var edgeFiltered = years || state.minConfidence > 0 || state.relations.size < data.relations.length;
      var nodeOk = model.nodes.map(function (node) {
        if (!state.types.has(node.type) || node.support < state.minSupport) { return false; }
        if (years && node.paper !== undefined) {
          var year = model.papers[node.paper].year;
          return Boolean(year) && year >= state.yearFrom && year <= state.yearTo;
        }
        return true;
      });
      var edgeOk = model.edges.map(function (edge) {
        if (!nodeOk[edge.from] || !nodeOk[edge.to] || !state.relations.has(edge.rel)) { return false; }
        if (edge.conf < state.minConfidence) { return false; }
        return !years || edge.years.some(function (y) { return y >= state.yearFrom && y <= state.yearTo; });
      });
      if (edgeFiltered) {
        nodeOk = nodeOk.map(function (ok, i) { return ok && model.adjacency[i].some(function (e) { return edgeOk[e]; }); });
      }
      var shown = new Set(), total = 0;
      model.order.forEach(function (i) {
        if (!nodeOk[i] || !model.adjacency[i].length) { return; }  // nodes in no fact: search finds them
        total += 1;
        if (shown.size < state.cap) { shown.add(i); }
      });
      var focus = new Set();
      if (state.focus !== null) {
        focus = neighbourhood(model, state.focus, state.hops, edgeOk);
        focus.forEach(function (i) {  // a chosen node is drawn even past the cap, and counted once
          if (!(nodeOk[i] && model.adjacency[i].length)) { total += 1; }
          shown.add(i);
        });
      }
      var shownEdges = new Set();
      model.edges.forEach(function (edge, e) {
        if (edgeOk[e] && shown.has(edge.from) && shown.has(edge.to)) { shownEdges.add(e); }
      });
      visible = {nodes: shown, edges: shownEdges, focus: focus, total: total};
    }

    // -- drawing
    function nodeTip(node) {
      var box = el("div");
      box.appendChild(el("div", "tip-h", node.label));
      box.appendChild(el("div", "tip-m", node.type + " · " + plural(node.support, "paper") + " · click for details"));
      return box;
    }

    function edgeTip(edge) {
      var box = el("div");
      box.appendChild(el("div", "tip-h", model.nodes[edge.from].label + " " + edge.rel + " " + model.nodes[edge.to].label));
      box.appendChild(el("div", "tip-m", plural(edge.support, "paper") + " · confidence " + edge.conf.toFixed(2) + " · click for evidence"));
      return box;
    }

    function visNode(i) {
      var node = model.nodes[i], dim = state.focus !== null && !visible.focus.has(i);
      var colour = dim ? DIM_NODE : (data.colours[node.type] || data.colours.Other);
      return {
        id: i, x: node.x, y: node.y, label: dim ? "" : node.short, value: Math.sqrt(node.support),
        color: {background: colour, border: dim ? DIM_NODE : "#555", highlight: {background: colour, border: "#000"}},
        title: nodeTip(node)
      };
    }

    function visEdge(e) {
      var edge = model.edges[e];
      var dim = state.focus !== null && !(visible.focus.has(edge.from) && visible.focus.has(edge.to));
      var item = {
        id: e, from: edge.from, to: edge.to, width: 1 + Math.log2(edge.support),
        color: {color: dim ? DIM_EDGE : EDGE_COLOUR, highlight: "#333", hover: "#555"},
        title: edgeTip(edge)
      };
      item.smooth = edge.bend ? {enabled: true, type: "curvedCW", roundness: edge.bend} : false;
      return item;
    }

    model.nodes.forEach(function (node) {
      node.short = node.label.length > 40 ? node.label.slice(0, 39) + "…" : node.label;
    });
    var nodeSet = new vis.DataSet();
    var edgeSet = new vis.DataSet();
    var network = new vis.Network(ui.graph, {nodes: nodeSet, edges: edgeSet}, {
      physics: false,
      layout: {improvedLayout: false},
      interaction: {hover: true, tooltipDelay: 150, hideEdgesOnDrag: true, hideEdgesOnZoom: true,
                    keyboard: {enabled: true, bindToWindow: false}, multiselect: false},
      nodes: {shape: "dot", borderWidth: 1,
              scaling: {min: 6, max: 40, label: {enabled: true, min: 12, max: 64, drawThreshold: 6, maxVisible: 30}},
              font: {color: "#222", strokeWidth: 3, strokeColor: "#fff"}},
      edges: {arrows: {to: {enabled: true, scaleFactor: 0.4}}, selectionWidth: 1.5}
    });

    function draw() {
      var wantNodes = [], wantEdges = [];
      visible.nodes.forEach(function (i) { wantNodes.push(visNode(i)); });
      visible.edges.forEach(function (e) { wantEdges.push(visEdge(e)); });
      var goneNodes = nodeSet.getIds().filter(function (id) { return !visible.nodes.has(id); });
      var goneEdges = edgeSet.getIds().filter(function (id) { return !visible.edges.has(id); });
      edgeSet.remove(goneEdges);
      nodeSet.remove(goneNodes);
      nodeSet.update(wantNodes);
      edgeSet.update(wantEdges);
      var shown = visible.nodes.size;
      var all = model.nodes.length.toLocaleString("en") + (data.total ? " loaded of " + data.total.nodes.toLocaleString("en") + " in the graph" : " in all");
      var text = "Showing " + plural(shown, "node") + " of " + visible.total.toLocaleString("en") +
        " that pass the filters (" + all + "), " + plural(visible.edges.size, "edge");
      if (state.focus !== null) {
        text += ". Focus: " + model.nodes[state.focus].label + " and " +
          plural(visible.focus.size - 1, "neighbour") + " within " + plural(state.hops, "hop") +
          "; " + (shown - visible.focus.size).toLocaleString("en") + " dimmed";
      }
      ui.status.textContent = text + ".";
      ui.more.hidden = visible.total <= state.cap;
      ui.clearFocus.disabled = state.focus === null;
    }

    function refresh() {
      compute();
      draw();
    }

    function quantile(sorted, q) { return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]; }

    var baseScale = 1;

    /** Zoom and pan so that `ids` fill the free space beside the controls, leaving out the
     *  outer 3% on each side (stray small components) of a large set. */
    function frame(ids, maxScale) {
      var xs = [], ys = [];
      ids.forEach(function (i) { xs.push(model.nodes[i].x); ys.push(model.nodes[i].y); });
      if (!xs.length) { return baseScale; }
      var num = function (a, b) { return a - b; };
      xs.sort(num);
      ys.sort(num);
      var cut = xs.length > 50 ? 0.03 : 0;
      var x0 = quantile(xs, cut), x1 = quantile(xs, 1 - cut), y0 = quantile(ys, cut), y1 = quantile(ys, 1 - cut);
      var width = ui.graph.clientWidth, height = ui.graph.clientHeight;
      var side = width > 700 && !document.body.classList.contains("controls-hidden") ? ui.controls.offsetWidth + 20 : 0;
      var scale = Math.min(maxScale, (width - side - 40) / (x1 - x0 + 80), (height - 40) / (y1 - y0 + 80));
      network.moveTo({position: {x: (x0 + x1) / 2, y: (y0 + y1) / 2}, scale: scale, offset: {x: side / 2, y: 0}, animation: false});
      return scale;
    }

    /** The overview: frame the drawn nodes that have edges, then size nodes and labels for
     *  that zoom, so that at first sight the most supported are labelled and readable, and
     *  zooming in labels the rest. */
    function fitView() {
      var linked = [];
      visible.nodes.forEach(function (i) { if (model.adjacency[i].length) { linked.push(i); } });
      baseScale = frame(linked.length ? linked : Array.from(visible.nodes), 1.5);
      // Node sizes stay below half an edge length (60 units), or neighbours would overlap.
      network.setOptions({nodes: {scaling: {min: Math.min(3 / baseScale, 10), max: Math.min(15 / baseScale, 28),
        label: {enabled: true, min: 4 / baseScale, max: 20 / baseScale, drawThreshold: 6, maxVisible: 24}}}});
    }

    // -- the details panel
    /** Show or hide the details panel; the drawing narrows so that the panel never covers it. */
    function setPanel(open) {
      document.body.classList.toggle("details-open", open);
      ui.details.hidden = !open;
      ui.detailsToggle.setAttribute("aria-expanded", String(open));
      ui.detailsToggle.textContent = open ? "Hide details" : "Show details";
      network.setSize("100%", "100%");
      network.redraw();
    }

    function openPanel() { setPanel(true); }

    function nodeButton(i) {
      var button = el("button", "goto", model.nodes[i].label);
      button.type = "button";
      button.title = model.nodes[i].type + ": show its details";
      button.addEventListener("click", function () { choose(i); });
      return button;
    }

    function paperLine(p) {
      var paper = model.papers[p], row = el("span", "paper");
      var name = paper.title || paper.label || paper.id;
      row.title = paper.id;
      row.appendChild(link(paper.link, name));
      if (paper.year) { row.appendChild(document.createTextNode(" (" + paper.year + ")")); }
      if (paper.title && !hashed(paper.id)) { row.appendChild(el("span", "paper-id", " " + paper.id)); }
      if (paper.node !== undefined) {
        var open = el("button", "goto small", "paper");
        open.type = "button";
        open.title = "Show this paper's details";
        open.addEventListener("click", function () { choose(paper.node); });
        row.appendChild(document.createTextNode(" "));
        row.appendChild(open);
      }
      return row;
    }

    function factItem(e, other, onlyPaper) {
      var edge = model.edges[e], item = el("li", "fact");
      var head = el("div", "fact-h");
      if (other !== null) { head.appendChild(nodeButton(other)); }
      else {
        head.appendChild(nodeButton(edge.from));
        head.appendChild(el("span", "rel", " " + edge.rel + " "));
        head.appendChild(nodeButton(edge.to));
      }
      head.appendChild(el("span", "meta", " " + plural(edge.support, "paper") + " · confidence " + edge.conf.toFixed(2)));
      item.appendChild(head);
      var list = el("ul", "sources");
      edge.ev.forEach(function (source) {
        if (onlyPaper !== undefined && source[0] !== onlyPaper) { return; }
        var row = el("li");
        if (onlyPaper === undefined) { row.appendChild(paperLine(source[0])); }
        if (source[3]) {  // the subject is named in another sentence: show that one too
          var named = highlighted(source[3], source[4]);
          named.classList.add("naming");
          named.title = "The sentence that names " + model.nodes[edge.from].label;
          row.appendChild(named);
          row.appendChild(el("span", "meta", " … "));
        }
        if (source[1]) { row.appendChild(highlighted(source[1], source[2])); }
        list.appendChild(row);
      });
      if (edge.support > edge.ev.length && onlyPaper === undefined) {
        list.appendChild(el("li", "meta", "(+" + (edge.support - edge.ev.length) + " more papers not listed)"));
      }
      item.appendChild(list);
      return item;
    }

    /** A titled list of `items`, the first FACTS_PER_GROUP shown; `unlisted` more exist but were not loaded. */
    function section(title, items, unlisted) {
      var box = el("section", "group"), hidden = Math.max(0, items.length - FACTS_PER_GROUP) + (unlisted || 0);
      box.appendChild(el("h3", null, title + " (" + (items.length + (unlisted || 0)) + ")"));
      var list = el("ul", "facts");
      items.slice(0, FACTS_PER_GROUP).forEach(function (item) { list.appendChild(item); });
      if (hidden) {
        list.appendChild(el("li", "meta", "(+" + hidden + " more)"));
      }
      box.appendChild(list);
      return box;
    }

    function header(title, subtitle) {
      ui.detailsBody.replaceChildren();
      ui.detailsBody.appendChild(el("h2", null, title));
      if (subtitle) { ui.detailsBody.appendChild(el("p", "meta", subtitle)); }
    }

    function showNode(i) {
      var node = model.nodes[i];
      var facts = node.facts !== undefined ? node.facts : model.adjacency[i].length;  // a server says how many it has
      header(node.label, node.type + " · " + plural(node.support, "paper") + " · " + plural(facts, "fact"));
      var body = ui.detailsBody;
      if (node.more) {
        body.appendChild(el("p", "meta", "Loaded: the most supported neighbours and " + plural(model.adjacency[i].length, "fact") +
          "; not fetched: " + plural(node.more, "other neighbour") + "."));
      }
      if (node.alt && node.alt.length) {
        body.appendChild(el("p", "alt", "Other names: " + node.alt.join("; ")));
      }
      if (node.link) { var p = el("p"); p.appendChild(link(node.link, node.link)); body.appendChild(p); }
      if (node.paper !== undefined) {
        var paper = model.papers[node.paper];
        var meta = el("dl", "paper-meta");
        [["Id", hashed(paper.id) ? null : paper.id], ["Title", paper.title], ["Authors", (paper.authors || []).join(", ")], ["Year", paper.year]]
          .forEach(function (pair) {
            if (!pair[1]) { return; }
            meta.appendChild(el("dt", null, pair[0]));
            meta.appendChild(el("dd", null, pair[1]));
          });
        if (paper.link) {
          meta.appendChild(el("dt", null, "Link"));
          var dd = el("dd");
          dd.appendChild(link(paper.link, paper.link));
          meta.appendChild(dd);
        }
        body.appendChild(meta);
        if (paper.abstract) {
          body.appendChild(el("h3", null, "Abstract"));
          body.appendChild(el("p", "abstract", paper.abstract));
        }
        var facts = model.paperFacts[node.paper].map(function (pair) { return factItem(pair[0], null, node.paper); });
        body.appendChild(section("Facts from this paper", facts));
      }
      var groups = {}, names = [];
      model.adjacency[i].forEach(function (e) {
        var edge = model.edges[e], outgoing = edge.from === i;
        if (node.paper !== undefined && outgoing) { return; }  // listed above with this paper's evidence
        var key = outgoing ? edge.rel + " →" : "← " + edge.rel;
        if (!groups[key]) { groups[key] = []; names.push(key); }
        groups[key].push(factItem(e, outgoing ? edge.to : edge.from));
      });
      names.sort().forEach(function (key) { body.appendChild(section(key, groups[key])); });
      if (node.res && node.res.length) {  // numeric results: the method's, or those reported on the dataset
        body.appendChild(section("Reported results", node.res.map(function (result) {
          var item = el("li", "fact");
          item.appendChild(el("div", "fact-h", result[0]));
          var list = el("ul", "sources"), row = el("li");
          row.appendChild(paperLine(result[1]));
          if (result[2]) { row.appendChild(highlighted(result[2], result[3])); }
          list.appendChild(row);
          item.appendChild(list);
          return item;
        })));
      }
      if (node.in && node.in.length) {
        body.appendChild(section("Mentioned in", node.in.map(function (p) {
          var item = el("li", "fact");
          item.appendChild(paperLine(p));
          return item;
        }), node.inMore));
        // The entities its papers also name: somewhere to go from a node in no fact.
        var shared = new Map();
        node.in.forEach(function (p) {
          (model.namedIn[p] || []).forEach(function (j) {
            if (j !== i && model.nodes[j].type !== "Paper") { shared.set(j, (shared.get(j) || 0) + 1); }
          });
        });
        var near = Array.from(shared.keys()).sort(function (a, b) {
          return shared.get(b) - shared.get(a) || model.nodes[b].support - model.nodes[a].support || a - b;
        });
        if (near.length) {
          body.appendChild(section("Named with it", near.map(function (j) {
            var item = el("li", "fact");
            item.appendChild(nodeButton(j));
            item.appendChild(el("span", "meta", " " + model.nodes[j].type + " · in " + plural(shared.get(j), "paper") + " with it"));
            return item;
          })));
        }
      }
      var iri = el("p", "iri");
      // An IRI holding a hash of an abstract (an untitled paper, or a paper's own unnamed method):
      // kept as the tooltip and the link, not shown as text.
      var shown = /sha256-[0-9a-f]/.test(node.iri) ? "IRI (holds a hash of an abstract)" : node.iri;
      iri.title = node.iri;
      if (source.entityUrl) {  // served: the node's own page on the server
        var page = el("a", null, shown);
        page.href = source.entityUrl(node.iri);
        page.title = "This node's page: every triple and the evidence of each fact (" + node.iri + ")";
        iri.appendChild(page);
      } else { iri.textContent = shown; }
      body.appendChild(iri);
      openPanel();
    }

    function showEdge(e) {
      var edge = model.edges[e];
      header(model.nodes[edge.from].label + " " + edge.rel + " " + model.nodes[edge.to].label,
             "fact · " + plural(edge.support, "paper"));
      ui.detailsBody.appendChild(section("Evidence", [factItem(e, null)]));
      openPanel();
    }

    // -- pieces fetched from a server, merged into what is loaded by IRI and paper id
    var fetching = Boolean(source.neighbourhood);
    var nodeOf = new Map(), paperOf = new Map(), edgeOf = new Map(), pairs = new Map();
    var fetched = new Map(), asked = 0, fetches = 0;

    function edgeKey(edge) { return edge.from + " " + edge.rel + " " + edge.to; }
    function pairKey(edge) { return Math.min(edge.from, edge.to) + " " + Math.max(edge.from, edge.to); }

    if (fetching) {
      data.nodes.forEach(function (node, i) { nodeOf.set(node.iri, i); });
      data.papers.forEach(function (paper, p) { paperOf.set(paper.id, p); });
      data.edges.forEach(function (edge, e) {
        edgeOf.set(edgeKey(edge), e);
        pairs.set(pairKey(edge), (pairs.get(pairKey(edge)) || 0) + 1);
      });
    }

    /** Where a piece goes: its centre where that node is already drawn, else where the nodes it
     *  shares with the drawing put it (on average), else right of everything; nodes already
     *  drawn never move. Returns the shift to add to the piece's own positions. */
    function placement(part) {
      var centre = part.centre !== undefined ? part.nodes[part.centre] : null;
      if (centre && nodeOf.has(centre.iri)) {
        var at = data.nodes[nodeOf.get(centre.iri)];
        return {x: at.x - centre.x, y: at.y - centre.y};
      }
      var dx = 0, dy = 0, known = 0;
      part.nodes.forEach(function (node) {
        if (!nodeOf.has(node.iri)) { return; }
        var old = data.nodes[nodeOf.get(node.iri)];
        dx += old.x - node.x;
        dy += old.y - node.y;
        known += 1;
      });
      if (known) { return {x: Math.round(dx / known), y: Math.round(dy / known)}; }
      if (!data.nodes.length) { return {x: 0, y: 0}; }
      var right = Math.max.apply(null, data.nodes.map(function (n) { return n.x; }));
      var left = Math.min.apply(null, part.nodes.map(function (n) { return n.x; }));
      var middle = data.nodes.reduce(function (sum, n) { return sum + n.y; }, 0) / data.nodes.length;
      return {x: right - left + 200, y: Math.round(middle)};
    }

    /** Add a piece (same shapes as the payload, indexes of its own) to the loaded graph; the
     *  index of its centre. Known nodes keep their place and gain what the piece adds (their
     *  mentions, fact counts); a known fact keeps the longer list of evidence. */
    function merge(part) {
      var shift = placement(part);
      var papers = part.papers.map(function (paper) {
        var p = paperOf.get(paper.id);
        if (p === undefined) {
          p = data.papers.length;
          paperOf.set(paper.id, p);
          data.papers.push(Object.assign({}, paper, {node: undefined}));
        } else {
          Object.keys(paper).forEach(function (k) { if (k !== "node" && data.papers[p][k] === undefined) { data.papers[p][k] = paper[k]; } });
        }
        return p;
      });
      var nodes = part.nodes.map(function (node) {
        var copy = Object.assign({}, node), i = nodeOf.get(node.iri);
        if (copy.paper !== undefined) { copy.paper = papers[copy.paper]; }
        if (copy.in) { copy.in = copy.in.map(function (p) { return papers[p]; }); }
        if (i === undefined) {
          i = data.nodes.length;
          nodeOf.set(node.iri, i);
          copy.x = node.x + shift.x;
          copy.y = node.y + shift.y;
          copy.short = copy.label.length > 40 ? copy.label.slice(0, 39) + "…" : copy.label;
          data.nodes.push(copy);
        } else {
          ["paper", "in", "inMore", "facts", "more"].forEach(function (k) {
            if (copy[k] !== undefined) { data.nodes[i][k] = copy[k]; }
          });
        }
        return i;
      });
      part.papers.forEach(function (paper, p) {
        if (paper.node !== undefined) { data.papers[papers[p]].node = nodes[paper.node]; }
      });
      part.edges.forEach(function (edge) {
        var copy = Object.assign({}, edge, {from: nodes[edge.from], to: nodes[edge.to]});
        copy.ev = edge.ev.map(function (item) { return [papers[item[0]]].concat(item.slice(1)); });
        var e = edgeOf.get(edgeKey(copy));
        if (e !== undefined) {
          if (copy.ev.length > data.edges[e].ev.length) { data.edges[e].ev = copy.ev; }
          return;
        }
        var rank = pairs.get(pairKey(copy)) || 0;  // parallel or opposite edges of one pair bend apart
        pairs.set(pairKey(copy), rank + 1);
        delete copy.bend;
        if (rank) { copy.bend = Math.round(15 * rank) / 100; }
        edgeOf.set(edgeKey(copy), data.edges.length);
        data.edges.push(copy);
      });
      model = buildModel(data);
      window.kgExplorer.model = model;
      return part.centre !== undefined ? nodes[part.centre] : null;
    }

    /** Fetch the neighbourhood of `iri` within the chosen hops, merge it, then call then(index);
     *  only the latest request calls back, so a slow answer cannot steal the focus. */
    function fetchAround(iri, label, then) {
      var ticket = ++asked, hops = state.hops;
      ui.status.textContent = "Fetching the neighbourhood of " + label + "…";
      source.neighbourhood(iri, hops).then(function (part) {
        fetched.set(iri, Math.max(hops, fetched.get(iri) || 0));
        var centre = merge(part);
        if (ticket !== asked) { return; }
        network.once("afterDrawing", function () {
          fetches += 1;
          window.kgExplorer.fetchDrawn = performance.now();
          document.body.setAttribute("data-fetches", String(fetches));
        });
        then(centre);
      }).catch(function (error) {
        if (ticket === asked) { ui.status.textContent = "Could not fetch the neighbourhood of " + label + ": " + error.message; }
      });
    }

    function needsFetch(i) { return fetching && (fetched.get(model.nodes[i].iri) || 0) < state.hops; }

    /** Show a node found by a server's search, fetching it first when it is not loaded. */
    function reveal(item) {
      if (nodeOf.has(item.iri)) { choose(nodeOf.get(item.iri)); }
      else { fetchAround(item.iri, item.label, function (i) { focusOn(i); }); }
    }

    // -- choosing: focus, select, panel (a served page fetches the neighbourhood first, and
    //    then frames it even when asked to keep the view: the new nodes may lie outside it)
    function choose(i, keepView) {
      if (needsFetch(i)) { fetchAround(model.nodes[i].iri, model.nodes[i].label, function (at) { focusOn(at); }); }
      else { focusOn(i, keepView); }
    }

    function focusOn(i, keepView) {
      state.focus = i;
      if (!state.types.has(model.nodes[i].type)) { state.types.add(model.nodes[i].type); syncControls(); }
      refresh();
      showNode(i);
      network.selectNodes([i]);
      if (!keepView) { frame(Array.from(visible.focus), 2.5 * baseScale); }
    }

    network.on("click", function (params) {
      if (params.nodes.length) { choose(params.nodes[0], true); }
      else if (params.edges.length) { showEdge(params.edges[0]); }
    });

    // -- search with suggestions (ARIA combobox); a served page asks the server
    var hits = [], active = -1, matchCount = 0, countComplete = true, searching = false, searches = 0;

    /** The node a suggestion is for: loaded (graph.html), or as the server described it. */
    function hitNode(hit) { return hit.item || model.nodes[hit.node]; }

    function suggestionText(hit) {
      var node = hitNode(hit);
      return hit.via > 0 ? node.label + " (" + node.alt[hit.via - 1] + ")" : node.label;
    }

    function found(list, count, complete) {
      hits = list;
      matchCount = count;
      countComplete = complete;
      active = -1;
      renderSuggestions();
    }

    /** Search for what is typed, then call `then` (at once here, on the answer from a server). */
    function runSearch(then) {
      var query = ui.search.value;
      if (!source.search || !normalise(query)) {
        searching = false;
        var local = search(model, query);
        found(local, local.length, true);
        if (then) { then(); }
        return;
      }
      var ticket = ++searches;
      searching = true;
      source.search(query).then(function (answer) {
        if (ticket !== searches) { return; }  // a later keystroke's answer is the one to show
        searching = false;
        found(answer.hits.map(function (hit) { return {item: answer.nodes[hit.node], rank: hit.rank, via: hit.via}; }),
              answer.total, answer.complete);
        if (then) { then(); }
      }).catch(function (error) {
        if (ticket === searches) { searching = false; ui.matches.textContent = "Search failed: " + error.message; }
      });
    }

    function renderSuggestions() {
      ui.suggestions.replaceChildren();
      var query = ui.search.value.trim();
      if (!query) {
        ui.matches.textContent = "";
        ui.suggestions.hidden = true;
        ui.search.setAttribute("aria-expanded", "false");
        return;
      }
      ui.matches.textContent = hits.length ? (countComplete ? "" : "more than ") + plural(matchCount, "match") +
        (matchCount > SUGGESTIONS ? ", the first " + SUGGESTIONS + " below" : "") : "Not found: nothing is named “" + query + "”.";
      ui.matches.classList.toggle("miss", !hits.length);
      hits.slice(0, SUGGESTIONS).forEach(function (hit, k) {
        var node = hitNode(hit), option = el("li");
        option.id = "suggestion-" + k;
        option.setAttribute("role", "option");
        option.setAttribute("aria-selected", k === active ? "true" : "false");
        var swatch = el("span", "swatch");
        swatch.style.background = data.colours[node.type] || data.colours.Other;
        option.appendChild(swatch);
        option.appendChild(el("span", "name", suggestionText(hit)));
        option.appendChild(el("span", "meta", " " + node.type + " · " + plural(node.support, "paper")));
        option.addEventListener("mousedown", function (event) { event.preventDefault(); pick(k); });
        ui.suggestions.appendChild(option);
      });
      ui.suggestions.hidden = !hits.length;
      ui.search.setAttribute("aria-expanded", hits.length ? "true" : "false");
      if (active >= 0) { ui.search.setAttribute("aria-activedescendant", "suggestion-" + active); }
      else { ui.search.removeAttribute("aria-activedescendant"); }
    }

    function pick(k) {
      var hit = hits[k];
      if (!hit) { return; }
      ui.search.value = "";
      hits = [];
      active = -1;
      renderSuggestions();
      ui.matches.textContent = "Showing " + suggestionText(hit) + ".";
      if (hit.item) { reveal(hit.item); } else { choose(hit.node); }
    }

    ui.search.addEventListener("input", function () { runSearch(); });
    ui.search.addEventListener("keydown", function (event) {
      var shown = Math.min(hits.length, SUGGESTIONS);
      if (event.key === "ArrowDown" && shown) { active = (active + 1) % shown; renderSuggestions(); event.preventDefault(); }
      else if (event.key === "ArrowUp" && shown) { active = (active - 1 + shown) % shown; renderSuggestions(); event.preventDefault(); }
      else if (event.key === "Enter") {
        if (searching || (!hits.length && ui.search.value.trim())) {
          runSearch(function () { if (hits.length) { pick(0); } });
        } else if (hits.length) { pick(active >= 0 ? active : 0); }
        event.preventDefault();
      } else if (event.key === "Escape") { searches += 1; searching = false; hits = []; active = -1; renderSuggestions(); }
    });
    ui.search.addEventListener("blur", function () { ui.suggestions.hidden = true; });

    // -- filters
    ui.minSupport.addEventListener("change", function () {
      state.minSupport = Math.max(1, parseInt(ui.minSupport.value, 10) || 1);
      refresh();
    });
    ui.minConfidence.addEventListener("input", function () {
      state.minConfidence = Number(ui.minConfidence.value) || 0;
      ui.confidenceValue.textContent = state.minConfidence.toFixed(2);
      refresh();
    });
    [ui.yearFrom, ui.yearTo].forEach(function (input) {
      input.addEventListener("change", function () {
        var from = parseInt(ui.yearFrom.value, 10), to = parseInt(ui.yearTo.value, 10);
        state.yearFrom = isNaN(from) ? model.minYear : from;
        state.yearTo = isNaN(to) ? model.maxYear : to;
        refresh();
      });
    });
    ui.hops.addEventListener("change", function () {
      state.hops = parseInt(ui.hops.value, 10) || 1;
      if (state.focus !== null && needsFetch(state.focus)) { choose(state.focus, true); } else { refresh(); }
    });
    ui.clearFocus.addEventListener("click", function () {
      state.focus = null;
      network.unselectAll();
      refresh();
    });
    ui.more.addEventListener("click", function () { state.cap += cap0; refresh(); });
    ui.reset.addEventListener("click", function () {
      resetState();
      syncControls();
      network.unselectAll();
      refresh();
      fitView();
    });
    ui.detailsToggle.addEventListener("click", function () {
      setPanel(ui.details.hidden);
    });
    // Escape in the panel closes it and gives the keyboard back to the toggle.
    ui.details.addEventListener("keydown", function (event) {
      if (event.key === "Escape") { setPanel(false); ui.detailsToggle.focus(); }
    });
    ui.controlsToggle.addEventListener("click", function () {
      var hide = !document.body.classList.contains("controls-hidden");
      document.body.classList.toggle("controls-hidden", hide);
      ui.controlsToggle.setAttribute("aria-expanded", String(!hide));
      ui.controlsToggle.textContent = hide ? "Show search and filters" : "Hide";
    });

    // A handle for tests and benchmarks (benchmarks/page.py reads the time to first draw).
    window.kgExplorer = {network: network, nodes: nodeSet, edges: edgeSet, model: model, state: state,
                         search: function (q) { return search(model, q); }, choose: choose};
    network.once("afterDrawing", function () {
      window.kgExplorer.firstDraw = performance.now();
      document.body.setAttribute("data-drawn", "true");
    });
    refresh();
    fitView();
    if (source.initial) { reveal({iri: source.initial, label: source.initial}); }
  }

  var source = window.kgExplorerSource || embeddedSource("kg-data");
  source.load().then(start).catch(function (error) {
    document.getElementById("status").textContent = "The graph could not be shown: " + error;
    throw error;
  });
})();
