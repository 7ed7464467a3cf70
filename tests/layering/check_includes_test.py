#!/usr/bin/env python3
"""check_includes.py fails on a crossing and passes on a tree that keeps the rule:
a small tree is written to a temporary folder for each case."""
import os
import subprocess
import sys
import tempfile

CHECKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "check_includes.py")
FOLDERS = ["core/base", "core/tensor", "core/ops", "core/autograd", "core/ir", "core/io",
           "core/exec", "parse", "trace", "convert", "viz", "onnx", "cli"]


def run(files):
    with tempfile.TemporaryDirectory() as root:
        for folder in FOLDERS:
            os.makedirs(os.path.join(root, folder), exist_ok=True)
        for path, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
            with open(os.path.join(root, path), "w") as f:
                f.write(text)
        p = subprocess.run([sys.executable, CHECKER, root], capture_output=True, text=True)
        return p.returncode, p.stderr


failures = []


def expect(name, files, code, needle):
    rc, err = run(files)
    if rc != code or needle not in err:
        failures.append(f"{name}: exit {rc}, stderr {err!r}; wanted exit {code} and {needle!r}")


expect("downward edges pass", {
    "core/ops/a.cpp": '#include "core/tensor/tensor.h"\n#include "core/base/error.h"\n',
    "convert/b.cpp": '#include "trace/tracer.h"\n#include "core/exec/executor.h"\n',
    "core/ir/tests/t_test.cpp": '#include "core/ops/op_registry.h"\n',
}, 0, "")
expect("a room including a room above it fails", {
    "core/tensor/ivalue.cpp": '#include <vector>\n\n#include "core/autograd/autograd.h"\n',
}, 1, "core/tensor/ivalue.cpp:3: error: core/tensor may not include core/autograd/autograd.h")
expect("a room's tests follow the room's rule", {
    "core/ops/tests/x_test.cpp": '#include "core/ir/ir.h"\n',
}, 1, "core/ops/tests/x_test.cpp:1: error: core/ops may not include core/ir/ir.h")
expect("core may not include a module above it", {
    "core/io/y.cpp": '#include "parse/parser.h"\n',
}, 1, "core/io may not include parse/parser.h")
expect("a source file at core/'s top level fails", {
    "core/stray.cpp": "int x;\n",
}, 1, "core/stray.cpp: error: a source file outside core/'s rooms")

for f in failures:
    print(f, file=sys.stderr)
sys.exit(1 if failures else 0)
