# The pattern card "Static vs. Dynamic Computation Graphs": its PyTorch program as
# written, both halves. Added: `dataloader` (three fixed batches; the third has a mean
# above 0.5, so DynamicModel's forward takes its other branch), the per-step losses
# kept in two lists, and the table at the end. Left out: the TensorFlow lines (not
# PyTorch). Under PyTorch 1.13, which has no torch.compile, the parity suite runs this
# with torch.compile as the identity (tests/parity/training_parity.py). The ONNX export
# writes model.onnx in the current directory: d2s run writes it through d2s's exporter,
# by the parse route, so both sides of the forward's `if` are in the file (PyTorch's
# file, a trace, keeps the side the dummy input took).
import torch
import torch.nn as nn


# Dynamic Graph (PyTorch Eager Mode) - Development friendly
class DynamicModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear1 = nn.Linear(10, 5)
        self.linear2 = nn.Linear(5, 1)

    def forward(self, x):
        # Easy to add print statements, conditional logic
        if self.training:
            print(f"Input shape: {x.shape}")
        # Dynamic control flow based on input
        if x.mean() > 0.5:
            x = self.linear1(x)
        else:
            x = torch.relu(self.linear1(x))
        return self.linear2(x)


torch.manual_seed(0)
dataloader = [
    (torch.randn(4, 10), torch.randn(4, 1)),
    (torch.randn(4, 10), torch.randn(4, 1)),
    (torch.rand(4, 10) + 0.5, torch.randn(4, 1)),
]
eager_losses = []
compiled_losses = []

# Training with dynamic graph (easy debugging)
model = DynamicModel()
optimizer = torch.optim.Adam(model.parameters())

for epoch in range(10):
    for batch_x, batch_y in dataloader:
        optimizer.zero_grad()
        output = model(batch_x)  # Immediate execution
        loss = nn.MSELoss()(output, batch_y)
        loss.backward()
        optimizer.step()
        eager_losses.append(loss.item())


# Static Graph (torch.compile) - Production optimization
@torch.compile
def compiled_forward(x):
    return model(x)


# Much faster, but harder to debug
for epoch in range(10):
    for batch_x, batch_y in dataloader:
        optimizer.zero_grad()
        output = compiled_forward(batch_x)  # Compiled execution
        loss = nn.MSELoss()(output, batch_y)
        loss.backward()
        optimizer.step()
        compiled_losses.append(loss.item())

print("epoch  eager loss  compiled loss")
for epoch in range(10):
    eager = sum(eager_losses[3 * epoch:3 * epoch + 3]) / 3
    compiled = sum(compiled_losses[3 * epoch:3 * epoch + 3]) / 3
    print(f"{epoch:5d}  {eager:10.6f}  {compiled:13.6f}")

# ONNX Export - Static graph for deployment
dummy_input = torch.randn(1, 10)
torch.onnx.export(
    model,
    dummy_input,
    "model.onnx",
    input_names=['input'],
    output_names=['output'],
)
