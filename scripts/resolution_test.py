#!/usr/bin/env python3
"""Tests of scripts/resolution.py's margin figures and margin test (CTest ResolutionScript).

    scripts/resolution_test.py [--mushroom BUILD/mushroom] [unittest arguments]

With --mushroom, also checks that its arena report and the script
read the same games.csv to the same margins and LLRs.
"""
import os
import re
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "resolution.py")
ROOT = os.path.dirname(HERE)
MUSHROOM = None
HEADER = "first,second,board,board_seed,first_score,second_score,outcome,forfeit_by,reason,log\n"


def record(first, second, board, first_score, second_score, forfeit_by=""):
    if forfeit_by:
        outcome = -1 if forfeit_by == first else 1
    else:
        outcome = (first_score > second_score) - (first_score < second_score)
    reason = "illegal move" if forfeit_by else ""
    return f"{first},{second},{board},0,{first_score},{second_score},{outcome},{forfeit_by},{reason},g{board}.log\n"


def games(a_margins):
    """A games.csv whose pairs have A's two margins as given (A first, then A second);
    "A" or "B" instead of a number is that side's forfeit."""
    text = HEADER
    for board, pair in enumerate(a_margins):
        for a_first, m in zip((True, False), pair):
            first, second = ("new", "old") if a_first else ("old", "new")
            if m in ("A", "B"):
                text += record(first, second, board, 0, 0, "new" if m == "A" else "old")
                continue
            a_cells, b_cells = 85 + m // 2 + m % 2, 85 - m // 2
            text += record(first, second, board, a_cells if a_first else b_cells, b_cells if a_first else a_cells)
    return text


def run(path, *args):
    return subprocess.run([sys.executable, SCRIPT, path, "new", *args], capture_output=True, text=True)


class Resolution(unittest.TestCase):
    def write(self, text):
        fd, path = tempfile.mkstemp(suffix=".csv")
        with os.fdopen(fd, "w") as f:
            f.write(text)
        self.addCleanup(os.remove, path)
        return path

    def test_capped_margin_and_forfeits(self):
        # Pairs: (+10, -2) -> raw 4, capped (4 - 2)/2 = 1; (B forfeits, +1) ->
        # raw (4 + 1)/2 = 2.5, capped 2.5; (B forfeits, -1) -> 1.5 both ways.
        path = self.write(games([(10, -2), ("B", 1), ("B", -1)]))
        r = run(path)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("forfeits 2", r.stdout)
        self.assertIn("paired margin +2.67 [", r.stdout)  # (4 + 2.5 + 1.5) / 3
        self.assertIn("(a forfeit counts -4)", r.stdout)
        self.assertIn("capped margin +1.667 [", r.stdout)  # (1 + 2.5 + 1.5) / 3
        # Capped at 2: (2 - 2)/2 = 0, (2 + 1)/2 = 1.5, (2 - 1)/2 = .5; raw,
        # with the forfeits at 2: 4, 1.5, .5.
        r = run(path, "--margin-cap", "2")
        self.assertIn("capped margin +0.667 [", r.stdout)
        self.assertIn("paired margin +2.00 [", r.stdout)
        # A's own forfeit counts against A: (-4 + 0)/2 and (0 + 0)/2.
        r = run(self.write(games([("A", 0), (0, 0)])))
        self.assertIn("paired margin -1.00 [", r.stdout)
        self.assertIn("capped margin -1.000 [", r.stdout)

    def test_margin_llr_on_a_hand_computed_sequence(self):
        # Capped pair margins 1, .5, 0, .5, 1.5 (engine/arena/stats_test.cpp,
        # MeanSprtLlrOnAHandComputedSequence): the LLR after 5 pairs is 1.25,
        # never reaching 2.944.
        path = self.write(games([(2, 0), (1, 0), (0, 0), (0, 1), (3, 0)]))
        r = run(path, "--sprt-margin", "0,0.1", "--margin-min-games", "0")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("margin SPRT(0, 0.1) cap 4, from 0 games:", r.stdout)
        self.assertIn("undecided (LLR 1.25)", r.stdout)
        # Pairs alternating +1 and 0: n * .1 * (2m - .1) / (2 var) is 2.913
        # at 15 pairs (m = 8/15, var .2489), 2.88 at 16 (m = .5, var .25)
        # and first above 2.944 at 17: m = 9/17, var .2491: 3.27.
        path = self.write(games([(2, 0), (0, 0)] * 10))
        r = run(path, "--sprt-margin", "0,0.1", "--margin-min-games", "0")
        self.assertIn("H1 after 34 games (LLR 3.27)", r.stdout)
        # The guard: nothing before 36 games; at 18 pairs (9 and 9) the LLR
        # is 18 * .1 * .9 / .5 = 3.24, above the bound: H1 at 36.
        r = run(path, "--sprt-margin", "0,0.1", "--margin-min-games", "36")
        self.assertIn("H1 after 36 games (LLR 3.24)", r.stdout)
        # The rule's default, 200 games, is more than these 40.
        r = run(path, "--sprt-margin", "0,0.1")
        self.assertIn("margin SPRT(0, 0.1) cap 4, from 200 games:", r.stdout)
        self.assertIn("undecided (LLR 3.60)", r.stdout)

    def test_the_wdl_test_has_its_own_guard(self):
        # Ten pairs that A wins twice: pair scores 1, variance floored at
        # 1/(16 n), LLR 8 n^2 (s1 - .5)(1.5 - s1) = .1689 n^2 for SPRT(0, 15):
        # 2.70 at 4 pairs, first above 2.944 at 5 (4.22); with a guard of 12
        # games, at 6 pairs (6.08); with the default guard, 200 games, the
        # 20 games here decide nothing.
        path = self.write(games([(1, 1)] * 10))
        r = run(path, "--sprt", "0,15", "--sprt-min-games", "0")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("SPRT(0, 15), from 0 games:", r.stdout)
        self.assertIn("H1 after 10 games (LLR 4.22)", r.stdout)
        r = run(path, "--sprt", "0,15", "--sprt-min-games", "12")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("H1 after 12 games (LLR 6.08)", r.stdout)
        # An odd guard ends in the pair that holds its last game: 11 games, 6 pairs.
        r = run(path, "--sprt", "0,15", "--sprt-min-games", "11")
        self.assertIn("H1 after 12 games (LLR 6.08)", r.stdout)
        r = run(path, "--sprt", "0,15")
        self.assertIn("SPRT(0, 15), from 200 games:", r.stdout)
        self.assertIn("undecided (LLR 16.89)", r.stdout)
        # The guards are separate: the margin test's minimum leaves it alone.
        r = run(path, "--sprt", "0,15", "--margin-min-games", "0")
        self.assertIn("SPRT(0, 15), from 200 games:", r.stdout)
        self.assertIn("undecided (LLR 16.89)", r.stdout)

    def test_a_continued_match_reads_as_one(self):
        # Two folders of the same match, boards numbered from 0 in each: read
        # together, they give what one file of all the pairs, the second
        # file's after the first's, gives. Margins 1, .5 then 0, .5, 1.5: the
        # hand-computed sequence above, LLR 1.25 after five pairs.
        first = self.write(games([(2, 0), (1, 0)]))
        second = self.write(games([(0, 0), (0, 1), (3, 0)]))
        whole = self.write(games([(2, 0), (1, 0), (0, 0), (0, 1), (3, 0)]))
        args = ["--sprt-margin", "0,0.1", "--margin-min-games", "0"]
        together = run(first, *args, "--continued", second)
        self.assertEqual(together.returncode, 0, together.stderr)
        self.assertIn(f"{first} + {second}: 10 games (5 pairs), forfeits 0", together.stdout)
        self.assertIn("undecided (LLR 1.25)", together.stdout)
        alone = run(whole, *args)
        self.assertEqual(together.stdout.split("\n")[1:], alone.stdout.split("\n")[1:])
        # The order matters to a sequential test: the second file's pairs
        # come after the first's. Pair margins 1, 1, 1 then 0, 0, 0: the LLR
        # is 3.42 after three pairs (variance floored at .25/3), H1; the
        # zeros first, it ends at 6 * .1 * .9 / .5 = 1.08, undecided.
        ones, zeros = self.write(games([(2, 0)] * 3)), self.write(games([(0, 0)] * 3))
        r = run(ones, *args, "--continued", zeros)
        self.assertIn("H1 after 6 games (LLR 3.42)", r.stdout)
        r = run(zeros, *args, "--continued", ones)
        self.assertIn("undecided (LLR 1.08)", r.stdout)
        # A board of one file never pairs with the same number in the other.
        r = run(self.write(games([(2, 0)])), "--continued", self.write(games([(0, 0)])))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("4 games (2 pairs)", r.stdout)
        # Another opponent is another match; a missing file is named.
        other = self.write(games([(0, 0)]).replace("old", "older"))
        r = run(first, "--continued", other)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn(f"{other}: board 0 is 'new' against 'older', not 'old'", r.stderr)
        r = run(first, "--continued", first + ".missing")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn(f"cannot read {first}.missing", r.stderr)
        # --continued repeats: each file's pairs after the one before it.
        b, c = self.write(games([(0, 0)])), self.write(games([(0, 1), (3, 0)]))
        r = run(first, *args, "--continued", b, "--continued", c)
        self.assertIn(f"{first} + {b} + {c}: 10 games (5 pairs), forfeits 0", r.stdout)
        self.assertEqual(r.stdout.split("\n")[1:], alone.stdout.split("\n")[1:])
        # The opponent is checked on every game, in the file that has it.
        mixed = games([(0, 0), (0, 0)]).replace("new,old,1,", "new,older,1,").replace("old,new,1,", "older,new,1,")
        mixed = self.write(mixed)
        r = run(first, "--continued", mixed)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn(f"{mixed}: board 1 is 'new' against 'older', not 'old'", r.stderr)
        r = run(mixed)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn(f"{mixed}: board 1 is 'new' against 'older', not 'old'", r.stderr)
        # A file read twice, or one with no pair, is refused by name.
        r = run(first, "--continued", first)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn(f"{first} is given twice", r.stderr)
        for text in ("", HEADER):
            empty = self.write(text)
            r = run(first, "--continued", empty)
            self.assertNotEqual(r.returncode, 0)
            self.assertIn(f"{empty}: no complete pair", r.stderr)
        # A file that is not a games.csv is named, not a traceback.
        for text, words in (("a,b\n1,2\n", "not a games.csv (no column first, second, board"),
                            (HEADER.encode() + b"\xff\xfe,\n", "not a games.csv (")):
            fd, bad = tempfile.mkstemp(suffix=".csv")
            with os.fdopen(fd, "wb") as f:
                f.write(text if isinstance(text, bytes) else text.encode())
            self.addCleanup(os.remove, bad)
            r = run(first, "--continued", bad)
            self.assertNotEqual(r.returncode, 0)
            self.assertIn(f"{bad}: {words}", r.stderr)
            self.assertNotIn("Traceback", r.stderr)

    def test_bad_input_is_refused_by_name(self):
        path = self.write(games([(2, 0), (0, 0)]))
        for args, words in [
            (["--sprt-margin", "0.1,0"], "--sprt-margin needs two finite bounds, the first below the second"),
            (["--sprt-margin", "0,5"], "--sprt-margin 0,5 lies outside [-cap, +cap] = [-4, 4]"),
            (["--margin-cap", "0"], "--margin-cap must be in (0, 170] cells"),
            (["--margin-cap", "x"], "--margin-cap needs a number"),
            (["--sprt-margin", "a,b"], "--sprt-margin must be 'LOW,HIGH'"),
            (["--alpha", "0.7"], "--alpha must be in (0, 0.5)"),
            (["--margin-min-games", "-3"], "--margin-min-games must be a whole number of games, at least 0"),
            (["--sprt-min-games", "x"], "--sprt-min-games must be a whole number of games, at least 0"),
            (["--frob", "1"], "unexpected argument '--frob'"),
        ]:
            r = run(path, *args)
            self.assertNotEqual(r.returncode, 0, args)
            self.assertIn(words, r.stderr, args)


def splitmix64(x):
    mask = (1 << 64) - 1
    z = (x + 0x9E3779B97F4A7C15) & mask
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    return z ^ (z >> 31)


def arena_board_seed(seed, board):
    """As arena_board_seed (engine/arena/arena.cpp)."""
    return splitmix64((seed * 0x9E3779B97F4A7C15 + board) & ((1 << 64) - 1))


class AgainstTheArena(unittest.TestCase):
    """The arena's report and the script read the same games.csv to the same figures.

    The games are written by hand, out of board order, with forfeits and a
    win by more than the cap (Arena.AResumeDecidesInTheOrderTheGamesFinished
    OnCappedMargins): the arena reads them all back and plays none."""

    def arena_and_script(self, games_csv, boards, test_args):
        """The arena resumes games_csv (every game read back, none played:
        pass bots p1 and p2 on seed 1) and the script reads the same file,
        both with test_args; returns both finished processes."""
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "games.csv"), "w") as f:
                f.write(games_csv)
            pass_bot = "sh " + os.path.join(ROOT, "testdata", "bots", "pass.sh")
            out = subprocess.run(
                [MUSHROOM, "arena", "--a", pass_bot, "--a-name", "p1", "--b", pass_bot, "--b-name", "p2",
                 "--boards", str(boards), "--seed", "1"] + test_args + ["--log-dir", d],
                capture_output=True, text=True, cwd=ROOT)
            self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
            script = subprocess.run([sys.executable, SCRIPT, os.path.join(d, "games.csv"), "p1"] + test_args,
                                    capture_output=True, text=True)
            self.assertEqual(script.returncode, 0, script.stderr)
        return out, script

    def test_same_margins_and_verdicts(self):
        if not MUSHROOM:
            self.skipTest("no --mushroom binary given")
        rows = [("p1", "p2", 2, 0, 0, "p2"), ("p2", "p1", 2, 0, 0, "p2"), ("p1", "p2", 3, 90, 80, ""),
                ("p2", "p1", 3, 80, 90, ""), ("p1", "p2", 0, 0, 0, "p1"), ("p2", "p1", 0, 0, 0, "p1"),
                ("p1", "p2", 1, 0, 0, "p1"), ("p2", "p1", 1, 0, 0, "p1"), ("p1", "p2", 4, 84, 86, ""),
                ("p2", "p1", 4, 85, 88, "")]
        text = HEADER
        for first, second, board, fs, ss, forfeit in rows:
            outcome = (-1 if forfeit == first else 1) if forfeit else (fs > ss) - (fs < ss)
            reason = "illegal move" if forfeit else ""
            text += (f"{first},{second},{board},{arena_board_seed(1, board)},{fs},{ss},{outcome},{forfeit},"
                     f"{reason},game-{board}.log\n")
        out, script = self.arena_and_script(text, 5, ["--sprt-margin", "-1,1", "--margin-min-games", "0", "--sprt", "0,15"])
        self.assertIn("games: 10 (5 complete pairs, 10 read back from games.csv)", out.stdout)

        def number(pattern, where):
            m = re.search(pattern, where)
            self.assertTrue(m, f"{pattern!r} not in:\n{where}")
            return float(m.group(1))

        for arena_pattern, script_pattern in [
            (r"paired margin per game: ([-+0-9.]+)", r"paired margin ([-+0-9.]+) \["),
            (r"capped margin per game \(each game clipped to \+-4 cells\): ([-+0-9.]+)", r"capped margin ([-+0-9.]+) \["),
        ]:
            self.assertAlmostEqual(number(arena_pattern, out.stdout), number(script_pattern, script.stdout), places=2)
        # The margin test: pairs +4, +4, -4, -4, +0.5 in the order they
        # finished: 2 pairs, mean 4, variance floored at .125: LLR
        # 2 * 2 * 8 / .25 = 128: H1 at 4 games, in both.
        self.assertIn("(capped cells a game): H1 accepted at 4 games (LLR 128.00,", out.stdout)
        self.assertIn("margin SPRT(-1, 1) cap 4, from 0 games: ", script.stdout)
        self.assertIn("over these pairs in the order they finished: H1 after 4 games (LLR 128.00)", script.stdout)
        # The W/D/L test over all five pairs (1, 1, 0, 0, .5): undecided in
        # both, with the same LLR.
        arena_wdl = number(r"\(W/D/L, pentanomial\): undecided after 10 games \(LLR ([-0-9.]+)", out.stdout)
        script_wdl = number(r"SPRT\(0, 15\), from 200 games: .*undecided \(LLR ([-0-9.]+)\)", script.stdout)
        self.assertAlmostEqual(arena_wdl, script_wdl, places=2)


    def test_same_wdl_guard(self):
        # Six boards that p1 wins twice by a cell: W/D/L SPRT(0, 15) with a
        # guard of 11 games decides at the 6th pair, 12 games, LLR
        # .1689 * 36 = 6.08, in the arena and in the script alike.
        if not MUSHROOM:
            self.skipTest("no --mushroom binary given")
        text = HEADER
        for board in range(6):
            for first, second, fs, ss in (("p1", "p2", 86, 85), ("p2", "p1", 85, 86)):
                text += f"{first},{second},{board},{arena_board_seed(1, board)},{fs},{ss},{(fs > ss) - (fs < ss)},,,g.log\n"
        out, script = self.arena_and_script(text, 6, ["--sprt", "0,15", "--sprt-min-games", "11"])
        self.assertIn("min-games=11 (W/D/L, pentanomial): H1 accepted at 12 games (LLR 6.08,", out.stdout)
        self.assertIn("SPRT(0, 15), from 11 games:", script.stdout)
        self.assertIn("H1 after 12 games (LLR 6.08)", script.stdout)

if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--mushroom":
        MUSHROOM = os.path.abspath(sys.argv[2])
        del sys.argv[1:3]
    unittest.main()
