#!/usr/bin/env python3
"""Holds `mushroom --help` grouped and aligned, and docs/cli.md in its order.

The help lists the commands under the user's jobs: a heading line
`train:` and then one line `  NAME  summary` a command. Checked here:
every heading once, in the order of JOBS; every command once; every summary
starting in the same column, two spaces or more after the longest name.
docs/cli.md has a `## Heading` per job (the same words) with a table whose
rows start `| \\`mushroom NAME ...`; its commands, taken in order of first
appearance, must be the help's, under the same headings and in the same
order. A build without LibTorch lists fewer commands: the guide's others are
then allowed, and only when `mushroom --version` says so.

Usage: check_cli_help.py MUSHROOM GUIDE   (exit 0 when both hold)
"""
import re
import subprocess
import sys

JOBS = ["train", "export and play", "evaluate", "inspect the engine", "the seed games"]
HEADING = re.compile(r"^(\S[^:]*):$")
COMMAND = re.compile(r"^  ([a-z][a-z0-9-]*)( +)(\S.*)$")
GUIDE_HEADING = re.compile(r"^## (.+)$")
GUIDE_ROW = re.compile(r"^\| `mushroom ([a-z][a-z0-9-]*)")


def help_groups(text, problems):
    """[(heading, [names])] from the help, noting misaligned lines."""
    groups, columns = [], set()
    for number, line in enumerate(text.splitlines(), 1):
        if m := HEADING.match(line):
            if not line.startswith("usage"):
                groups.append((m.group(1), []))
        elif m := COMMAND.match(line):
            if not groups:
                problems.append(f"help line {number}: command '{m.group(1)}' before any heading")
                continue
            groups[-1][1].append(m.group(1))
            columns.add(2 + len(m.group(1)) + len(m.group(2)))
            if len(m.group(2)) < 2:
                problems.append(f"help line {number}: '{m.group(1)}' has fewer than two spaces before its summary")
    if len(columns) > 1:
        problems.append(f"help summaries start in {len(columns)} columns ({sorted(columns)}), not one")
    return groups


def guide_groups(path):
    groups, seen = [], set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            if m := GUIDE_HEADING.match(line):
                groups.append((m.group(1).strip().lower(), []))
            elif (m := GUIDE_ROW.match(line)) and groups and m.group(1) not in seen:
                seen.add(m.group(1))
                groups[-1][1].append(m.group(1))
    return [(heading, names) for heading, names in groups if names]


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: check_cli_help.py MUSHROOM GUIDE")
    binary, guide = sys.argv[1], sys.argv[2]
    shown = subprocess.run([binary, "--help"], capture_output=True, text=True)
    if shown.returncode != 0:
        sys.exit(f"check_cli_help: '{binary} --help' exited {shown.returncode}")
    version = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout
    without_torch = "without LibTorch" in version
    problems = []
    listed = help_groups(shown.stdout, problems)
    headings = [heading for heading, _ in listed]
    # Every job is a heading; only a build without LibTorch may lack one.
    wanted = [job for job in JOBS if job in headings] if without_torch else JOBS
    if headings != wanted or len(set(headings)) != len(headings):
        problems.append(f"help headings {headings} are not the jobs {JOBS}, each once, in order")
    names = [name for _, group in listed for name in group]
    for name in sorted({n for n in names if names.count(n) > 1}):
        problems.append(f"help lists '{name}' more than once")
    documented = guide_groups(guide)
    for heading, group in documented:
        if heading not in JOBS:
            problems.append(f"{guide}: '## {heading}' holds commands but is not one of the help's headings")
        elif heading not in headings and not without_torch:
            problems.append(f"{guide}: '## {heading}' is a job the help does not list")
    for heading, group in listed:
        in_guide = next((g for h, g in documented if h == heading), None)
        if in_guide is None:
            problems.append(f"{guide} has no '## {heading.capitalize()}' table for the help's '{heading}:'")
            continue
        expected = [n for n in in_guide if n in group] if without_torch else in_guide
        if group != expected:
            problems.append(f"under '{heading}', the help lists {group} and {guide} {in_guide}")
    print("".join(f"cli help: {p}\n" for p in problems) +
          f"check_cli_help: {len(names)} commands under {len(listed)} headings, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
