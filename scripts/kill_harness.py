#!/usr/bin/env python3
"""kill -9 anywhere (issue 101, item 5): kills `mushroom run`, `export-bot`,
`arena` and `relabel` with SIGKILL at random moments, resumes each after
every kill, and checks the result against unkilled runs of the same seeds.

    python3 scripts/kill_harness.py --mushroom build/mushroom     # 50 kills of the run, 10 of arena, 10 of relabel
    python3 scripts/kill_harness.py --mushroom build/mushroom --kills 6 --max-runs 1 --allow-missed-stages \
        --arena-kills 2 --relabel-kills 2                              # CTest's KillHarness (label kill_harness)

Standard library only. It works in the repository root (the run's --init
model is models/eval.bin) and keeps its folders under --work (default
build-test-tmp/kill-harness), removed first.

The run: testdata/configs/fit-ci.toml (a learned evaluation from --init
models/eval.bin, one generation, its Multi-ProbCut fit), with a ladder, a
longer training and one thread for self-play and training added by --set,
and --parallel 1, so that every stage but the ladder (a real clock) is
single-threaded and seeded. First it runs twice unkilled (ref-a, ref-b),
timing each stage from the run's log. Then, in fresh folders, it starts
the same command and kills it (SIGKILL to its process group: the run and
the ladder's bots) at a random moment of a chosen stage: it waits for the
stage (the run's log says which; the run folder's files say which stages
a resume skipped without a word), then sleeps a seeded random share of
the stage's length in ref-a. It resumes after each kill, and goes on in
new folders until --kills kills with every stage hit at least once. The
stages: selfplay, train, fit, gate, eval (the held-out games and the
evaluation match), ladder, record (the generation's record, plots and
dashboard), and export (`export-bot --eval RUN` of the finished run). The
stage a kill hit is the one the log and files say at the moment of the
kill.

What is checked once each killed run, match or relabel has finished:

  1. Nothing lost. Every file of ref-a is there, byte for byte where ref-a
     and ref-b agree byte for byte (by reading the code, the deterministic
     ones: the candidate models/gen-0001.eval, trained by one thread from
     the samples in game-id order; models/init.*; promoted.txt;
     config.toml; the arena's games between builtin:greedy and
     builtin:alphabeta:depth=2,solver=false; relabel's settings). Where
     the unkilled runs differ too, or a resume may rightly change the
     bytes, by meaning: a generation record field by field, less the
     fields that time a session or count only the last session's work
     (SESSION_FIELDS) and the ladder's (a real clock); a fit by its lines
     less the header
     comments, which name the run's folder; a games.csv by its games (and
     their results where the unkilled runs agree); the optimizer's state
     (optimizer.pt) by its tensors, since LibTorch keys them by memory
     addresses, which differ between processes. The HDF5 files differ
     in bytes between any two runs (HDF5 stores each dataset's
     modification time), and a resumed self-play cuts its shards
     elsewhere, so a folder of shards (the self-play data, the held-out
     games, relabel's output) is compared by content: `mushroom relabel
     --mode horizon` (no search: a pure function of the samples) reads
     every sample, and its report.json (samples, label changes by band of
     mushrooms left) must be the unkilled one's. An export is compared
     with an unkilled export of the same run, byte for byte.
  2. Nothing half-written. Every JSON parses, every JSONL line parses,
     every CSV parses at its header's width, every HDF5 file has its
     signature and the length its superblock's end-of-file address says,
     every PNG ends with IEND, every evaluation file has its magic, every
     fit has its evaluation line, every game log begins with INIT, every
     HTML page ends; every shard is read whole by relabel. A run's folder
     holds no temp file (a run removes those a kill left when it starts);
     elsewhere one is a note. After each kill of an export, the files
     there are the unkilled export's.
  3. Nothing finished done twice. A finished output present when an
     attempt started (a shard, a model, a fit, a record, a relabelled
     shard) is never written again (same inode and time at the end); an
     attempt does not begin a generation whose record existed when it
     started, nor train a candidate or fit an evaluation that existed; a
     game of a games.csv (the arena's, the ladder's) is there once, and a
     game recorded before a kill keeps its record; relabel writes each
     shard once.

Prints a table of kills by stage, resumes and checks, and exits 1 on any
loss, corruption or repeat, or when fewer kills landed than asked (2 on a
setup error).
"""
import argparse
import csv
import hashlib
import io
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

RUN_CONFIG = "testdata/configs/fit-ci.toml"
RUN_SETS = [
    "selfplay.threads=1",
    "train.threads=1",
    "train.steps=60",  # a training stage long enough to be hit
    "ladder.every=1",
    "ladder.programs=greedy=builtin:greedy; random=builtin:random",
    "ladder.boards=1",
    "ladder.time_ms=300",
    "ladder.parallel=1",
]
STAGES = ["setup", "selfplay", "train", "fit", "gate", "eval", "ladder", "record", "done"]
KILL_STAGES = ["selfplay", "train", "fit", "gate", "eval", "ladder", "record"]
ORDER = {s: i for i, s in enumerate(STAGES)}

# Fields of a generation record that time a session or describe the last
# session's own work (a resumed self-play plays only the games left).
SESSION_FIELDS = {
    "selfplay_seconds", "selfplay_games_per_minute", "mean_game_plies", "batch_fill", "device_busy",
    "nn_positions", "train_seconds", "run_seconds",
}
# Fields that depend on a real clock: the ladder's games at a time bank.
TIMED_FIELDS_PREFIX = ("ladder",)

STAMP = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d ")
FIT_END = re.compile(r"^probcut: \d+ positions, \d+ pairs in ")
HDF5_SIGNATURE = b"\x89HDF\r\n\x1a\n"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class Problems:
    def __init__(self):
        self.items = []
        self.checks = 0

    def check(self, ok, what):
        self.checks += 1
        if not ok:
            self.items.append(what)
            print(f"kill-harness: PROBLEM: {what}", flush=True)
        return ok


def die(message, code):
    """Stops the harness: 1 for a command that hung (a finding), 2 for a setup error."""
    print(message, file=sys.stderr, flush=True)
    sys.exit(code)


def strip_stamp(line):
    return STAMP.sub("", line, count=1)


def log_lines(path):
    try:
        return [strip_stamp(l) for l in Path(path).read_text(errors="replace").splitlines()]
    except FileNotFoundError:
        return []


# ---- the run's stage ------------------------------------------------------

def stage_from_log(lines, ladder):
    stage = "setup"
    for line in lines:
        if line.startswith("== generation"):
            stage = "selfplay"
        elif line.startswith("selfplay: already complete"):
            stage = "train"
        elif line.startswith("train:"):
            stage = "train"
        elif FIT_END.match(line):
            stage = "gate"
        elif line.startswith("probcut: ") and stage != "setup":
            stage = "fit"
        elif line.startswith("gate: candidate scores"):
            stage = "eval"
        elif line.startswith("eval: candidate scores"):
            stage = "ladder" if ladder else "record"
        elif line.startswith("ladder: ") and " rated " in line:
            stage = "record"
        elif line.startswith("ladder: "):
            stage = "ladder"
        elif line.startswith("run complete"):
            stage = "done"
    return stage


def stage_from_files(run_dir):
    """The stage the files say the run has reached (a resume skips finished
    stages without a word)."""
    models = run_dir / "models"
    if (run_dir / "metrics" / "gen-0001.json").exists():
        return "record"
    if (models / "gen-0001.probcut").exists():
        return "gate"
    if (models / "gen-0001.eval").exists():
        return "fit"
    return "setup"


def run_stage(run_dir, log, ladder=True):
    a, b = stage_from_log(log_lines(log), ladder), stage_from_files(run_dir)
    return a if ORDER[a] >= ORDER[b] else b


# ---- processes ------------------------------------------------------------

def start(cmd, log_path):
    log = open(log_path, "w")
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                            start_new_session=True)
    log.close()
    return proc


def kill(proc):
    """SIGKILL to the process group: the command and every program it started."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


def run_to_end(cmd, log_path, timeout):
    proc = start(cmd, log_path)
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill(proc)
        die(f"kill-harness: {' '.join(cmd)} ran past {timeout} s (log {log_path})", 1)
    return proc.returncode


def timed_run(cmd, log_path, stage_of, timeout):
    """Runs cmd to its end, noting when each stage began; returns (rc, {stage: seconds})."""
    proc = start(cmd, log_path)
    t0 = time.monotonic()
    began, last = {}, None
    while proc.poll() is None:
        stage = stage_of()
        if stage != last:
            began.setdefault(stage, time.monotonic() - t0)
            last = stage
        if time.monotonic() - t0 > timeout:
            kill(proc)
            die(f"kill-harness: {' '.join(cmd)} ran past {timeout} s (log {log_path})", 1)
        time.sleep(0.02)
    end = time.monotonic() - t0
    marks = sorted(began.items(), key=lambda kv: kv[1])
    lengths = {}
    for i, (stage, t) in enumerate(marks):
        lengths[stage] = (marks[i + 1][1] if i + 1 < len(marks) else end) - t
    return proc.returncode, lengths, end


# ---- form checks (nothing half-written) ------------------------------------

def hdf5_problem(data):
    """None when the bytes are a whole HDF5 file, else what is wrong."""
    off = 0
    while data[off:off + 8] != HDF5_SIGNATURE:
        off = 512 if off == 0 else off * 2
        if off + 8 > len(data):
            return "no HDF5 signature"
    version = data[off + 8]
    if version in (0, 1):
        size_of_offsets = data[off + 13]
        p = off + (24 if version == 0 else 28)
    elif version in (2, 3):
        size_of_offsets = data[off + 9]
        p = off + 12
    else:
        return f"superblock version {version}"
    if size_of_offsets not in (2, 4, 8):
        return f"size of offsets {size_of_offsets}"
    base = int.from_bytes(data[p:p + size_of_offsets], "little")
    eof = int.from_bytes(data[p + 2 * size_of_offsets:p + 3 * size_of_offsets], "little")
    if base + eof > len(data):
        return f"{len(data)} bytes where the superblock says {base + eof} (truncated)"
    return None


GAME_LOG = re.compile(r"game-\d+\.log|.*_b\d{4}_[0-9a-f]{8}\.log")


def form_problem(path):
    """None when the file is whole by its kind, else what is wrong."""
    name = path.name
    data = path.read_bytes()
    if name.endswith(".json"):
        try:
            json.loads(data)
        except ValueError as e:
            return f"not JSON ({e})"
    elif name.endswith(".jsonl"):
        for i, line in enumerate(data.decode(errors="replace").splitlines(), 1):
            try:
                json.loads(line)
            except ValueError as e:
                return f"line {i} is not JSON ({e})"
        if data and not data.endswith(b"\n"):
            return "the last line is cut"
    elif name.endswith(".csv"):
        text = data.decode(errors="replace")
        rows = list(csv.reader(io.StringIO(text)))
        if not rows:
            return "empty"
        width = len(rows[0])
        for i, row in enumerate(rows[1:], 2):
            if len(row) != width:
                return f"record {i} has {len(row)} fields, the header {width}"
        if not text.endswith("\n"):
            return "the last record is cut"
    elif name.endswith(".h5"):
        return hdf5_problem(data)
    elif name.endswith(".png"):
        if not data.startswith(PNG_SIGNATURE) or data[-8:-4] != b"IEND":
            return "not a whole PNG (no signature or no IEND at the end)"
    elif name.endswith(".eval") or name == "eval.bin":
        if b"MSHEVAL" not in data[:16]:
            return "no learned-evaluation magic"
    elif name.endswith(".probcut"):
        lines = [l for l in data.decode(errors="replace").splitlines() if l and not l.startswith("#")]
        if not lines or not lines[0].startswith("evaluation "):
            return "no 'evaluation' line"
    elif name.endswith(".log") and (GAME_LOG.fullmatch(name) or path.parent.name == "games"):
        lines = data.decode(errors="replace").splitlines()
        if not lines or not lines[0].startswith("INIT"):
            return "a game log that does not begin with INIT"
    elif name.endswith(".html"):
        if b"</html>" not in data[-64:]:
            return "an HTML page cut before </html>"
    return None


def check_forms(problems, folder, what, temp_ok=False):
    """Every file whole. A temp file a killed atomic write left is a
    problem in a run's folder (a run removes them when it starts), a note
    elsewhere (the next write replaces it; it is never read)."""
    for path in sorted(p for p in Path(folder).rglob("*") if p.is_file()):
        if ".tmp" in path.name:
            if temp_ok:
                print(f"kill-harness: note: {what}: a killed write left {path}", flush=True)
            else:
                problems.check(False, f"{what}: {path}: a temp file left behind")
            continue
        problem = form_problem(path)
        problems.check(problem is None, f"{what}: {path}: {problem}")


# ---- comparisons (nothing lost) ---------------------------------------------

def files_of(folder):
    return {str(p.relative_to(folder)): p for p in Path(folder).rglob("*") if p.is_file()}


def fit_lines(data):
    return [l for l in data.decode(errors="replace").splitlines() if l and not l.startswith("#")]


def record_fields(data):
    record = json.loads(data)
    return {k: v for k, v in record.items() if k not in SESSION_FIELDS and not k.startswith(TIMED_FIELDS_PREFIX)}


def games_of(path):
    return games_of_bytes(Path(path).read_bytes())


def compare_with_references(problems, got, ref_a, ref_b, what, special):
    """Files of `got` against ref-a's: identical where ref-a and ref-b are;
    else by `special` (relative path -> comparer) or by form only. Returns
    the files found nondeterministic between the unkilled runs."""
    a_files, b_files, g_files = files_of(ref_a), files_of(ref_b), files_of(got)
    unsteady = []
    for rel, a_path in sorted(a_files.items()):
        comparer = next((c for pattern, c in special if re.fullmatch(pattern, rel)), None)
        if comparer == "skip":
            continue
        if not problems.check(rel in g_files, f"{what}: {rel} is missing (the unkilled run has it)"):
            continue
        a = a_path.read_bytes()
        b = b_files[rel].read_bytes() if rel in b_files else None
        g = g_files[rel].read_bytes()
        if comparer is not None:
            comparer(problems, f"{what}: {rel}", a, b, g)
        elif a == b:
            problems.check(g == a, f"{what}: {rel} differs from the unkilled runs' (which agree byte for byte)")
        else:
            unsteady.append(rel)
    for rel in sorted(set(g_files) - set(a_files)):
        comparer = next((c for pattern, c in special if re.fullmatch(pattern, rel)), None)
        if comparer != "skip":
            problems.check(False, f"{what}: {rel} is not in the unkilled run")
    return unsteady


def same_record(problems, what, a, b, g):
    fa, fg = record_fields(a), record_fields(g)
    fb = record_fields(b) if b is not None else fa
    for key in sorted(set(fa) | set(fg)):
        if fa.get(key) != fb.get(key):
            continue  # differs between the unkilled runs too
        problems.check(fg.get(key) == fa.get(key), f"{what}: field '{key}' is {fg.get(key)!r}, unkilled {fa.get(key)!r}")


def same_fit(problems, what, a, b, g):
    problems.check(fit_lines(g) == fit_lines(a), f"{what}: the fit's lines differ from the unkilled run's")


def optimizer_tensors(data):
    """The tensors of a LibTorch archive of the optimizer's state, by hash.
    torch::optim keys each parameter's state by the parameter's address in
    memory, so the archive's bytes (its keys, and the order they sort the
    records in) differ between any two processes; its tensors do not."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return sorted(hashlib.sha256(z.read(n)).hexdigest() for n in z.namelist() if "/data/" in n)


def same_optimizer_state(problems, what, a, b, g):
    try:
        wanted, got = optimizer_tensors(a), optimizer_tensors(g)
    except zipfile.BadZipFile as e:
        problems.check(False, f"{what}: not a LibTorch archive ({e})")
        return
    problems.check(bool(wanted) and got == wanted,
                   f"{what}: the optimizer's tensors differ from the unkilled run's ({len(got)} against {len(wanted)})")


# A move's milliseconds in a game page (view/dashboard.h): timed, so a page
# is compared with them blanked; everything else in it must agree.
PAGE_MS = re.compile(rb'"ms":-?\d+')


def same_page_but_times(problems, what, a, b, g):
    blank = lambda page: PAGE_MS.sub(b'"ms":0', page)
    problems.check(blank(g) == blank(a), f"{what}: the game page differs from the unkilled run's beyond its move times")


def same_games(results_too):
    def compare(problems, what, a, b, g):
        with_results = results_too and a == b
        ga, _ = games_of_bytes(a)
        gg, repeats = games_of_bytes(g)
        problems.check(not repeats, f"{what}: games played twice: {repeats[:5]}")
        problems.check(set(gg) == set(ga), f"{what}: games {sorted(set(ga) ^ set(gg))[:5]} differ from the unkilled run's")
        if with_results:
            bad = [k for k in ga if k in gg and gg[k] != ga[k]]
            problems.check(not bad, f"{what}: results differ from the unkilled run's for {bad[:5]}")
    return compare


def games_of_bytes(data):
    """A games.csv's complete records by game: (first, second, board) ->
    (scores, outcome, forfeit); and the games found more than once."""
    text = data.decode(errors="replace")
    text = text[:text.rfind("\n") + 1]  # a record torn by a kill (the resume drops it and replays its game)
    games, repeats = {}, []
    for row in csv.DictReader(io.StringIO(text)):
        if None in row.values() or None in row:
            continue
        key = (row["first"], row["second"], row["board"])
        if key in games:
            repeats.append(key)
        games[key] = (row["first_score"], row["second_score"], row["outcome"], row["forfeit_by"])
    return games, repeats


def relabel_fingerprint(args, data_dir, out_dir):
    """What `mushroom relabel --mode horizon` reads from every sample of a
    folder of shards (the CLI's own shard reader; no search, so a pure
    function of the samples, whatever shards hold them): its report.json
    (samples, and the label changes by band of mushrooms left) without the
    time and the shard counts (a resumed self-play cuts shards elsewhere)."""
    shutil.rmtree(out_dir, ignore_errors=True)
    cmd = [args.mushroom, "relabel", "--config", RUN_CONFIG, "--mode", "horizon", "--lambda", "0.5", "--data",
           str(data_dir), "--dir", str(out_dir), "--threads", "1"]
    rc = run_to_end(cmd, str(out_dir) + ".log", args.timeout)
    if rc != 0:
        return f"relabel could not read {data_dir} (exit {rc}; {out_dir}.log)"
    report = json.loads((Path(out_dir) / "report.json").read_text())
    for key in ("seconds", "shards_written", "shards_skipped"):
        report.pop(key, None)
    shutil.rmtree(out_dir, ignore_errors=True)
    return report


# ---- nothing done twice ------------------------------------------------------

# A game finished but not yet in a shard is lost with a kill and replayed
# under its id, so its sample log (games/*.log) may be written again; a
# shard never is.
FINISHED = re.compile(r"(data/.*shard-[^/]*\.h5|models/[^/]*\.(eval|probcut)|metrics/gen-\d+\.json|heldout/.*\.h5)")


def snapshot(folder, pattern=FINISHED):
    out = {}
    for rel, path in files_of(folder).items():
        if pattern.fullmatch(rel) and ".tmp" not in rel:
            st = path.stat()
            out[rel] = (st.st_ino, st.st_mtime_ns, st.st_size)
    return out


def check_not_rewritten(problems, folder, snapshots, what):
    now = snapshot(folder, re.compile(".*"))
    for i, snap in enumerate(snapshots):
        for rel, stat in snap.items():
            problems.check(now.get(rel) == stat,
                           f"{what}: {rel}, finished before attempt {i + 1}, was written again (or removed)")


# ---- the run -------------------------------------------------------------------

def run_command(args, run_dir):
    cmd = [args.mushroom, "run", "--config", RUN_CONFIG, "--dir", str(run_dir), "--init", "models/eval.bin",
           "--parallel", "1"]
    for s in RUN_SETS:
        cmd += ["--set", s]
    return cmd


def export_command(args, run_dir, out_dir):
    return [args.mushroom, "export-bot", "--eval", str(run_dir), "--out", str(Path(out_dir) / "main.cpp")]


def run_references(args, work):
    refs, lengths = [], None
    for name in ("ref-a", "ref-b"):
        run_dir = work / name / "run"
        run_dir.parent.mkdir(parents=True)
        rc, stage_lengths, seconds = timed_run(run_command(args, run_dir), work / name / "run.log",
                                               lambda: run_stage(run_dir, work / name / "run.log"), args.timeout)
        if rc != 0:
            die(f"kill-harness: the unkilled run {name} failed (exit {rc}; {work / name / 'run.log'})", 2)
        print(f"kill-harness: {name}: the unkilled run took {seconds:.1f} s; stages "
              + ", ".join(f"{s} {t:.1f} s" for s, t in stage_lengths.items()), flush=True)
        refs.append(run_dir)
        lengths = lengths or stage_lengths
    return refs, lengths


def kill_plan(rng):
    """The stages a killed run is killed in, in order: each once, the longer
    ones sometimes twice."""
    plan = []
    for stage in KILL_STAGES:
        plan.append(stage)
        if stage in ("selfplay", "fit", "gate", "ladder") and rng.random() < 0.5:
            plan.append(stage)
    return plan


def killed_run(args, rng, work, n, lengths, tally, problems):
    """One run killed at every stage of its plan and resumed to its end."""
    base = work / f"killed-{n:02d}"
    run_dir = base / "run"
    base.mkdir(parents=True)
    plan = kill_plan(rng)
    snapshots, attempts = [], 0
    while True:
        attempts += 1
        snapshots.append(snapshot(run_dir) if run_dir.exists() else {})
        log = base / f"attempt-{attempts:02d}.log"
        proc = start(run_command(args, run_dir), log)
        t_start = time.monotonic()
        killed = False
        while proc.poll() is None and plan:
            stage = run_stage(run_dir, log)
            if ORDER[stage] > ORDER[plan[0]]:
                missed = plan.pop(0)
                tally["missed"][missed] = tally["missed"].get(missed, 0) + 1
                continue
            if stage == plan[0]:
                delay = rng.random() * max(0.05, lengths.get(stage, 1.0))
                deadline = time.monotonic() + delay
                while proc.poll() is None and time.monotonic() < deadline:
                    time.sleep(0.01)
                if proc.poll() is None:
                    hit = run_stage(run_dir, log)
                    kill(proc)
                    killed = True
                    tally["run"][hit] = tally["run"].get(hit, 0) + 1
                    print(f"kill-harness: run {n}, attempt {attempts}: killed in {hit} "
                          f"({time.monotonic() - t_start:.2f} s in; aimed at {plan[0]})", flush=True)
                    plan.pop(0)
                break
            if time.monotonic() - t_start > args.timeout:
                kill(proc)
                die(f"kill-harness: run {n} ran past {args.timeout} s ({log})", 1)
            time.sleep(0.01)
        if not killed:
            try:
                proc.wait(timeout=args.timeout)
            except subprocess.TimeoutExpired:
                kill(proc)
                die(f"kill-harness: run {n} ran past {args.timeout} s ({log})", 1)
            problems.check(proc.returncode == 0, f"run {n}: the resumed run failed (exit {proc.returncode}; {log})")
            break
        tally["resumes"] += 1
    # What each attempt redid, by its log.
    for i in range(attempts):
        lines = log_lines(base / f"attempt-{i + 1:02d}.log")
        snap = snapshots[i]
        if "metrics/gen-0001.json" in snap:
            problems.check(not any(l.startswith("== generation 1") for l in lines),
                           f"run {n}, attempt {i + 1}: began generation 1 again after its record was written")
        if "models/gen-0001.eval" in snap:
            problems.check(not any(l.startswith("train: window") for l in lines),
                           f"run {n}, attempt {i + 1}: trained the candidate again after it was written")
        if "models/gen-0001.probcut" in snap:
            problems.check(not any(l.startswith("probcut: fitting") and "gen-0001.eval" in l for l in lines),
                           f"run {n}, attempt {i + 1}: fitted the candidate again after its fit was written")
        if "models/init.probcut" in snap:
            problems.check(not any(l.startswith("probcut: fitting") and "init.eval" in l for l in lines),
                           f"run {n}, attempt {i + 1}: fitted the --init model again")
    check_not_rewritten(problems, run_dir, snapshots, f"run {n}")
    return run_dir, attempts


def killed_export(args, rng, base, run_dir, tally, problems):
    """export-bot of the finished run, killed once or twice and run again:
    against an unkilled export of the same run (the export names the run's
    files in its comments, so another run's would differ)."""
    ref_export, out = base / "export-ref", base / "export"
    ref_export.mkdir()
    out.mkdir()
    t0 = time.monotonic()
    rc = run_to_end(export_command(args, run_dir, ref_export), base / "export-ref.log", args.timeout)
    length = time.monotonic() - t0
    if not problems.check(rc == 0, f"export of {run_dir} failed (exit {rc}; {base / 'export-ref.log'})"):
        return
    kills = 1 + int(rng.random() < 0.5)
    for k in range(kills):
        proc = start(export_command(args, run_dir, out), base / f"export-{k + 1}.log")
        time.sleep(rng.random() * max(0.05, length))
        if proc.poll() is None:
            kill(proc)
            tally["run"]["export"] = tally["run"].get("export", 0) + 1
            tally["resumes"] += 1
        # Killed or not: each file there is whole, the reference's (a
        # temp file of the killed write aside: never read, replaced).
        for rel, path in files_of(out).items():
            if ".tmp" in rel:
                continue
            ref = Path(ref_export) / rel
            problems.check(ref.exists() and path.read_bytes() == ref.read_bytes(),
                           f"export of {run_dir}: {rel} is not the unkilled export's (half-written?)")
    rc = run_to_end(export_command(args, run_dir, out), base / "export-final.log", args.timeout)
    problems.check(rc == 0, f"export of {run_dir} failed after its kills (exit {rc})")
    for rel, path in files_of(ref_export).items():
        got = out / rel
        problems.check(got.exists() and got.read_bytes() == path.read_bytes(),
                       f"export of {run_dir}: {rel} differs from the unkilled export's")


def check_run(args, problems, n, run_dir, refs, fingerprints, work):
    what = f"run {n}"
    check_forms(problems, run_dir, what)
    special = [
        (r"data/.*\.h5", "skip"),              # by content below
        # Sample game logs: timed, and a resumed self-play logs its own first games too.
        (r"(data|heldout)/(.*/)?games/.*\.log", "skip"),
        (r"heldout/.*\.h5", "skip"),           # HDF5: form above
        (r"plots/.*", "skip"), (r"dashboard\.html", "skip"), (r"clock/.*", "skip"),
        (r"metrics/gen-\d+\.json", same_record),
        # Self-play's sample game pages: the moves' milliseconds are timed.
        (r"games/.*\.html", same_page_but_times),
        (r"models/.*\.probcut", same_fit),
        (r"optimizer\.pt", same_optimizer_state),
        # The ladder plays at a real clock: its games by key, the rest by form.
        (r"ladder/games\.csv", same_games(results_too=False)),
        (r"ladder/.*", "skip"),
    ]
    unsteady = compare_with_references(problems, run_dir, refs[0], refs[1], what, special)
    fingerprint = relabel_fingerprint(args, run_dir / "data", work / f"fingerprint-{n:02d}")
    problems.check(fingerprint == fingerprints[0],
                   f"{what}: the self-play samples differ from the unkilled run's: {fingerprint} vs {fingerprints[0]}")
    if (refs[0] / "heldout").exists():
        held = relabel_fingerprint(args, run_dir / "heldout", work / f"fingerprint-heldout-{n:02d}")
        ref_held = relabel_fingerprint(args, refs[0] / "heldout", work / f"fingerprint-heldout-ref-{n:02d}")
        problems.check(held == ref_held, f"{what}: the held-out games differ from the unkilled run's")
    record = json.loads((run_dir / "metrics" / "gen-0001.json").read_text())
    ref_record = json.loads((refs[0] / "metrics" / "gen-0001.json").read_text())
    problems.check(record.get("selfplay_games") == ref_record.get("selfplay_games"),
                   f"{what}: {record.get('selfplay_games')} self-play games, unkilled {ref_record.get('selfplay_games')}")
    if (run_dir / "ladder" / "games.csv").exists():
        games, repeats = games_of(run_dir / "ladder" / "games.csv")
        problems.check(not repeats, f"{what}: ladder games played twice: {repeats[:5]}")
    return unsteady


# ---- arena and relabel: one command killed and resumed -------------------------

def unkilled_references(args, work, names, what, command_and_output):
    """Runs the unkilled references to their end: [(output folder, seconds)]."""
    refs = []
    for name in names:
        command, output = command_and_output(name)
        t0 = time.monotonic()
        rc = run_to_end(command, work / f"{name}.log", args.timeout)
        if rc != 0:
            die(f"kill-harness: the unkilled {what} {name} failed (exit {rc})", 2)
        refs.append((output, time.monotonic() - t0))
    return refs


def kill_until_done(args, rng, base, command, kind, noun, longest, take_snapshot, tally, problems, what):
    """Starts `command` again and again (its logs base/attempt-NN.log), each
    time killing it at a random moment within `longest` seconds while
    tally[kind] is short of the kills asked for (args.KIND_kills), then
    lets the last attempt finish. Returns the attempts and the snapshot
    take_snapshot() made before each."""
    attempts, snapshots = 0, []
    wanted = getattr(args, f"{kind}_kills")
    while True:
        attempts += 1
        snapshots.append(take_snapshot())
        proc = start(command, base / f"attempt-{attempts:02d}.log")
        if tally[kind] < wanted:
            time.sleep(rng.random() * longest)
            if proc.poll() is None:
                kill(proc)
                tally[kind] += 1
                tally["resumes"] += 1
                continue
        proc.wait(timeout=args.timeout)
        problems.check(proc.returncode == 0, f"{what}: the resumed {noun} failed (exit {proc.returncode})")
        return attempts, snapshots


# ---- arena ---------------------------------------------------------------------

def arena_command(args, log_dir):
    return [args.mushroom, "arena", "--a", "builtin:greedy", "--b", "builtin:alphabeta:depth=2,solver=false", "--boards",
            str(args.arena_boards), "--seed", "7", "--time-ms", "10000", "--parallel", "1", "--log-dir", str(log_dir)]


def check_arena_folder(problems, folder, ref_a, ref_b, what):
    check_forms(problems, folder, what, temp_ok=True)
    games, repeats = games_of(folder / "games.csv")
    problems.check(not repeats, f"{what}: games played twice: {repeats[:5]}")
    for row in csv.DictReader(io.StringIO((folder / "games.csv").read_text())):
        if row.get("log"):
            problems.check((folder / row["log"]).exists(), f"{what}: the log {row['log']} of a game is missing")
    special = [(r"games\.csv", same_games(results_too=True)), (r".*\.log", "skip"), (r".*\.stderr", "skip"),
               (r"report\.txt", "skip"), (r"arena\.txt", "skip")]
    compare_with_references(problems, folder, ref_a, ref_b, what, special)
    problems.check((folder / "report.txt").exists(), f"{what}: no report.txt: the match did not finish")


def arena_part(args, rng, work, tally, problems):
    refs = unkilled_references(args, work, ("arena-ref-a", "arena-ref-b"), "arena",
                          lambda name: (arena_command(args, work / name / "match"), work / name / "match"))
    n = 0
    while tally["arena"] < args.arena_kills:
        n += 1
        base = work / f"arena-killed-{n:02d}"
        folder = base / "match"
        base.mkdir()
        _, snapshots = kill_until_done(
            args, rng, base, arena_command(args, folder), "arena", "match", refs[0][1] * 0.6,
            lambda: (folder / "games.csv").read_text() if (folder / "games.csv").exists() else "",
            tally, problems, f"arena {n}")
        final, _ = games_of(folder / "games.csv")
        for i, before in enumerate(snapshots):
            earlier, _ = games_of_bytes(before.encode())
            lost = [k for k in earlier if k not in final or final[k] != earlier[k]]
            problems.check(not lost, f"arena {n}: games finished before attempt {i + 1} were replayed or lost: {lost[:5]}")
        check_arena_folder(problems, folder, refs[0][0], refs[1][0], f"arena {n}")


# ---- relabel --------------------------------------------------------------------

def relabel_command(args, data_dir, out_dir):
    return [args.mushroom, "relabel", "--config", RUN_CONFIG, "--set", "evalplay.label_depth=2", "--data", str(data_dir),
            "--dir", str(out_dir), "--threads", "1"]


def relabel_part(args, rng, work, data_dir, tally, problems):
    refs = unkilled_references(args, work, ("relabel-ref-a", "relabel-ref-b"), "relabel",
                          lambda name: (relabel_command(args, data_dir, work / name), work / name))
    ref_print = relabel_fingerprint(args, refs[0][0], work / "relabel-fingerprint-ref")
    n = 0
    while tally["relabel"] < args.relabel_kills:
        n += 1
        base = work / f"relabel-killed-{n:02d}"
        out = base / "out"
        base.mkdir()
        attempts, snapshots = kill_until_done(
            args, rng, base, relabel_command(args, data_dir, out), "relabel", "relabel", refs[0][1],
            lambda: snapshot(out, re.compile(r".*\.h5")) if out.exists() else {}, tally, problems, f"relabel {n}")
        what = f"relabel {n}"
        check_forms(problems, out, what, temp_ok=True)
        check_not_rewritten(problems, out, snapshots, what)
        written = {}
        for i in range(attempts):
            for line in log_lines(base / f"attempt-{i + 1:02d}.log"):
                m = re.match(r"relabel: wrote (\S+)", line)
                if m:
                    written[m.group(1)] = written.get(m.group(1), 0) + 1
        twice = [s for s, c in written.items() if c > 1]
        problems.check(not twice, f"{what}: shards relabelled twice: {twice[:5]}")
        special = [(r".*\.h5", "skip"), (r"report\.json", "skip")]
        compare_with_references(problems, out, refs[0][0], refs[1][0], what, special)
        ref_shards = sorted(r for r in files_of(refs[0][0]) if r.endswith(".h5"))
        shards = sorted(r for r in files_of(out) if r.endswith(".h5"))
        problems.check(shards == ref_shards, f"{what}: shards {sorted(set(shards) ^ set(ref_shards))[:5]} differ")
        report = json.loads((out / "report.json").read_text())
        problems.check(report.get("shards_written", 0) + report.get("shards_skipped", 0) == len(ref_shards),
                       f"{what}: report.json counts {report.get('shards_written')} written and "
                       f"{report.get('shards_skipped')} kept of {len(ref_shards)} shards")
        got_print = relabel_fingerprint(args, out, work / f"relabel-fingerprint-{n:02d}")
        problems.check(got_print == ref_print, f"{what}: the relabelled samples differ from the unkilled relabel's")


# ---- main -----------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mushroom", default=str(ROOT / "build" / "mushroom"), help="the mushroom binary")
    parser.add_argument("--kills", type=int, default=50, help="kills of the run (and its export), at least")
    parser.add_argument("--arena-kills", type=int, default=10)
    parser.add_argument("--relabel-kills", type=int, default=10)
    parser.add_argument("--arena-boards", type=int, default=4, help="boards of the arena's match (each played twice)")
    parser.add_argument("--seed", type=int, default=1, help="the harness's random seed (when to kill)")
    parser.add_argument("--work", default=str(ROOT / "build-test-tmp" / "kill-harness"))
    parser.add_argument("--timeout", type=float, default=900, help="seconds any one command may run")
    parser.add_argument("--max-runs", type=int, default=40, help="killed runs at most")
    parser.add_argument("--allow-missed-stages", action="store_true",
                        help="a stage no kill landed in is a note, not a failure (CTest's short run)")
    args = parser.parse_args()
    args.mushroom = str(Path(args.mushroom).resolve())
    if not os.access(args.mushroom, os.X_OK):
        print(f"kill-harness: {args.mushroom} is not an executable (--mushroom)", file=sys.stderr)
        return 2
    work = Path(args.work).resolve()
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    rng = random.Random(args.seed)
    problems = Problems()
    tally = {"run": {}, "missed": {}, "arena": 0, "relabel": 0, "resumes": 0}
    started = time.monotonic()

    refs, lengths = run_references(args, work)
    fingerprints = [relabel_fingerprint(args, r / "data", work / f"fingerprint-ref-{i}") for i, r in enumerate(refs)]
    if isinstance(fingerprints[0], str):
        die(f"kill-harness: {fingerprints[0]}", 2)
    if fingerprints[0] != fingerprints[1]:
        print("kill-harness: note: the unkilled runs' self-play samples differ: self-play is not deterministic here",
              flush=True)
    unsteady = set()
    n, quota_at = 0, None  # runs done; the run that brought the kills to --kills
    while n < args.max_runs:
        missing = any(s not in tally["run"] for s in KILL_STAGES + ["export"])
        if sum(tally["run"].values()) >= args.kills:
            quota_at = n if quota_at is None else quota_at
            if not missing or n >= quota_at + 5:  # a few more runs for a stage not hit yet, no more
                break
        n += 1
        run_dir, attempts = killed_run(args, rng, work, n, lengths, tally, problems)
        if (run_dir / "metrics" / "gen-0001.json").exists():
            unsteady |= set(check_run(args, problems, n, run_dir, refs, fingerprints, work))
            killed_export(args, rng, work / f"killed-{n:02d}", run_dir, tally, problems)
    if args.arena_kills > 0:
        arena_part(args, rng, work, tally, problems)
    if args.relabel_kills > 0:
        relabel_part(args, rng, work, refs[0] / "data", tally, problems)

    run_kills = sum(tally["run"].values())
    print()
    print(f"kill-harness: {run_kills} kills of `mushroom run` and its export in {n} runs, {tally['arena']} of arena, "
          f"{tally['relabel']} of relabel; {tally['resumes']} resumes; {time.monotonic() - started:.0f} s")
    print(f"{'stage':10} {'kills':>6}")
    for stage in STAGES + ["export"]:
        if stage in tally["run"]:
            print(f"{stage:10} {tally['run'][stage]:6d}")
    print(f"{'arena':10} {tally['arena']:6d}")
    print(f"{'relabel':10} {tally['relabel']:6d}")
    missed = [s for s in KILL_STAGES + ["export"] if s not in tally["run"]]
    if missed:
        print(f"kill-harness: no kill landed in: {', '.join(missed)} (their reference lengths: "
              + ", ".join(f"{s} {lengths.get(s, 0):.2f} s" for s in missed) + ")")
        problems.check(args.allow_missed_stages, f"no kill landed in {', '.join(missed)}")
    if tally["missed"]:
        print("kill-harness: kills aimed at a stage the run had passed before it was seen: "
              + ", ".join(f"{s} {c}" for s, c in tally["missed"].items()))
    if unsteady:
        print("kill-harness: files that differ between the two unkilled runs too (checked for form only): "
              + ", ".join(sorted(unsteady)))
    print(f"kill-harness: {problems.checks} checks, {len(problems.items)} problems")
    if problems.items:
        for p in problems.items[:40]:
            print(f"  {p}")
        return 1
    if run_kills < args.kills:
        print(f"kill-harness: only {run_kills} of the {args.kills} kills asked for landed (--max-runs {args.max_runs})")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
