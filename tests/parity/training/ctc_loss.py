# CTC loss (F.ctc_loss and nn.CTCLoss) against PyTorch: the loss and the gradient of the
# logits it is computed from (log_probs = log_softmax(logits), as CTC is trained), for
# padded and concatenated targets, lengths as lists and tensors, every reduction, a
# non-zero blank, an impossible alignment with and without zero_infinity, one unbatched
# sequence; then a small model trained with nn.CTCLoss and Adam.
import torch
import torch.nn as nn
import torch.nn.functional as F


def show(tag, loss, x):
    print(tag, "loss", [v.item() for v in loss.reshape(-1)])
    print(tag, "grad", [v.item() for v in x.grad.reshape(-1)])


torch.manual_seed(0)
T, N, C = 7, 3, 5
padded = torch.tensor([[1, 2, 2, 0], [3, 1, 0, 0], [4, 4, 4, 1]])
concatenated = torch.tensor([1, 2, 2, 3, 1, 4, 4, 4, 1])
target_lengths = [3, 2, 4]
input_lengths = [7, 5, 7]

for reduction in ["mean", "sum", "none"]:
    x = torch.randn(T, N, C, requires_grad=True)
    loss = F.ctc_loss(F.log_softmax(x, dim=2), padded, input_lengths, target_lengths,
                      reduction=reduction)
    loss.sum().backward()
    show("padded " + reduction, loss, x)

x = torch.randn(T, N, C, requires_grad=True)
loss = F.ctc_loss(x.log_softmax(2), concatenated, torch.tensor(input_lengths),
                  torch.tensor(target_lengths))
loss.backward()
show("concatenated", loss, x)

# blank=4: the labels are 0..3.
x = torch.randn(T, N, C, requires_grad=True)
loss = nn.CTCLoss(blank=4, reduction="sum")(x.log_softmax(2), torch.tensor([[0, 1, 1], [2, 3, 0], [3, 3, 3]]),
                                            torch.tensor([7, 6, 7]), torch.tensor([3, 3, 3]))
loss.backward()
show("blank4", loss, x)

# Sequence 1 cannot align (3 repeated labels need 5 frames, it has 3).
for zero_infinity in [False, True]:
    x = torch.randn(T, 2, C, requires_grad=True)
    ctc = nn.CTCLoss(reduction="none", zero_infinity=zero_infinity)
    loss = ctc(x.log_softmax(2), torch.tensor([[1, 2, 3], [2, 2, 2]]), [7, 3], [3, 3])
    print("impossible", zero_infinity, "loss", [v.item() for v in loss])
    if zero_infinity:
        loss.sum().backward()
        show("zero_infinity", loss, x)

# One sequence, unbatched: log_probs [T, C], targets [S], 0-d lengths.
x = torch.randn(T, C, requires_grad=True)
loss = F.ctc_loss(x.log_softmax(1), torch.tensor([1, 3, 3]), torch.tensor(T), torch.tensor(3))
loss.backward()
show("unbatched", loss, x)

# A model trained with CTC.
class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 8)
        self.out = nn.Linear(8, C)

    def forward(self, feats):
        return F.log_softmax(self.out(torch.tanh(self.proj(feats))), dim=2)


model = Tagger()
feats = torch.randn(T, N, 4)
optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
ctc = nn.CTCLoss()
for step in range(5):
    optimizer.zero_grad()
    loss = ctc(model(feats), padded, input_lengths, target_lengths)
    loss.backward()
    optimizer.step()
    print("train", step, loss.item())
