// Renders game viewer pages in headless Chromium and drives them with the
// keyboard, checking the DOM against the game's own data and taking
// screenshots. Run by run.sh (CTest: viewer_browser).
//   node viewer_browser_test.mjs MUSHROOM_BIN LOG... (first log: a self-play log with SEARCH lines; the
//   last one is also analyzed, `mushroom analyze --out`, for the evaluation graph)
import { chromium } from "playwright-core";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, statSync } from "node:fs";
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
async function openPage(html, height) {
  const page = await browser.newPage({ viewport: { width: 1400, height } });
  const errors = [];
  page.on("pageerror", e => errors.push(String(e)));
  page.on("request", r => { if (!r.url().startsWith("file:")) errors.push("network request: " + r.url()); });
  await page.goto("file://" + resolve(html));
  const game = JSON.parse(await page.locator("#game-data").textContent());
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

// `mushroom analyze --out`: the evaluation graph beside the board, its
// costliest moves clickable, the best move outlined.
async function checkAnalysis(log) {
  const html = join(out, "analysis.html");
  execFileSync(bin, ["analyze", log, "--agent", "alphabeta:depth=3,solver=false", "--mark-cells", "0.25",
                     "--out", html, "--first", "Alice", "--second", "Bob"], { stdio: ["ignore", "ignore", "ignore"] });
  const { page, errors, game } = await openPage(html, 1000);
  const n = game.moves.length;
  assert.equal(game.analysis.points.length, n + 1, "a point per position");
  assert.ok(await page.locator("#analysis-panel").isVisible(), "the analysis panel shows");
  assert.equal(await page.locator("#eval-graph circle.dot").count(), n + 1);
  assert.equal(await page.locator("#eval-graph path.curve").count(), 1);
  for (const axis of ["x-tick", "y-tick"]) {
    const ticks = await page.locator(`#eval-graph text.${axis}`).allTextContents();
    assert.ok(ticks.length >= 3, `${axis}: ${ticks}`);
    assert.equal(new Set(ticks).size, ticks.length, `axis labels never repeat: ${ticks}`);
  }
  const marked = game.moves.map((m, i) => ({ mark: m.analysis.mark, i })).filter(o => o.mark > 0)
    .sort((a, b) => a.mark - b.mark);
  assert.ok(marked.length >= 1 && marked.length <= 3, `1 to 3 marked moves, not ${marked.length}`);
  assert.equal(await page.locator("#eval-graph .mark-point").count(), marked.length);
  assert.equal(await page.locator("#worst-moves button").count(), marked.length);

  // The costliest move's point jumps to the position before it, with its
  // account and the best move outlined on the board.
  const worst = marked[0].i;
  await page.locator(`#eval-graph .mark-point[data-move="${worst + 1}"]`).click();
  assert.equal(await page.locator("body").getAttribute("data-ply"), String(worst));
  const text = await page.locator("#analysis-text").textContent();
  assert.ok(text.startsWith(`Move ${worst + 1}, `), text);
  assert.ok(text.includes(`lost ${game.moves[worst].analysis.loss.toFixed(2)} cells`), text);
  const best = game.moves[worst].analysis.best;
  assert.ok(await page.locator(".best-rect").isVisible(), "the best move is outlined");
  const box = await page.locator(".best-rect").boundingBox();
  const a = await page.locator(`.cell[data-r="${best[0]}"][data-c="${best[1]}"]`).boundingBox();
  assert.ok(Math.abs(box.x - a.x) < 2 && Math.abs(box.y - a.y) < 2, "the best move's outline sits on its corner");
  const played = game.moves[worst].move;
  assert.equal(await page.locator(".played-rect").isVisible(), JSON.stringify(played) !== JSON.stringify(best));
  const shot = await page.screenshot({ path: join(out, "analysis-worst-move.png"), fullPage: true });
  assert.equal(shot.subarray(1, 4).toString(), "PNG");
  assert.ok(shot.length > 20000, `screenshot of ${shot.length} bytes`);

  // The buttons go there too; any point of the graph goes to its position.
  await page.keyboard.press("Home");
  await page.locator("#worst-moves button").first().click();
  assert.equal(await page.locator("body").getAttribute("data-ply"), String(worst));
  // A plain point (one no marked move's point covers) goes to its position.
  const covered = new Set(marked.map(o => o.i + 1));
  let plain = 2;
  while (covered.has(plain)) plain++;
  await page.locator("#eval-graph circle.dot").nth(plain).click();
  assert.equal(await page.locator("body").getAttribute("data-ply"), String(plain));
  await page.keyboard.press("End");
  assert.ok((await page.locator("#analysis-text").textContent()).startsWith("End, "));
  assert.equal(await page.locator(".best-rect").isVisible(), false);
  assert.deepEqual(errors, [], `${log}: no script errors and no network`);
  console.log(`ok analysis of ${log}: ${n} moves, ${marked.length} marked, screenshot in ${out}`);
  await page.close();
}

try {
  for (let i = 0; i < logs.length; i++) await checkGame(logs[i], i);
  await checkAnalysis(logs[logs.length - 1]);
} finally {
  await browser.close();
}
