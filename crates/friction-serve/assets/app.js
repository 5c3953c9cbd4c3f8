// friction explorer: the page of `friction serve` (plain JS, no build step).
// window.__friction exposes the page's state for tests and the console.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"];
  const F = (window.__friction = { models: [], model: null, params: {}, response: null, responses: 0,
    errors: [], compare: [], run: null, sweep: null, plots: {} });

  async function api(path, body, contentType) {
    const init = body === undefined ? {} : {
      method: "POST", body: typeof body === "string" ? body : JSON.stringify(body),
      headers: { "Content-Type": contentType || "application/json" } };
    const r = await fetch(path, init);
    const j = await r.json().catch(() => ({ error: "HTTP " + r.status }));
    if (!r.ok) throw new Error(j.error || ("HTTP " + r.status));
    return j;
  }
  function showError(el, msg) { const e = $(el); e.textContent = msg || ""; e.hidden = !msg; }
  function debounce(fn, ms) { let h; return (...a) => { clearTimeout(h); h = setTimeout(() => fn(...a), ms); }; }
  function fmt(x) { return x === null || x === undefined ? "" : Math.abs(x) >= 1e4 || (x !== 0 && Math.abs(x) < 1e-3) ? x.toExponential(3) : String(+x.toPrecision(4)); }

  // ---- tabs
  document.querySelectorAll("nav button").forEach((b) => b.addEventListener("click", () => {
    document.querySelectorAll("nav button").forEach((x) => x.classList.toggle("active", x === b));
    document.querySelectorAll(".tab").forEach((t) => t.classList.toggle("active", t.id === "tab-" + b.dataset.tab));
  }));

  // ---- a small x-y line plot on a canvas (loops are not monotonic in x)
  function xyPlot(canvas, series) {
    const ctx = canvas.getContext("2d"), W = canvas.width, H = canvas.height, m = { l: 62, r: 10, t: 10, b: 28 };
    ctx.clearRect(0, 0, W, H);
    let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
    for (const s of series) for (let i = 0; i < s.x.length; i++) {
      const x = s.x[i], y = s.y[i];
      if (x === null || y === null || !isFinite(x) || !isFinite(y)) continue;
      x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
    }
    if (!isFinite(x0)) return;
    if (x1 === x0) { x0 -= 1; x1 += 1; }
    if (y1 === y0) { y0 -= 1; y1 += 1; }
    const py = 0.05 * (y1 - y0); y0 -= py; y1 += py;
    const X = (x) => m.l + (x - x0) / (x1 - x0) * (W - m.l - m.r), Y = (y) => H - m.b - (y - y0) / (y1 - y0) * (H - m.t - m.b);
    ctx.strokeStyle = "#888"; ctx.fillStyle = "#333"; ctx.font = "11px sans-serif"; ctx.lineWidth = 1;
    ctx.strokeRect(m.l, m.t, W - m.l - m.r, H - m.t - m.b);
    for (let k = 0; k <= 4; k++) {
      const xv = x0 + k * (x1 - x0) / 4, yv = y0 + k * (y1 - y0) / 4;
      ctx.textAlign = "center"; ctx.fillText(fmt(xv), X(xv), H - m.b + 14);
      ctx.textAlign = "right"; ctx.fillText(fmt(yv), m.l - 4, Y(yv) + 4);
    }
    if (x0 < 0 && x1 > 0) { ctx.strokeStyle = "#ddd"; ctx.beginPath(); ctx.moveTo(X(0), m.t); ctx.lineTo(X(0), H - m.b); ctx.stroke(); }
    if (y0 < 0 && y1 > 0) { ctx.strokeStyle = "#ddd"; ctx.beginPath(); ctx.moveTo(m.l, Y(0)); ctx.lineTo(W - m.r, Y(0)); ctx.stroke(); }
    series.forEach((s, j) => {
      ctx.strokeStyle = s.color || COLORS[j % COLORS.length]; ctx.lineWidth = 1.5; ctx.beginPath();
      let pen = false;
      for (let i = 0; i < s.x.length; i++) {
        const x = s.x[i], y = s.y[i];
        if (x === null || y === null) { pen = false; continue; }
        if (pen) ctx.lineTo(X(x), Y(y)); else { ctx.moveTo(X(x), Y(y)); pen = true; }
      }
      ctx.stroke();
      if (s.label) { ctx.fillStyle = ctx.strokeStyle; ctx.textAlign = "left"; ctx.fillText(s.label, m.l + 6, m.t + 14 + 13 * j); }
    });
  }

  // ---- a time plot (uPlot: zoom by dragging, events as vertical lines)
  function timePlot(el, names, cols, events, width) {
    el.innerHTML = "";
    if (!names.length) return null;
    const data = [cols.t].concat(names.map((n) => cols[n]));
    const opts = {
      width: width || 620, height: 300, scales: { x: { time: false } },
      series: [{ label: "t [s]" }].concat(names.map((n, i) => ({ label: n, stroke: COLORS[i % COLORS.length], width: 1.5 }))),
      axes: [{}, { size: 64 }],
      hooks: { draw: [(u) => {
        const c = u.ctx; c.save(); c.strokeStyle = "rgba(200,0,0,0.35)"; c.lineWidth = 1;
        for (const e of events || []) {
          const x = u.valToPos(e.t, "x", true);
          if (x < u.bbox.left || x > u.bbox.left + u.bbox.width) continue;
          c.beginPath(); c.moveTo(x, u.bbox.top); c.lineTo(x, u.bbox.top + u.bbox.height); c.stroke();
        }
        c.restore();
      }] },
    };
    return new uPlot(opts, data, el);
  }

  // ---- model gallery
  function defaults(m) {
    const p = {};
    for (const q of m.parameters) {
      if (q.kind === "real" && q.default !== null) p[q.name] = q.default;
      else if (q.kind === "integer" || q.kind === "bool" || q.kind === "choice") p[q.name] = q.default;
    }
    return p;
  }
  function sliderSpan(q) {
    const r = { lo: q.min, hi: q.max }, d = q.default;
    let lo, hi, log = false;
    if (d > 0 && (r.lo === null || r.lo >= 0)) { lo = d / 10; hi = d * 10; log = true; }
    else { lo = d - 1; hi = d + 1; }
    if (r.lo !== null && r.lo !== undefined) lo = Math.max(lo, r.lo);
    if (r.hi !== null && r.hi !== undefined) hi = Math.min(hi, r.hi);
    if (log && lo <= 0) lo = d / 10;
    return { lo, hi, log };
  }
  function paramRow(q, value, onChange) {
    const row = document.createElement("div"); row.className = "param";
    const lab = document.createElement("label"); lab.textContent = `${q.symbol} (${q.name})`; lab.title = q.doc;
    row.appendChild(lab);
    let input, slider = null;
    if (q.kind === "choice") {
      input = document.createElement("select");
      for (const o of q.options) { const op = document.createElement("option"); op.value = op.textContent = o; input.appendChild(op); }
      input.value = value;
      input.addEventListener("change", () => onChange(q.name, input.value));
      row.appendChild(document.createElement("span"));
    } else if (q.kind === "bool") {
      input = document.createElement("input"); input.type = "checkbox"; input.checked = !!value;
      input.addEventListener("change", () => onChange(q.name, input.checked));
      row.appendChild(document.createElement("span"));
    } else {
      input = document.createElement("input"); input.type = "number"; input.step = "any";
      input.value = value === undefined || value === null ? "" : value;
      input.name = q.name;
      if (q.kind === "real" && q.default !== null && isFinite(q.default)) {
        const s = sliderSpan(q);
        slider = document.createElement("input"); slider.type = "range"; slider.min = 0; slider.max = 1000; slider.name = q.name;
        const toX = (k) => s.log ? s.lo * Math.pow(s.hi / s.lo, k / 1000) : s.lo + (s.hi - s.lo) * k / 1000;
        const toK = (x) => s.log ? 1000 * Math.log(x / s.lo) / Math.log(s.hi / s.lo) : 1000 * (x - s.lo) / (s.hi - s.lo);
        slider.value = String(Math.round(toK(value)));
        slider.addEventListener("input", () => { const x = +toX(+slider.value).toPrecision(6); input.value = x; onChange(q.name, x); });
        input.addEventListener("input", () => { if (input.value !== "" && isFinite(+input.value)) slider.value = String(Math.round(toK(+input.value))); });
        row.appendChild(slider);
      } else row.appendChild(document.createElement("span"));
      input.addEventListener("input", () => {
        if (input.value.trim() === "") { onChange(q.name, undefined); return; }
        onChange(q.name, Number(input.value));
      });
    }
    row.appendChild(input);
    const rg = document.createElement("div"); rg.className = "range";
    rg.textContent = `${q.unit}; valid ${q.range}; default ${q.default_text}. ${q.doc}`;
    row.appendChild(rg);
    return row;
  }

  function gallery() {
    const g = $("gallery"); g.innerHTML = "";
    for (const m of F.models) {
      const c = document.createElement("div"); c.className = "card"; c.dataset.model = m.id;
      c.innerHTML = `<h3></h3><div class="family"></div><p></p>`;
      c.querySelector("h3").textContent = m.id; c.querySelector(".family").textContent = m.family; c.querySelector("p").textContent = m.summary;
      c.addEventListener("click", () => openModel(m.id));
      g.appendChild(c);
    }
  }

  async function openModel(id) {
    const m = await api("/api/models/" + encodeURIComponent(id));
    F.model = m; F.params = defaults(m); F.response = null;
    $("gallery").hidden = true; $("model-view").hidden = false;
    $("model-title").textContent = `${m.id} (${m.family})`; $("model-summary").textContent = m.summary;
    $("equations").textContent = m.equations; $("states").textContent = "States: " + m.states;
    const refs = $("references"); refs.innerHTML = "";
    for (const r of m.references) { const li = document.createElement("li"); li.textContent = r.full; refs.appendChild(li); }
    const ps = $("params"); ps.innerHTML = "";
    for (const q of m.parameters) {
      if (q.kind === "rows" || q.kind === "model" || q.kind === "optional real") {
        const d = document.createElement("div"); d.className = "param";
        d.textContent = `${q.symbol} (${q.name}): ${q.kind === "rows" ? "a table of rows" : q.kind === "model" ? "an inner model" : "optional"}, edit it in a scenario`;
        if (q.kind === "rows") continue; else { ps.appendChild(d); continue; }
      }
      ps.appendChild(paramRow(q, F.params[q.name], (k, v) => { if (v === undefined) delete F.params[k]; else F.params[k] = v; update(); }));
    }
    showError("model-error", "");
    await updateNow();
  }
  $("back").addEventListener("click", () => { $("model-view").hidden = true; $("gallery").hidden = false; });

  function loopReq() { return { amplitude: Number($("loop-a").value), frequency: Number($("loop-f").value) }; }
  function curveReq() { return { kind: "steady", v_min: Number($("curve-vmin").value), v_max: Number($("curve-v").value), points: 40 }; }
  // the velocities whose force did not settle are not plotted: say so
  function unsettledNote(c) {
    const u = c.unsettled || [];
    return u.length ? `${u.length} velocities did not settle and are not plotted: ` + u.map((p) => `v = ${fmt(p.v)} (${p.reason})`).join("; ") : "";
  }
  let seq = 0;
  async function updateNow() {
    if (!F.model) return;
    const mine = ++seq;
    try {
      const r = await api("/api/response", { model: F.model.id, params: F.params, loop: loopReq(), curve: curveReq(), stick_slip: true });
      if (mine !== seq) return;
      F.response = r; F.responses++;
      showError("model-error", "");
      xyPlot($("plot-loop"), [{ x: r.loop.x, y: r.loop.F }]);
      $("dissipation").textContent = fmt(r.loop.dissipation) + " J";
      xyPlot($("plot-curve"), [{ x: r.curve.v, y: r.curve.F }]);
      $("curve-note").textContent = unsettledNote(r.curve);
      const s = r.stick_slip;
      F.plots.stickslip = timePlot($("plot-stickslip"), ["v.m", "F.c"], s, s.events, 560);
    } catch (e) {
      if (mine !== seq) return;
      F.errors.push(e.message);
      showError("model-error", e.message); // the last good plots stay
    }
  }
  const update = debounce(updateNow, 150);
  ["loop-a", "loop-f", "curve-v", "curve-vmin"].forEach((id) => $(id).addEventListener("input", update));

  // ---- compare
  function compareList() {
    const ul = $("compare-list"); ul.innerHTML = "";
    F.compare.forEach((c, i) => {
      const li = document.createElement("li");
      li.innerHTML = `<span style="background:${COLORS[i % COLORS.length]}"></span>`;
      li.appendChild(document.createTextNode(c.label ? `${c.label}: ${c.model} ${JSON.stringify(c.params)}` : `${c.model} ${JSON.stringify(c.params)}`));
      ul.appendChild(li);
    });
  }
  async function compareUpdate() {
    compareList();
    if (!F.compare.length) return;
    try {
      const loop = { amplitude: Number($("cmp-a").value), frequency: Number($("cmp-f").value) };
      const vmax = Number($("cmp-v").value), curve = { kind: "steady", v_min: vmax / 1000, v_max: vmax, points: 40 };
      const rs = await Promise.all(F.compare.map((c) => api("/api/response", { model: c.model, params: c.params, loop, curve })));
      showError("compare-error", "");
      xyPlot($("cmp-loop"), rs.map((r, i) => ({ x: r.loop.x, y: r.loop.F, label: `${F.compare[i].label || F.compare[i].model}: ${fmt(r.loop.dissipation)} J/cycle` })));
      xyPlot($("cmp-curve"), rs.map((r, i) => ({ x: r.curve.v, y: r.curve.F, label: F.compare[i].label || F.compare[i].model })));
      F.compareResponses = rs;
    } catch (e) { showError("compare-error", e.message); }
  }
  $("to-compare").addEventListener("click", () => { F.compare.push({ model: F.model.id, params: Object.assign({}, F.params) }); compareUpdate(); });
  $("compare-add").addEventListener("click", () => { F.compare.push({ model: $("compare-model").value, params: {} }); compareUpdate(); });
  // a `friction tune` result: the tuned model and its target, at the tune's sine
  async function addTune(text) {
    try {
      const t = await api("/api/compare/tune", text);
      t.entries.forEach((e) => F.compare.push({ model: e.model, params: e.params, label: e.label }));
      if (t.amplitudes.length) $("cmp-a").value = t.amplitudes[0];
      if (t.frequency) $("cmp-f").value = t.frequency;
      showError("compare-error", ""); await compareUpdate();
    } catch (e) { showError("compare-error", e.message); }
  }
  $("compare-tune-add").addEventListener("click", () => addTune($("compare-tune").value));
  $("compare-tune-file").addEventListener("change", async () => { const f = $("compare-tune-file").files[0]; if (f) addTune(await f.text()); });
  $("compare-clear").addEventListener("click", () => { F.compare = []; compareList(); });
  ["cmp-a", "cmp-f", "cmp-v"].forEach((id) => $(id).addEventListener("input", debounce(compareUpdate, 200)));

  // ---- scenarios
  async function loadExample(name) {
    const e = await api("/api/examples/" + encodeURIComponent(name));
    $("scenario").value = e.toml; F.scenarioName = e.file;
  }
  $("example").addEventListener("change", () => loadExample($("example").value));
  $("file").addEventListener("change", async () => {
    const f = $("file").files[0]; if (!f) return;
    $("scenario").value = await f.text(); F.scenarioName = f.name;
  });
  // run and sweep ids no other page can guess (128 random bits)
  function randomId(prefix) {
    return prefix + [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
  }
  // the thermal nodes' temperatures (columns `T.NODE`, kelvin): a panel of their own
  function temperatureNames(names) { return names.filter((n) => n.startsWith("T.")); }
  function plotRun() {
    const r = F.run; if (!r) return;
    const names = [...document.querySelectorAll("#columns input:checked")].map((c) => c.value);
    const width = Math.max(500, $("plot-run").clientWidth || 620);
    F.plots.run = timePlot($("plot-run"), names, r.columns, r.summary.events, width);
    const temps = temperatureNames(r.names);
    $("temp-panel").hidden = !temps.length;
    F.plots.temperature = timePlot($("plot-temp"), temps, r.columns, r.summary.events, width);
  }
  $("run").addEventListener("click", async () => {
    const id = randomId("page-");
    $("run").disabled = true; $("cancel").disabled = false; $("run-status").textContent = "running";
    showError("run-error", "");
    const poll = setInterval(async () => {
      try { const p = await api("/api/progress/" + id); if (!p.finished) $("run-status").textContent = `t = ${fmt(p.t)} of ${p.t_end} s, ${p.events} events`; } catch (e) { /* finished */ }
    }, 400);
    F.runId = id;
    try {
      const r = await api(`/api/run?id=${id}&name=${encodeURIComponent(F.scenarioName || "scenario.toml")}`, $("scenario").value, "application/toml");
      F.run = r;
      const cols = $("columns"); cols.innerHTML = "";
      r.names.slice(1).forEach((n, i) => {
        const l = document.createElement("label"); const c = document.createElement("input");
        c.type = "checkbox"; c.value = n; c.checked = i < 3; c.addEventListener("change", plotRun);
        l.appendChild(c); l.appendChild(document.createTextNode(` ${n} [${r.units[n]}]`)); cols.appendChild(l);
      });
      plotRun();
      $("summary").textContent = JSON.stringify({ status: r.summary.status, error: r.summary.error, final: r.summary.final, events: r.summary.events.length, stats: r.summary.stats, energy: r.summary.energy }, null, 1);
      ["dl-csv", "dl-json", "dl-summary"].forEach((b) => ($(b).disabled = false));
      $("run-status").textContent = `${r.summary.status}: ${r.columns.t.length} rows, ${r.summary.events.length} events, ${fmt(r.summary.stats.wall_time_s)} s`;
    } catch (e) {
      showError("run-error", e.message); $("run-status").textContent = "failed";
    } finally { clearInterval(poll); $("run").disabled = false; $("cancel").disabled = true; }
  });
  $("cancel").addEventListener("click", () => api("/api/cancel/" + F.runId, "").catch(() => {}));
  function download(name, text, type) {
    const a = document.createElement("a"); a.href = URL.createObjectURL(new Blob([text], { type })); a.download = name;
    document.body.appendChild(a); a.click(); a.remove();
  }
  function csvNumber(x) { if (x === null) return "NaN"; let s = x.toExponential(); return s.replace("e+", "e"); }
  $("dl-csv").addEventListener("click", () => {
    const r = F.run, lines = ["# units: " + r.names.map((n) => r.units[n]).join(", "), r.names.join(",")];
    for (let i = 0; i < r.columns.t.length; i++) lines.push(r.names.map((n) => csvNumber(r.columns[n][i])).join(","));
    download("timeseries.csv", lines.join("\n") + "\n", "text/csv");
  });
  $("dl-json").addEventListener("click", () => download("run.json", JSON.stringify(F.run), "application/json"));
  $("dl-summary").addEventListener("click", () => download("summary.json", JSON.stringify(F.run.summary, null, 2), "application/json"));

  // ---- sweep: a heat map of one metric over two grid keys
  function heat(t) {
    t = Math.max(0, Math.min(1, t));
    const r = Math.round(255 * Math.min(1, 1.6 * t)), g = Math.round(255 * Math.max(0, 1.4 * t - 0.4)), b = Math.round(120 * (1 - t) + 60);
    return `rgb(${r},${g},${b})`;
  }
  $("sweep-run").addEventListener("click", async () => {
    showError("sweep-error", ""); $("sweep-status").textContent = "running";
    if (!$("scenario").value.trim()) await loadExample("lugre_stick_slip");
    const id = randomId("sweep-");
    F.sweepId = id; $("sweep-run").disabled = true; $("sweep-cancel").disabled = false;
    const poll = setInterval(async () => {
      try { const p = await api("/api/progress/" + id); if (!p.finished) $("sweep-status").textContent = `${p.done} of ${p.total} runs done`; } catch (e) { /* finished */ }
    }, 400);
    try {
      const s = await api("/api/sweep?id=" + id, { toml: $("scenario").value, name: F.scenarioName || "scenario.toml",
        grid: [$("grid1").value, $("grid2").value], metric: [$("metric").value] });
      F.sweep = s;
      const xs = [...new Set(s.points.map((p) => p[0]))], ys = [...new Set(s.points.map((p) => p[1]))];
      const vals = s.values.map((v) => v[0]).filter((v) => v !== null && isFinite(v));
      const lo = Math.min(...vals), hi = Math.max(...vals);
      const c = $("heatmap"), ctx = c.getContext("2d"), m = { l: 70, b: 40, t: 10, r: 80 };
      const W = c.width - m.l - m.r, H = c.height - m.t - m.b, cw = W / xs.length, ch = H / ys.length;
      ctx.clearRect(0, 0, c.width, c.height); ctx.font = "11px sans-serif"; ctx.fillStyle = "#333";
      s.points.forEach((p, k) => {
        const i = xs.indexOf(p[0]), j = ys.indexOf(p[1]), v = s.values[k][0];
        ctx.fillStyle = v === null ? "#bbb" : heat((v - lo) / (hi - lo || 1));
        ctx.fillRect(m.l + i * cw, m.t + H - (j + 1) * ch, Math.ceil(cw), Math.ceil(ch));
      });
      ctx.fillStyle = "#333"; ctx.textAlign = "center";
      xs.forEach((x, i) => { if (i % Math.ceil(xs.length / 8) === 0) ctx.fillText(fmt(x), m.l + (i + 0.5) * cw, c.height - m.b + 14); });
      ctx.fillText(s.paths[0], m.l + W / 2, c.height - 8);
      ctx.textAlign = "right";
      ys.forEach((y, j) => { if (j % Math.ceil(ys.length / 8) === 0) ctx.fillText(fmt(y), m.l - 4, m.t + H - (j + 0.5) * ch + 4); });
      ctx.save(); ctx.translate(12, m.t + H / 2); ctx.rotate(-Math.PI / 2); ctx.textAlign = "center"; ctx.fillText(s.paths[1], 0, 0); ctx.restore();
      for (let k = 0; k <= 20; k++) { ctx.fillStyle = heat(k / 20); ctx.fillRect(c.width - m.r + 20, m.t + H - (k + 1) * H / 21, 16, H / 21 + 1); }
      ctx.fillStyle = "#333"; ctx.textAlign = "left";
      ctx.fillText(fmt(hi), c.width - m.r + 40, m.t + 10); ctx.fillText(fmt(lo), c.width - m.r + 40, m.t + H);
      const failed = s.errors.filter((e) => e && e !== "cancelled by the user").length;
      $("sweep-status").textContent = (s.cancelled ? `cancelled: ${s.done} of ${s.points.length} runs done` : `${s.points.length} runs`) + ` of ${s.metrics[0]}` + (failed ? `, ${failed} failed` : "");
    } catch (e) { showError("sweep-error", e.message); $("sweep-status").textContent = "failed"; }
    finally { clearInterval(poll); $("sweep-run").disabled = false; $("sweep-cancel").disabled = true; }
  });
  $("sweep-cancel").addEventListener("click", () => api("/api/cancel/" + F.sweepId, "").catch(() => {}));

  // ---- start
  (async function start() {
    try {
      F.models = await api("/api/models");
      gallery();
      const sel = $("compare-model");
      for (const m of F.models) { const o = document.createElement("option"); o.value = o.textContent = m.id; sel.appendChild(o); }
      const ex = await api("/api/examples"), es = $("example");
      for (const e of ex) { const o = document.createElement("option"); o.value = e.name; o.textContent = e.name; o.title = e.title; es.appendChild(o); }
      es.value = "lugre_stick_slip"; await loadExample("lugre_stick_slip");
      const sc = await api("/api/schema"); $("schema-help").textContent = sc.markdown;
      F.ready = true;
    } catch (e) { F.errors.push(e.message); document.body.insertAdjacentHTML("afterbegin", `<div class="error">${e.message}</div>`); }
  })();
})();
