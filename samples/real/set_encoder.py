# A Deep Sets style encoder over a set of feature vectors: per-element encoder, pooling
# chosen from a tuple of names, statistics collected with comprehensions and
# any()/all() checks, pooled features concatenated by torch.cat over a generator of
# pooling functions, and a try/finally block around the readout.
import torch
import torch.nn as nn

POOLINGS = ("mean", "max", "sum")


def pool(x, how):
    if how == "mean":
        return x.mean(dim=1)
    elif how == "max":
        return x.max(dim=1)[0]
    return x.sum(dim=1)


class SetEncoder(nn.Module):
    def __init__(self, in_dim=5, hidden=10, out_dim=3, poolings=POOLINGS):
        super(SetEncoder, self).__init__()
        assert all(p in POOLINGS for p in poolings), "unknown pooling"
        self.poolings = poolings
        self.phi = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden))
        self.rho = nn.Sequential(nn.Linear(hidden * len(poolings), hidden), nn.Tanh(),
                                 nn.Linear(hidden, out_dim))

    def forward(self, elements):
        batch, n, _ = elements.shape
        h = self.phi(elements)
        pooled = torch.cat([pool(h, how) for how in self.poolings], dim=-1)
        try:
            out = self.rho(pooled)
        finally:
            uses_max = any(p == "max" for p in self.poolings)
        print(f"pooled {len(self.poolings)} ways over {n} elements, max={uses_max}")
        return out, pooled.shape[-1]
