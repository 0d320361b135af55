#!/usr/bin/env python3
"""A stand-in for `mushroom` that scripts/kill_harness_test.py hands to
scripts/kill_harness.py: `run`, `export-bot`, `arena` and `relabel` write
the files the real ones write (HDF5 and evaluation files copied from
models/, JSON, CSV, fits), with sleeps for the harness to kill into, and
resume as the real ones do: every finished file kept, every games.csv
record kept. FAKE_BUG breaks one promise, for the harness to catch:
rewrite (the first shard written again on every resume), torn (export-bot
writes main.cpp in place, so a kill leaves it half-written), twice (arena
records board 0's games twice)."""
import csv
import io
import json
import os
import sys
import time
from pathlib import Path

MODELS = Path(__file__).resolve().parent.parent.parent / "models"
BUG = os.environ.get("FAKE_BUG", "")
GAMES_HEADER = "first,second,board,board_seed,first_score,second_score,outcome,forfeit_by,reason,log\n"


def model(name):
    """A file of models/ (read when needed: a kill may come right at the start)."""
    return (MODELS / name).read_bytes()


def arg(name, default=None):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def atomic(path, data):
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = f"{path}.tmp.{os.getpid()}"
    with open(tmp, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())
    os.rename(tmp, path)


def say(line):
    print("2026-12-06 10:00:00 " + line, flush=True)


def complete_records(path):
    """A games.csv's complete records, the torn last one dropped, as the arena repairs it."""
    if not path.exists():
        atomic(path, GAMES_HEADER)
    text = path.read_text()
    text = text[:text.rfind("\n") + 1]
    path.write_text(text)
    return text


def run():
    d = Path(arg("--dir"))
    for f in d.rglob("*.tmp.*"):
        f.unlink()  # RunDir::prepare
    atomic(d / "config.toml", "x\n")
    if not (d / "models/init.eval").exists():
        atomic(d / "models/init.eval", model("eval.bin"))
    if not (d / "models/init.probcut").exists():
        atomic(d / "models/init.probcut", model("eval.probcut"))
        say("probcut: the --init model's fit models/eval.probcut")
    if not (d / "metrics/gen-0001.json").exists():
        say("== generation 1 of 1 (self-play with init.eval)")
        for k in range(4):
            shard = d / f"data/gen-0001/shard-{100000000 + 4 * k}.h5"
            if shard.exists() and not (BUG == "rewrite" and k == 0):
                continue
            time.sleep(0.3)
            atomic(shard, model("student.h5"))
            say(f"selfplay: {4 * k + 4}/16 games")
        if not (d / "models/gen-0001.eval").exists():
            say("train: window of 100 positions")
            time.sleep(0.5)
            atomic(d / "models/gen-0001.eval", model("eval.bin"))
        if not (d / "models/gen-0001.probcut").exists():
            say(f"probcut: fitting {d}/models/gen-0001.eval (40 games, depth 4) -> x")
            for i in range(5):
                time.sleep(0.2)
                say(f"probcut: probcut-fit: {i}/40 games")
            atomic(d / "models/gen-0001.probcut", f"# the run's fit stage: {d}\n".encode() + model("eval.probcut"))
            say("probcut: 500 positions, 3 pairs in 1.0 s")
        time.sleep(0.4)
        say("gate: candidate scores 0.500 (+1 =0 -1) against init.eval: kept the previous best")
        time.sleep(0.4)
        say("eval: candidate scores 0.500 against the hand evaluation at depth 2")
        say("ladder: gen-0001 against 1 reference programs, 4 games each, 300 ms cpu clock")
        games = d / "ladder/games.csv"
        have = complete_records(games)
        for b in range(2):
            for first, second in (("gen-0001", "greedy"), ("greedy", "gen-0001")):
                if f"{first},{second},{b}," not in have:
                    time.sleep(0.2)
                    with open(games, "a") as f:
                        f.write(f"{first},{second},{b},1,3,4,-1,,,g_b{b:04d}_0000abcd.log\n")
        say("ladder: gen-0001 rated 3 Elo [-100, 100] against greedy")
        atomic(d / "metrics/gen-0001.json",
               json.dumps({"generation": 1, "selfplay_games": 16, "selfplay_seconds": time.time(), "loss": 0.5}))
        time.sleep(0.3)
        atomic(d / "dashboard.html", "<html></html>\n")
        say("dashboard: dashboard.html")
    say("run complete: 1 generations; best model: init.eval")


def export_bot():
    out = Path(arg("--out"))
    if BUG == "torn":  # in place, half of it there for most of the export's time
        with open(out, "w") as f:
            f.write("int main")
            f.flush()
            time.sleep(0.6)
            f.write("() {}\n")
        time.sleep(0.05)
    else:
        time.sleep(0.2)
        atomic(out, "int main() {}\n")
    time.sleep(0.1)
    atomic(out.with_name("data.bin"), model("eval.bin"))


def arena():
    d = Path(arg("--log-dir"))
    d.mkdir(parents=True, exist_ok=True)
    games = d / "games.csv"
    have = complete_records(games)
    for b in range(int(arg("--boards"))):
        for first, second in ((arg("--a"), arg("--b")), (arg("--b"), arg("--a"))):
            if any(r[:3] == [first, second, str(b)] for r in csv.reader(io.StringIO(have))):
                continue
            time.sleep(0.1)
            atomic(d / f"game-{b:04d}.log", "INIT 1 2 3\n")
            line = io.StringIO()
            csv.writer(line, lineterminator="\n").writerow([first, second, b, 7, 3, 4, -1, "", "", f"game-{b:04d}.log"])
            with open(games, "a") as f:
                f.write(line.getvalue() * (2 if BUG == "twice" and b == 0 else 1))
    atomic(d / "fingerprints.txt", "the same programs\n")
    atomic(d / "report.txt", "the report\n")


def relabel():
    data, out = Path(arg("--data")), Path(arg("--dir"))
    out.mkdir(parents=True, exist_ok=True)
    shards = sorted(data.rglob("*.h5"))
    atomic(out / "settings.json", json.dumps({"mode": arg("--mode", "search")}))
    written = 0
    for shard in shards:
        o = out / shard.relative_to(data)
        if o.exists():
            continue
        if arg("--mode") != "horizon":
            time.sleep(0.2)
        atomic(o, model("student.h5"))
        written += 1
        say(f"relabel: wrote {o} (10 samples)")
    atomic(out / "report.json", json.dumps({"input_samples": 10 * len(shards), "shards_written": written,
                                            "shards_skipped": len(shards) - written, "seconds": time.time()}))


{"run": run, "export-bot": export_bot, "arena": arena, "relabel": relabel}[sys.argv[1]]()
