#!/usr/bin/env python3
"""Tests of scripts/margin_calibration.py (CTest MarginCalibrationScript).

    scripts/margin_calibration_test.py [unittest arguments]

The calibration's tables decide the tests' guards (docs/matches.md), so the
pieces that make them are checked here: the tilt that moves the pentanomial
to each true Elo, the sequential test it runs (against the same hand-computed
numbers as engine/arena/stats_test.cpp), and a whole run on a small games.csv.
"""
import math
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import margin_calibration as mc  # noqa: E402

NULL_CHECK = [0.013, 0.050, 0.860, 0.060, 0.017]  # bench/matches/null-self-9901's pentanomial
HEADER = "first,second,board,board_seed,first_score,second_score,outcome,forfeit_by,reason,log\n"


def mean(p):
    return sum(q * x for q, x in zip(p, mc.PAIR_SCORES))


class Tilt(unittest.TestCase):
    def test_the_tilt_reaches_each_elo(self):
        for elo in (-7.5, 0, 7.5, 15, 22.5):
            p = mc.tilted(NULL_CHECK, mc.score_from_elo(elo))
            self.assertAlmostEqual(sum(p), 1, places=12)
            self.assertAlmostEqual(mean(p), mc.score_from_elo(elo), places=9)

    def test_the_tilt_is_exponential_and_leaves_the_own_mean_alone(self):
        # log(p_i / f_i) = t x_i - log Z: equal steps between neighbouring
        # scores, positive for a mean above the observed one.
        p = mc.tilted(NULL_CHECK, 0.53)
        ratios = [math.log(q / f) for q, f in zip(p, NULL_CHECK)]
        steps = [b - a for a, b in zip(ratios, ratios[1:])]
        for s in steps:
            self.assertAlmostEqual(s, steps[0], places=9)
        self.assertGreater(steps[0], 0)
        f = [x / sum(NULL_CHECK) for x in NULL_CHECK]
        for a, b in zip(mc.tilted(f, mean(f)), f):
            self.assertAlmostEqual(a, b, places=9)

    def test_an_unreachable_mean_is_refused_by_name(self):
        # Only DD and WW: no tilt has a mean below 1/2.
        with self.assertRaises(SystemExit) as e:
            mc.tilted([0, 0, 0.5, 0, 0.5], 0.4)
        self.assertIn("no tilt of these pairs has mean score 0.4000", str(e.exception.code))
        with self.assertRaises(SystemExit):
            mc.tilted([0, 0, 1, 0, 0], 0.5)  # one score: no spread to tilt


class Simulate(unittest.TestCase):
    # Pair scores 0, variance floored at 1/(16 n): LLR -8 n^2 d (1 + d) for
    # SPRT(0, 15), d = s(15) - 1/2: first below -2.944 at 5 pairs; with a
    # guard of 10 pairs, at 10. Pair scores 1: +8 n^2 d (1 - d), 2.70 at 4
    # pairs, 4.22 at 5, and at 6 with a guard of 6 (Stats.TheEloSprtDecides...).
    def test_the_guard_as_the_arena_has_it(self):
        s1 = mc.score_from_elo(15)
        self.assertEqual(mc.simulate(lambda: 0.0, 0.5, s1, 0.25, 0.05, 0.05, 0, 99), (False, 5))
        self.assertEqual(mc.simulate(lambda: 0.0, 0.5, s1, 0.25, 0.05, 0.05, 10, 99), (False, 10))
        self.assertEqual(mc.simulate(lambda: 1.0, 0.5, s1, 0.25, 0.05, 0.05, 0, 99), (True, 5))
        self.assertEqual(mc.simulate(lambda: 1.0, 0.5, s1, 0.25, 0.05, 0.05, 6, 99), (True, 6))
        self.assertEqual(mc.simulate(lambda: 1.0, 0.5, s1, 0.25, 0.05, 0.05, 0, 4), (None, 4))


class WholeRun(unittest.TestCase):
    def test_tables_on_a_small_match(self):
        # 20 pairs, A ("new") scoring LL, LD, DD, WD, WW: every score seen, so
        # every Elo can be tilted to.
        text = HEADER
        kinds = [(-1, -1), (-1, 0), (1, -1), (0, 0), (1, 0), (1, 1)]  # A's outcome moving first, second
        for board in range(20):
            first_outcome, second_outcome = kinds[board % len(kinds)]
            for a_first, outcome in ((True, first_outcome), (False, second_outcome)):
                a_cells = 85 + outcome
                b_cells = 85 - outcome
                first, second = ("new", "old") if a_first else ("old", "new")
                fs, ss = (a_cells, b_cells) if a_first else (b_cells, a_cells)
                text += f"{first},{second},{board},0,{fs},{ss},{(fs > ss) - (fs < ss)},,,g{board}.log\n"
        fd, path = tempfile.mkstemp(suffix=".csv")
        with os.fdopen(fd, "w") as f:
            f.write(text)
        self.addCleanup(os.remove, path)
        r = subprocess.run([sys.executable, os.path.join(HERE, "margin_calibration.py"), path, "new", "--caps", "4",
                            "--runs", "20", "--max-games", "400", "--sprt", "0,15", "--sprt-min-games", "40"],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        table3 = r.stdout[r.stdout.index("3. The W/D/L test SPRT(0, 15)"):]
        rows = [line for line in table3.splitlines() if line.startswith("| 0 |") or line.startswith("| 40 |")]
        self.assertEqual(len(rows), 10, table3)
        self.assertEqual(sum(1 for line in rows if line.startswith("| 40 |")), 5)
        for line in rows:
            cells = [c.strip() for c in line.strip("|").split("|")]
            h1, h0, undecided = float(cells[2]), float(cells[3]), float(cells[4])
            self.assertAlmostEqual(h1 + h0 + undecided, 1, places=2)
            if cells[0] == "40":
                self.assertGreaterEqual(float(cells[5].replace(",", "")), 40)  # no decision before the guard


if __name__ == "__main__":
    unittest.main()
