// The loadgw console: polls /api/_console/overview and /api/_load_history
// and draws them. No dependencies; every request goes to this server.
"use strict";

const PAGE = 50;
const POINTS = 60;
const state = { offset: 0, total: 0, prev: null, series: { loads: [], rows: [], commit: [] } };

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  for (const k of kids) e.append(k instanceof Node ? k : document.createTextNode(String(k)));
  return e;
}

function bytes(n) {
  const u = ["B", "KiB", "MiB", "GiB", "TiB"];
  let i = 0;
  while (n >= 1024 && i < u.length - 1) { n /= 1024; i++; }
  return (i ? n.toFixed(1) : n) + " " + u[i];
}

function time(ms) {
  return ms > 0 ? new Date(ms).toISOString().replace("T", " ").slice(0, 19) : "";
}

async function getJSON(url) {
  const r = await fetch(url, { credentials: "same-origin" });
  const j = await r.json();
  if (j.code !== 0) throw new Error(j.msg + ": " + j.data);
  return j.data;
}

function fill(tbody, rows) {
  tbody.replaceChildren(...rows);
}

async function loadLoads() {
  const q = new URLSearchParams({ offset: state.offset, limit: PAGE });
  const st = document.getElementById("status").value;
  const label = document.getElementById("label").value.trim();
  if (st) q.set("status", st);
  if (label) q.set("label", label);
  const d = await getJSON("/api/_load_history?" + q);
  state.total = d.total;
  document.getElementById("loads-total").textContent =
    `(${d.total} in history, keeping the last ${d.keep})`;
  const last = Math.min(state.offset + d.loads.length, d.total);
  document.getElementById("page").textContent = d.total ? `${state.offset + 1}–${last} of ${d.total}` : "none";
  document.getElementById("prev").disabled = state.offset === 0;
  document.getElementById("next").disabled = last >= d.total;
  fill(document.querySelector("#loads tbody"), d.loads.map(l => {
    const log = l.error_url ? el("a", { href: l.error_url, target: "_blank", class: "errlog" }, "error log") : "";
    return el("tr", { "data-label": l.label },
      el("td", {}, time(l.finish_ms)),
      el("td", { class: "label" }, l.label),
      el("td", {}, l.db + "." + l.table),
      el("td", { class: "status status-" + l.status.split(" ")[0] }, l.status),
      el("td", { class: "n" }, l.loaded_rows),
      el("td", { class: "n" }, l.filtered_rows),
      el("td", { class: "n" }, bytes(l.load_bytes)),
      el("td", { class: "msg" }, l.message),
      el("td", {}, log));
  }));
}

function draw(id, values, fmt, valueId) {
  const c = document.getElementById(id), g = c.getContext("2d");
  g.clearRect(0, 0, c.width, c.height);
  const max = Math.max(1e-9, ...values);
  g.strokeStyle = "#2f6fdb";
  g.lineWidth = 1.5;
  g.beginPath();
  values.forEach((v, i) => {
    const x = c.width - (values.length - 1 - i) * (c.width / (POINTS - 1));
    const y = c.height - 2 - (v / max) * (c.height - 6);
    i ? g.lineTo(x, y) : g.moveTo(x, y);
  });
  g.stroke();
  document.getElementById(valueId).textContent = values.length ? fmt(values[values.length - 1]) : "–";
}

function push(arr, v) {
  arr.push(v);
  if (arr.length > POINTS) arr.shift();
}

async function loadOverview() {
  const d = await getJSON("/api/_console/overview");
  const t = d.totals, now = performance.now();
  if (state.prev) {
    const dt = (now - state.prev.at) / 1000, p = state.prev.totals;
    push(state.series.loads, (t.Loads - p.Loads) / dt);
    push(state.series.rows, (t.LoadedRows - p.LoadedRows) / dt);
    const dc = t.Commits - p.Commits;
    push(state.series.commit, dc > 0 ? (t.CommitSeconds - p.CommitSeconds) / dc * 1000 : 0);
  }
  state.prev = { at: now, totals: t };
  draw("c-loads", state.series.loads, v => v.toFixed(1), "v-loads");
  draw("c-rows", state.series.rows, v => Math.round(v).toLocaleString(), "v-rows");
  draw("c-commit", state.series.commit, v => v.toFixed(1) + " ms", "v-commit");
  const s = d.store;
  document.getElementById("store").textContent =
    `disk ${bytes(s.DiskBytes)} · L0 ${s.L0Files} files / ${s.L0Sublevels} sublevels · ` +
    `memtables ${bytes(s.MemTableBytes)} · ${t.Loads} loads (${t.FailedLoads} failed) since start`;
  fill(document.querySelector("#tables tbody"), (d.tables || []).map(x =>
    el("tr", {}, el("td", {}, x.db + "." + x.name), el("td", {}, x.model),
      el("td", { class: "n" }, x.rows < 0 ? "?" : x.rows.toLocaleString()),
      el("td", { class: "n" }, bytes(x.disk_bytes)), el("td", {}, x.binlog), el("td", {}, x.ttl))));
  const txns = d.open_txns || [];
  fill(document.querySelector("#txns tbody"), txns.length ? txns.map(x =>
    el("tr", {}, el("td", {}, x.txn_id), el("td", {}, x.label), el("td", {}, x.db + "." + x.table),
      el("td", {}, x.state), el("td", {}, time(x.prepare_ms)))) :
    [el("tr", {}, el("td", { colspan: 5, class: "muted" }, "none"))]);
  document.getElementById("updated").textContent = "updated " + new Date().toLocaleTimeString();
}

async function refresh() {
  try {
    await Promise.all([loadLoads(), loadOverview()]);
  } catch (e) {
    document.getElementById("updated").textContent = "error: " + e.message;
  }
}

document.getElementById("prev").onclick = () => { state.offset = Math.max(0, state.offset - PAGE); loadLoads(); };
document.getElementById("next").onclick = () => { state.offset += PAGE; loadLoads(); };
document.getElementById("status").onchange = () => { state.offset = 0; loadLoads(); };
document.getElementById("label").onchange = () => { state.offset = 0; loadLoads(); };
refresh();
setInterval(refresh, 2000);
