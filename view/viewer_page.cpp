#include "view/viewer_page.h"

#include "view/chart_library.h"

namespace mushroom::view {

namespace {

const char* const kHead = R"HTML(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>)HTML";

const char* const kStyleAndBody = R"HTML(</title>
<style>
  :root { --first: #2f6fdb; --first-soft: #bcd3f7; --second: #d9433b; --second-soft: #f6c3bf;
          --ink: #1d2330; --muted: #6b7280; --line: #d7dce3; --paper: #fbfaf7; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); background: var(--paper); }
  header { padding: 14px 22px 6px; }
  h1 { font-size: 19px; margin: 0 0 2px; }
  #result { color: var(--muted); }
  main { display: flex; flex-wrap: wrap; gap: 22px; padding: 8px 22px 22px; align-items: flex-start; }
  .panel { background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: 14px; }
  .scores { display: grid; grid-template-columns: 90px 1fr 40px; gap: 6px 10px; align-items: center; margin-bottom: 12px; }
  .bar { height: 16px; background: #eef0f3; border-radius: 8px; overflow: hidden; }
  .bar > div { height: 100%; border-radius: 8px; transition: width .15s; }
  #bar-first { background: var(--first); } #bar-second { background: var(--second); }
  .score { font-variant-numeric: tabular-nums; font-weight: 600; text-align: right; }
  .name-first { color: var(--first); font-weight: 600; } .name-second { color: var(--second); font-weight: 600; }
  #board { position: relative; display: grid; grid-template-columns: repeat(17, 34px); grid-auto-rows: 34px;
           gap: 2px; background: var(--line); border: 2px solid var(--line); border-radius: 6px; width: max-content; }
  .cell { display: flex; align-items: center; justify-content: center; background: #fff; font-weight: 600;
          font-size: 16px; font-variant-numeric: tabular-nums; user-select: none; }
  .cell.owner-first { background: var(--first-soft); } .cell.owner-second { background: var(--second-soft); }
  .cell.taken { color: transparent; }
  .cell.in-last.owner-first { background: var(--first); } .cell.in-last.owner-second { background: var(--second); }
  .rect { position: absolute; pointer-events: none; border-radius: 4px; }
  #last-rect { border: 3px solid var(--ink); box-shadow: 0 0 0 2px #fff inset; }
  .cand { border: 2px dashed #7c3aed; }
  .cand span { position: absolute; top: -9px; left: -9px; background: #7c3aed; color: #fff; font-size: 11px;
               border-radius: 9px; min-width: 18px; height: 18px; line-height: 18px; text-align: center; }
  .controls { display: flex; gap: 6px; align-items: center; margin-top: 12px; }
  button { font: inherit; padding: 5px 11px; border: 1px solid var(--line); border-radius: 6px; background: #fff; cursor: pointer; }
  button:hover { background: #f1f3f6; }
  #slider { flex: 1; }
  #ply-label { min-width: 110px; text-align: right; font-variant-numeric: tabular-nums; color: var(--muted); }
  .hint { color: var(--muted); font-size: 12px; margin-top: 6px; }
  #moves-panel { width: 330px; }
  #move-list { max-height: 520px; overflow-y: auto; }
  #move-list thead th { position: sticky; top: 0; background: #fff; border-bottom: 1px solid var(--line); }
  table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
  th, td { padding: 3px 6px; text-align: left; } th { color: var(--muted); font-weight: 500; }
  #move-list tr { cursor: pointer; } #move-list tr:hover { background: #f4f5f7; }
  #move-list tr.current { background: #fff4c2; }
  .dot { display: inline-block; width: 9px; height: 9px; border-radius: 50%; margin-right: 5px; }
  .dot.first { background: var(--first); } .dot.second { background: var(--second); }
  #search-panel { width: 330px; } #search-panel[hidden] { display: none; }
  .value-track { position: relative; height: 14px; background: linear-gradient(90deg, #f3d4d1, #fff, #cfe8d5);
                 border: 1px solid var(--line); border-radius: 7px; margin: 6px 0 10px; }
  #value-marker { position: absolute; top: -4px; width: 4px; height: 20px; background: var(--ink); border-radius: 2px; }
  .chosen { font-weight: 700; }
  #analysis-panel { width: 664px; } #analysis-panel[hidden] { display: none; }
  #eval-graph { display: block; margin: 6px 0; cursor: pointer; }
  /* Too narrow for the board and the graph side by side: the graph goes first, above the fold. */
  @media (max-width: 1380px) { #analysis-panel { order: -1; } }
  body.analyzed #moves-panel { width: 470px; }
  td.value, td.move-loss { text-align: right; } td.move-loss.inaccuracy { color: #b45309; }
  td.move-loss.mistake { color: #ea580c; font-weight: 600; } td.move-loss.blunder { color: #dc2626; font-weight: 700; }
  #worst-moves button { margin: 0 6px 6px 0; border-color: #fca5a5; }
  #analysis-text { min-height: 64px; }
  .best-rect { border: 3px dashed #059669; }
  .loss { color: #dc2626; font-weight: 700; }
</style>
</head>
<body>
<header><h1 id="title"></h1><div id="result"></div></header>
<main>
  <section class="panel" id="board-panel">
    <div class="scores">
      <span class="name-first" id="name-first"></span><div class="bar"><div id="bar-first"></div></div><span class="score" id="score-first">0</span>
      <span class="name-second" id="name-second"></span><div class="bar"><div id="bar-second"></div></div><span class="score" id="score-second">0</span>
    </div>
    <div id="board"></div>
    <div class="controls">
      <button id="btn-start" title="first position (Home)">|&#x25C0;</button>
      <button id="btn-back" title="back (Left arrow)">&#x25C0;</button>
      <button id="btn-play" title="play / pause (Space)">play</button>
      <button id="btn-forward" title="forward (Right arrow)">&#x25B6;</button>
      <button id="btn-end" title="last position (End)">&#x25B6;|</button>
      <input type="range" id="slider" min="0" value="0">
      <span id="ply-label"></span>
    </div>
    <div class="hint">Keys: &larr; &rarr; step, Home / End, Space plays. The outlined rectangle is the last move.</div>
  </section>
  <section class="panel" id="analysis-panel" hidden>
    <div><b>The bot's evaluation</b> in cells of final margin for <span class="name-first" id="graph-first"></span>
      (above the dashed line: <span id="graph-first-2"></span> ahead; <span class="name-second" id="graph-second"></span> below)</div>
    <canvas id="eval-graph" width="634" height="250" role="img" aria-label="evaluation graph"></canvas>
    <div id="worst-moves"></div>
    <div id="analysis-text"></div>
    <div class="hint">Red points: the moves that lost the most (click one, or anywhere on the graph, to go there). Each
      position tells the story of the move that led to it: on the board, the black outline is the move played and the
      green dashes the bot's best move there.</div>
  </section>
  <section class="panel" id="moves-panel">
    <div id="move-list"><table><thead><tr id="move-head"><th>#</th><th>player</th><th>rectangle</th><th>cells</th><th>ms</th></tr></thead>
      <tbody id="move-rows"></tbody></table></div>
  </section>
  <section class="panel" id="search-panel" hidden>
    <div><b>Search before move <span id="search-move"></span></b> (<span id="search-player"></span> to move)</div>
    <div>value estimate <b id="search-value"></b> for the mover</div>
    <div class="value-track"><div id="value-marker"></div></div>
    <table><thead><tr><th>#</th><th>candidate</th><th>visits</th><th>q</th></tr></thead><tbody id="cand-rows"></tbody></table>
    <div class="hint">Dashed outlines on the board: these candidates. Bold: the move played.</div>
  </section>
</main>
<script type="application/json" id="game-data">)HTML";

const char* const kScript = R"HTML(
<script>
(function () {
  "use strict";
  const game = JSON.parse(document.getElementById("game-data").textContent);
  const cellSize = 34, gap = 2;
  const board = document.getElementById("board");
  const cells = [];
  for (let r = 0; r < game.rows; r++)
    for (let c = 0; c < game.cols; c++) {
      const d = document.createElement("div");
      d.className = "cell";
      d.dataset.r = r; d.dataset.c = c;
      board.appendChild(d);
      cells.push(d);
    }
  const lastRect = document.createElement("div");
  lastRect.className = "rect"; lastRect.id = "last-rect";
  board.appendChild(lastRect);
  let candidateBoxes = [];
  const an = game.analysis;
  const bestBox = document.createElement("div");
  bestBox.className = "rect best-rect";
  board.appendChild(bestBox);

  document.getElementById("title").textContent = game.title;
  document.getElementById("result").textContent = game.moves.length + " moves, " + game.result;
  document.getElementById("name-first").textContent = game.names[0];
  document.getElementById("name-second").textContent = game.names[1];
  const hasSearch = game.moves.some(m => m.search);
  document.getElementById("search-panel").hidden = !hasSearch;

  const rectText = m => m ? "(" + m[0] + "," + m[1] + ")-(" + m[2] + "," + m[3] + ")" : "pass";
  function place(el, m) {
    el.style.left = (m[1] * (cellSize + gap)) + "px";
    el.style.top = (m[0] * (cellSize + gap)) + "px";
    el.style.width = ((m[3] - m[1] + 1) * (cellSize + gap) - gap) + "px";
    el.style.height = ((m[2] - m[0] + 1) * (cellSize + gap) - gap) + "px";
  }

  const cellsText = v => (v > 0 ? "+" : v < 0 ? "\u2212" : "") + Math.abs(v).toFixed(2);
  const escapeText = t => String(t).replace(/[&<>"']/g, ch => "&#" + ch.charCodeAt(0) + ";");
  const rows = document.getElementById("move-rows");
  if (an) {
    // The analysis adds each move's value after it (for the first player) and its loss.
    document.getElementById("move-head").insertAdjacentHTML("beforeend",
      "<th title='the value after the move, in cells for " + escapeText(game.names[0]) + "'>value</th>" +
      "<th title='cells lost against the best move, by the same search'>loss</th>");
    document.body.classList.add("analyzed");
  }
  game.moves.forEach((m, i) => {
    const tr = document.createElement("tr");
    const who = m.player === 0 ? "first" : "second";
    tr.innerHTML = "<td>" + (i + 1) + "</td><td><span class='dot " + who + "'></span>" + escapeText(game.names[m.player]) +
      "</td><td>" + rectText(m.move) + "</td><td>" + (m.move ? "+" + m.gain : "") + "</td><td>" + m.ms + "</td>" +
      (an ? "<td class='value'>" + cellsText(an.points[i + 1]) + "</td><td class='move-loss " + (m.analysis.judgement || "") +
            "' title='" + (m.analysis.judgement || "") + "'>" + m.analysis.loss.toFixed(2) + "</td>" : "");
    tr.addEventListener("click", () => show(i + 1));
    rows.appendChild(tr);
  });

  const slider = document.getElementById("slider");
  slider.max = game.moves.length;
  let ply = 0, timer = null;

  function show(p) {
    ply = Math.max(0, Math.min(game.moves.length, p));
    const f = game.frames[ply];
    const last = ply > 0 ? game.moves[ply - 1] : null;
    const lm = last && last.move;
    for (let i = 0; i < cells.length; i++) {
      const d = cells[i], o = f.owners[i], digit = f.digits[i];
      const r = Math.floor(i / game.cols), c = i % game.cols;
      d.textContent = digit === "0" ? "" : digit;
      d.classList.toggle("taken", digit === "0");
      d.classList.toggle("owner-first", o === "a");
      d.classList.toggle("owner-second", o === "b");
      d.classList.toggle("in-last", !!lm && r >= lm[0] && r <= lm[2] && c >= lm[1] && c <= lm[3]);
    }
    lastRect.style.display = lm ? "block" : "none";
    if (lm) place(lastRect, lm);
    const total = game.rows * game.cols;
    document.getElementById("score-first").textContent = f.score[0];
    document.getElementById("score-second").textContent = f.score[1];
    document.getElementById("bar-first").style.width = (100 * f.score[0] / total) + "%";
    document.getElementById("bar-second").style.width = (100 * f.score[1] / total) + "%";
    slider.value = ply;
    document.getElementById("ply-label").textContent = "move " + ply + " / " + game.moves.length;
    document.body.dataset.ply = ply;
    Array.from(rows.children).forEach((tr, i) => tr.classList.toggle("current", i === ply - 1));
    // Keeps the current move in view by scrolling the list only, never the page.
    const cur = rows.children[ply - 1];
    if (cur) {
      const list = document.getElementById("move-list"), inner = list.getBoundingClientRect();
      const top = inner.top + document.getElementById("move-head").offsetHeight, row = cur.getBoundingClientRect();
      if (row.top < top) list.scrollTop -= top - row.top;
      else if (row.bottom > inner.bottom) list.scrollTop += row.bottom - inner.bottom;
    }
    showSearch();
    showAnalysis();
  }

  function showSearch() {
    candidateBoxes.forEach(b => b.remove());
    candidateBoxes = [];
    if (!hasSearch) return;
    const next = game.moves[ply];
    const s = next && next.search;
    document.getElementById("search-move").textContent = next ? ply + 1 : "-";
    document.getElementById("search-player").textContent = next ? game.names[next.player] : "nobody";
    document.getElementById("search-value").textContent = s ? s.value.toFixed(3) : "-";
    document.getElementById("value-marker").style.left = "calc(" + (s ? (s.value + 1) * 50 : 50) + "% - 2px)";
    const body = document.getElementById("cand-rows");
    body.innerHTML = "";
    if (!s) return;
    s.candidates.forEach((c, k) => {
      const chosen = JSON.stringify(c.move) === JSON.stringify(next.move);
      const tr = document.createElement("tr");
      if (chosen) tr.className = "chosen";
      tr.innerHTML = "<td>" + (k + 1) + "</td><td>" + rectText(c.move) + "</td><td>" + c.visits + "</td><td>" + c.q.toFixed(3) + "</td>";
      body.appendChild(tr);
      if (c.move) {
        const box = document.createElement("div");
        box.className = "rect cand";
        box.innerHTML = "<span>" + (k + 1) + "</span>";
        place(box, c.move);
        board.appendChild(box);
        candidateBoxes.push(box);
      }
    });
  }

  // The evaluation graph, drawn by Chart.js: the value for the first player
  // after each move, the costliest moves as red points where the value fell,
  // the current position as an amber line. A point at x = p opens ply p, the
  // position after move p with that move's account; a click anywhere else
  // opens the nearest position.
  let graph = null;
  function drawGraph() {
    const n = an.points.length - 1;
    const lim = Math.max(2, ...an.points.map(Math.abs)) * 1.1;
    const worst = game.moves.map((m, i) => ({ m, i })).filter(o => o.m.analysis.mark > 0)
      .sort((a, b) => a.m.analysis.mark - b.m.analysis.mark);
    const markers = {
      id: "positionAndMarks",
      afterDatasetsDraw(chart) {
        const { ctx, chartArea: area, scales } = chart;
        ctx.save();
        const x = scales.x.getPixelForValue(ply);
        ctx.strokeStyle = "#f59e0b"; ctx.lineWidth = 2;
        ctx.beginPath(); ctx.moveTo(x, area.top); ctx.lineTo(x, area.bottom); ctx.stroke();
        ctx.fillStyle = "#dc2626"; ctx.font = "bold 11px system-ui, sans-serif";
        chart.getDatasetMeta(1).data.forEach((pt, k) => ctx.fillText(String(worst[k].m.analysis.mark), pt.x + 8, pt.y - 6));
        ctx.restore();
      },
    };
    graph = new Chart(document.getElementById("eval-graph"), {
      type: "line",
      data: { datasets: [
        { label: "value for " + game.names[0], data: an.points.map((v, p) => ({ x: p, y: v })),
          borderColor: "#1d2330", backgroundColor: "#1d2330", borderWidth: 2, pointRadius: 2.5, pointHoverRadius: 5,
          order: 1 },
        { label: "costliest moves", data: worst.map(({ m, i }) => ({ x: i + 1, y: an.points[i + 1], move: i + 1 })),
          showLine: false, pointRadius: 6, pointHoverRadius: 8, backgroundColor: "#dc2626", borderColor: "#fff",
          borderWidth: 2, order: 0 },
      ] },
      options: {
        responsive: false, animation: false, parsing: false,
        interaction: { mode: "nearest", intersect: false },
        scales: {
          x: { type: "linear", min: -0.5, max: n + 0.5, title: { display: true, text: "move" },
               ticks: { precision: 0, includeBounds: false } },
          y: { type: "linear", suggestedMin: -lim, suggestedMax: lim,
               title: { display: true, text: "cells for " + game.names[0] },
               grid: { color: c => c.tick && c.tick.value === 0 ? "#9aa3af" : "#e5e7eb",
                       borderDash: c => c.tick && c.tick.value === 0 ? [4, 3] : [] } },
        },
        plugins: {
          legend: { labels: { usePointStyle: true, boxHeight: 7, sort: (a, b) => a.datasetIndex - b.datasetIndex } },
          tooltip: { callbacks: { label: c => c.datasetIndex === 1
            ? "move " + c.raw.move + " by " + game.names[game.moves[c.raw.move - 1].player] + ": lost " +
              game.moves[c.raw.move - 1].analysis.loss.toFixed(2) + " cells"
            : "after move " + c.raw.x + ": " + cellsText(c.raw.y) + " for " + game.names[0] } },
        },
        onClick(event, _, chart) {
          const hit = chart.getElementsAtEventForMode(event, "nearest", { intersect: true }, false)
            .find(e => e.datasetIndex === 1);
          if (hit) { show(chart.data.datasets[1].data[hit.index].move); return; }
          show(Math.round(chart.scales.x.getValueForPixel(event.x)));
        },
      },
      plugins: [markers],
    });
    const list = document.getElementById("worst-moves");
    worst.forEach(({ m, i }) => {
      const b = document.createElement("button");
      b.className = "worst";
      b.textContent = "#" + m.analysis.mark + ": move " + (i + 1) + " by " + game.names[m.player] + ", lost " + m.analysis.loss.toFixed(2);
      b.addEventListener("click", () => show(i + 1));
      list.appendChild(b);
    });
    if (!worst.length) list.textContent = "No move lost a cell or more by the bot's account.";
  }

  // At ply p the page tells the story of move p, as lichess does: the board
  // after it (the move played is the last-move outline), the best move there
  // outlined in green, and the text with the value before it, what it was
  // worth by the same search and what it lost. Ply 0 tells the start, the
  // last ply the end as well.
  function showAnalysis() {
    bestBox.style.display = "none";
    if (!an) return;
    if (graph) graph.draw();  // moves the current position's line
    const text = document.getElementById("analysis-text");
    const line = pv => pv && pv.length ? pv.map(rectText).join(" ") : "-";
    const search = a => (a.proved ? " (proved)" : "") + (a.depth !== undefined ? ", depth " + a.depth + ", best <b>" +
      rectText(a.best) + "</b>, expected " + line(a.pv) : ", a forced pass");
    const e = an.end;
    const end = "<b>End</b>, " + escapeText(game.names[e.player]) + " to move: " +
      (e.proved && e.depth === undefined ? "the final margin " : "value ") + "<b>" + cellsText(e.cells) + "</b>" +
      (e.proved ? " (proved)" : "") + (e.best !== undefined ? ", best " + rectText(e.best) + ", expected " + line(e.pv) : "") + ".";
    const n = game.moves.length;
    if (n === 0) { text.innerHTML = end; return; }
    const shown = game.moves[Math.max(0, ply - 1)], a = shown.analysis;
    if (ply === 0) {
      text.innerHTML = "<b>Start</b>, " + escapeText(game.names[shown.player]) + " to move: value <b>" +
        cellsText(a.before) + "</b>" + search(a) + ".";
    } else {
      text.innerHTML = "<b>Move " + ply + "</b>, " + escapeText(game.names[shown.player]) + " to move: value <b>" +
        cellsText(a.before) + "</b>" + search(a) + ".<br>Played " + rectText(shown.move) + " (+" + shown.gain + ")" +
        (a.played !== undefined ? ", worth " + cellsText(a.played) + " by the same search" : "") + ", value after " +
        cellsText(a.after) + ": " + (a.loss > 0.005 ? "<span class='loss'>lost " + a.loss.toFixed(2) + " cells" +
        (a.judgement ? ", " + a.judgement : "") + "</span>" : "lost nothing") +
        (a.mark ? " (costliest #" + a.mark + ")" : "") + "." + (ply === n ? "<br>" + end : "");
    }
    if (a.best) { bestBox.style.display = "block"; place(bestBox, a.best); }
  }

  function play() {
    const btn = document.getElementById("btn-play");
    if (timer) { clearInterval(timer); timer = null; btn.textContent = "play"; return; }
    if (ply >= game.moves.length) show(0);
    btn.textContent = "pause";
    timer = setInterval(() => {
      if (ply >= game.moves.length) { play(); return; }
      show(ply + 1);
    }, 600);
  }

  document.getElementById("analysis-panel").hidden = !an;
  if (an) {
    document.getElementById("graph-first").textContent = game.names[0];
    document.getElementById("graph-first-2").textContent = game.names[0];
    document.getElementById("graph-second").textContent = game.names[1];
    drawGraph();
  }
  document.getElementById("btn-start").onclick = () => show(0);
  document.getElementById("btn-back").onclick = () => show(ply - 1);
  document.getElementById("btn-forward").onclick = () => show(ply + 1);
  document.getElementById("btn-end").onclick = () => show(game.moves.length);
  document.getElementById("btn-play").onclick = play;
  slider.oninput = () => show(Number(slider.value));
  document.addEventListener("keydown", e => {
    if (e.key === "ArrowRight") show(ply + 1);
    else if (e.key === "ArrowLeft") show(ply - 1);
    else if (e.key === "Home") show(0);
    else if (e.key === "End") show(game.moves.length);
    else if (e.key === " ") play();
    else return;
    e.preventDefault();
  });
  show(0);
})();
</script>
</body>
</html>
)HTML";

}  // namespace

std::string viewer_page(const std::string& escaped_title, const std::string& game_json, bool with_charts) {
  std::string page = std::string(kHead) + escaped_title + kStyleAndBody + game_json + "</script>";
  if (with_charts) page += std::string("\n<script>") + chart_library_source() + "</script>";
  return page + kScript;
}

}  // namespace mushroom::view
