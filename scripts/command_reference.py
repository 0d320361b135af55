#!/usr/bin/env python3
"""The man page and the bash completion of `mushroom`, made from the commands'
own help at build time, so that neither can drift from the option tables.

The commands are those `mushroom --help` lists (read as check_cli_help.py
reads it); a command's options are the long options of its own table, as
`mushroom COMMAND --help` prints it (cxxopts: `  -h, --help  ...`,
`      --eval arg  ...`). The man page is help2man's page of `mushroom
--help` (Debian's help2man) with a COMMANDS section holding every command's
help as printed, and the FILES and ENVIRONMENT the defaults are found by.
The completion completes the command, then the options of that command;
anything else falls back to file names.

Usage: command_reference.py MUSHROOM VERSION OUT_DIR
  writes OUT_DIR/mushroom.1 and OUT_DIR/mushroom.bash
"""
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in scripts/
from check_cli_help import help_groups

OPTION = re.compile(r"^\s+(?:-\w, )?--([a-z0-9][a-z0-9-]*)")
NAME = "self-play engine and contest bot for NYPC Code Battle's mushroom game"

# Where the shipped defaults are found (engine/util/data_roots.h).
FILES_AND_ENVIRONMENT = r"""[FILES]
mushroom looks for its shipped defaults (models/eval.bin and its fit
models/eval.probcut, the default conv net models/default.h5, the committed
submission models/submission.cpp with its models/data.bin) and the
commented run configs (configs/NAME.toml, which \fB\-\-config NAME\fR names) in
this order: the working folder, then \fB$MUSHROOM_DATA\fR, then
\fIPREFIX\fR/share/mushroom of the executable's own prefix
(/usr/share/mushroom for /usr/bin/mushroom).
\fBmushroom \-\-version\fR prints where they come from.
\fBmushroom\-bot\fR, beside \fBmushroom\fR, is \fBmushroom bot\fR alone (the arena
and the ladder start it for builtin: programs).
The guides are in \fIPREFIX\fR/share/doc/mushroom.
[ENVIRONMENT]
.TP
.B MUSHROOM_DATA
a folder that holds models/ and configs/ as share/mushroom does, searched
after the working folder.
.TP
.B MUSHROOM_EVAL, MUSHROOM_PROBCUT, MUSHROOM_MODEL
name the learned evaluation, its Multi\-ProbCut fit (none turns it off) and
the conv net the commands fall back on, instead of the shipped ones.
"""


def run_help(binary, *command):
    shown = subprocess.run([binary, *command, "--help"], capture_output=True, text=True)
    if shown.returncode != 0:
        sys.exit(f"command_reference: '{binary} {' '.join(command)} --help' exited {shown.returncode}: "
                 f"{shown.stderr.strip()}")
    return shown.stdout


def command_names(binary):
    problems = []
    names = [name for _, group in help_groups(run_help(binary), problems) for name in group]
    if not names:
        sys.exit(f"command_reference: '{binary} --help' lists no commands")
    return names


def command_helps(binary):
    """{command: its --help}, in the order `mushroom --help` lists them."""
    names = command_names(binary)
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        return dict(zip(names, pool.map(lambda name: run_help(binary, name), names)))


def long_options(help_text):
    return sorted({m.group(1) for line in help_text.splitlines() if (m := OPTION.match(line))})


def roff_literal(text):
    """Text that roff prints as it is: backslashes escaped, no line read as a request."""
    lines = []
    for line in text.rstrip("\n").splitlines():
        line = line.replace("\\", "\\e")
        lines.append("\\&" + line if line.startswith((".", "'")) else line)
    return "\n".join(lines)


def man_include(helps):
    parts = ["[COMMANDS]", "Each command's own help, as \\fBmushroom\\fR \\fICOMMAND\\fR \\fB\\-\\-help\\fR prints it."]
    for name, text in helps.items():
        parts += [f'.SS "mushroom {name}"', ".nf", roff_literal(text), ".fi"]
    return "\n".join(parts) + "\n" + FILES_AND_ENVIRONMENT


def write_man_page(binary, version, helps, out):
    with tempfile.NamedTemporaryFile("w", suffix=".h2m", delete=False) as include:
        include.write(man_include(helps))
    try:
        made = subprocess.run(["help2man", "--no-info", "--section=1", f"--version-string={version}",
                               f"--name={NAME}", f"--include={include.name}", f"--output={out}", binary],
                              capture_output=True, text=True)
    except FileNotFoundError:
        sys.exit("command_reference: help2man is not installed: install Debian's help2man "
                 "(scripts/setup.sh installs it)")
    finally:
        os.unlink(include.name)
    if made.returncode != 0:
        sys.exit(f"command_reference: help2man failed: {made.stderr.strip()}")


def completion(helps):
    cases = "".join(f"    {name}) options=\"{' '.join('--' + o for o in long_options(text))}\" ;;\n"
                    for name, text in helps.items())
    return f"""# bash completion for mushroom: its commands, then each command's options.
# Generated by scripts/command_reference.py from the commands' own help; not edited by hand.
_mushroom() {{
  local cur=${{COMP_WORDS[COMP_CWORD]}} options=""
  COMPREPLY=()
  if ((COMP_CWORD == 1)); then
    COMPREPLY=($(compgen -W "--help --version {' '.join(helps)}" -- "$cur"))
    return 0
  fi
  [[ $cur == -* ]] || return 0  # a value or a file: bash's default completion
  case ${{COMP_WORDS[1]}} in
{cases}  esac
  COMPREPLY=($(compgen -W "$options" -- "$cur"))
}}
complete -o default -F _mushroom mushroom
"""


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: command_reference.py MUSHROOM VERSION OUT_DIR")
    binary, version, out_dir = sys.argv[1:]
    helps = command_helps(binary)
    os.makedirs(out_dir, exist_ok=True)
    write_man_page(binary, version, helps, os.path.join(out_dir, "mushroom.1"))
    with open(os.path.join(out_dir, "mushroom.bash"), "w", encoding="utf-8") as f:
        f.write(completion(helps))
    print(f"command_reference: {out_dir}/mushroom.1 and mushroom.bash: {len(helps)} commands")


if __name__ == "__main__":
    main()
