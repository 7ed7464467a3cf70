# zero_grad()'s default in PyTorch 1.13 is set_to_none=False: the gradients stay as zero
# tensors (so weight decay and momentum still move a parameter the loss no longer
# reaches); set_to_none=True drops them (so the step skips that parameter).
import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.randn(6, 3)
y = torch.randn(6, 1)
for to_none in [None, False, True]:
    model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
    extra = nn.Linear(3, 1)
    optimizer = torch.optim.SGD(list(model.parameters()) + list(extra.parameters()), lr=0.1,
                                momentum=0.9, weight_decay=0.1)
    for step in range(4):
        if to_none is None:
            optimizer.zero_grad()
        else:
            optimizer.zero_grad(set_to_none=to_none)
        print(to_none, step, [p.grad is None for p in extra.parameters()])
        out = model(x) + (extra(x) if step == 0 else 0.0)
        loss = nn.MSELoss()(out, y)
        loss.backward()
        optimizer.step()
    optimizer.zero_grad()
    print(to_none, "after", extra.weight.grad)
    print(to_none, "extra", [v.item() for v in extra.weight.reshape(-1)], [v.item() for v in extra.bias])
