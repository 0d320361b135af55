#!/usr/bin/env python3
"""Calibrates the margin test on real games (issue 99, docs/matches.md "The margin test").

    scripts/margin_calibration.py MATCH/games.csv A_NAME [--caps 1,2,3,4,6,8,170]
        [--cap 4] [--sprt-margin 0,0.1] [--alpha 0.05] [--beta 0.05]
        [--min-games 200] [--runs 2000] [--max-games 20000] [--seed 1]
        [--sprt 0,15 --sprt-min-games 200]

Reads the complete pairs of an arena's games.csv (a forfeit counts as a
loss by the cap, as in the arena) and prints two tables:

  1. By cap: the spread (standard deviation) of the pairs' capped margin,
     its correlation with the pairs' W/D/L score, and the games Wald's
     estimate needs to accept H1 at that spread were the true mean H1. A
     cap that is too small is W/D/L again (at 1 cell the statistic is the
     result); one too large lets big wins that change no result weigh in.
  2. The error rates of the margin test at --cap and --sprt-margin: the
     pairs are resampled with replacement and shifted so that their mean is
     each of H0 - (H1 - H0)/2, H0, the midpoint, H1 and H1 + (H1 - H0)/2;
     --runs sequential tests each, as the arena runs them (engine/arena/
     stats.h, MeanSprt: the variance floored at 0.25/n), none deciding
     before --min-games. For each mean: how often H1 was accepted (at H0
     the false-positive rate, at H1 one minus the false-negative rate), and
     the games a decision took (mean, median, 90th percentile).

  3. With --sprt ELO0,ELO1: the same check for the W/D/L (pentanomial)
     test, with and without a guard of --sprt-min-games. Its pairs take
     five values, so they cannot be shifted; instead the pentanomial
     frequencies are exponentially tilted (each weighted by exp(t x), x the
     pair's score) until their mean is each Elo's score: of all the
     distributions with that mean, the one closest to the observed one in
     Kullback-Leibler divergence (fishtest's pentanomial maximum-likelihood
     fit projects the other way, f_i / (1 + l (x_i - s)); the two agree to
     first order in the shift, which is about 0.02 here). The true Elos are ELO0 -
     (ELO1 - ELO0)/2, ELO0, the midpoint, ELO1 and ELO1 + (ELO1 - ELO0)/2.

The shift keeps the pairs' spread and shape; it is the resampling check
fishtest's statisticians use for a test on any bounded per-pair statistic.
"""
import argparse
import csv
import math
import random
import statistics
import sys

from resolution import game_margin  # the arena's rule for a game's margin, forfeits included


def parse_pair(text, option):
    try:
        a, b = (float(x) for x in text.split(","))
    except ValueError:
        sys.exit(f"margin_calibration.py: {option} must be 'LOW,HIGH', got {text!r}")
    if not b > a:
        sys.exit(f"margin_calibration.py: {option} needs the first bound below the second, got {text!r}")
    return a, b


def read_pairs(path, a):
    """Each complete pair as (A's score over its two games, [(first_score, second_score,
    A moved first, forfeit_by) of each game]), in the order the pairs completed."""
    by_board, order = {}, []
    try:
        f = open(path, newline="")
    except OSError as e:
        sys.exit(f"margin_calibration.py: cannot read {path}: {e.strerror}")
    with f:
        for line, row in enumerate(csv.DictReader(f), start=2):
            try:
                if a not in (row["first"], row["second"]):
                    sys.exit(f"{path}:{line}: program {a!r} is not in this game ({row['first']} - {row['second']})")
                first = row["first"] == a
                outcome = int(row["outcome"]) * (1 if first else -1)
                game = (int(row["first_score"]), int(row["second_score"]), first, row["forfeit_by"])
                board = int(row["board"])
            except (KeyError, TypeError, ValueError) as e:
                sys.exit(f"{path}:{line}: not a games.csv record ({e})")
            by_board.setdefault(board, []).append((outcome, game))
            if len(by_board[board]) == 2:
                order.append(board)
    pairs = []
    for board in order:
        games = by_board[board]
        score = sum((o + 1) / 2 for o, _ in games) / 2
        pairs.append((score, [g for _, g in games]))
    return pairs


def capped_pair_margin(games, a, cap):
    return sum(max(-cap, min(cap, game_margin(*g, a, cap))) for g in games) / 2


def llr(n, total, total_sq, mu0, mu1, step):
    m = total / n
    v = max(total_sq / n - m * m, step * step / n)
    return n * (mu1 - mu0) * (2 * m - mu0 - mu1) / (2 * v)


def simulate(draw, mu0, mu1, step, alpha, beta, min_pairs, max_pairs):
    """One sequential test on pairs drawn by draw(): (accepted H1?, pairs used); None when undecided."""
    lower, upper = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
    n, total, total_sq = 0, 0.0, 0.0
    while n < max_pairs:
        x = draw()
        n += 1
        total += x
        total_sq += x * x
        if n < 2 or n < min_pairs:
            continue
        value = llr(n, total, total_sq, mu0, mu1, step)
        if value >= upper:
            return True, n
        if value <= lower:
            return False, n
    return None, n


def score_from_elo(elo):
    return 1 / (1 + 10 ** (-elo / 400))


PAIR_SCORES = (0, 0.25, 0.5, 0.75, 1)


def tilted(frequencies, target):
    """The pentanomial frequencies weighted by exp(t x), t chosen by bisection so that their mean is target.

    Exits naming the problem when no tilt reaches target: it must lie strictly
    between the lowest and the highest pair score observed."""
    seen = [x for f, x in zip(frequencies, PAIR_SCORES) if f > 0]
    if not seen or not min(seen) < target < max(seen):
        sys.exit(f"margin_calibration.py: no tilt of these pairs has mean score {target:.4f}: "
                 f"their scores span [{min(seen, default=0):g}, {max(seen, default=0):g}]")

    def with_tilt(t):
        w = [f * math.exp(t * x) for f, x in zip(frequencies, PAIR_SCORES)]
        return [v / sum(w) for v in w]
    low, high = -60.0, 60.0  # the mean grows with t; exp(60) cannot overflow
    for _ in range(200):
        t = (low + high) / 2
        if sum(p * x for p, x in zip(with_tilt(t), PAIR_SCORES)) < target:
            low = t
        else:
            high = t
    p = with_tilt((low + high) / 2)
    if abs(sum(q * x for q, x in zip(p, PAIR_SCORES)) - target) > 1e-9:
        sys.exit(f"margin_calibration.py: the tilt to mean score {target:.4f} did not converge")
    return p


def error_table(title, unit, means, draw_at, mu_of, step, guards, args):
    """Runs --runs sequential tests at each true mean for each guard and prints one table."""
    print(title)
    print()
    print(f"| guard (games) | true mean ({unit}) | H1 accepted | H0 accepted | undecided | games: mean | median | "
          "90th percentile |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    mu0, mu1 = mu_of
    for guard in guards:
        for mean in means:
            draw = draw_at(mean)
            outcomes, lengths = [], []
            for _ in range(args.runs):
                decision, n = simulate(draw, mu0, mu1, step, args.alpha, args.beta, (guard + 1) // 2,
                                       args.max_games // 2)
                outcomes.append(decision)
                lengths.append(2 * n)
            h1s = sum(1 for d in outcomes if d is True) / args.runs
            h0s = sum(1 for d in outcomes if d is False) / args.runs
            print(f"| {guard} | {mean:+g} | {h1s:.3f} | {h0s:.3f} | {max(0.0, 1 - h1s - h0s):.3f} | "
                  f"{statistics.mean(lengths):,.0f} | {statistics.median(lengths):,.0f} | "
                  f"{percentile(lengths, 0.9):,} |")
    print()


def percentile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("games_csv")
    p.add_argument("a_name")
    p.add_argument("--caps", default="1,2,3,4,6,8,12,170")
    p.add_argument("--cap", type=float, default=4.0)
    p.add_argument("--sprt-margin", default="0,0.1")
    p.add_argument("--alpha", type=float, default=0.05)
    p.add_argument("--beta", type=float, default=0.05)
    p.add_argument("--min-games", type=int, default=200, help="no decision before this many games (the rule: 200)")
    p.add_argument("--runs", type=int, default=2000)
    p.add_argument("--max-games", type=int, default=20000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--sprt", help="ELO0,ELO1: also check the W/D/L test (table 3)")
    p.add_argument("--sprt-min-games", type=int, default=200, help="table 3's guard, beside none")
    args = p.parse_args()
    h0, h1 = parse_pair(args.sprt_margin, "--sprt-margin")
    try:
        caps = [float(c) for c in args.caps.split(",")]
    except ValueError:
        sys.exit(f"margin_calibration.py: --caps must be numbers separated by commas, got {args.caps!r}")
    for cap in caps + [args.cap]:
        if not 0 < cap <= 170:
            sys.exit(f"margin_calibration.py: a cap must be in (0, 170] cells, got {cap:g}")
    if not (-args.cap <= h0 and h1 <= args.cap):
        sys.exit(f"margin_calibration.py: --sprt-margin {args.sprt_margin} lies outside [-cap, +cap]")
    if not (0 < args.alpha < 0.5 and 0 < args.beta < 0.5):
        sys.exit("margin_calibration.py: --alpha and --beta must be in (0, 0.5)")
    if args.runs < 1 or args.max_games < 2:
        sys.exit("margin_calibration.py: --runs must be at least 1 and --max-games at least 2")

    pairs = read_pairs(args.games_csv, args.a_name)
    if len(pairs) < 10:
        sys.exit(f"{args.games_csv}: {len(pairs)} complete pairs; the calibration needs at least 10")
    scores = [s for s, _ in pairs]
    upper = math.log((1 - args.beta) / args.alpha)
    forfeits = sum(1 for _, games in pairs for g in games if g[3])
    print(f"{args.games_csv}: {2 * len(pairs)} games ({len(pairs)} pairs), {forfeits} forfeits, "
          f"{args.a_name} scores {statistics.mean(scores):.4f}")
    print()
    print(f"1. By cap (SPRT-margin({h0:g}, {h1:g}), alpha {args.alpha:g}, beta {args.beta:g})")
    print()
    print("| cap | mean | spread (sd) | correlation with the pair's score | games to H1 at a true H1 (Wald) |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    for cap in caps:
        values = [capped_pair_margin(g, args.a_name, cap) for _, g in pairs]
        sd = statistics.pstdev(values)
        corr = statistics.correlation(values, scores) if sd > 0 and statistics.pstdev(scores) > 0 else float("nan")
        games_h1 = 2 * upper * 2 * sd * sd / (h1 - h0) ** 2
        label = "none (170)" if cap >= 170 else f"{cap:g}"
        print(f"| {label} | {statistics.mean(values):+.3f} | {sd:.3f} | {corr:.3f} | {games_h1:,.0f} |")
    print()

    values = [capped_pair_margin(g, args.a_name, args.cap) for _, g in pairs]
    centre = statistics.mean(values)
    rng = random.Random(args.seed)
    width = h1 - h0
    margin_means = [round(m, 6) for m in (h0 - width / 2, h0, (h0 + h1) / 2, h1, h1 + width / 2)]
    error_table(f"2. The margin test SPRT({h0:g}, {h1:g}) at cap {args.cap:g}: {args.runs} resampled tests a mean, "
                f"pairs shifted to it, at most {args.max_games} games", "capped cells a game", margin_means,
                lambda mean: (lambda: values[int(rng.random() * len(values))] + mean - centre), (h0, h1), 0.5,
                [args.min_games], args)

    if args.sprt:
        e0, e1 = parse_pair(args.sprt, "--sprt")
        counts = [sum(1 for s in scores if s == x) for x in PAIR_SCORES]
        frequencies = [c / len(scores) for c in counts]
        ew = e1 - e0
        elos = [e0 - ew / 2, e0, (e0 + e1) / 2, e1, e1 + ew / 2]

        def draw_at(elo):
            cumulative, acc = [], 0.0
            for p in tilted(frequencies, score_from_elo(elo)):
                acc += p
                cumulative.append(acc)

            last = max(x for f, x in zip(frequencies, PAIR_SCORES) if f > 0)

            def draw():
                u = rng.random()
                for x, c in zip(PAIR_SCORES, cumulative):
                    if u < c:
                        return x
                return last  # u at the rounding edge: never a score the pairs never took
            return draw

        print(f"The pairs' pentanomial frequencies (LL LD DD/WL WD WW): "
              + " ".join(f"{f:.3f}" for f in frequencies))
        print()
        error_table(f"3. The W/D/L test SPRT({e0:g}, {e1:g}): {args.runs} tests at each true Elo, the pentanomial "
                    f"tilted to its score, at most {args.max_games} games", "logistic Elo", elos, draw_at,
                    (score_from_elo(e0), score_from_elo(e1)), 0.25, sorted({0, args.sprt_min_games}), args)


if __name__ == "__main__":
    main()
