// The query page of `kg serve`: run the editor's query on /sparql, show the answer as a table.
// Written for this project; no library, no request leaves the server's own origin.
"use strict";

const examples = JSON.parse(document.getElementById("examples-data").textContent);
const editor = document.getElementById("query");
const question = document.getElementById("question");
const status = document.getElementById("status");
const results = document.getElementById("results");
const ACCEPT = "application/sparql-results+json, text/turtle;q=0.9";

function entityLink(iri) {
  const link = document.createElement("a");
  link.href = "/entity?iri=" + encodeURIComponent(iri);
  link.textContent = iri.replace(/^https:\/\/w3id\.org\/kg-lit\/id\//, "kgid:");
  link.title = iri;
  return link;
}

function cell(term) {
  const td = document.createElement("td");
  if (!term) return td;
  if (term.type === "uri") td.appendChild(entityLink(term.value));
  else td.textContent = term.value;
  if (term.type === "literal" && term.datatype && /#(integer|decimal|double)$/.test(term.datatype)) td.className = "number";
  return td;
}

function showTable(data) {
  const table = document.createElement("table");
  const head = table.createTHead().insertRow();
  for (const name of data.head.vars) {
    const th = document.createElement("th");
    th.textContent = name;
    head.appendChild(th);
  }
  const body = table.createTBody();
  for (const binding of data.results.bindings) {
    const row = body.insertRow();
    for (const name of data.head.vars) row.appendChild(cell(binding[name]));
  }
  results.replaceChildren(table);
  return data.results.bindings.length;
}

function showText(text, className) {
  const pre = document.createElement("pre");
  pre.textContent = text;
  if (className) pre.className = className;
  results.replaceChildren(pre);
}

async function run() {
  const started = performance.now();
  status.textContent = "running…";
  let response;
  try {
    response = await fetch("/sparql", {
      method: "POST",
      headers: {"Content-Type": "application/sparql-query", "Accept": ACCEPT},
      body: editor.value,
    });
  } catch (error) {
    status.textContent = "";
    showText("The server did not answer: " + error, "error");
    return;
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  const type = response.headers.get("Content-Type") || "";
  if (!response.ok) {
    status.textContent = response.status + " " + response.statusText;
    showText(await response.text(), "error");
    return;
  }
  const cut = response.headers.get("X-Kg-Truncated");
  const note = cut ? ` (cut at ${cut} rows)` : "";
  if (type.startsWith("application/sparql-results+json")) {
    const data = await response.json();
    if ("boolean" in data) {
      showText(String(data.boolean));
      status.textContent = `${seconds} s`;
    } else {
      const rows = showTable(data);
      status.textContent = `${rows} row${rows === 1 ? "" : "s"}${note} in ${seconds} s`;
    }
  } else {
    showText(await response.text());
    status.textContent = `${seconds} s${note}`;
  }
}

for (const button of document.querySelectorAll("button[data-example]")) {
  button.addEventListener("click", () => {
    const example = examples[Number(button.dataset.example)];
    editor.value = example.sparql;
    question.textContent = example.question;
    run();
  });
}
for (const link of document.querySelectorAll("a[data-format]")) {
  link.addEventListener("click", () => {
    link.href = "/sparql?" + new URLSearchParams({query: editor.value, format: link.dataset.format});
  });
}
document.getElementById("run").addEventListener("click", run);
editor.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    run();
  }
});

// A link to "/?query=..." opens the page with that query and runs it.
const shared = new URLSearchParams(window.location.search).get("query");
if (shared) {
  editor.value = shared;
  run();
}
