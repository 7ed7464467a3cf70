#!/usr/bin/env python3
"""The include rule: every module and every room of core/ includes only itself and
what lies below it. Fails, naming file, line and the crossing, on any other edge.

Usage: check_includes.py SOURCE_DIR

The one table of allowed edges is LAYERS below: a folder may include the folders it
lists (and its own). core/README.md draws the same order for the rooms of core/.
A folder's tests/ follow the folder's rule.
"""
import os
import re
import sys

# folder -> the folders it may include besides itself. Lower rooms first.
LAYERS = {
    "core/base": [],
    "core/tensor": ["core/base"],
    "core/ops": ["core/tensor", "core/base"],
    "core/autograd": ["core/ops", "core/tensor", "core/base"],
    "core/ir": ["core/autograd", "core/ops", "core/tensor", "core/base"],
    "core/io": ["core/ir", "core/autograd", "core/ops", "core/tensor", "core/base"],
    "core/exec": ["core/io", "core/ir", "core/autograd", "core/ops", "core/tensor", "core/base"],
    "parse": ["core"],
    "trace": ["parse", "core"],
    "convert": ["trace", "parse", "core"],
    "viz": ["convert", "trace", "parse", "core"],
    "onnx": ["convert", "trace", "parse", "core"],
    "cli": ["onnx", "viz", "convert", "trace", "parse", "core"],
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def folder_of(path):
    """The LAYERS key a project path belongs to (longest match), or None."""
    best = None
    for key in LAYERS:
        if path == key or path.startswith(key + "/"):
            if best is None or len(key) > len(best):
                best = key
    return best


def allowed(src_folder, target):
    target_folder = folder_of(target)
    if target_folder is None:
        return True  # not a project folder (a generated header, a system-like path)
    if target_folder == src_folder:
        return True
    for dep in LAYERS[src_folder]:
        if target_folder == dep or target_folder.startswith(dep + "/"):
            return True
    return False


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    crossings = []
    checked = 0
    for folder in LAYERS:
        base = os.path.join(root, folder)
        if not os.path.isdir(base):
            crossings.append(f"{folder}: error: the folder in the layering table is missing")
            continue
        for dirpath, dirnames, filenames in os.walk(base):
            rel_dir = os.path.relpath(dirpath, root).replace(os.sep, "/")
            # A nested room is checked under its own key.
            dirnames[:] = [d for d in dirnames
                           if folder_of(rel_dir + "/" + d) == folder]
            for name in sorted(filenames):
                if not name.endswith((".h", ".cpp")):
                    continue
                path = rel_dir + "/" + name
                with open(os.path.join(root, path), encoding="utf-8") as f:
                    for lineno, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        checked += 1
                        if not allowed(folder, m.group(1)):
                            crossings.append(
                                f"{path}:{lineno}: error: {folder} may not include "
                                f"{m.group(1)} ({folder_of(m.group(1))} is not below it)")
    # core/ keeps no source at its top level: every file lives in a room.
    for name in sorted(os.listdir(os.path.join(root, "core"))):
        if name.endswith((".h", ".cpp")):
            crossings.append(f"core/{name}: error: a source file outside core/'s rooms")
    for c in crossings:
        print(c, file=sys.stderr)
    if crossings:
        print(f"{len(crossings)} crossing(s); the allowed edges are LAYERS in "
              f"tests/layering/check_includes.py (core/README.md explains the rooms)",
              file=sys.stderr)
        return 1
    print(f"{checked} project #include lines follow the layering")
    return 0


if __name__ == "__main__":
    sys.exit(main())
