#!/usr/bin/env python3
"""Writes tests/data/nn_data.rs: PyTorch's values and gradients of shaped's functional layer
(shaped::autograd::nn, torch.nn.functional).

Each case is a function with a configuration (bias or not, causal or not, reduction, label
smoothing, training or evaluation), its float inputs (float64, drawn from a fixed seed; every one
is differentiated), its integer inputs (indices, class targets), the running statistics before
the call (batch_norm), a seed gradient for the output, the output, PyTorch's gradient of every
float input (torch.autograd.grad with that seed) and the running statistics after the call.
tests/nn_torch.rs runs the same calls through shaped in f64 and f32 and compares. Run from the
repository root: python3 scripts/nn_data.py (needs torch, CPU is enough; CI reads the committed
file and never needs PyTorch).
"""
import math
import subprocess
import torch
import torch.nn.functional as F

g = torch.Generator().manual_seed(20261205)


def randn(*shape, scale=1.0):
    return scale * torch.randn(tuple(shape), generator=g, dtype=torch.float64)


def rand(*shape, lo=0.0, hi=1.0):
    return lo + (hi - lo) * torch.rand(tuple(shape), generator=g, dtype=torch.float64)


def randint(hi, *shape):
    return torch.randint(0, hi, tuple(shape), generator=g, dtype=torch.int64)


cases = []


def case(name, fn, inputs, ints=None, state=()):
    """fn(float inputs (requiring grad), ints, state copies) -> output; state is updated in place."""
    cases.append((name, fn, inputs, ints, list(state)))


def attention(q, k, v, causal):
    """The definition (PyTorch's documented reference implementation), for broadcast batch dims."""
    L, S = q.shape[-2], k.shape[-2]
    s = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if causal:
        keep = torch.ones(L, S, dtype=torch.bool).tril()
        s = s.masked_fill(~keep, float("-inf"))
    return torch.softmax(s, -1) @ v


# linear
case("linear_bias", lambda x, w, b: F.linear(x, w, b), [randn(4, 3), randn(5, 3), randn(5)])
case("linear_no_bias", lambda x, w: F.linear(x, w), [randn(4, 3), randn(5, 3)])
case("linear_3d", lambda x, w, b: F.linear(x, w, b), [randn(2, 3, 4), randn(5, 4), randn(5)])
case("linear_1d", lambda x, w, b: F.linear(x, w, b), [randn(4), randn(3, 4), randn(3)])

# layer_norm (the last dim)
case("layer_norm", lambda x, w, b: F.layer_norm(x, (5,), w, b, 1e-5), [randn(3, 5, scale=3.0), randn(5), randn(5)])
case("layer_norm_plain", lambda x: F.layer_norm(x, (4,), None, None, 1e-5), [randn(2, 3, 4)])
case("layer_norm_weight", lambda x, w: F.layer_norm(x, (6,), w, None, 1e-3), [randn(2, 6), randn(6)])


# batch_norm: running statistics in `state`, updated in place
def bn(training, momentum=0.1, eps=1e-5):
    def f(x, *wb, state):
        w = wb[0] if len(wb) > 0 else None
        b = wb[1] if len(wb) > 1 else None
        rm, rv = (state[0], state[1]) if state else (None, None)
        return F.batch_norm(x, rm, rv, w, b, training, momentum, eps)

    return f


case("batch_norm_train_2d", bn(True), [randn(6, 3, scale=2.0), randn(3), randn(3)], state=[randn(3), rand(3, lo=0.5, hi=2.0)])
case("batch_norm_train_4d", bn(True), [randn(4, 3, 2, 5), randn(3), randn(3)], state=[randn(3), rand(3, lo=0.5, hi=2.0)])
case("batch_norm_train_3d_plain", bn(True, 0.3, 1e-3), [randn(2, 4, 3)])
case("batch_norm_eval_4d", bn(False), [randn(2, 3, 2, 2), randn(3), randn(3)], state=[randn(3), rand(3, lo=0.5, hi=2.0)])
case("batch_norm_eval_2d_plain", bn(False), [randn(5, 4)], state=[randn(4), rand(4, lo=0.5, hi=2.0)])

# embedding (repeated indices accumulate)
case("embedding_2d", lambda w, ints: F.embedding(ints, w), [randn(5, 4)], ints=torch.tensor([[1, 3, 1], [4, 1, 0]]))
case("embedding_1d", lambda w, ints: F.embedding(ints, w), [randn(4, 2)], ints=torch.tensor([3, 3, 0, 2, 3, 1]))

# scaled_dot_product_attention
for causal in (False, True):
    tag = "_causal" if causal else ""
    case(f"sdpa{tag}", lambda q, k, v, c=causal: F.scaled_dot_product_attention(q, k, v, is_causal=c),
         [randn(2, 3, 4), randn(2, 5, 4), randn(2, 5, 3)])
    case(f"sdpa_square{tag}", lambda q, k, v, c=causal: F.scaled_dot_product_attention(q, k, v, is_causal=c),
         [randn(2, 2, 4, 3), randn(2, 2, 4, 3), randn(2, 2, 4, 2)])
    # Broadcast batch dims (k shared across heads, v without batch dims).
    case(f"sdpa_broadcast{tag}", lambda q, k, v, c=causal: attention(q, k, v, c),
         [randn(2, 3, 4, 5), randn(2, 1, 6, 5), randn(6, 2)])
# More queries than keys: the mask aligned to the top left.
case("sdpa_long_causal", lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True),
     [randn(6, 4), randn(3, 4), randn(3, 2)])

# losses
for red in ("mean", "sum"):
    case(f"mse_{red}", lambda x, t, r=red: F.mse_loss(x, t, reduction=r), [randn(3, 4), randn(3, 4)])
    x, t = randn(3, 4), randn(3, 4)
    t[0, 0] = x[0, 0]  # a tie: the gradient there is 0
    case(f"l1_{red}", lambda x, t, r=red: F.l1_loss(x, t, reduction=r), [x, t])
    case(f"huber_{red}", lambda x, t, r=red: F.huber_loss(x, t, reduction=r, delta=1.0), [randn(3, 4, scale=2.0), randn(3, 4)])
    case(f"huber_{red}_half", lambda x, t, r=red: F.huber_loss(x, t, reduction=r, delta=0.5), [randn(3, 4), randn(3, 4)])
    x = randn(3, 4, scale=4.0)
    x[0, 0], x[0, 1] = 40.0, -40.0
    case(f"bce_logits_{red}", lambda x, t, r=red: F.binary_cross_entropy_with_logits(x, t, reduction=r), [x, rand(3, 4)])
    for ls in (0.0, 0.1):
        case(f"cross_entropy_{red}_{ls}", lambda x, ints, r=red, s=ls: F.cross_entropy(x, ints, reduction=r, label_smoothing=s),
             [randn(5, 4, scale=2.0)], ints=randint(4, 5))
    case(f"nll_{red}", lambda x, ints, r=red: F.nll_loss(x, ints, reduction=r),
         [torch.log_softmax(randn(6, 3), 1)], ints=torch.tensor([2, 0, 1, 1, 2, 0]))

# The options: class weights, ignore_index (PyTorch's default -100 and another), reduction='none'.
W4 = torch.tensor([0.5, 2.0, 1.0, 1.5], dtype=torch.float64)
ce_targets = torch.tensor([2, -100, 0, 3, 1, -100])
for red in ("mean", "sum", "none"):
    for ls in (0.0, 0.2):
        case(f"ce_opts_{red}_{ls}", lambda x, ints, r=red, s=ls: F.cross_entropy(x, ints, weight=W4, reduction=r, label_smoothing=s),
             [randn(6, 4, scale=2.0)], ints=ce_targets)
    case(f"ce_ignore1_{red}", lambda x, ints, r=red: F.cross_entropy(x, ints, ignore_index=1, reduction=r),
         [randn(5, 4)], ints=torch.tensor([1, 0, 3, 1, 2]))
    case(f"nll_opts_{red}", lambda x, ints, r=red: F.nll_loss(x, ints, weight=W4, reduction=r),
         [torch.log_softmax(randn(6, 4), 1)], ints=ce_targets)
case("mse_none", lambda x, t: F.mse_loss(x, t, reduction="none"), [randn(3, 4), randn(3, 4)])
x, t = randn(3, 4), randn(3, 4)
t[1, 2] = x[1, 2]
case("l1_none", lambda x, t: F.l1_loss(x, t, reduction="none"), [x, t])
case("huber_none", lambda x, t: F.huber_loss(x, t, reduction="none", delta=0.8), [randn(3, 4, scale=2.0), randn(3, 4)])
case("bce_logits_none", lambda x, t: F.binary_cross_entropy_with_logits(x, t, reduction="none"), [randn(3, 4, scale=4.0), rand(3, 4)])
case("embedding_pad1", lambda w, ints: F.embedding(ints, w, padding_idx=1), [randn(5, 3)], ints=torch.tensor([[1, 3, 1], [4, 1, 0]]))
case("embedding_pad_neg1", lambda w, ints: F.embedding(ints, w, padding_idx=-1), [randn(4, 2)], ints=torch.tensor([3, 3, 0, 2]))


def lit(v):
    if math.isnan(v) or math.isinf(v):
        raise ValueError("values are finite")
    r = repr(float(v))
    return r if ("e" in r or "." in r) else r + ".0"


def arr(t):
    t = t.detach().contiguous()
    sizes = ", ".join(str(s) for s in t.shape)
    data = ", ".join(lit(v) for v in t.reshape(-1).tolist())
    return f"(&[{sizes}], &[{data}])"


def iarr(t):
    if t is None:
        return "(&[], &[])"
    sizes = ", ".join(str(s) for s in t.shape)
    data = ", ".join(str(int(v)) for v in t.reshape(-1).tolist())
    return f"(&[{sizes}], &[{data}])"


out = []
out.append("// @generated by scripts/nn_data.py from PyTorch " + torch.__version__ + ": do not edit.")
out.append("// Each case: a torch.nn.functional call, its float inputs, its integer inputs, the running")
out.append("// statistics before the call, a seed gradient for the output, the output, PyTorch's gradient")
out.append("// of each float input (torch.autograd.grad(output, inputs, seed)) and the running statistics after.")
out.append("#![allow(clippy::approx_constant, clippy::excessive_precision, clippy::unreadable_literal)]")
out.append("pub type Arr = (&'static [usize], &'static [f64]);")
out.append("pub struct Case {")
out.append("    pub op: &'static str,")
out.append("    pub inputs: &'static [Arr],")
out.append("    pub ints: (&'static [usize], &'static [i64]),")
out.append("    pub state: &'static [Arr],")
out.append("    pub seed: Arr,")
out.append("    pub out: Arr,")
out.append("    pub grads: &'static [Arr],")
out.append("    pub state_after: &'static [Arr],")
out.append("}")
out.append("pub static CASES: &[Case] = &[")
for name, fn, inputs, ints, state in cases:
    xs = [x.clone().requires_grad_(True) for x in inputs]
    st = [s.clone() for s in state]
    kw = {}
    if state or name.startswith("batch_norm"):
        kw["state"] = st
    args = xs + ([ints] if ints is not None else [])
    y = fn(*args, **kw)
    seed = torch.randn(tuple(y.shape), generator=g, dtype=torch.float64)
    grads = torch.autograd.grad(y, xs, seed)
    out.append("    Case {")
    out.append(f"        op: {name!r},".replace("'", '"'))
    out.append("        inputs: &[" + ", ".join(arr(x) for x in inputs) + "],")
    out.append(f"        ints: {iarr(ints)},")
    out.append("        state: &[" + ", ".join(arr(s) for s in state) + "],")
    out.append(f"        seed: {arr(seed)},")
    out.append(f"        out: {arr(y)},")
    out.append("        grads: &[" + ", ".join(arr(gr) for gr in grads) + "],")
    out.append("        state_after: &[" + ", ".join(arr(s) for s in st) + "],")
    out.append("    },")
out.append("];")
open("tests/data/nn_data.rs", "w").write("\n".join(out) + "\n")
# As `cargo fmt` leaves it (the repository's rustfmt.toml), so that the check stays clean.
subprocess.run(["rustfmt", "--edition", "2021", "tests/data/nn_data.rs"], check=True)
print(f"wrote tests/data/nn_data.rs: {len(cases)} cases")

# The broadcast attention reference agrees with PyTorch's own function where it applies.
q, k, v = randn(2, 3, 4), randn(2, 5, 4), randn(2, 5, 3)
for causal in (False, True):
    d = (attention(q, k, v, causal) - F.scaled_dot_product_attention(q, k, v, is_causal=causal)).abs().max()
    assert d < 1e-14, d
