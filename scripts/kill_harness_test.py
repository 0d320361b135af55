#!/usr/bin/env python3
"""scripts/kill_harness.py's own check (CTest KillHarnessCatchesLosses):
against a stand-in mushroom (testdata/kill_harness/fake_mushroom.py) that
keeps every promise it passes with 0 problems, and against one that
breaks one promise at a time (FAKE_BUG) it fails naming the break: a
shard written again after a resume, an export written in place (a kill
leaves it half-written), a game recorded twice. And its comparer of game
pages blanks the moves' times and nothing else. Needs no build.

    python3 scripts/kill_harness_test.py [--work DIR]
"""
import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = [
    ("", 0, "0 problems"),
    ("rewrite", 1, "data/gen-0001/shard-100000000.h5, finished before attempt"),
    ("torn", 1, "main.cpp is not the unkilled export's (half-written?)"),
    ("twice", 1, "games played twice"),
]


def comparer_failures(label, comparer, ref, cases):
    """Runs one of the harness's comparers on (name, file, problems wanted)
    cases against `ref` (as both unkilled runs' file); returns the cases
    whose count of problems is not the one wanted."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import kill_harness
    failures = 0
    for name, got, problems_wanted in cases:
        problems = kill_harness.Problems()  # prints each problem it is told of, wanted or not
        comparer(problems, label, ref, ref, got)
        ok = len(problems.items) == problems_wanted
        print(f"{'ok  ' if ok else 'FAIL'} {label}, {name}: {len(problems.items)} problems (wanted {problems_wanted})")
        failures += not ok
    return failures


def page_comparer_failures():
    """same_page_but_times on made-up pages: times alone differ (no problem),
    anything else differs (a problem), an "ms"-like key is not a time."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import kill_harness
    page = b'<script>{"moves":[{"gain":6,"move":[3,3,5,4],"ms":0,"player":1},{"gain":4,"ms":12,"xms":5}]}</script>'
    cases = [
        ("times only", page.replace(b'"ms":12', b'"ms":-3').replace(b'"ms":0', b'"ms":800'), 0),
        ("a gain", page.replace(b'"gain":6', b'"gain":7'), 1),
        ("an ms-like key", page.replace(b'"xms":5', b'"xms":6'), 1),
        ("a move", page.replace(b'[3,3,5,4]', b'[3,3,5,5]'), 1),
    ]
    return comparer_failures("game page", kill_harness.same_page_but_times, page, cases)


def optimizer_comparer_failures():
    """same_optimizer_state on made-up archives: the same tensors under other
    keys and in another order (no problem), a tensor changed or missing (a
    problem), bytes that are no archive (a problem)."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import io
    import zipfile
    import kill_harness

    def archive(records):
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as z:
            for name, data in records:
                z.writestr(name, data)
        return out.getvalue()

    ref = archive([("o/data.pkl", b"key 0x5600a0"), ("o/data/0", b"\x01" * 8), ("o/data/1", b"\x02" * 8)])
    cases = [
        ("other keys and order", archive([("o/data.pkl", b"key 0x7f11c0"), ("o/data/0", b"\x02" * 8),
                                          ("o/data/1", b"\x01" * 8)]), 0),
        ("a tensor changed", archive([("o/data.pkl", b"key 0x5600a0"), ("o/data/0", b"\x01" * 8),
                                      ("o/data/1", b"\x02" * 7 + b"\x03")]), 1),
        ("a tensor missing", archive([("o/data.pkl", b"key 0x5600a0"), ("o/data/0", b"\x01" * 8)]), 1),
        ("no archive", b"half an archive", 1),
    ]
    return comparer_failures("optimizer state", kill_harness.same_optimizer_state, ref, cases)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", default=str(ROOT / "build-test-tmp" / "kill-harness-test"))
    args = parser.parse_args()
    failed = page_comparer_failures() + optimizer_comparer_failures()
    for bug, code, needle in CASES:
        env = dict(os.environ, FAKE_BUG=bug)
        # A torn export shows only when a kill lands inside its write: three
        # runs' worth of export kills (asking for more kills than three runs
        # make, which fails too, but without the needle).
        kills, runs = ("30", "3") if bug == "torn" else ("3", "1")
        cmd = [sys.executable, str(ROOT / "scripts" / "kill_harness.py"), "--mushroom",
               str(ROOT / "testdata" / "kill_harness" / "fake_mushroom.py"), "--kills", kills, "--max-runs", runs,
               "--allow-missed-stages", "--arena-kills", "1", "--relabel-kills", "1", "--seed", "5",
               "--timeout", "120", "--work", str(Path(args.work) / (bug or "clean"))]
        r = subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        ok = r.returncode == code and needle in r.stdout
        print(f"{'ok  ' if ok else 'FAIL'} FAKE_BUG={bug or '(none)'}: exit {r.returncode} (wanted {code}), "
              f"{'names' if needle in r.stdout else 'does not name'} '{needle}'")
        if not ok:
            failed += 1
            print(r.stdout[-4000:])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
