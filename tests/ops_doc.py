#!/usr/bin/env python3
"""docs/ops.md is `d2s ops --format md`: fails, with a diff and the command that
regenerates it, when the committed file and the op table disagree; and `d2s ops
--check` (every op a Python spelling or an ONNX mapping names is in the table) passes.

Usage: ops_doc.py D2S SOURCE_DIR"""
import difflib
import subprocess
import sys

d2s, root = sys.argv[1], sys.argv[2]
failures = []

md = subprocess.run([d2s, "ops", "--format", "md"], capture_output=True, text=True)
if md.returncode != 0:
    failures.append(f"d2s ops --format md exited {md.returncode}: {md.stderr}")
else:
    with open(f"{root}/docs/ops.md", encoding="utf-8") as f:
        committed = f.read()
    if committed != md.stdout:
        diff = difflib.unified_diff(committed.splitlines(), md.stdout.splitlines(),
                                    "docs/ops.md", "d2s ops --format md", lineterm="", n=1)
        failures.append("docs/ops.md is out of date with the op table:\n" +
                        "\n".join(list(diff)[:40]) +
                        "\nregenerate it: cmake --build build --target ops_doc")
    rows = [l for l in md.stdout.splitlines() if l.startswith("| `")]
    if len(rows) < 500:
        failures.append(f"only {len(rows)} rows in the table")

check = subprocess.run([d2s, "ops", "--check"], capture_output=True, text=True)
if check.returncode != 0 or check.stderr:
    failures.append(f"d2s ops --check exited {check.returncode}:\n{check.stderr}")

js = subprocess.run([d2s, "ops", "--format", "json"], capture_output=True, text=True)
import json
table = json.loads(js.stdout)["ops"]
by_name = {op["name"]: op for op in table}
# Spot checks of each column against facts the rest of the project relies on.
expect = [
    ("aten::add_.Tensor", "mutates", True),
    ("aten::add.Tensor", "differentiable", True),
    ("aten::dropout", "random", True),
    ("aten::relu", "onnx", True),
    ("aten::relu", "shape_rule", True),
    ("aten::chunk", "shape_rule", False),
    ("aten::exp2", "onnx", False),
    ("aten::argmax", "differentiable", False),
    ("aten::exp", "tags", ["pointwise", "float-promoting"]),
    ("aten::argmax", "tags", ["reduction", "no-derivative"]),
    ("aten::chunk", "tags", ["view", "no-shape-rule", "no-onnx"]),
    ("aten::dropout", "tags", ["random"]),
    ("aten::add_.Tensor", "tags", ["mutates"]),
]
for name, column, value in expect:
    if name not in by_name:
        failures.append(f"{name} is not in `d2s ops --format json`")
    elif by_name[name][column] != value:
        failures.append(f"{name}: {column} is {by_name[name][column]}, expected {value}")
if "F.relu" not in by_name.get("aten::relu", {}).get("python", []):
    failures.append("aten::relu does not list F.relu among its Python spellings")

bad = subprocess.run([d2s, "ops", "--format", "html"], capture_output=True, text=True)
if bad.returncode != 2 or "--format" not in bad.stderr:
    failures.append(f"--format html: exit {bad.returncode}, stderr {bad.stderr!r}")

for f in failures:
    print(f, file=sys.stderr)
sys.exit(1 if failures else 0)
