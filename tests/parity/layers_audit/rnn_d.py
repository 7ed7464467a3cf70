# Issue 17 items 2, 3 together: Embedding(padding_idx), a 2-layer bidirectional
# batch_first GRU, an LSTMCell stepped over its output, GroupNorm and BatchNorm1d in
# training (running stats and num_batches_tracked returned), orthogonal_/xavier_normal_/
# zeros_ init by named_parameters.
import torch
import torch.nn as nn


class RnnD(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(5, 6, num_layers=2, batch_first=True, bidirectional=True)
        self.cell = nn.LSTMCell(12, 4)
        self.emb = nn.Embedding(10, 5, padding_idx=2)
        self.gn = nn.GroupNorm(2, 4)
        self.bn = nn.BatchNorm1d(4)
        for name, p in self.named_parameters():
            if "weight_hh" in name:
                nn.init.orthogonal_(p)
            elif "weight_ih" in name:
                nn.init.xavier_normal_(p)
            elif "bias" in name:
                nn.init.zeros_(p)

    def forward(self, tok):
        e = self.emb(tok)
        out, h = self.gru(e)
        hx = torch.zeros(tok.shape[0], 4)
        cx = torch.zeros(tok.shape[0], 4)
        for t in range(out.shape[1]):
            hx, cx = self.cell(out[:, t], (hx, cx))
        y = self.bn(self.gn(hx.unsqueeze(-1)).squeeze(-1))
        return y, h, self.bn.running_mean, self.bn.num_batches_tracked
