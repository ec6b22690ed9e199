#!/usr/bin/env python3
"""Writes tests/data/torch_params.safetensors with PyTorch's `safetensors.torch.save_file`:
`w` = arange(6).reshape(2, 3) / 10 and `b` = [1, 2, 3] (float32), and `extra` (float32 [2]),
which no parameter of the test names. tests/autograd_save.rs loads it into typed parameters.
Run from the repository root (needs torch and safetensors)."""
import torch
from safetensors.torch import save_file

save_file(
    {"w": torch.arange(6, dtype=torch.float32).reshape(2, 3) / 10, "b": torch.tensor([1.0, 2.0, 3.0]), "extra": torch.zeros(2)},
    "tests/data/torch_params.safetensors",
)
print("wrote tests/data/torch_params.safetensors")
