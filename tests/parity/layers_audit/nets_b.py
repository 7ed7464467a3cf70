# Issue 17 items 1, 2, 4, 5 as a small published-style CNN: conv without bias, BatchNorm2d,
# PReLU, Dropout2d, MaxPool2d(ceil_mode), F.max_pool2d(return_indices=True),
# AdaptiveMaxPool2d, Embedding.from_pretrained(padding_idx), GLU, kaiming_uniform_ /
# orthogonal_(calculate_gain) / constant_ in a modules() loop, and the losses
# cross_entropy(label_smoothing), kl_div(batchmean), smooth_l1(beta),
# binary_cross_entropy_with_logits(pos_weight).
import torch
import torch.nn as nn
import torch.nn.functional as F


class NetsB(nn.Module):
    def __init__(self):
        super(NetsB, self).__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(8)
        self.pool = nn.MaxPool2d(2, ceil_mode=True)
        self.apool = nn.AdaptiveMaxPool2d((2, 3))
        self.prelu = nn.PReLU(8)
        self.drop = nn.Dropout2d(0.0)
        self.emb = nn.Embedding.from_pretrained(torch.arange(12.0).view(4, 3), padding_idx=0)
        self.fc = nn.Linear(48, 10)
        self.glu = nn.GLU()
        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.kaiming_uniform_(m.weight, a=0.1, nonlinearity="leaky_relu")
            elif isinstance(m, nn.Linear):
                nn.init.orthogonal_(m.weight, gain=nn.init.calculate_gain("tanh"))
                nn.init.constant_(m.bias, 0.01)

    def forward(self, x, tok, target):
        h = self.drop(self.prelu(self.bn(self.conv(x))))
        p, i = F.max_pool2d(h, 2, return_indices=True)
        h = self.apool(self.pool(h))
        out = self.fc(torch.flatten(h, 1))
        e = self.emb(tok).sum()
        loss = F.cross_entropy(out, target, label_smoothing=0.1) + F.kl_div(F.log_softmax(out, 1), F.softmax(out * 2, 1), reduction="batchmean")
        loss = loss + F.smooth_l1_loss(out, out.detach() * 0.5, beta=0.5) + F.binary_cross_entropy_with_logits(out, torch.sigmoid(out.detach()), pos_weight=torch.ones(10) * 2)
        return self.glu(out), loss, e, p.sum(), i
