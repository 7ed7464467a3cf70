# numpy arrays built at construction time and turned into tensors, as model code makes
# fixed matrices and masks: np.eye, np.array of nested lists, np.zeros / np.ones /
# np.full of a shape, np.arange, np.linspace, .astype(np.float32), .reshape, .T, and
# torch.from_numpy / torch.tensor / torch.as_tensor / torch.FloatTensor of them (int64
# and bool arrays keep their dtype; a float64 array becomes float32 through astype,
# dtype= or torch.FloatTensor, as d2s has no float64 tensors).
import numpy as np
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self, n=4):
        super().__init__()
        self.register_buffer("eye", torch.from_numpy(np.eye(n).astype(np.float32)))
        self.register_buffer("shift", torch.FloatTensor(np.eye(n, k=1)))
        mix = np.array([[0.5, -1.0, 2.0, 0.25], [1, 0, 0, 3]], dtype=np.float32)
        self.mix = nn.Parameter(torch.from_numpy(mix))
        self.register_buffer("positions", torch.from_numpy(np.arange(n)))
        self.register_buffer("steps", torch.tensor(np.arange(0.0, 1.0, 0.25), dtype=torch.float32))
        self.register_buffer("grid", torch.as_tensor(np.linspace(-1, 1, n), dtype=torch.float32))
        mask = np.ones((n, n), dtype=bool)
        self.register_buffer("mask", torch.from_numpy(mask))
        self.register_buffer("fill", torch.tensor(np.full((2, n), 3).T.reshape(-1)))
        self.zeros = torch.as_tensor(np.zeros((n,)).astype(np.float32))
        table = np.array([[1, 2], [3, 4], [5, 6]])
        self.table_shape = table.shape
        self.table_list = table.tolist()
        self.ndim = table.ndim + table.size

    def forward(self, x):
        h = x @ self.eye + x @ self.shift
        h = h @ self.mix.t()
        idx = self.positions[: h.shape[1]]
        out = h + idx + self.steps[idx] + self.grid[idx] + self.zeros[idx]
        return (out, self.mask.sum(), self.fill, self.table_shape, self.table_list, self.ndim,
                self.positions.dtype == torch.int64)
