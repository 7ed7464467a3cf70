"""--errors of parity.py: the error programs of samples/errors/.

Runs d2s on every samples/errors/<name>.py (inputs from <name>.inputs.yaml when
present, else none) and checks it against <name>.expect.yaml: the exit code, a
`file:line:col: error:` line at the expected place, a caret under the expected
column, and the expected message substrings.
"""

import os
import re
import sys
import tempfile

from parity_common import Mismatch, first_lines, print_fail, run_d2s, samples_in, yaml


CARET = re.compile(r"^\s*\^[~^]*\s*$")


def check_error(d2s, path, mode, tmp):
    base = os.path.basename(path)
    with open(path[:-3] + ".expect.yaml", encoding="utf-8") as f:
        expect = yaml.safe_load(f)
    line, col = int(expect["line"]), int(expect["col"])
    inputs = path[:-3] + ".inputs.yaml"
    if not os.path.exists(inputs):
        inputs = os.path.join(tmp, "empty.inputs.yaml")
        with open(inputs, "w") as f:
            f.write("{}\n")
    p = run_d2s(d2s, ["run", path, "--inputs", inputs, "--mode", mode,
                      "-o", os.path.join(tmp, "outputs.yaml")], tmp)
    err = p.stderr
    if p.returncode != int(expect.get("exit", 2)):
        raise Mismatch(f"exit {p.returncode}, expected {expect.get('exit', 2)}: {first_lines(err)}")
    lines = err.splitlines()
    head = re.compile(r"(^|/)" + re.escape(base) + r":(\d+):(\d+): error:")
    at = [(i, m) for i, l in enumerate(lines) for m in [head.search(l)] if m]
    if not at:
        raise Mismatch(f"no `{base}:LINE:COL: error:` line in: {first_lines(err)}")
    i, m = at[0]
    if (int(m.group(2)), int(m.group(3))) != (line, col):
        raise Mismatch(f"error at {m.group(2)}:{m.group(3)}, expected {line}:{col}: {lines[i].strip()}")
    low = err.lower()
    for s in expect.get("message_contains", []):
        if s.lower() not in low:
            raise Mismatch(f"message lacks {s!r}: {first_lines(err, 4)}")
    with open(path, encoding="utf-8") as f:
        src = f.read().splitlines()[line - 1]
    for j in range(i + 1, len(lines) - 1):
        if not CARET.match(lines[j + 1]):
            continue
        shown = lines[j]
        if src.strip() and shown.rstrip().endswith(src.strip()):
            indent = len(src) - len(src.lstrip())
            start = len(shown.rstrip()) - len(src.strip())  # where the code's text begins
            caret_col = lines[j + 1].index("^") - start + indent + 1
            if caret_col != col:
                raise Mismatch(f"the caret is under column {caret_col}, expected {col}")
            return
    raise Mismatch("no source line with a caret under it after the error line")


def errors(args):
    passed = failed = 0
    directory = os.path.join(args.samples, "errors")
    for name in samples_in(directory, args.only):
        path = os.path.join(directory, name + ".py")
        if not os.path.exists(path[:-3] + ".expect.yaml"):
            print(f"FAIL {name}: no {name}.expect.yaml")
            failed += 1
            continue
        try:
            with tempfile.TemporaryDirectory(prefix="d2s-errors-") as tmp:
                check_error(args.d2s, path, args.mode[0].split(",")[0], tmp)
            print(f"PASS {name}")
            passed += 1
        except Exception as e:  # a Mismatch, PyTorch or the suite itself
            print_fail(name, e)
            failed += 1
        sys.stdout.flush()
    return passed, failed
