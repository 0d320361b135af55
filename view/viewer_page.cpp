#include "view/viewer_page.h"

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
  #move-list { max-height: 520px; overflow-y: auto; border-top: 1px solid var(--line); }
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
  #analysis-panel { width: 672px; } #analysis-panel[hidden] { display: none; }
  #eval-graph { display: block; margin: 6px 0; background: #fff; }
  #eval-graph .grid { stroke: #e5e7eb; } #eval-graph .zero { stroke: #9aa3af; stroke-dasharray: 4 3; }
  #eval-graph .tick { fill: var(--muted); font-size: 11px; }
  #eval-graph .curve { fill: none; stroke: var(--ink); stroke-width: 2; }
  #eval-graph .dot { fill: var(--ink); cursor: pointer; }
  #eval-graph .now { stroke: #f59e0b; stroke-width: 2; }
  #eval-graph .mark-point { fill: #dc2626; stroke: #fff; stroke-width: 2; cursor: pointer; }
  #eval-graph .mark-label { fill: #dc2626; font-size: 11px; font-weight: 700; }
  #worst-moves button { margin: 0 6px 6px 0; border-color: #fca5a5; }
  #analysis-text { min-height: 64px; }
  .best-rect { border: 3px dashed #059669; } .played-rect { border: 3px dotted #dc2626; }
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
  <section class="panel" id="moves-panel">
    <table><thead><tr><th>#</th><th>player</th><th>rectangle</th><th>cells</th><th>ms</th></tr></thead></table>
    <div id="move-list"><table><tbody id="move-rows"></tbody></table></div>
  </section>
  <section class="panel" id="search-panel" hidden>
    <div><b>Search before move <span id="search-move"></span></b> (<span id="search-player"></span> to move)</div>
    <div>value estimate <b id="search-value"></b> for the mover</div>
    <div class="value-track"><div id="value-marker"></div></div>
    <table><thead><tr><th>#</th><th>candidate</th><th>visits</th><th>q</th></tr></thead><tbody id="cand-rows"></tbody></table>
    <div class="hint">Dashed outlines on the board: these candidates. Bold: the move played.</div>
  </section>
  <section class="panel" id="analysis-panel" hidden>
    <div><b>The bot's evaluation</b> in cells of final margin for <span class="name-first" id="graph-first"></span>
      (above the dashed line: <span id="graph-first-2"></span> ahead)</div>
    <svg id="eval-graph" width="640" height="190" role="img" aria-label="evaluation graph"></svg>
    <div id="worst-moves"></div>
    <div id="analysis-text"></div>
    <div class="hint">Red points: the moves that lost the most (click one, or a point, to go there). On the board:
      green dashes, the bot's best move; red dots, the move played.</div>
  </section>
</main>
<script type="application/json" id="game-data">)HTML";

const char* const kScript = R"HTML(</script>
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
  const bestBox = document.createElement("div"), playedBox = document.createElement("div");
  bestBox.className = "rect best-rect"; playedBox.className = "rect played-rect";
  board.appendChild(bestBox); board.appendChild(playedBox);

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

  const rows = document.getElementById("move-rows");
  game.moves.forEach((m, i) => {
    const tr = document.createElement("tr");
    const who = m.player === 0 ? "first" : "second";
    tr.innerHTML = "<td>" + (i + 1) + "</td><td><span class='dot " + who + "'></span>" + game.names[m.player] +
      "</td><td>" + rectText(m.move) + "</td><td>" + (m.move ? "+" + m.gain : "") + "</td><td>" + m.ms + "</td>";
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
    const cur = rows.children[ply - 1];
    if (cur) cur.scrollIntoView({ block: "nearest" });
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

  const svgNS = "http://www.w3.org/2000/svg";
  function svgEl(tag, attrs, text) {
    const e = document.createElementNS(svgNS, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  const cellsText = v => (v > 0 ? "+" : v < 0 ? "\u2212" : "") + Math.abs(v).toFixed(2);
  let graphX = null, nowLine = null;
  function drawGraph() {
    const svg = document.getElementById("eval-graph");
    const W = 640, H = 190, left = 40, right = 12, top = 12, bottom = 24;
    const n = an.points.length - 1;
    const lim = Math.max(2, ...an.points.map(Math.abs)) * 1.1;
    // Round steps that give at most four ticks each side: labels never repeat.
    const step = [1, 2, 5, 10, 20, 50, 100].find(s => lim / s <= 4) || 200;
    graphX = p => left + (n > 0 ? p * (W - left - right) / n : (W - left - right) / 2);
    const y = v => top + (lim - v) * (H - top - bottom) / (2 * lim);
    for (let t = -Math.floor(lim / step) * step; t <= lim; t += step) {
      svg.appendChild(svgEl("line", { x1: left, x2: W - right, y1: y(t), y2: y(t), class: t === 0 ? "zero" : "grid" }));
      svg.appendChild(svgEl("text", { x: left - 6, y: y(t) + 4, "text-anchor": "end", class: "tick y-tick" }, t === 0 ? "0" : cellsText(t).replace(".00", "")));
    }
    const moveStep = [1, 2, 5, 10, 20, 50].find(s => n / s <= 10) || 100;
    for (let p = 0; p <= n; p += moveStep)
      svg.appendChild(svgEl("text", { x: graphX(p), y: H - 6, "text-anchor": "middle", class: "tick x-tick" }, String(p)));
    svg.appendChild(svgEl("path", { class: "curve", d: an.points.map((v, p) => (p ? "L" : "M") + graphX(p).toFixed(1) + " " + y(v).toFixed(1)).join(" ") }));
    an.points.forEach((v, p) => {
      const dot = svgEl("circle", { cx: graphX(p), cy: y(v), r: 2.5, class: "dot" });
      dot.addEventListener("click", () => show(p));
      svg.appendChild(dot);
    });
    nowLine = svgEl("line", { y1: top, y2: H - bottom, class: "now" });
    svg.appendChild(nowLine);
    // A costly move is drawn where the value fell: the point after it.
    const worst = game.moves.map((m, i) => ({ m, i })).filter(o => o.m.analysis.mark > 0)
      .sort((a, b) => a.m.analysis.mark - b.m.analysis.mark);
    const list = document.getElementById("worst-moves");
    worst.forEach(({ m, i }) => {
      const pt = svgEl("circle", { cx: graphX(i + 1), cy: y(an.points[i + 1]), r: 6, class: "mark-point" });
      pt.dataset.move = i + 1;
      pt.addEventListener("click", () => show(i));
      svg.appendChild(pt);
      svg.appendChild(svgEl("text", { x: graphX(i + 1) + 8, y: y(an.points[i + 1]) - 6, class: "mark-label" }, String(m.analysis.mark)));
      const b = document.createElement("button");
      b.className = "worst";
      b.textContent = "#" + m.analysis.mark + ": move " + (i + 1) + " by " + game.names[m.player] + ", lost " + m.analysis.loss.toFixed(2);
      b.addEventListener("click", () => show(i));
      list.appendChild(b);
    });
    if (!worst.length) list.textContent = "No move lost a cell or more by the bot's account.";
  }

  function showAnalysis() {
    bestBox.style.display = playedBox.style.display = "none";
    if (!an) return;
    nowLine.setAttribute("x1", graphX(ply)); nowLine.setAttribute("x2", graphX(ply));
    const text = document.getElementById("analysis-text");
    const line = pv => pv && pv.length ? pv.map(rectText).join(" ") : "-";
    if (ply >= game.moves.length) {
      const e = an.end;
      text.innerHTML = "<b>End</b>, " + game.names[e.player] + " to move: " +
        (e.proved && e.depth === undefined ? "the final margin " : "value ") + "<b>" + cellsText(e.cells) + "</b>" +
        (e.proved ? " (proved)" : "") + (e.best !== undefined ? ", best " + rectText(e.best) + ", expected " + line(e.pv) : "") + ".";
      return;
    }
    const m = game.moves[ply], a = m.analysis;
    text.innerHTML = "<b>Move " + (ply + 1) + "</b>, " + game.names[m.player] + " to move: value <b>" + cellsText(a.before) +
      "</b>" + (a.proved ? " (proved)" : "") + (a.depth !== undefined ? ", depth " + a.depth + ", best <b>" + rectText(a.best) +
      "</b>, expected " + line(a.pv) : ", a forced pass") + ".<br>Played " + rectText(m.move) + " (+" + m.gain + ")" +
      (a.played !== undefined ? ", worth " + cellsText(a.played) + " by the same search" : "") + ", value after " +
      cellsText(a.after) + ": " + (a.loss > 0.005 ? "<span class='loss'>lost " + a.loss.toFixed(2) + " cells" +
      (a.judgement ? ", " + a.judgement : "") + "</span>" : "lost nothing") +
      (a.mark ? " (costliest #" + a.mark + ")" : "") + ".";
    if (a.best) { bestBox.style.display = "block"; place(bestBox, a.best); }
    if (m.move && JSON.stringify(m.move) !== JSON.stringify(a.best)) { playedBox.style.display = "block"; place(playedBox, m.move); }
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

std::string viewer_page(const std::string& escaped_title, const std::string& game_json) {
  return std::string(kHead) + escaped_title + kStyleAndBody + game_json + kScript;
}

}  // namespace mushroom::view
