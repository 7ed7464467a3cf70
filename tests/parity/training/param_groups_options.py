# Parameter groups on every optimizer: two groups, the second overriding options of the
# constructor's; each configuration trains a fresh Net for 5 steps and prints its
# parameters, and the optimizer's repr shows every group's options.
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(5, 6)
        self.head = nn.Linear(6, 2)

    def forward(self, x):
        return self.head(torch.tanh(self.body(x)))


def groups(model, **head_options):
    head = {"params": model.head.parameters()}
    head.update(head_options)
    return [{"params": model.body.parameters()}, head]


CONFIGS = [
    ("SGD", lambda m: torch.optim.SGD(groups(m, lr=0.05, momentum=0.5), lr=0.1, momentum=0.9)),
    ("SGD nesterov", lambda m: torch.optim.SGD(groups(m, nesterov=False, weight_decay=0.1),
                                               lr=0.1, momentum=0.9, nesterov=True)),
    ("SGD lr per group", lambda m: torch.optim.SGD([{"params": m.body.parameters(), "lr": 0.2},
                                                    {"params": m.head.parameters(), "lr": 0.01}])),
    ("Adam", lambda m: torch.optim.Adam(groups(m, lr=0.05, betas=(0.8, 0.9), amsgrad=True),
                                        lr=0.01)),
    ("AdamW", lambda m: torch.optim.AdamW(groups(m, weight_decay=0.5, eps=1e-4), lr=0.02)),
    ("RMSprop", lambda m: torch.optim.RMSprop(groups(m, centered=True, momentum=0.5, alpha=0.9),
                                              lr=0.005)),
    ("Adagrad", lambda m: torch.optim.Adagrad(groups(m, lr_decay=0.1,
                                                     initial_accumulator_value=0.2), lr=0.1)),
    ("Adadelta", lambda m: torch.optim.Adadelta(groups(m, rho=0.5, lr=2.0), weight_decay=0.01)),
]

torch.manual_seed(0)
x = torch.randn(8, 5)
y = torch.randn(8, 2)
for name, make in CONFIGS:
    model = Net()
    optimizer = make(model)
    print(name, len(optimizer.param_groups))
    print(optimizer)
    for step in range(5):
        optimizer.zero_grad()
        loss = nn.MSELoss()(model(x), y)
        loss.backward()
        optimizer.step()
    print(name, "loss", loss.item())
    for p in model.parameters():
        print(name, [v.item() for v in p.reshape(-1)])
