#!/usr/bin/env python3
"""The record table of issue 99: the paired margin against the Elo, match by match.

    scripts/margin_record.py [CSV] [--markdown]

Reads docs/history/margin-record.csv (or CSV): one row per recorded match
that gives both a paired margin with its 95% interval and an Elo with its
95% interval (columns: docs/history/margin-record.csv's header). Each z is
the estimate over its standard error, z = estimate / ((high - low) / 3.92).

Prints:
  - the number of rows;
  - how many point the same way (the signs of margin and Elo agree), rows
    with a zero margin or Elo left out;
  - among the rows where either interval excludes 0, how many agree;
  - the Pearson correlation of z_margin and z_elo;
  - for real-clock rows and for the others: (z_margin / z_elo)^2, how many
    times fewer games the margin needs for the same z, pooled (sum of
    z_margin^2 over sum of z_elo^2) and as the median of the rows' ratios;
  - for real-clock rows, the least-squares line through the origin of the
    logistic Elo on the margin (Elo per cell a game).

--markdown prints the table instead. A malformed row stops the script with
the file, the line and what is wrong.
"""
import csv
import math
import os
import signal
import statistics
import sys

COLUMNS = [
    "file", "section", "match", "clock", "games", "margin", "margin_low", "margin_high",
    "elo_scale", "elo", "elo_low", "elo_high", "penta", "z_margin", "z_elo",
    "elo_logistic", "elo_logistic_low", "elo_logistic_high", "margin_unit", "note",
]
DEFAULT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "history", "margin-record.csv")


class Malformed(Exception):
    pass


def number(row, key):
    try:
        value = float(row[key])
    except ValueError:
        raise Malformed(f"{key} is {row[key]!r}, not a number")
    if not math.isfinite(value):
        raise Malformed(f"{key} is {row[key]!r}, not a finite number")
    return value


def z_of(estimate, low, high):
    return estimate / ((high - low) / (2 * 1.96))


def parse(row):
    """The row's figures as numbers, checked; raises Malformed."""
    missing = [c for c in COLUMNS if row.get(c) is None]
    if missing:
        raise Malformed(f"missing column(s) {', '.join(missing)}")
    if not row["match"].strip() or not row["clock"].strip():
        raise Malformed("empty match or clock")
    out = {k: row[k] for k in ("file", "section", "match", "clock", "elo_scale", "penta", "margin_unit", "note")}
    try:
        out["games"] = int(row["games"])
    except ValueError:
        raise Malformed(f"games is {row['games']!r}, not a whole number")
    for key in ("margin", "margin_low", "margin_high", "elo", "elo_low", "elo_high", "z_margin", "z_elo"):
        out[key] = number(row, key)
    for name in ("margin", "elo"):
        if not out[f"{name}_low"] <= out[name] <= out[f"{name}_high"] or out[f"{name}_low"] == out[f"{name}_high"]:
            raise Malformed(f"{name} {row[name]} is not inside a proper interval [{row[name + '_low']}, {row[name + '_high']}]")
        z = z_of(out[name], out[f"{name}_low"], out[f"{name}_high"])
        if abs(z - out[f"z_{name}"]) > 0.01:
            raise Malformed(f"z_{name} is {row['z_' + name]}, but the figures give {z:.3f}")
    if row["elo_scale"] not in ("logistic", "normalized"):
        raise Malformed(f"elo_scale is {row['elo_scale']!r}, not logistic or normalized")
    if row["margin_unit"] not in ("game", "pair"):
        raise Malformed(f"margin_unit is {row['margin_unit']!r}, not game or pair")
    if row["penta"]:
        counts = row["penta"].split()
        if len(counts) != 5 or not all(c.isdigit() for c in counts):
            raise Malformed(f"penta is {row['penta']!r}, not five counts")
    logistic = [row[k] for k in ("elo_logistic", "elo_logistic_low", "elo_logistic_high")]
    if any(logistic) and not all(logistic):
        raise Malformed("elo_logistic needs all three of its columns or none")
    out["logistic"] = None
    if row["elo_scale"] == "logistic":
        out["logistic"] = out["elo"]
    elif all(logistic):
        out["logistic"] = number(row, "elo_logistic")
    return out


def read(path):
    rows = []
    try:
        f = open(path, newline="", encoding="utf-8")
    except OSError as e:
        sys.exit(f"margin_record.py: cannot read {path}: {e.strerror}")
    with f:
        reader = csv.DictReader(f)
        if reader.fieldnames != COLUMNS:
            sys.exit(f"{path}:1: the header is not the expected columns: {','.join(COLUMNS)}")
        for row in reader:
            try:
                if None in row:
                    raise Malformed(f"{len(COLUMNS) + len(row[None])} fields, expected {len(COLUMNS)}")
                rows.append(parse(row))
            except Malformed as e:
                sys.exit(f"{path}:{reader.line_num}: malformed row: {e}")
    if not rows:
        sys.exit(f"{path}: no rows")
    return rows


def sign(x):
    return (x > 0) - (x < 0)


def significant(r, name):
    return r[f"{name}_low"] > 0 or r[f"{name}_high"] < 0


def pearson(xs, ys):
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / math.sqrt(sxx * syy)


def games_ratio(label, rows):
    """(z_margin / z_elo)^2: pooled, and the median of the rows'."""
    pooled = sum(r["z_margin"] ** 2 for r in rows) / sum(r["z_elo"] ** 2 for r in rows)
    each = [(r["z_margin"] / r["z_elo"]) ** 2 for r in rows if r["z_elo"] != 0]
    print(f"{label}: {len(rows)} rows; (z_margin/z_elo)^2 pooled {pooled:.2f} "
          f"(sum z_margin^2 {sum(r['z_margin'] ** 2 for r in rows):.1f} / sum z_elo^2 "
          f"{sum(r['z_elo'] ** 2 for r in rows):.1f}); median of {len(each)} rows' ratios "
          f"{statistics.median(each):.2f} (rows with z_elo = 0 left out)")


def fit_through_origin(points):
    """Slope of y = b x by least squares, its standard error, and the rms residual."""
    sxx = sum(x * x for x, _ in points)
    b = sum(x * y for x, y in points) / sxx
    rss = sum((y - b * x) ** 2 for x, y in points)
    rms = math.sqrt(rss / (len(points) - 1))
    return b, rms / math.sqrt(sxx), rms


def summary(rows):
    print(f"rows: {len(rows)}")
    nonzero = [r for r in rows if r["margin"] != 0 and r["elo"] != 0]
    agree = sum(sign(r["margin"]) == sign(r["elo"]) for r in nonzero)
    print(f"same sign (margin and Elo): {agree} of {len(nonzero)} "
          f"({len(rows) - len(nonzero)} rows with a zero margin or Elo left out)")
    either = [r for r in nonzero if significant(r, "margin") or significant(r, "elo")]
    agree_sig = sum(sign(r["margin"]) == sign(r["elo"]) for r in either)
    both = sum(significant(r, "margin") and significant(r, "elo") for r in either)
    only_m = sum(significant(r, "margin") and not significant(r, "elo") for r in either)
    only_e = sum(significant(r, "elo") and not significant(r, "margin") for r in either)
    print(f"either interval excludes 0: {len(either)} rows, {agree_sig} agree in sign "
          f"(both significant {both}, margin only {only_m}, Elo only {only_e}; zero rows left out as above)")
    print(f"Pearson r of z_margin and z_elo: {pearson([r['z_margin'] for r in rows], [r['z_elo'] for r in rows]):.3f} "
          f"over {len(rows)} rows")
    real = [r for r in rows if r["clock"] == "real"]
    other = [r for r in rows if r["clock"] != "real"]
    games_ratio("real clock", real)
    games_ratio("  of which with pentanomial counts", [r for r in real if r["penta"]])
    games_ratio("not real clock", other)
    games_ratio("  of which the 1 s screen", [r for r in other if r["clock"] == "1s"])
    games_ratio("  of which fixed depth", [r for r in other if r["clock"].startswith("depth")])
    per_game = [(r["margin"], r["logistic"]) for r in real if r["logistic"] is not None and r["margin_unit"] == "game"]
    per_pair = [(r["margin"] / 2, r["logistic"]) for r in real if r["logistic"] is not None and r["margin_unit"] == "pair"]
    no_logistic = sum(r["logistic"] is None for r in real)
    b, se, rms = fit_through_origin(per_game)
    print(f"real clock, logistic Elo = b * margin through the origin: b = {b:.1f} Elo per cell a game "
          f"(se {se:.1f}, rms residual {rms:.1f} Elo) over {len(per_game)} rows; {len(per_pair)} rows whose "
          f"margin is stated a pair left out, {no_logistic} without a logistic Elo")
    if per_pair:
        b2, se2, rms2 = fit_through_origin(per_game + per_pair)
        print(f"  with those {len(per_pair)} rows' margins halved (if 'a pair' is the two games' sum): "
              f"b = {b2:.1f} (se {se2:.1f}, rms residual {rms2:.1f})")
    big = [(x, y) for x, y in per_game if abs(x) < 2]
    if len(big) != len(per_game):
        b3, se3, rms3 = fit_through_origin(big)
        print(f"  rows with |margin| < 2 cells only ({len(big)} rows, the close matches): "
              f"b = {b3:.1f} (se {se3:.1f}, rms residual {rms3:.1f})")


def markdown(path, rows):
    # The figures as the CSV writes them, not as floats print.
    with open(path, newline="", encoding="utf-8") as f:
        raw = list(csv.DictReader(f))
    print("| match | clock | games | margin [95%] | Elo [95%] | z_margin | z_elo |")
    print("| --- | --- | ---: | --- | --- | ---: | ---: |")
    for r, parsed in zip(raw, rows):
        unit = " a pair" if parsed["margin_unit"] == "pair" else ""
        scale = " (normalized)" if parsed["elo_scale"] == "normalized" else ""
        match = r["match"].replace("|", "\\|")
        print(f"| {match} | {r['clock']} | {r['games']} | {r['margin']} [{r['margin_low']}, {r['margin_high']}]{unit} "
              f"| {r['elo']} [{r['elo_low']}, {r['elo_high']}]{scale} | {r['z_margin']} | {r['z_elo']} |")


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quiet when piped into head
    args = sys.argv[1:]
    want_markdown = "--markdown" in args
    args = [a for a in args if a != "--markdown"]
    if any(a.startswith("-") for a in args) or len(args) > 1:
        sys.exit(__doc__)
    path = args[0] if args else os.path.normpath(DEFAULT)
    rows = read(path)
    if want_markdown:
        markdown(path, rows)
    else:
        summary(rows)


if __name__ == "__main__":
    main()
