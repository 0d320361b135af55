// Renders game viewer pages in headless Chromium and drives them with the
// keyboard, checking the DOM against the game's own data and taking
// screenshots. Run by run.sh (CTest: viewer_browser).
//   node viewer_browser_test.mjs MUSHROOM_BIN LOG... (first log: a self-play log with SEARCH lines; the
//   last one is also analyzed, `mushroom analyze --out`, for the evaluation graph)
import { chromium } from "playwright-core";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import assert from "node:assert/strict";

const [bin, ...logs] = process.argv.slice(2);
const out = mkdtempSync(join(tmpdir(), "viewer-browser-"));
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu"],
});

// Opens a written page, collecting script errors and any request that
// leaves the file (the pages must be self-contained); returns the game data.
async function openPage(html, height, width = 1400, withGame = true) {
  const page = await browser.newPage({ viewport: { width, height } });
  const errors = [];
  page.on("pageerror", e => errors.push(String(e)));
  page.on("request", r => { if (!r.url().startsWith("file:")) errors.push("network request: " + r.url()); });
  await page.goto("file://" + resolve(html));
  const game = withGame ? JSON.parse(await page.locator("#game-data").textContent()) : null;
  return { page, errors, game };
}

async function checkGame(log, index) {
  const html = join(out, `game-${index}.html`);
  execFileSync(bin, ["view", log, "--out", html, "--first", "Alice", "--second", "Bob"]);
  const { page, errors, game } = await openPage(html, 900);
  const n = game.moves.length;
  assert.ok(n >= 4, `${log}: a game with at least 4 moves`);
  assert.equal(await page.locator(".cell").count(), game.rows * game.cols);

  // The DOM at ply p must match the page's own frame p and move p.
  async function expectPly(p) {
    assert.equal(await page.locator("body").getAttribute("data-ply"), String(p));
    assert.equal(await page.locator("#ply-label").textContent(), `move ${p} / ${n}`);
    const frame = game.frames[p];
    const owned = ch => [...frame.owners].filter(o => o === ch).length;
    assert.equal(await page.locator(".cell.owner-first").count(), owned("a"), `first's cells at ply ${p}`);
    assert.equal(await page.locator(".cell.owner-second").count(), owned("b"), `second's cells at ply ${p}`);
    assert.equal(await page.locator("#score-first").textContent(), String(frame.score[0]));
    assert.equal(await page.locator("#score-second").textContent(), String(frame.score[1]));
    const last = p > 0 ? game.moves[p - 1].move : null;
    assert.equal(await page.locator("#last-rect").isVisible(), !!last, `last-move outline at ply ${p}`);
    if (last) {
      // The outline covers exactly the rectangle's corner cells.
      const box = await page.locator("#last-rect").boundingBox();
      const a = await page.locator(`.cell[data-r="${last[0]}"][data-c="${last[1]}"]`).boundingBox();
      const b = await page.locator(`.cell[data-r="${last[2]}"][data-c="${last[3]}"]`).boundingBox();
      assert.ok(Math.abs(box.x - a.x) < 2 && Math.abs(box.y - a.y) < 2, "outline's top-left corner");
      assert.ok(Math.abs(box.x + box.width - (b.x + b.width)) < 2 && Math.abs(box.y + box.height - (b.y + b.height)) < 2,
                "outline's bottom-right corner");
      const inLast = (last[2] - last[0] + 1) * (last[3] - last[1] + 1);
      assert.equal(await page.locator(".cell.in-last").count(), inLast);
    }
    const current = page.locator("#move-rows tr.current");
    assert.equal(await current.count(), p > 0 ? 1 : 0);
    if (p > 0) assert.equal(await current.locator("td").first().textContent(), String(p));
  }

  await expectPly(0);
  assert.equal(await page.locator("#name-first").textContent(), "Alice");
  assert.equal(await page.locator("#move-rows tr").count(), n);
  const shotStart = await page.screenshot({ path: join(out, `game-${index}-start.png`) });
  for (let p = 1; p <= 3; p++) {
    await page.keyboard.press("ArrowRight");
    await expectPly(p);
  }
  await page.keyboard.press("ArrowLeft");
  await expectPly(2);
  await page.keyboard.press("End");
  await expectPly(n);
  const shotEnd = await page.screenshot({ path: join(out, `game-${index}-end.png`) });
  await page.keyboard.press("ArrowRight");  // stays at the end
  await expectPly(n);
  await page.keyboard.press("Home");
  await expectPly(0);
  await page.locator("#move-rows tr").nth(4).click();  // the move list jumps too
  await expectPly(5);

  // Screenshots: real PNGs of a drawn page, different once cells are owned.
  for (const shot of [shotStart, shotEnd]) {
    assert.equal(shot.subarray(1, 4).toString(), "PNG");
    assert.ok(shot.length > 20000, `screenshot of ${shot.length} bytes`);
  }
  assert.ok(!shotStart.equals(shotEnd), "the final position looks different from the start");
  assert.ok(statSync(join(out, `game-${index}-end.png`)).size > 0);

  const hasSearch = game.moves.some(m => m.search);
  assert.equal(await page.locator("#search-panel").isVisible(), hasSearch);
  if (hasSearch) {
    const p = game.moves.findIndex(m => m.search && m.search.candidates.length > 0);
    await page.keyboard.press("Home");
    for (let k = 0; k < p; k++) await page.keyboard.press("ArrowRight");
    const s = game.moves[p].search;
    assert.equal(await page.locator("#search-value").textContent(), s.value.toFixed(3));
    assert.equal(await page.locator("#cand-rows tr").count(), s.candidates.length);
    assert.equal(await page.locator(".rect.cand").count(), s.candidates.filter(c => c.move).length);
  }

  // Play runs by itself and stops at the end.
  await page.keyboard.press("Home");
  await page.keyboard.press(" ");
  // Generous: under a loaded CI machine Chromium may play slowly; this waits
  // for playback to happen at all, it times nothing.
  await page.waitForFunction(() => Number(document.body.dataset.ply) >= 2, null, { timeout: 30000 });
  await page.keyboard.press(" ");
  const paused = Number(await page.locator("body").getAttribute("data-ply"));
  await page.waitForTimeout(900);
  assert.equal(Number(await page.locator("body").getAttribute("data-ply")), paused, "pause holds the position");

  assert.equal(await page.locator("#analysis-panel").isVisible(), false, "no analysis, no graph");
  assert.deepEqual(errors, [], `${log}: no script errors and no network`);
  console.log(`ok ${log}: ${n} moves, search notes: ${hasSearch}, screenshots in ${out}`);
  await page.close();
}

// Chart.js handles a click on the next animation frame: waits for the page
// to reach the expected position (or fails naming where it is).
async function plyAfterGraphClick(page, expected, what) {
  try {
    await page.waitForFunction(p => document.body.dataset.ply === p, String(expected), { timeout: 5000 });
  } catch {
    assert.fail(`${what}: at ply ${await page.locator("body").getAttribute("data-ply")}, expected ${expected}`);
  }
}

const rectText = m => m ? `(${m[0]},${m[1]})-(${m[2]},${m[3]})` : "pass";

// What a page's Chart.js charts drew: each chart's frame (chartArea), axis
// titles and tick labels, and every drawn point (gaps left out).
async function chartsOn(page, selector) {
  return page.evaluate(sel => [...document.querySelectorAll(sel)].map(canvas => {
    const chart = Chart.getChart(canvas);
    const box = canvas.getBoundingClientRect();
    return {
      box: { x: box.x, y: box.y + window.scrollY, width: box.width, height: box.height },
      area: chart.chartArea,
      titles: { x: chart.options.scales.x.title.display && chart.options.scales.x.title.text,
                y: chart.options.scales.y.title.display && chart.options.scales.y.title.text },
      ticks: { x: chart.scales.x.ticks.map(t => t.label), y: chart.scales.y.ticks.map(t => t.label) },
      series: chart.data.datasets.map((d, k) => ({
        label: d.label,
        points: chart.getDatasetMeta(k).data.filter(e => !e.skip).map(e => ({ x: e.x, y: e.y, radius: e.options.radius })),
      })),
    };
  }), selector);
}

// Every drawn point, whole, inside its chart's frame; both axes titled;
// no tick label repeated; no "0k"-style label.
function checkChartFrames(charts, where) {
  for (const c of charts) {
    assert.ok(c.titles.x && c.titles.y, `${where}: both axes have titles (${JSON.stringify(c.titles)})`);
    for (const axis of ["x", "y"]) {
      const labels = c.ticks[axis];
      assert.ok(labels.length >= 2, `${where}: ${axis} ticks ${labels}`);
      assert.equal(new Set(labels).size, labels.length, `${where}: ${axis} tick labels never repeat: ${labels}`);
      assert.ok(!labels.some(l => /^-?0[kM]$/.test(l)), `${where}: no "0k" tick: ${labels}`);
    }
    for (const s of c.series)
      for (const p of s.points) {
        const r = p.radius || 0;
        assert.ok(p.x - r >= c.area.left - 0.5 && p.x + r <= c.area.right + 0.5 && p.y - r >= c.area.top - 0.5 &&
                  p.y + r <= c.area.bottom + 0.5,
                  `${where}: "${s.label}" point at (${p.x.toFixed(1)}, ${p.y.toFixed(1)}) r ${r} outside the frame ` +
                  JSON.stringify(c.area));
      }
  }
}

// `mushroom analyze --out`: the evaluation graph beside the board (above it
// on a narrower screen), visible without scrolling, its costliest moves
// clickable, value and loss columns in the move list, the best move outlined.
async function checkAnalysis(log) {
  const html = join(out, "analysis.html");
  execFileSync(bin, ["analyze", log, "--agent", "alphabeta:depth=3,solver=false", "--mark-cells", "0.25",
                     "--out", html, "--first", "Alice", "--second", "Bob"], { stdio: ["ignore", "ignore", "ignore"] });
  for (const [width, height] of [[1280, 800], [1440, 900]]) {
    const { page, errors } = await openPage(html, height, width);
    const graph = (await page.locator("#eval-graph").boundingBox());
    assert.ok(graph.y >= 0 && graph.y + graph.height <= height, `${width}x${height}: the graph is above the fold (${JSON.stringify(graph)})`);
    assert.ok(graph.x >= 0 && graph.x + graph.width <= width, `${width}x${height}: the graph fits the width`);
    const shot = await page.screenshot({ path: join(out, `analysis-${width}x${height}.png`) });
    assert.equal(shot.subarray(1, 4).toString(), "PNG");
    assert.deepEqual(errors, [], `${log}: no script errors and no network at ${width}x${height}`);
    await page.close();
  }
  const { page, errors, game } = await openPage(html, 900, 1440);
  const n = game.moves.length;
  assert.equal(game.analysis.points.length, n + 1, "a point per position");
  assert.ok(await page.locator("#analysis-panel").isVisible(), "the analysis panel shows");
  const [graph] = await chartsOn(page, "#eval-graph");
  checkChartFrames([graph], "analysis graph");
  assert.equal(graph.titles.x, "move");
  assert.ok(graph.titles.y.includes("Alice"), `the value axis names the player: ${graph.titles.y}`);
  assert.equal(graph.series[0].points.length, n + 1, "a point per position");
  assert.ok(graph.series[0].label.includes("Alice"));
  assert.equal(await page.locator("#graph-second").textContent(), "Bob");

  // The move list's value and loss columns agree with the analysis.
  const head = await page.locator("#move-head th").allTextContents();
  assert.deepEqual(head.slice(-2), ["value", "loss"]);
  for (let i = 0; i < n; i++) {
    const tds = page.locator("#move-rows tr").nth(i).locator("td");
    assert.equal(await tds.nth(6).textContent(), game.moves[i].analysis.loss.toFixed(2), `move ${i + 1}'s loss`);
    assert.ok(game.moves[i].analysis.loss >= 0, `move ${i + 1} loses no negative amount`);
  }

  const marked = game.moves.map((m, i) => ({ mark: m.analysis.mark, i })).filter(o => o.mark > 0)
    .sort((a, b) => a.mark - b.mark);
  assert.ok(marked.length >= 1 && marked.length <= 3, `1 to 3 marked moves, not ${marked.length}`);
  assert.equal(graph.series[1].points.length, marked.length, "a red point per marked move");
  assert.equal(await page.locator("#worst-moves button").count(), marked.length);

  // Each marked point, clicked where it is drawn, opens its own move: the
  // position after it, its row in the list, its account in the text, the
  // move played as the last-move outline and the best move outlined.
  for (let k = 0; k < marked.length; k++) {
    const move = marked[k].i + 1, a = game.moves[marked[k].i].analysis;
    await page.keyboard.press(move === n ? "Home" : "End");  // away from the marked move's position
    const pt = graph.series[1].points[k];
    await page.mouse.click(graph.box.x + pt.x, graph.box.y + pt.y);
    await plyAfterGraphClick(page, move, `marked point #${k + 1}`);
    assert.equal(await page.evaluate(() => window.scrollY), 0, "going to a move never scrolls the page");
    assert.equal(await page.locator("#move-rows tr.current td").first().textContent(), String(move),
                 "the list highlights the move the text tells");
    const text = await page.locator("#analysis-text").textContent();
    assert.ok(text.startsWith(`Move ${move}, `), text);
    assert.ok(text.includes(`Played ${rectText(game.moves[move - 1].move)} `), text);
    assert.ok(text.includes(`lost ${a.loss.toFixed(2)} cells`), text);
    assert.ok(await page.locator(".best-rect").isVisible(), "the best move is outlined");
    const box = await page.locator(".best-rect").boundingBox();
    const corner = await page.locator(`.cell[data-r="${a.best[0]}"][data-c="${a.best[1]}"]`).boundingBox();
    assert.ok(Math.abs(box.x - corner.x) < 2 && Math.abs(box.y - corner.y) < 2, "the best move's outline sits on its corner");
    if (k === 0) {
      const shot = await page.screenshot({ path: join(out, "analysis-worst-move.png") });
      assert.equal(shot.subarray(1, 4).toString(), "PNG");
      assert.ok(shot.length > 20000, `screenshot of ${shot.length} bytes`);
    }
  }

  // The buttons go there too; a plain point goes to its own position.
  await page.keyboard.press("Home");
  assert.ok((await page.locator("#analysis-text").textContent()).startsWith("Start, Alice to move: value "));
  assert.ok(await page.locator(".best-rect").isVisible(), "the start outlines the best first move");
  await page.locator("#worst-moves button").first().click();
  assert.equal(await page.locator("body").getAttribute("data-ply"), String(marked[0].i + 1));
  const covered = new Set(marked.map(o => o.i + 1));
  let plain = 2;
  while (covered.has(plain) || covered.has(plain - 1) || covered.has(plain + 1)) plain++;
  const dot = graph.series[0].points[plain];
  await page.mouse.click(graph.box.x + dot.x, graph.box.y + dot.y);
  await plyAfterGraphClick(page, plain, `the plain point after move ${plain}`);
  await page.keyboard.press("End");
  const last = await page.locator("#analysis-text").textContent();
  assert.ok(last.startsWith(`Move ${n}, `) && last.includes("End, "), `the last position tells the last move and the end: ${last}`);
  assert.deepEqual(errors, [], `${log}: no script errors and no network`);
  console.log(`ok analysis of ${log}: ${n} moves, ${marked.length} marked, screenshots in ${out}`);
  await page.close();
}

// `mushroom dashboard`: a run with a gate that never ran, a sample count in
// the millions, and two series equal in one generation. Every chart is drawn
// by the library with titled axes and every point inside its frame; the
// missing gate is a gap, not a point at 0; equal series both show. The run
// is under way: the page shows the stage now running and counts the time
// it and the run have left down.
async function checkDashboard() {
  const run = join(out, "run");
  mkdirSync(join(run, "metrics"), { recursive: true });
  const gens = [
    { generation: 1, promoted: 1, selfplay_games: 40, selfplay_seconds: 30, selfplay_games_per_minute: 80,
      train_seconds: 5, gate_games: 0, eval_games: 20, eval_score: 0.6, eval_margin: 3 },
    { generation: 2, promoted: 1, selfplay_games: 40, selfplay_seconds: 60, selfplay_games_per_minute: 40,
      nn_positions: 120000, train_seconds: 5, gate_games: 20, gate_score: 0.7, eval_games: 20, eval_score: 0.7 },
    { generation: 3, promoted: 0, selfplay_games: 40, selfplay_seconds: 60, selfplay_games_per_minute: 41,
      nn_positions: 130000, train_seconds: 5, gate_games: 20, gate_score: 1.0, eval_games: 20, eval_score: 1.0 },
  ];
  // The run's ladder from generation 2, by hours of the run, with two fixed references.
  gens[1] = { ...gens[1], run_seconds: 1800, ladder_elo: -20, ladder_low: -80, ladder_high: 40, ladder_games: 40,
              ladder_anchor: "hand", ladder_references: { hand: 0, "eval3-gen11": 25 } };
  gens[2] = { ...gens[2], run_seconds: 3600, ladder_elo: 30, ladder_low: -25, ladder_high: 85, ladder_games: 40,
              ladder_anchor: "hand", ladder_references: { hand: 0, "eval3-gen11": 25 } };
  gens.forEach(g => writeFileSync(join(run, "metrics", `gen-000${g.generation}.json`), JSON.stringify(g) + "\n"));
  const lines = [];
  for (let k = 0; k <= 30; k++)
    lines.push(JSON.stringify({ generation: 1 + Math.floor(k / 11), step: 10 * k, samples_seen: 4300000 + 1000 * k,
                                loss: 4 - k / 20, policy: 3 - k / 30, value: 0.9 - k / 100, score: 0.2, ownership: 0.2 }));
  writeFileSync(join(run, "metrics", "train-gen-0001.jsonl"), lines.join("\n") + "\n");
  // The run's progress as `mushroom run` leaves it (view/run_progress.h),
  // written 30 s ago: generation 2's training with 120 s left then, the run
  // 3600 s.
  const written = Date.now() / 1000 - 30;
  writeFileSync(join(run, "progress.json"), JSON.stringify({
    schema: "mushroom-run-progress", version: 1, written: "2026-12-06 07:01:02 UTC", updated: written,
    state: "running", position: "generation 2 of 3", stage: "train", unit: "steps", detail: "loss 0.1234",
    done: 1200, total: 4000, elapsed: 56, rate: 21.4, stage_left: 120, run_left: 3600, untimed: [] }));
  execFileSync(bin, ["dashboard", run], { stdio: ["ignore", "ignore", "inherit"] });
  const { page, errors } = await openPage(join(run, "dashboard.html"), 900, 1400, false);
  // The stage now running and the time left, counted down from the file's
  // time while the page is open, where a person looks first.
  const now = page.locator("#run-now");
  assert.ok(await now.isVisible(), "the run's progress shows");
  const nowBox = await now.boundingBox();
  assert.ok(nowBox.y + nowBox.height <= 900, `the progress is above the fold (${JSON.stringify(nowBox)})`);
  assert.equal(await page.locator("#now-stage").textContent(), "generation 2 of 3 \u00b7 train 1200/4000 steps");
  const seconds = text => { const m = /left about (\d+):(\d\d):(\d\d)$/.exec(text);
                             assert.ok(m, `"${text}" says the time left`); return 3600 * +m[1] + 60 * +m[2] + +m[3]; };
  const stageLeft = seconds(await page.locator("#stage-left").textContent());
  const runLeft = seconds(await page.locator("#run-left").textContent());
  assert.ok(stageLeft >= 85 && stageLeft <= 91, `the stage's 120 s less the 30 s since: ${stageLeft}`);
  assert.ok(runLeft >= 3565 && runLeft <= 3571, `the run's 3600 s less the 30 s since: ${runLeft}`);
  await page.waitForFunction(s => /left about 0:01:(\d\d)$/.exec(document.getElementById("stage-left").textContent)
                                    && 60 + Number(/(\d\d)$/.exec(document.getElementById("stage-left").textContent)[1]) < s,
                             stageLeft, { timeout: 5000 });
  await now.screenshot({ path: join(out, "dashboard-progress.png") });
  const charts = await chartsOn(page, "figure.chart canvas");
  assert.equal(charts.length, 5, "five charts");
  const ladder = charts.find(c => c.titles.x === "hours of the run");
  assert.deepEqual(ladder.series.map(s => s.label), ["candidate", "95% low", "95% high", "eval3-gen11"]);
  checkChartFrames(charts, "dashboard");
  const loss = charts.find(c => c.titles.x.startsWith("samples seen"));
  assert.equal(loss.titles.x, "samples seen (millions)");
  const score = charts.find(c => c.series.some(s => s.label.startsWith("gate")));
  const gate = score.series.find(s => s.label.startsWith("gate")), greedy = score.series.find(s => s.label === "vs greedy");
  assert.equal(gate.points.length, 2, "generation 1's gate never ran: no point");
  // Generations 2 and 3 score the same against greedy and at the gate: the
  // first series' points are drawn larger, beneath, so both show.
  for (let g = 0; g < 2; g++) {
    assert.ok(Math.abs(gate.points[g].y - greedy.points[g + 1].y) < 0.5, "equal scores share a point");
    assert.ok(greedy.points[g + 1].radius > gate.points[g].radius + 1, "the series beneath is larger");
  }
  const shot = await page.screenshot({ path: join(out, "dashboard.png"), fullPage: true });
  assert.equal(shot.subarray(1, 4).toString(), "PNG");
  assert.deepEqual(errors, [], "dashboard: no script errors and no network");
  console.log(`ok dashboard: ${charts.length} charts, screenshot in ${out}`);
  await page.close();
}

try {
  for (let i = 0; i < logs.length; i++) await checkGame(logs[i], i);
  await checkAnalysis(logs[logs.length - 1]);
  await checkDashboard();
} finally {
  await browser.close();
}
