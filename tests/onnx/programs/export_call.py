# torch.onnx.export in d2s run with dynamic_axes (tests/onnx/onnx_run_parity.py): the file
# written must give the model's eager outputs at batch 3 on both sides of the `if`, with
# the batch dim free. `Axes` stands in for the dict {'input': {0: 'batch_size'}}: d2s
# reads dynamic_axes through items(), as it reads a dict.
import torch
import torch.nn as nn


class Dims:
    def items(self):
        return [(0, "batch_size")]


class Axes:
    # {'input': {0: 'batch_size'}}, read through items() as d2s reads a dict
    def items(self):
        return [("input", Dims())]


class DynamicModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear1 = nn.Linear(10, 5)
        self.linear2 = nn.Linear(5, 1)

    def forward(self, x):
        if self.training:
            print(f"Input shape: {x.shape}")
        if x.mean() > 0.5:
            x = self.linear1(x)
        else:
            x = torch.relu(self.linear1(x))
        return self.linear2(x)


torch.manual_seed(0)
model = DynamicModel()
torch.onnx.export(model, torch.randn(1, 10), "model.onnx", input_names=["input"],
                  output_names=["output"], dynamic_axes=Axes())
print("training after export:", model.training)
model.eval()
base = torch.arange(30).reshape(3, 10) / 30.0
for x in [base - 0.5, base + 0.5]:
    for v in model(x).reshape(-1):
        print(v.item())
