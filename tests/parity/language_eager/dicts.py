# Dict literals, dict(...), and the dict methods model code uses: indexing, `in`,
# get with a default, items/keys/values, update, pop, a dict of modules' outputs.
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.cfg = dict(hidden=4, scale=0.5, act="tanh")
        self.cfg.update({"depth": 2})
        self.fc = nn.Linear(3, self.cfg["hidden"])

    def forward(self, x):
        feats = {"raw": x, "proj": self.fc(x)}
        feats["act"] = torch.tanh(feats["proj"]) if self.cfg["act"] == "tanh" else feats["proj"]
        scale = self.cfg.get("scale", 1.0) * self.cfg.get("missing", 2.0)
        keys = list(feats.keys())
        total = 0
        for name, v in feats.items():
            total = total + v.sum()
        n = len(self.cfg)
        depth = self.cfg.pop("depth")
        has = "depth" in self.cfg, "act" in feats, "x" not in feats
        print(keys, n, depth, has, sorted(self.cfg.keys()))
        return feats["act"] * scale, total, [v.shape[1] for v in feats.values()]
