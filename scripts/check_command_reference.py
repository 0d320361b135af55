#!/usr/bin/env python3
"""Holds the man page and the bash completion to the commands of `mushroom`.

Every command `mushroom --help` lists must have its section in the man page
(`.SS "mushroom NAME"`, as scripts/command_reference.py writes it); the
completion, sourced in bash, must offer every command after `mushroom ` and,
after `mushroom NAME --`, every long option of `mushroom NAME --help`.

Usage: check_command_reference.py MUSHROOM MAN_PAGE[.gz] COMPLETION   (exit 0 when all hold)
"""
import gzip
import shlex
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in scripts/
from command_reference import command_helps, long_options


def completions(completion, words):
    """What the completion's _mushroom offers for the command line `words` (the last one being completed)."""
    script = (f'source "$1"; COMP_WORDS=({" ".join(shlex.quote(w) for w in words)}); COMP_CWORD={len(words) - 1}; '
              '_mushroom; printf "%s\\n" "${COMPREPLY[@]}"')
    shown = subprocess.run(["bash", "-c", script, "bash", completion], capture_output=True, text=True)
    if shown.returncode != 0:
        sys.exit(f"check_command_reference: sourcing {completion} failed: {shown.stderr.strip()}")
    return set(shown.stdout.split())


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: check_command_reference.py MUSHROOM MAN_PAGE[.gz] COMPLETION")
    binary, man_page, completion = sys.argv[1:]
    helps = command_helps(binary)
    opener = gzip.open if man_page.endswith(".gz") else open
    with opener(man_page, "rt", encoding="utf-8") as f:
        man = f.read()
    problems = [f"the man page has no section for '{name}'" for name in helps if f'.SS "mushroom {name}"' not in man]
    offered = completions(completion, ["mushroom", ""])
    problems += [f"the completion does not offer the command '{name}'" for name in helps if name not in offered]
    for name, text in helps.items():
        offered = completions(completion, ["mushroom", name, "--"])
        problems += [f"the completion of '{name}' does not offer --{option}"
                     for option in long_options(text) if f"--{option}" not in offered]
    print("".join(f"command reference: {p}\n" for p in problems) +
          f"check_command_reference: {len(helps)} commands, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
