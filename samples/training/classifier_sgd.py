# A classifier trained with nn.CrossEntropyLoss (class-index targets) and SGD with
# momentum, over mini-batches sliced from one tensor, with a StepLR schedule.
import torch
import torch.nn as nn


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 3))

    def forward(self, x):
        return self.net(x)


torch.manual_seed(0)
x = torch.randn(32, 4)
y = torch.argmax(x[:, :3], dim=1)  # the class is the largest of the first three features

model = Classifier()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=10, gamma=0.5)

for epoch in range(30):
    total = 0.0
    for i in range(0, 32, 8):
        optimizer.zero_grad()
        loss = criterion(model(x[i:i + 8]), y[i:i + 8])
        loss.backward()
        optimizer.step()
        total += loss.item()
    scheduler.step()
    if epoch % 5 == 4:
        print(f"epoch {epoch:2d}  loss {total / 4:.6f}  lr {scheduler.get_last_lr()[0]:.4f}")

accuracy = (model(x).argmax(dim=1) == y).float().mean().item()
print(f"training accuracy {accuracy:.3f}")
