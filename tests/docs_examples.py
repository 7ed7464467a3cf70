#!/usr/bin/env python3
"""Runs the shell examples of README.md and docs/*.md against the built d2s, so that
the docs cannot drift from what the binary does.

    docs_examples.py BUILD/cli/d2s SOURCE_DIR

What counts as an example: every command in a ```sh block of README.md and
docs/*.md. A command may continue over lines ending in `\\`, and may start with `$ `.
Commands whose program is d2s (`d2s`, `$d2s`, `build/cli/d2s`) are run; other ones
(`./scripts/test.sh`, which would run this test again; `chromium`) and the README's
`d2s=build/cli/d2s` are listed as not run. The subcommand is not looked at: a new one
in the docs is just another command to run.

Each command must exit 0, unless a comment on its (last) line says otherwise:
`# ... exit 1` or `# ... exit 2`. The commands of one file run in order in one fresh
temporary directory holding a copy of samples/ and an empty docs/images/, so that one
example can use a file an earlier one wrote (`-o rnn.yaml`, then `d2s run rnn.yaml`)
and nothing is written into the source tree. Each command gets /dev/null as stdin and
a time limit.

Exit status: 0 when every example behaves as documented, 1 otherwise (each failure
shown with its file, line, command, the exit codes and the end of its stderr), 2 for
bad usage or when no example was found at all (the extraction itself broke).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

D2S_NAMES = {"d2s", "$d2s", "build/cli/d2s", "./build/cli/d2s"}
TIME_LIMIT = 300  # seconds per command
EXPECTED_EXIT = re.compile(r"\bexit (\d+)\b")


def sh_commands(path):
    """(line number, command, comment) for each command of the ```sh blocks in path."""
    commands = []
    in_block = False
    pending, pending_line = "", 0
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, start=1):
            line = raw.rstrip("\n")
            fence = line.strip()
            if fence.startswith("```"):
                in_block = not in_block and fence[3:].strip() == "sh"
                pending = ""
                continue
            if not in_block:
                continue
            if not pending:
                pending_line = number
            if line.rstrip().endswith("\\"):
                pending += line.rstrip()[:-1] + " "
                continue
            text = (pending + line).strip()
            pending = ""
            if not text or text.startswith("#"):
                continue
            if text.startswith("$ "):
                text = text[2:]
            command, comment = split_comment(text)
            commands.append((pending_line, command.strip(), comment))
    return commands


def split_comment(text):
    """The command and its trailing `# comment` (a `#` outside quotes after a space)."""
    quote = None
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or text[i - 1].isspace()):
            return text[:i], text[i + 1 :]
    return text, ""


def program_of(command):
    """The program a command runs: its first word after `NAME=value` assignments
    ("" for a bare assignment such as `d2s=build/cli/d2s`)."""
    words = command.split()
    while words and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0]):
        words = words[1:]
    return words[0] if words else ""


def make_workdir(source_dir, d2s):
    work = tempfile.mkdtemp(prefix="d2s-docs-")
    shutil.copytree(os.path.join(source_dir, "samples"), os.path.join(work, "samples"))
    os.makedirs(os.path.join(work, "docs", "images"))
    os.makedirs(os.path.join(work, "build", "cli"))
    os.symlink(d2s, os.path.join(work, "build", "cli", "d2s"))
    os.makedirs(os.path.join(work, "bin"))
    os.symlink(d2s, os.path.join(work, "bin", "d2s"))
    return work


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    d2s = os.path.abspath(sys.argv[1])
    source_dir = os.path.abspath(sys.argv[2])
    docs = [os.path.join(source_dir, "README.md")]
    docs_dir = os.path.join(source_dir, "docs")
    docs += sorted(
        os.path.join(docs_dir, name) for name in os.listdir(docs_dir) if name.endswith(".md")
    )

    ran, skipped, failures = 0, [], []
    for doc in docs:
        commands = sh_commands(doc)
        if not commands:
            continue
        rel = os.path.relpath(doc, source_dir)
        work = make_workdir(source_dir, d2s)
        env = dict(os.environ)
        env["PATH"] = os.path.join(work, "bin") + os.pathsep + env.get("PATH", "")
        env["d2s"] = d2s
        try:
            for line, command, comment in commands:
                program = program_of(command)
                if program not in D2S_NAMES:
                    skipped.append(f"{rel}:{line}: {command}")
                    continue
                match = EXPECTED_EXIT.search(comment)
                expected = int(match.group(1)) if match else 0
                ran += 1
                try:
                    done = subprocess.run(
                        ["bash", "-c", command],
                        cwd=work,
                        env=env,
                        stdin=subprocess.DEVNULL,
                        capture_output=True,
                        text=True,
                        timeout=TIME_LIMIT,
                    )
                    code, stderr = done.returncode, done.stderr
                except subprocess.TimeoutExpired:
                    code, stderr = "timeout", f"no exit within {TIME_LIMIT} s"
                status = "ok  " if code == expected else "FAIL"
                print(f"{status} {rel}:{line}: exit {code} (documented {expected}): {command}")
                if code != expected:
                    tail = "\n".join(stderr.strip().splitlines()[-6:])
                    failures.append(
                        f"{rel}:{line}: `{command}` exited {code}, the docs say {expected}"
                        + (f"\n    stderr: {tail}" if tail else "")
                    )
        finally:
            shutil.rmtree(work, ignore_errors=True)

    for s in skipped:
        print(f"not run (not a d2s command): {s}")
    print(f"{ran} examples run, {len(failures)} failed, {len(skipped)} not d2s commands")
    if ran == 0:
        print("error: no d2s example found in a ```sh block: the extraction broke", file=sys.stderr)
        return 2
    for f in failures:
        print(f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
