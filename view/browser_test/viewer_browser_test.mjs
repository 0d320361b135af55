// Renders game viewer pages in headless Chromium and drives them with the
// keyboard, checking the DOM against the game's own data and taking
// screenshots. Run by run.sh (CTest: viewer_browser).
//   node viewer_browser_test.mjs MUSHROOM_BIN LOG... (first log: a self-play log with SEARCH lines)
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

async function checkGame(log, index) {
  const html = join(out, `game-${index}.html`);
  execFileSync(bin, ["view", log, "--out", html, "--first", "Alice", "--second", "Bob"]);
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = [];
  page.on("pageerror", e => errors.push(String(e)));
  page.on("request", r => { if (!r.url().startsWith("file:")) errors.push("network request: " + r.url()); });
  await page.goto("file://" + resolve(html));
  const game = JSON.parse(await page.locator("#game-data").textContent());
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

  assert.deepEqual(errors, [], `${log}: no script errors and no network`);
  console.log(`ok ${log}: ${n} moves, search notes: ${hasSearch}, screenshots in ${out}`);
  await page.close();
}

try {
  for (let i = 0; i < logs.length; i++) await checkGame(logs[i], i);
} finally {
  await browser.close();
}
