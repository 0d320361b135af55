#!/usr/bin/env python3
"""Holds the documentation's relative links true.

Every inline link and image `[text](target)` in the given Markdown files (by
default README.md, BENCHMARKS.md and every .md under docs/) whose target is
not a URL must name a file or folder that exists, relative to the file that
links it; a `#anchor` (alone, or after a .md target) must be the GitHub slug
of one of that file's headings: lower case, punctuation other than `-` and
`_` dropped, each space a `-`, a repeated heading's slug followed by -1, -2.
Links inside code (fenced blocks, indented blocks, `spans`) are not links.

Usage: check_doc_links.py ROOT [FILE.md ...]   (exit 0 when every link resolves)
"""
import glob
import os
import re
import sys

LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")


def prose_lines(path):
    """(number, line) of the file's prose: code blocks left out."""
    fenced, previous_blank, in_indented = False, True, False
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line.lstrip().startswith(("```", "~~~")):
                fenced = not fenced
                continue
            if fenced:
                continue
            # An indented code block starts after a blank line with four
            # spaces; list items' continuation lines are not code.
            if line.startswith("    ") and (previous_blank or in_indented) and not re.match(r"\s*([-*]|\d+\.)\s", line):
                in_indented = True
                previous_blank = False
                continue
            if line.strip():
                in_indented = False
            previous_blank = not line.strip()
            yield number, line


def slug(heading):
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text
    text = CODE_SPAN.sub(lambda m: m.group(2), text).lower()
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        found, counts = set(), {}
        for _, line in prose_lines(path):
            m = HEADING.match(line)
            if not m:
                continue
            base = slug(m.group(2))
            n = counts.get(base, 0)
            counts[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
        cache[path] = found
    return cache[path]


def check(root, path):
    problems, links = [], 0
    for number, line in prose_lines(path):
        for m in LINK.finditer(CODE_SPAN.sub("", line)):
            target = m.group(1)
            links += 1
            if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
                continue
            file_part, _, anchor = target.partition("#")
            where = f"{os.path.relpath(path, root)}:{number}"
            dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
            if not os.path.exists(dest):
                problems.append(f"{where}: {target}: no file {os.path.relpath(dest, root)}")
            elif anchor and dest.endswith(".md") and anchor not in anchors(dest):
                problems.append(f"{where}: {target}: {os.path.relpath(dest, root)} has no heading with anchor #{anchor}")
            elif anchor and not dest.endswith(".md"):
                problems.append(f"{where}: {target}: an anchor into a file that is not Markdown")
    return problems, links


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: check_doc_links.py ROOT [FILE.md ...]")
    root = os.path.abspath(sys.argv[1])
    files = [os.path.join(root, f) for f in sys.argv[2:]] or (
        [os.path.join(root, "README.md"), os.path.join(root, "BENCHMARKS.md")] +
        sorted(glob.glob(os.path.join(root, "docs", "**", "*.md"), recursive=True)))
    problems, links = [], 0
    for path in files:
        if not os.path.isfile(path):
            problems.append(f"{os.path.relpath(path, root)}: no such file")
            continue
        found, count = check(root, path)
        problems += found
        links += count
    print("".join(f"broken link: {p}\n" for p in problems) +
          f"check_doc_links: {links} links in {len(files)} files, {len(problems)} broken")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
