// The explorer's page (assets/app.js) run by node in a minimal DOM of its
// own, its requests sent to a live `friction serve`: loads an example,
// clicks Run, and prints what the page drew as JSON on stdout.
//
//   node run_page.js http://127.0.0.1:PORT EXAMPLE
//
// Printed: { status, temp_hidden, plots: [{ el, labels, columns }] } with
// `columns` the plotted arrays by label, and `run` the response's columns.
"use strict";
const fs = require("fs");
const path = require("path");
const vm = require("vm");

const [base, example] = process.argv.slice(2);
const plots = [];
const errors = [];

class El {
  constructor(tag, id) {
    Object.assign(this, { tagName: tag, id: id || "", children: [], listeners: {}, value: "", textContent: "",
      hidden: false, disabled: false, checked: false, dataset: {}, style: {}, files: [], title: "",
      clientWidth: 640, width: 600, height: 300, html: "" });
    this.classList = { toggle() {}, add() {}, remove() {} };
  }
  set innerHTML(v) { this.html = v; this.children = []; }
  get innerHTML() { return this.html; }
  addEventListener(t, f) { (this.listeners[t] = this.listeners[t] || []).push(f); }
  async fire(t) { for (const f of this.listeners[t] || []) await f(); }
  appendChild(c) { this.children.push(c); return c; }
  querySelector() { return new El("div"); }
  getContext() { return new Proxy({}, { get: (o, k) => (k in o ? o[k] : () => {}), set: (o, k, v) => ((o[k] = v), true) }); }
  insertAdjacentHTML(_, h) { errors.push(h); }
  click() {}
  remove() {}
}

const els = {};
const byId = (id) => (els[id] = els[id] || new El("div", id));
globalThis.window = globalThis;
globalThis.document = {
  getElementById: byId,
  createElement: (tag) => new El(tag),
  createTextNode: (t) => ({ textContent: t }),
  body: new El("body"),
  querySelectorAll: (sel) =>
    sel === "#columns input:checked"
      ? byId("columns").children.flatMap((l) => l.children || []).filter((c) => c.checked)
      : [],
};
globalThis.uPlot = class {
  constructor(opts, data, el) {
    const labels = opts.series.slice(1).map((s) => s.label);
    const columns = {};
    labels.forEach((l, i) => (columns[l] = data[i + 1]));
    plots.push({ el: el.id, labels, columns });
  }
  valToPos() { return 0; }
};
const realFetch = globalThis.fetch;
globalThis.fetch = (p, init) => realFetch(base + p, init);

(async () => {
  const src = fs.readFileSync(path.join(__dirname, "../../assets/app.js"), "utf8");
  vm.runInThisContext(src, { filename: "app.js" });
  const F = window.__friction;
  for (let k = 0; k < 600 && !F.ready && !errors.length; k++) await new Promise((r) => setTimeout(r, 50));
  if (!F.ready) throw new Error("the page did not start: " + errors.join("; "));
  byId("example").value = example;
  await byId("example").fire("change");
  await byId("run").fire("click");
  const status = byId("run-status").textContent;
  if (!F.run) throw new Error("no run: " + byId("run-error").textContent);
  const run = {};
  for (const n of F.run.names) run[n] = F.run.columns[n];
  process.stdout.write(JSON.stringify({ status, temp_hidden: byId("temp-panel").hidden, plots, run }));
})().catch((e) => { process.stderr.write(String(e.stack || e)); process.exit(1); });
