#!/usr/bin/env python3
"""Holds the layer order that README.md's folder map declares.

The folder map is a Markdown table whose first column is a floor number and
whose second names a folder (`engine/util/`). A file may include files of its
own folder and of folders on lower floors, never of a higher floor, nor of
another folder on its own floor. Quoted includes are resolved the way the build
resolves them: "x/y.h" is engine/x/y.h when engine/x exists, else x/y.h; the
include belongs to the longest folder of the map that holds it, so
"train/nnue/net.h" is train/nnue/'s when the map lists train/nnue/, and a
file of train/nnue/ is checked as that folder's, not train/'s.

Usage: check_layers.py ROOT   (exit 0 when the tree keeps the order)
"""
import os
import re
import sys

ROW = re.compile(r"^\|\s*(\d+)\s*\|\s*`([a-z_/]+)/`\s*\|")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def read_floors(root):
    floors = {}
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        for line in f:
            m = ROW.match(line)
            if m:
                floors[m.group(2)] = int(m.group(1))
    if not floors:
        sys.exit(f"check_layers: {root}/README.md has no folder map rows such as '| 0 | `engine/util/` | ... |'")
    return floors


def folder_of_include(root, path, floors):
    parts = path.split("/")[:-1]
    base = "engine/" if parts and os.path.isdir(os.path.join(root, "engine", parts[0])) else ""
    for k in range(len(parts), 0, -1):
        folder = base + "/".join(parts[:k])
        if folder in floors:
            return folder
    return base + parts[0] if parts else path


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
    floors = read_floors(root)
    problems = []
    checked = 0
    for folder, floor in sorted(floors.items()):
        base = os.path.join(root, folder)
        if not os.path.isdir(base):
            problems.append(f"README.md lists {folder}/, which does not exist")
            continue
        for dirpath, _, names in os.walk(base):
            for name in sorted(names):
                if not name.endswith((".h", ".cpp")):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root)
                # A file belongs to the longest folder of the map that holds
                # it: a subfolder the map lists is checked as that folder.
                own = os.path.relpath(dirpath, root)
                while own != folder and own not in floors:
                    own = os.path.dirname(own)
                if own != folder:
                    continue
                checked += 1
                with open(path, encoding="utf-8", errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m or "/" not in m.group(1):
                            continue
                        target = folder_of_include(root, m.group(1), floors)
                        if target == folder or target not in floors:
                            continue
                        if floors[target] >= floor:
                            where = "a higher" if floors[target] > floor else "the same"
                            problems.append(f"{rel}:{number}: includes {m.group(1)}, from {where} floor "
                                            f"({target}/ is floor {floors[target]}, {folder}/ is floor {floor})")
    for p in problems:
        print("layer violation: " + p)
    print(f"check_layers: {checked} files in {len(floors)} folders, {len(problems)} violations")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
