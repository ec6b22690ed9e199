#!/usr/bin/env python3
"""Writes the fixtures of tests/nn_attention.rs: PyTorch's nn.MultiheadAttention and
nn.TransformerEncoderLayer, their state dicts, and their values and gradients.

Models (every parameter redrawn from a fixed seed, so that biases and norms are not the defaults):
* `mha`: nn.MultiheadAttention(embed_dim=8, num_heads=2, batch_first=True), cross-attention of a
  query [2, 3, 8] to a key and a value [2, 4, 8];
* `post_relu`: nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0,
  batch_first=True) (post-norm, relu), on x [2, 4, 8];
* `pre_gelu`: the same with norm_first=True, activation="gelu".

Files, in tests/data/:
* attention_data_<model>_<f64|f32>.safetensors: `safetensors.torch.save_file(model.state_dict())`
  of the model in that dtype (the f32 model is the f64 one rounded);
* attention_data_<f64|f32>.npz: for each model its inputs (`<model>.query`, `.key`, `.value` or
  `.x`), the seed gradient `<model>.seed`, the state-dict keys in PyTorch's order (`<model>.keys`,
  UTF-8 bytes joined by newlines), the masks (`mask.kpm`, `mask.kpm_full` as uint8 0/1, `mask.float_mha`,
  `mask.float_tel`), and for each case `<model>.<case>.out`, `.weights` (mha, need_weights=True:
  averaged over the heads), and `.grad.<name>` for the input(s) and every parameter: PyTorch's
  gradient of sum(out * seed) (torch.autograd.grad).

Cases: `none`; `kpm` (a key_padding_mask with padded positions); `causal` (is_causal=True with
the causal mask, which PyTorch requires beside the hint); `float` (a float attn_mask, one entry
-inf); `kpm_full` (the second sequence fully padded: NaN where PyTorch's need_weights=True path
gives NaN, the zeros of its scaled_dot_product_attention path elsewhere). MHA runs need_weights=True
(the weights are compared), except `kpm_full_nw` (need_weights=False); the encoder layers run
need_weights=False, as PyTorch's do. The models are in training mode with dropout 0 (so PyTorch
takes its differentiable path, not the inference fast path).

Run from the repository root: python3 scripts/attention_data.py (needs torch and safetensors;
CI reads the committed files and never needs PyTorch).
"""
import numpy as np
import torch
import torch.nn as nn
from safetensors.torch import save_file

torch.manual_seed(47)
E, H, FF, N, L, S = 8, 2, 16, 2, 3, 4
OUT = "tests/data/attention_data"

MHA_KEYS = ["in_proj_weight", "in_proj_bias", "out_proj.weight", "out_proj.bias"]
TEL_KEYS = ["self_attn." + k for k in MHA_KEYS] + [
    "linear1.weight",
    "linear1.bias",
    "linear2.weight",
    "linear2.bias",
    "norm1.weight",
    "norm1.bias",
    "norm2.weight",
    "norm2.bias",
]


def redraw(model):
    with torch.no_grad():
        for name, p in model.named_parameters():
            if name.startswith("norm") and name.endswith("weight"):
                p.copy_(1 + 0.2 * torch.randn_like(p))
            elif name.startswith("norm"):
                p.copy_(0.2 * torch.randn_like(p))
            else:
                p.copy_(0.4 * torch.randn_like(p))
    return model


mha64 = redraw(nn.MultiheadAttention(E, H, batch_first=True).double())
post64 = redraw(nn.TransformerEncoderLayer(E, H, FF, dropout=0.0, batch_first=True).double())
pre64 = redraw(
    nn.TransformerEncoderLayer(E, H, FF, dropout=0.0, activation="gelu", norm_first=True, batch_first=True).double()
)
assert list(mha64.state_dict().keys()) == MHA_KEYS, list(mha64.state_dict().keys())
assert list(post64.state_dict().keys()) == TEL_KEYS, list(post64.state_dict().keys())

inputs = {
    "mha": {"query": torch.randn(N, L, E, dtype=torch.float64), "key": torch.randn(N, S, E, dtype=torch.float64),
            "value": torch.randn(N, S, E, dtype=torch.float64)},
    "post_relu": {"x": torch.randn(N, S, E, dtype=torch.float64)},
    "pre_gelu": {"x": torch.randn(N, S, E, dtype=torch.float64)},
}
seeds = {"mha": torch.randn(N, L, E, dtype=torch.float64), "post_relu": torch.randn(N, S, E, dtype=torch.float64),
         "pre_gelu": torch.randn(N, S, E, dtype=torch.float64)}
kpm = torch.tensor([[False, False, False, True], [False, False, True, True]])
kpm_full = torch.tensor([[False, False, True, True], [True, True, True, True]])
float_mha = 0.5 * torch.randn(L, S, dtype=torch.float64)
float_mha[1, 2] = float("-inf")
float_tel = 0.5 * torch.randn(S, S, dtype=torch.float64)
float_tel[2, 0] = float("-inf")


def causal(lq, lk):
    return torch.ones(lq, lk, dtype=torch.bool).triu(1)


def masks(case, lq, fl, dtype):
    """(key_padding_mask, attn_mask, is_causal) of a case."""
    return {
        "none": (None, None, False),
        "kpm": (kpm, None, False),
        "causal": (None, causal(lq, S), True),
        "float": (None, fl.to(dtype), False),
        "kpm_full": (kpm_full, None, False),
        "kpm_full_nw": (kpm_full, None, False),
    }[case]


def run(name, model, dtype):
    data = {}
    model = model.to(dtype).train()
    params = dict(model.named_parameters())
    ins = {k: v.to(dtype).requires_grad_() for k, v in inputs[name].items()}
    seed = seeds[name].to(dtype)
    cases = ["none", "kpm", "causal", "float", "kpm_full"] + (["kpm_full_nw"] if name == "mha" else [])
    for case in cases:
        if name == "mha":
            kp, am, ic = masks(case, L, float_mha, dtype)
            nw = case != "kpm_full_nw"
            out, w = model(ins["query"], ins["key"], ins["value"], key_padding_mask=kp, attn_mask=am,
                           is_causal=ic, need_weights=nw)
            if nw:
                data[f"{name}.{case}.weights"] = w
        else:
            kp, am, ic = masks(case, S, float_tel, dtype)
            out = model(ins["x"], src_mask=am, src_key_padding_mask=kp, is_causal=ic)
        data[f"{name}.{case}.out"] = out
        wrt = list(ins.items()) + list(params.items())
        grads = torch.autograd.grad((out * seed).sum(), [t for _, t in wrt])
        for (k, _), g in zip(wrt, grads):
            data[f"{name}.{case}.grad.{k}"] = g
    for k, v in ins.items():
        data[f"{name}.{k}"] = v
    data[f"{name}.seed"] = seed
    keys = "\n".join(model.state_dict().keys()).encode()
    data[f"{name}.keys"] = np.frombuffer(keys, dtype=np.uint8)
    save_file({k: v.contiguous() for k, v in model.state_dict().items()}, f"{OUT}_{name}_{SUFFIX[dtype]}.safetensors")
    return data


SUFFIX = {torch.float64: "f64", torch.float32: "f32"}
for dtype in [torch.float64, torch.float32]:
    arrays = {}
    for name, model in [("mha", mha64), ("post_relu", post64), ("pre_gelu", pre64)]:
        arrays.update(run(name, model, dtype))
    arrays["mask.kpm"] = kpm.to(torch.uint8)
    arrays["mask.kpm_full"] = kpm_full.to(torch.uint8)
    arrays["mask.float_mha"] = float_mha.to(dtype)
    arrays["mask.float_tel"] = float_tel.to(dtype)
    arrays = {k: (v if isinstance(v, np.ndarray) else v.detach().numpy()) for k, v in arrays.items()}
    np.savez_compressed(f"{OUT}_{SUFFIX[dtype]}.npz", **arrays)
    print(f"wrote {OUT}_{SUFFIX[dtype]}.npz ({len(arrays)} arrays) and the state dicts")
