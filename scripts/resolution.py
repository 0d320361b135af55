#!/usr/bin/env python3
"""The resolution of a match: how many games a pentanomial SPRT needs.

    scripts/resolution.py MATCH_DIR/games.csv A_NAME [--sprt ELO0,ELO1 ...]
        [--sprt-margin H0,H1 ...] [--margin-cap CELLS] [--margin-min-games N]
        [--sprt-min-games N] [--alpha A] [--beta B] [--continued GAMES_CSV ...]

Reads an arena's games.csv (docs/matches.md, "The games file"), keeps complete pairs (both
games of a board), and prints for program A:
  - W-D-L moving first and moving second, the score, the pentanomial counts
    (pairs scoring 0, 1/4, 1/2, 3/4, 1 for A: LL, LD, DD/WL, WD, WW);
  - the paired margin (A's cells minus B's per game, mean over pairs) and
    the capped margin, each game clipped to +-cap cells (--margin-cap, 4 by
    default); in both a forfeit counts as a loss by cap cells for the side
    that forfeited, as in the arena (engine/arena/margin.h);
  - normalized Elo with its 95% interval;
  - for each SPRT: Wald's estimate of the games it takes to decide at this
    mean and spread (the arena's normal approximation, engine/arena/stats.h),
    where a test run over these pairs decided (nothing before
    --sprt-min-games games, 200 as in the arena), and the games it would
    take were the true difference elo1 at this spread;
  - the same for each margin test (--sprt-margin, in capped cells a game),
    which decides nothing before --margin-min-games games (200, the
    arena's default: docs/matches.md, "The margin test and the rule").
  The tests walk the pairs in the order their second game finished (the
  order of games.csv), as the arena decides them.

--continued reads another games.csv as the same match going on: the same
two programs in another folder (on another machine, say, with another
--seed). Its pairs follow the first file's, in its own order, as if the
arena had played them after; a board is a pair only within its own file.

The arena prints the same figures for one match; this script puts several
matches on one line each, for BENCHMARKS.md's resolution table.
"""
import csv
import math
import os
import sys


COLUMNS = ("first", "second", "board", "first_score", "second_score", "outcome", "forfeit_by")


def score_from_elo(elo):
    return 1 / (1 + 10 ** (-elo / 400))


def mean_var(xs):
    n = len(xs)
    m = sum(xs) / n
    return m, sum((x - m) ** 2 for x in xs) / n


def mean_llr(values, mu0, mu1, step):
    """The GSPRT's LLR on the mean of a per-pair statistic, as MeanSprt::llr
    (engine/arena/stats.h): n (mu1 - mu0) (2 m - mu0 - mu1) / (2 var), the
    variance floored at step^2 / n."""
    n = len(values)
    if n < 2:
        return 0.0
    m, v = mean_var(values)
    v = max(v, step * step / n)
    return n * (mu1 - mu0) * (2 * m - mu0 - mu1) / (2 * v)


def llr(pairs, elo0, elo1):
    return mean_llr(pairs, score_from_elo(elo0), score_from_elo(elo1), 0.25)


def game_margin(first_score, second_score, a_first, forfeit_by, a, cap):
    """A's margin in one game; a forfeit is a loss by cap cells for the side that forfeited."""
    if forfeit_by:
        return -cap if forfeit_by == a else cap
    return (first_score - second_score) * (1 if a_first else -1)


def sequential_verdict(values, mu0, mu1, step, lower, upper, min_pairs=0):
    """Where a test over these values, in this order, first crossed a bound
    (no decision before min_pairs)."""
    for i in range(max(2, min_pairs), len(values) + 1):
        value = mean_llr(values[:i], mu0, mu1, step)
        if value >= upper or value <= lower:
            return f"{'H1' if value > 0 else 'H0'} after {2 * i} games (LLR {value:.2f})"
    return f"undecided (LLR {mean_llr(values, mu0, mu1, step):.2f})"


def test_lines(name, values, mu0, mu1, step, alpha, beta, h1_text, min_pairs=0):
    n = len(values)
    m, v = mean_var(values)
    v = max(v, step * step / n)
    lower, upper = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
    drift = (mu1 - mu0) * (2 * m - mu0 - mu1) / (2 * v)
    expected = (upper if drift > 0 else lower) / drift if drift else float("inf")
    at_h1 = upper * 2 * v / (mu1 - mu0) ** 2
    return (f"  {name}: Wald's estimate {2 * expected:.0f} games to {'H1' if drift > 0 else 'H0'}; "
            f"over these pairs in the order they finished: {sequential_verdict(values, mu0, mu1, step, lower, upper, min_pairs)}; "
            f"a true {h1_text} at this spread: about {2 * at_h1:.0f} games")


def parse_pair(option, text):
    try:
        x, y = (float(t) for t in text.split(","))
    except ValueError:
        sys.exit(f"resolution.py: {option} must be 'LOW,HIGH', got {text!r}")
    if not (math.isfinite(x) and math.isfinite(y) and y > x):
        sys.exit(f"resolution.py: {option} needs two finite bounds, the first below the second, got {text!r}")
    return x, y


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    path, a = sys.argv[1], sys.argv[2]
    sprts, margin_sprts = [], []
    cap, alpha, beta = 4.0, 0.05, 0.05
    min_games = {"--margin-min-games": 200, "--sprt-min-games": 200}
    paths = [path]
    args = sys.argv[3:]
    while args:
        if len(args) < 2 or args[0] not in ("--sprt", "--sprt-margin", "--margin-cap", "--margin-min-games",
                                            "--sprt-min-games", "--alpha", "--beta", "--continued"):
            sys.exit(f"resolution.py: unexpected argument {args[0]!r} (expected --sprt ELO0,ELO1, --sprt-margin H0,H1, "
                     "--margin-cap CELLS, --margin-min-games N, --sprt-min-games N, --alpha A, --beta B "
                     "or --continued GAMES_CSV)")
        option, value = args[0], args[1]
        if option == "--continued":
            paths.append(value)
        elif option == "--sprt":
            sprts.append(parse_pair(option, value))
        elif option == "--sprt-margin":
            margin_sprts.append(parse_pair(option, value))
        elif option in min_games:
            if not value.isdigit():
                sys.exit(f"resolution.py: {option} must be a whole number of games, at least 0, got {value!r}")
            min_games[option] = int(value)
        else:
            try:
                number = float(value)
            except ValueError:
                sys.exit(f"resolution.py: {option} needs a number, got {value!r}")
            if option == "--margin-cap":
                if not 0 < number <= 170:
                    sys.exit(f"resolution.py: --margin-cap must be in (0, 170] cells, got {value}")
                cap = number
            elif not 0 < number < 0.5:
                sys.exit(f"resolution.py: {option} must be in (0, 0.5), got {value}")
            elif option == "--alpha":
                alpha = number
            else:
                beta = number
        args = args[2:]
    for h0, h1 in margin_sprts:
        if not (-cap <= h0 <= cap and -cap <= h1 <= cap):
            sys.exit(f"resolution.py: --sprt-margin {h0:g},{h1:g} lies outside [-cap, +cap] = [{-cap:g}, {cap:g}] "
                     "(--margin-cap): no capped mean can reach it")
    by_board = {}  # (file, board) -> its games
    finished = []  # (file, board), in the order their pair completed, file after file
    opponent = None
    seen = set()
    for games_path in paths:
        if os.path.realpath(games_path) in seen:
            sys.exit(f"resolution.py: {games_path} is given twice: its pairs would count twice")
        seen.add(os.path.realpath(games_path))
    for index, games_path in enumerate(paths):
        before = len(finished)
        try:
            f = open(games_path, newline="")
        except OSError as e:
            sys.exit(f"resolution.py: cannot read {games_path}: {e.strerror}")
        with f:
            reader = csv.DictReader(f)
            try:
                rows = list(reader)
            except (UnicodeDecodeError, csv.Error) as e:
                sys.exit(f"{games_path}: not a games.csv ({e})")
            missing = [c for c in COLUMNS if c not in (reader.fieldnames or [])]
            if rows and missing:
                sys.exit(f"{games_path}: not a games.csv (no column {', '.join(missing)})")
            for row in rows:
                if a not in (row["first"], row["second"]):
                    sys.exit(f"{games_path}: program {a!r} is not in the game of board {row['board']}")
                first = row["first"] == a
                other = row["second"] if first else row["first"]
                if opponent is None:
                    opponent = other
                elif other != opponent:
                    sys.exit(f"{games_path}: board {row['board']} is {a!r} against {other!r}, not {opponent!r}: "
                             "one reading is one match of two programs")
                outcome = int(row["outcome"]) * (1 if first else -1)
                margin = game_margin(int(row["first_score"]), int(row["second_score"]), first, row["forfeit_by"],
                                     a, cap)
                board = (index, int(row["board"]))
                by_board.setdefault(board, []).append((first, outcome, margin, row["forfeit_by"]))
                if len(by_board[board]) == 2:
                    finished.append(board)
        if len(paths) > 1 and len(finished) == before:
            sys.exit(f"{games_path}: no complete pair: an empty file, or a match not begun?")
    pair_of, margin_of, capped_of = {}, {}, {}
    wdl = {True: [0, 0, 0], False: [0, 0, 0]}
    forfeits = 0
    for board in finished:
        games = by_board[board]
        pair_of[board] = sum((o + 1) / 2 for _, o, _, _ in games) / 2
        margin_of[board] = sum(m for _, _, m, _ in games) / 2
        capped_of[board] = sum(max(-cap, min(cap, m)) for _, _, m, _ in games) / 2
        for first, o, _, f in games:
            wdl[first][0 if o > 0 else 1 if o == 0 else 2] += 1
            forfeits += bool(f)
    pairs = [pair_of[b] for b in finished]
    margins = [margin_of[b] for b in finished]
    capped = [capped_of[b] for b in finished]
    n = len(pairs)
    if n < 2:
        sys.exit(f"{' + '.join(paths)}: fewer than two complete pairs")
    m, v = mean_var(pairs)
    penta = [sum(1 for p in pairs if abs(p - k / 4) < 1e-9) for k in range(5)]
    se = math.sqrt(v / n) if v > 0 else 0
    k = 800 / math.log(10)
    nelo = (m - 0.5) / math.sqrt(2 * v) * k if v > 0 else float("nan")
    nlo = (m - 1.96 * se - 0.5) / math.sqrt(2 * v) * k if v > 0 else float("nan")
    nhi = (m + 1.96 * se - 0.5) / math.sqrt(2 * v) * k if v > 0 else float("nan")
    # The sample standard error, as the arena's mean_interval.
    def interval(xs):
        mean, var = mean_var(xs)
        half = 1.96 * math.sqrt(var / (len(xs) - 1))
        return mean, mean - half, mean + half
    mm, mlo, mhi = interval(margins)
    cm, clo, chi = interval(capped)
    print(f"{' + '.join(paths)}: {2 * n} games ({n} pairs), forfeits {forfeits}")
    print(f"  {a} first {'-'.join(map(str, wdl[True]))}, second {'-'.join(map(str, wdl[False]))}, score {m:.3f}")
    print(f"  pentanomial LL,LD,DD/WL,WD,WW = {', '.join(map(str, penta))}")
    print(f"  paired margin {mm:+.2f} [{mlo:+.2f}, {mhi:+.2f}] cells (a forfeit counts -{cap:g})")
    print(f"  capped margin {cm:+.3f} [{clo:+.3f}, {chi:+.3f}] cells (each game clipped to +-{cap:g})")
    print(f"  normalized Elo {nelo:+.1f} [{nlo:+.1f}, {nhi:+.1f}]")
    for e0, e1 in sprts:
        guard = min_games["--sprt-min-games"]
        print(test_lines(f"SPRT({e0:g}, {e1:g}), from {guard} games", pairs, score_from_elo(e0), score_from_elo(e1),
                         0.25, alpha, beta, f"+{e1:g} Elo", (guard + 1) // 2))
    for h0, h1 in margin_sprts:
        guard = min_games["--margin-min-games"]
        print(test_lines(f"margin SPRT({h0:g}, {h1:g}) cap {cap:g}, from {guard} games", capped, h0, h1, 0.5,
                         alpha, beta, f"{h1:+g} capped cells a game", (guard + 1) // 2))


if __name__ == "__main__":
    main()
