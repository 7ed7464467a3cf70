# param_groups read and written by the program and by schedulers: a warm-up written as
# `for g in optimizer.param_groups: g['lr'] = ...`, a group's momentum changed mid-run,
# StepLR and LambdaLR (a lambda per group) over two groups, add_param_group for a layer
# unfrozen after two steps, and optimizer.defaults.
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 6)
        self.head = nn.Linear(6, 1)

    def forward(self, x):
        return self.head(torch.relu(self.body(x)))


torch.manual_seed(0)
x = torch.randn(12, 4)
y = torch.randn(12, 1)
loss_fn = nn.MSELoss()

# A manual warm-up and a momentum change through the dicts.
model = Net()
optimizer = torch.optim.SGD([{"params": model.body.parameters(), "lr": 0.02},
                             {"params": model.head.parameters()}], lr=0.05, momentum=0.9)
print("defaults", optimizer.defaults)
print("keys", sorted(optimizer.param_groups[1].keys()))
for step in range(6):
    for g in optimizer.param_groups:
        g["lr"] = g["lr"] * 1.5 if step < 3 else g["lr"]
    if step == 4:
        optimizer.param_groups[0]["momentum"] = 0.0
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    print("warmup", step, loss.item(), [g["lr"] for g in optimizer.param_groups])
for p in model.parameters():
    print("warmup", [v.item() for v in p.reshape(-1)])

# StepLR over two groups.
model = Net()
optimizer = torch.optim.Adam([{"params": model.body.parameters()},
                              {"params": model.head.parameters(), "lr": 0.05}], lr=0.01)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.5)
print("base_lrs", scheduler.base_lrs)
for step in range(6):
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    scheduler.step()
    print("steplr", step, loss.item(), scheduler.get_last_lr())
print(optimizer)
for p in model.parameters():
    print("steplr", [v.item() for v in p.reshape(-1)])

# LambdaLR with one lambda per group.
model = Net()
optimizer = torch.optim.SGD([{"params": model.body.parameters()},
                             {"params": model.head.parameters(), "lr": 0.2}], lr=0.1)
scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, [lambda e: 0.9 ** e, lambda e: 1.0 / (e + 1)])
for step in range(5):
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    scheduler.step()
    print("lambdalr", step, loss.item(), scheduler.get_last_lr())

# add_param_group: the head trains first, the body joins after two steps with its own lr.
model = Net()
for p in model.body.parameters():
    p.requires_grad_(False)
optimizer = torch.optim.RMSprop(model.head.parameters(), lr=0.01)
for step in range(5):
    if step == 2:
        for p in model.body.parameters():
            p.requires_grad_(True)
        optimizer.add_param_group({"params": model.body.parameters(), "lr": 0.002})
        print("groups", len(optimizer.param_groups), optimizer.param_groups[1]["lr"],
              optimizer.param_groups[1]["alpha"])
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    print("unfreeze", step, loss.item())

# A group added after the schedulers were constructed: StepLR decays it too, LambdaLR
# leaves its lr alone (PyTorch zips the lambdas with the groups it started with).
for which in ["step", "lambda"]:
    model = Net()
    optimizer = torch.optim.SGD(model.body.parameters(), lr=0.1, momentum=0.5)
    if which == "step":
        scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.5)
    else:
        scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda e: 1.0 / (e + 1))
    optimizer.add_param_group({"params": model.head.parameters(), "lr": 0.3})
    for step in range(4):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        scheduler.step()
        print("added", which, step, loss.item(), scheduler.get_last_lr())
