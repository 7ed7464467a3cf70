import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 1)

    def forward(self, x):
        return self.fc(x)


model = Net()
torch.onnx.export(model, torch.randn(1, 3), "net.onnx", keep_initializers_as_inputs=True)
