import torch


def double(x):
    return x * 2


torch.onnx.export(double, torch.randn(1, 3), "double.onnx")
