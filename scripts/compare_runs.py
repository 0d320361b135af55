#!/usr/bin/env python3
"""Compares two run directories of `mushroom run` for a refactor's parity.

Every HDF5 file (shards and models) must hold the same datasets and
attributes, element for element (h5diff, from Debian's hdf5-tools), apart
from the shard attribute 'created' (a wall-clock time) and the run
directory's own path inside 'model_id' (compared from models/ on). Every record in
metrics/ must hold the same fields with the same values within a relative
1e-5, apart from wall-clock timings.

Usage: compare_runs.py BEFORE_DIR AFTER_DIR   (exit 0 when they agree)
Run both with the same config and seed, with one self-play worker and
--threads 1, so that self-play is deterministic.
"""
import json
import math
import os
import shutil
import subprocess
import sys

TIMINGS = {"selfplay_seconds", "selfplay_games_per_minute", "train_seconds"}


def files_under(root, suffixes):
    out = []
    for dirpath, _, names in os.walk(root):
        for name in names:
            if name.endswith(suffixes) and ".tmp" not in name:
                out.append(os.path.relpath(os.path.join(dirpath, name), root))
    return sorted(out)


def model_id_tail(path):
    out = subprocess.run(["h5dump", "-a", "/model_id", path], capture_output=True, text=True).stdout
    value = out.split("(0):", 1)[-1].strip().strip('"}').strip().strip('"')
    return value[value.find("models/"):] if "models/" in value else value


def same_number(a, b):
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if math.isnan(a) and math.isnan(b):
            return True
        return abs(a - b) <= 1e-5 * max(1.0, abs(a), abs(b))
    return a == b


def compare_records(before, after, name):
    problems = []
    if before.keys() != after.keys():
        problems.append(f"{name}: fields differ: {sorted(before.keys() ^ after.keys())}")
    for key in sorted(before.keys() & after.keys()):
        if key not in TIMINGS and not same_number(before[key], after[key]):
            problems.append(f"{name}: {key} is {before[key]} before and {after[key]} after")
    return problems


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    before, after = sys.argv[1], sys.argv[2]
    if not shutil.which("h5diff"):
        sys.exit("compare_runs: h5diff not found (apt-get install hdf5-tools)")
    problems = []
    h5 = files_under(before, (".h5",))
    if h5 != files_under(after, (".h5",)):
        problems.append("the two runs hold different HDF5 files")
    for rel in h5:
        if not os.path.exists(os.path.join(after, rel)):
            continue
        out = subprocess.run(["h5diff", "-v", os.path.join(before, rel), os.path.join(after, rel)],
                             capture_output=True, text=True).stdout
        # h5diff -v names each compared object, then its count of differences.
        current = None
        for line in out.splitlines():
            if line.startswith(("attribute:", "dataset:", "group:")):
                current = line
            elif line.strip().endswith("differences found") and not line.strip().startswith("0 "):
                if current and "<created of" in current:
                    continue
                if current and "<model_id of" in current and \
                        model_id_tail(os.path.join(before, rel)) == model_id_tail(os.path.join(after, rel)):
                    continue
                problems.append(f"{rel}: {current}: {line.strip()}")
    records = files_under(os.path.join(before, "metrics"), (".json", ".jsonl"))
    if records != files_under(os.path.join(after, "metrics"), (".json", ".jsonl")):
        problems.append("the two runs hold different metrics files")
    for rel in records:
        b_lines = open(os.path.join(before, "metrics", rel)).read().split("\n")
        a_path = os.path.join(after, "metrics", rel)
        if not os.path.exists(a_path):
            continue
        a_lines = open(a_path).read().split("\n")
        b_lines = [l for l in b_lines if l.strip()]
        a_lines = [l for l in a_lines if l.strip()]
        if len(b_lines) != len(a_lines):
            problems.append(f"metrics/{rel}: {len(b_lines)} lines before, {len(a_lines)} after")
        for i, (b, a) in enumerate(zip(b_lines, a_lines)):
            problems += compare_records(json.loads(b), json.loads(a), f"metrics/{rel}:{i + 1}")
    for p in problems:
        print("differs: " + p)
    print(f"compare_runs: {len(h5)} HDF5 files, {len(records)} metrics files, {len(problems)} differences")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
