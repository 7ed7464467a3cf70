#!/usr/bin/python3
"""The HTML report in a real browser: headless Chromium (Debian's `chromium`) loads
`d2s diff -o report.html` and `d2s check --format html` pages from file://, and this
checks the DOM its script leaves behind (the script ran, lines and nodes are linked,
the first lossy finding is selected) and takes a screenshot.

    html_report_browser.py D2S_BINARY [--screenshot OUT.png]

Run from the source directory (ctest does). Exit 0 when every check holds, 1 with
the failed checks listed, 2 when chromium is missing (scripts/setup.sh installs it).
"""
import html.parser
import os
import shutil
import subprocess
import sys
import tempfile

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


class Dom(html.parser.HTMLParser):
    """The elements of a page: (tag, attributes) in document order."""

    def __init__(self):
        super().__init__()
        self.elements = []
        self.text = []

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))

    def handle_startendtag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)

    def classes(self, element):
        return set((element[1].get("class") or "").split())

    def find(self, tag=None, cls=None, **attrs):
        out = []
        for e in self.elements:
            if tag and e[0] != tag:
                continue
            if cls and cls not in self.classes(e):
                continue
            if any(e[1].get(k.replace("_", "-")) != v for k, v in attrs.items()):
                continue
            out.append(e)
        return out


def chromium(args, user_dir):
    # --disable-dev-shm-usage: CI containers give /dev/shm a few MB, too little for Chromium.
    cmd = [CHROMIUM, "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run",
           "--disable-dev-shm-usage",
           "--disable-extensions", "--user-data-dir=" + user_dir] + args
    return subprocess.run(cmd, capture_output=True, timeout=60, text=True)


def d2s(binary, args):
    r = subprocess.run([binary] + args, capture_output=True, text=True, timeout=120)
    return r


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    binary = os.path.abspath(sys.argv[1])
    shot_out = sys.argv[sys.argv.index("--screenshot") + 1] if "--screenshot" in sys.argv else None
    if not os.path.exists(CHROMIUM):
        print("html_report_browser: chromium is not installed; run scripts/setup.sh as root "
              "or: apt-get install -y --no-install-recommends chromium", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="d2s_browser_") as tmp:
        # foo1 on its first input set only: `x < y` held, so the else arm is lost.
        with open("samples/foo1.inputs.yaml") as f:
            lines = f.read().splitlines()
        set0 = "\n".join(lines[:lines.index("# set 1: x >= y: s = torch.square(y)")]) + "\n"
        inputs = os.path.join(tmp, "foo1.set0.yaml")
        with open(inputs, "w") as f:
            f.write(set0)
        report = os.path.join(tmp, "report.html")
        r = d2s(binary, ["diff", "samples/foo1.py", "--inputs", inputs, "-o", report])
        check(r.returncode == 0, "d2s diff -o report.html exits 0: " + r.stderr)

        user_dir = os.path.join(tmp, "profile")
        r = chromium(["--dump-dom", "file://" + report], user_dir)
        check(r.returncode == 0, "chromium --dump-dom exits 0: " + r.stderr[-500:])
        dom = Dom()
        dom.feed(r.stdout)
        body = dom.find("body")
        check(body and body[0][1].get("data-ready") == "true",
              "the script ran: <body data-ready=\"true\">")
        section = dom.find("section", cls="model")
        check(len(section) == 1, "one model section")
        check(section and section[0][1].get("data-selected-line") == "9",
              "the first lossy finding's line (9) is selected on load")
        lit_line = dom.find("span", cls="lit", data_line="9")
        check(lit_line and "linked" in dom.classes(lit_line[0]), "line 9 lit and linked")
        lit_nodes = [e for e in dom.find("g", cls="lit") if "src_L9" in dom.classes(e)]
        check(len(lit_nodes) >= 2, "line 9's drawn nodes lit (the if frame and its ops): %d"
              % len(lit_nodes))
        lost = dom.find("span", cls="lost", data_line="12")
        check(bool(lost), "line 12 (the lost else arm) highlighted as lost")
        linked = dom.find("span", cls="linked", data_line="10")
        check(linked and linked[0][1].get("data-nodes"), "line 10 linked to its nodes")
        rows = dom.find("tr", cls="finding")
        check(len(rows) == 1 and "lossy" in dom.classes(rows[0]), "one lossy finding row")
        check(any("lost_branch" in t for t in dom.text), "the finding's kind shown")
        check(bool(dom.find("svg")), "the picture is inline SVG")

        shot = os.path.join(tmp, "report.png")
        r = chromium(["--hide-scrollbars", "--window-size=1400,1000", "--screenshot=" + shot,
                      "file://" + report], user_dir)
        check(r.returncode == 0, "chromium --screenshot exits 0: " + r.stderr[-500:])
        data = open(shot, "rb").read() if os.path.exists(shot) else b""
        check(data[:8] == b"\x89PNG\r\n\x1a\n", "the screenshot is a PNG")
        check(len(data) > 20000, "the screenshot is not blank: %d bytes" % len(data))
        if shot_out and data:
            shutil.copyfile(shot, shot_out)

        # check --format html: several models on one page, each linked on its own.
        report = os.path.join(tmp, "check.html")
        r = d2s(binary, ["check", "samples/foo2.py", "samples/rnn_cell.py", "--inputs",
                         "samples/foo2.inputs.yaml", "--inputs", "samples/rnn_cell.inputs.yaml",
                         "--format", "html", "-o", report])
        check(r.returncode == 1, "d2s check exits 1 (rnn_cell's trace lost a branch): %d %s"
              % (r.returncode, r.stderr))
        r = chromium(["--dump-dom", "file://" + report], user_dir)
        dom = Dom()
        dom.feed(r.stdout)
        check(dom.find("body") and dom.find("body")[0][1].get("data-ready") == "true",
              "check report: the script ran")
        sections = dom.find("section", cls="model")
        check(len(sections) == 2, "check report: two model sections")
        check(len(sections) == 2 and sections[1][1].get("data-selected-line") == "10",
              "check report: rnn_cell's if (line 10) selected")
    if failures:
        for f in failures:
            print("FAILED: " + f)
        return 1
    print("html_report_browser: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
