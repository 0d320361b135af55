#!/usr/bin/env python3
"""Where the first seat's games are lost: a review of a match's logs.

    scripts/first_seat_review.py MATCH_DIR [--ms 2000] [--jobs 2] [--games N]
                                 [--mushroom build/mushroom] [--out DIR]

Moving first decides most games between strong bots, so a board on which one
program won moving first and the other did not (drew or lost) shows where a
game is lost. The script reads the arena's MATCH_DIR/games.csv (docs/matches.md,
"The games file"), takes each such board's failed game (the first seat did not
win) and its counterpart (the other game of the board, the first seat won),
the first N failures in board order, and has `mushroom analyze --ms MS`
search every position of both (cached in DIR, default MATCH_DIR/review, one
report a log and --ms; a report already complete there is not searched
again). Boards with a forfeit are left out: they show no play. Then it prints, by
mushrooms left before the move, the first seat's moves in the failed games and
in the won ones: how many, the cells they lost (analyze's loss: the best
move's value minus the played move's, from one search), how many lost half a
cell or more, their milliseconds at the match's clock (the log's time column)
and how many analyze proved.

Bad input (no games.csv, a log it names that is missing, an analyze that
fails, a cached report whose moves are not its log's) stops it with a
message naming the file; exit status 2.
"""
import argparse
import collections
import concurrent.futures
import csv
import os
import re
import subprocess
import sys

BANDS = [(160, 170), (150, 159), (140, 149), (130, 139), (120, 129), (110, 119), (100, 109), (90, 99), (0, 89)]
ROW = re.compile(r'^ +\d+ +(FIRST|SECOND) ')


def fail(message):
    print(f'first_seat_review: {message}', file=sys.stderr)
    sys.exit(2)


def read_games(match_dir):
    path = os.path.join(match_dir, 'games.csv')
    if not os.path.isfile(path):
        fail(f'no games file {path} (an arena --log-dir writes one)')
    with open(path, newline='') as f:
        rows = list(csv.DictReader(f))
    needed = {'first', 'board', 'outcome', 'forfeit_by', 'log'}
    if rows and not needed <= set(rows[0]):
        fail(f'{path} lacks the columns {", ".join(sorted(needed - set(rows[0])))}')
    return rows


def failed_boards(rows):
    """(failed log, counterpart log) for each board where one first seat won and the other did not."""
    boards = collections.defaultdict(list)
    for r in rows:
        boards[int(r['board'])].append(r)
    out = []
    for board in sorted(boards):
        games = boards[board]
        if len(games) != 2 or any(g['forfeit_by'] for g in games):
            continue
        won = [int(g['outcome']) > 0 for g in games]  # 1: the first seat won
        if won[0] != won[1]:
            failed, counterpart = (games[1], games[0]) if won[0] else (games[0], games[1])
            out.append((failed['log'], counterpart['log']))
    return out


def moves_of(log_path):
    """[(player, mushrooms left before the move, ms)] of a game log (official format)."""
    mushrooms = set()  # the cells still holding a mushroom
    moves = []
    with open(log_path) as f:
        for line in f:
            words = line.split()
            if words and words[0] == 'INIT':
                mushrooms = {(r, c) for r, row in enumerate(words[1:]) for c, ch in enumerate(row) if ch != '0'}
                continue
            if len(words) != 6 or words[0] not in ('FIRST', 'SECOND'):
                continue
            try:
                r1, c1, r2, c2, ms = map(int, words[1:])
            except ValueError:
                fail(f'{log_path}: malformed move line {line.strip()!r}')
            moves.append((words[0], len(mushrooms), ms))
            if r1 >= 0:
                mushrooms -= {(r, c) for r in range(r1, r2 + 1) for c in range(c1, c2 + 1)}
    return moves


def report_path(out_dir, log, ms):
    return os.path.join(out_dir, f'{log}.{ms}ms.txt')


def complete(path):
    if not os.path.isfile(path):
        return False
    with open(path) as f:
        return 'mean loss' in f.read()


def analyze(mushroom, ms, log_path, out_path):
    result = subprocess.run([mushroom, 'analyze', '--ms', str(ms), log_path], capture_output=True, text=True)
    if result.returncode != 0:
        return f'{mushroom} analyze {log_path} failed ({result.returncode}): {result.stderr.strip()[-300:]}'
    os.makedirs(os.path.dirname(out_path), exist_ok=True)
    tmp = f'{out_path}.tmp.{os.getpid()}'
    with open(tmp, 'w') as f:
        f.write(result.stdout)
    os.replace(tmp, out_path)
    return None


def first_seat_moves(log_path, report):
    """[(mushrooms left, loss, ms, proved)] for the first seat's moves, from analyze's
    rows: # player played cells before after loss judgement depth proved best ..."""
    moves = moves_of(log_path)
    rows = [line.split() for line in open(report) if ROW.match(line)]
    if len(rows) != len(moves) or any(row[1] != move[0] for row, move in zip(rows, moves)):
        fail(f'{report}: its moves are not those of {log_path}; delete it')
    return [(move[1], float(row[6]), move[2], row[9] == 'yes')
            for row, move in zip(rows, moves) if row[1] == 'FIRST']


def band_of(left):
    for lo, hi in BANDS:
        if lo <= left <= hi:
            return (lo, hi)
    raise ValueError(left)


def tally(entries):
    t = {b: [0, 0.0, 0, 0, 0] for b in BANDS}  # moves, cells lost, moves losing >= 0.5, ms, proved
    for left, loss, ms, proved in entries:
        s = t[band_of(left)]
        s[0] += 1
        s[1] += loss
        s[2] += loss >= 0.5
        s[3] += ms
        s[4] += proved
    return t


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('match_dir')
    p.add_argument('--ms', type=int, default=2000, help='analyze: search time a position (default 2000)')
    p.add_argument('--jobs', type=int, default=2, help='analyses at once (default 2)')
    p.add_argument('--games', type=int, default=0, help='the first N failed boards (0: all)')
    p.add_argument('--mushroom', default=os.environ.get('MUSHROOM', 'build/mushroom'))
    p.add_argument('--out', help='folder for the analyze reports (default MATCH_DIR/review)')
    args = p.parse_args()
    if args.ms < 1:
        fail(f'--ms {args.ms}: a search needs at least 1 ms')
    if args.jobs < 1 or args.games < 0:
        fail('--jobs must be at least 1 and --games at least 0')
    rows = read_games(args.match_dir)
    pairs = failed_boards(rows)
    if args.games:
        pairs = pairs[:args.games]
    out_dir = args.out or os.path.join(args.match_dir, 'review')
    os.makedirs(out_dir, exist_ok=True)
    logs = [log for pair in pairs for log in pair]
    for log in logs:
        if not os.path.isfile(os.path.join(args.match_dir, log)):
            fail(f'{os.path.join(args.match_dir, log)}: the games file names it, but it is missing')
    report = {log: report_path(out_dir, log, args.ms) for log in logs}
    unanalyzed = [log for log in logs if not complete(report[log])]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        jobs = [pool.submit(analyze, args.mushroom, args.ms, os.path.join(args.match_dir, log), report[log])
                for log in unanalyzed]
        for done, job in enumerate(concurrent.futures.as_completed(jobs), 1):
            if job.result():
                pool.shutdown(wait=False, cancel_futures=True)
                fail(job.result())
            print(f'analyzed {done}/{len(unanalyzed)}', file=sys.stderr)

    def first_seat(log):
        return first_seat_moves(os.path.join(args.match_dir, log), report[log])

    failed = tally(e for f, _ in pairs for e in first_seat(f))
    won = tally(e for _, w in pairs for e in first_seat(w))
    print(f'{len(pairs)} boards on which one first seat won and the other did not; analyze --ms {args.ms}')
    print('| mushrooms left | failed first seat: moves | cells lost | moves losing 0.5+ | ms a move | proved '
          '| won first seat: moves | cells lost | moves losing 0.5+ | ms a move | proved |')
    print('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |')
    for band in BANDS:
        cells = []
        for t in (failed, won):
            n, loss, big, ms, proved = t[band]
            cells += [str(n), f'{loss:.2f}', str(big), f'{ms / n:.0f}' if n else '-', str(proved)]
        label = f'{band[0]}-{band[1]}' if band[0] else f'{band[1]} or fewer'
        print(f'| {label} | ' + ' | '.join(cells) + ' |')
    total = [sum(t[b][1] for b in BANDS) for t in (failed, won)]
    print(f'| all | | {total[0]:.2f} | | | | | {total[1]:.2f} | | | |')


if __name__ == '__main__':
    main()
