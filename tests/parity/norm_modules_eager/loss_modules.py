# nn.KLDivLoss and nn.BCELoss as modules (reduction, log_target). (A loss module's
# weight is a buffer of PyTorch's state_dict that d2s's loss modules do not hold.)
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.kl = nn.KLDivLoss(reduction="batchmean")
        self.kl_log = nn.KLDivLoss(reduction="sum", log_target=True)
        self.bce = nn.BCELoss()
        self.bce_none = nn.BCELoss(reduction="none")

    def forward(self, logp, q, p, t):
        q = q.softmax(-1)
        p = p.sigmoid()
        a = self.kl(logp, q) + self.kl_log(logp, q.log())
        b = self.bce(p, t)
        c = self.bce_none(p, t)
        return a + b + c.sum(), c
