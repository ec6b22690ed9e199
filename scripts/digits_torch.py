#!/usr/bin/env python3
"""Writes tests/data/digits_step.npz: the digits CNN's first training step in PyTorch, for
tests/digits_torch.rs. The weights come from torch.manual_seed(0) with PyTorch's default
initialisation; the batch is the first 64 training images of examples/data/digits.npz (pixels
/ 16).
Members: the weights under their names (`conv1.weight`, ...), their gradients under
`grad.<name>`, `x` [64, 1, 8, 8] f32, `y` [64] i64 and `loss` []. All float32.
Run from the repository root (needs torch and NumPy): python3 scripts/digits_torch.py
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Cnn(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.fc1 = nn.Linear(64, 32)
        self.fc2 = nn.Linear(32, 10)

    def forward(self, x):
        h = F.max_pool2d(F.relu(self.conv1(x)), 2)
        h = F.max_pool2d(F.relu(self.conv2(h)), 2)
        h = F.gelu(self.fc1(h.reshape(h.shape[0], -1)))
        return self.fc2(h)


d = np.load("examples/data/digits.npz")
first = d["train"][:64]
x = torch.tensor(d["images"][first].astype(np.float32) / 16).reshape(64, 1, 8, 8)
y = torch.tensor(d["labels"][first])
m = Cnn()
out = {name: p.detach().numpy().copy() for name, p in m.named_parameters()}
loss = F.cross_entropy(m(x), y)
loss.backward()
for name, p in m.named_parameters():
    out["grad." + name] = p.grad.numpy().copy()
out["x"] = x.numpy()
out["y"] = y.numpy()
out["loss"] = np.array(loss.item(), dtype=np.float32)
np.savez("tests/data/digits_step.npz", **out)
print(f"wrote tests/data/digits_step.npz: loss {loss.item():.6f}")
