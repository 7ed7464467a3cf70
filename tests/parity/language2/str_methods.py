# str methods on labels as model code writes them, in forward so that the parse route
# lowers them (TorchScript's aten::join, aten::split.str, ...): join of module names,
# upper/lower, strip with and without chars, startswith/endswith, replace with a count,
# split on whitespace, on a separator and with maxsplit; on a label known only at run
# time too; printf-style % of run-time values (aten::percentFormat).
import torch
import torch.nn as nn


class Labels(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
        self.names = [type(m).__name__ for m in self.body]
        self.title = "  resnet-ish head  "

    def forward(self, x):
        arch = "->".join(self.names)
        t = self.title.strip()
        parts = t.split()
        pieces = "a,b,,c".split(",")
        first = "k=v=w".split("=", 1)
        tag = t.replace("-", "_").upper() + "|" + "ABC".lower() + "|" + "xxhixx".strip("x")
        flags = [arch.startswith("Linear"), arch.endswith("ReLU"), t.replace("e", "E", 1)]
        print(arch, parts, pieces, first, tag, flags)
        run = f" {int((x > 0).sum().item())}_b_c "  # known only at run time
        print(run.strip().split("_"), run.replace("_", "", 1), run.startswith(" 3"), run.split(maxsplit=1))
        print("ab".replace("", "-"), "ab".replace("", "-", 2), "  a  b c ".split(None, 1), "a b".split(" ", 0))
        print("n=%d, sum %7.3f, %s|%-6s|%r" % (int((x > 0).sum().item()), x.sum().item(), t, "ab", run))
        print("%(n)d parts, %(m)03d pieces" % {"n": len(parts), "m": len(pieces)})
        print(", ".join([f"<{n}>" for n in self.names]).upper())
        y = self.body(x)
        if arch.startswith("Linear") and len(parts) == 2:
            y = y * 2
        return y, len(pieces)
