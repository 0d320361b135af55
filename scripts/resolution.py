#!/usr/bin/env python3
"""The resolution of a match: how many games a pentanomial SPRT needs.

    scripts/resolution.py MATCH_DIR/games.csv A_NAME [--sprt ELO0,ELO1 ...]

Reads an arena's games.csv (docs/matches.md, "The games file"), keeps complete pairs (both
games of a board), and prints for program A:
  - W-D-L moving first and moving second, the score, the pentanomial counts
    (pairs scoring 0, 1/4, 1/2, 3/4, 1 for A: LL, LD, DD/WL, WD, WW);
  - the paired margin (A's cells minus B's per game, mean over pairs);
  - normalized Elo with its 95% interval;
  - for each SPRT: Wald's estimate of the games it takes to decide at this
    mean and spread (the arena's normal approximation, engine/arena/stats.h),
    where a test run over these pairs, in board order, decided, and the
    games it would take were the true difference elo1 at this spread.

The arena prints the same figures for one match; this script puts several
matches on one line each, for BENCHMARKS.md's resolution table.
"""
import csv
import math
import sys


def score_from_elo(elo):
    return 1 / (1 + 10 ** (-elo / 400))


def mean_var(xs):
    n = len(xs)
    m = sum(xs) / n
    return m, sum((x - m) ** 2 for x in xs) / n


def llr(pairs, elo0, elo1):
    # As Sprt::llr: n (s1 - s0) (2 m - s0 - s1) / (2 var), var floored at 1/(16 n) as there.
    n = len(pairs)
    if n < 2:
        return 0.0
    m, v = mean_var(pairs)
    v = max(v, 1 / (16 * n))
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    return n * (s1 - s0) * (2 * m - s0 - s1) / (2 * v)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    path, a = sys.argv[1], sys.argv[2]
    sprts = []
    args = sys.argv[3:]
    while args:
        if args[0] != "--sprt" or len(args) < 2:
            sys.exit(f"resolution.py: unexpected argument {args[0]!r} (expected --sprt ELO0,ELO1)")
        e0, e1 = (float(x) for x in args[1].split(","))
        sprts.append((e0, e1))
        args = args[2:]
    by_board = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if a not in (row["first"], row["second"]):
                sys.exit(f"{path}: program {a!r} is not in the game of board {row['board']}")
            first = row["first"] == a
            outcome = int(row["outcome"]) * (1 if first else -1)
            margin = (int(row["first_score"]) - int(row["second_score"])) * (1 if first else -1)
            if row["forfeit_by"]:
                margin = 0
            by_board.setdefault(int(row["board"]), []).append((first, outcome, margin, row["forfeit_by"]))
    pairs, margins = [], []
    wdl = {True: [0, 0, 0], False: [0, 0, 0]}
    forfeits = 0
    for board in sorted(by_board):
        games = by_board[board]
        if len(games) != 2:
            continue
        pairs.append(sum((o + 1) / 2 for _, o, _, _ in games) / 2)
        margins.append(sum(m for _, _, m, _ in games) / 2)
        for first, o, _, f in games:
            wdl[first][0 if o > 0 else 1 if o == 0 else 2] += 1
            forfeits += bool(f)
    n = len(pairs)
    if n < 2:
        sys.exit(f"{path}: fewer than two complete pairs")
    m, v = mean_var(pairs)
    penta = [sum(1 for p in pairs if abs(p - k / 4) < 1e-9) for k in range(5)]
    se = math.sqrt(v / n) if v > 0 else 0
    k = 800 / math.log(10)
    nelo = (m - 0.5) / math.sqrt(2 * v) * k if v > 0 else float("nan")
    nlo = (m - 1.96 * se - 0.5) / math.sqrt(2 * v) * k if v > 0 else float("nan")
    nhi = (m + 1.96 * se - 0.5) / math.sqrt(2 * v) * k if v > 0 else float("nan")
    mm, mv = mean_var(margins)
    mse = math.sqrt(mv / n)
    print(f"{path}: {2 * n} games ({n} pairs), forfeits {forfeits}")
    print(f"  {a} first {'-'.join(map(str, wdl[True]))}, second {'-'.join(map(str, wdl[False]))}, score {m:.3f}")
    print(f"  pentanomial LL,LD,DD/WL,WD,WW = {', '.join(map(str, penta))}")
    print(f"  paired margin {mm:+.2f} [{mm - 1.96 * mse:+.2f}, {mm + 1.96 * mse:+.2f}] cells")
    print(f"  normalized Elo {nelo:+.1f} [{nlo:+.1f}, {nhi:+.1f}]")
    bound = math.log(0.95 / 0.05)
    for e0, e1 in sprts:
        s0, s1 = score_from_elo(e0), score_from_elo(e1)
        step = (s1 - s0) * (2 * m - s0 - s1) / (2 * max(v, 1 / (16 * n)))
        expected = bound / abs(step) if step else float("inf")
        decided = "undecided"
        for i in range(2, n + 1):
            value = llr(pairs[:i], e0, e1)
            if value >= bound or value <= -bound:
                decided = f"{'H1' if value > 0 else 'H0'} after {2 * i} games"
                break
        # The test's design figure: the games to H1 were the true difference
        # elo1 itself, at this spread of pair scores.
        at_elo1 = bound * 2 * max(v, 1 / (16 * n)) / (s1 - s0) ** 2
        print(f"  SPRT({e0:g}, {e1:g}): Wald's estimate {2 * expected:.0f} games to "
              f"{'H1' if step > 0 else 'H0'}; over these pairs in board order: {decided}; "
              f"a true +{e1:g} Elo at this spread: about {2 * at_elo1:.0f} games")


if __name__ == "__main__":
    main()
