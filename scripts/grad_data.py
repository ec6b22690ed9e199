#!/usr/bin/env python3
"""Writes tests/data/grad_data.rs: PyTorch's gradients of shaped's differentiable operations.

Each case is an operation, its inputs (float64, drawn from a fixed seed), a seed gradient for
its output, the output and PyTorch's gradient of every input (torch.autograd.grad with that
seed). tests/autograd_torch.rs runs the same operation through shaped's tape in f64 and f32 and
compares. Run from the repository root: python3 scripts/grad_data.py (needs torch, CPU is enough;
CI reads the committed file and never needs PyTorch).
"""
import math
import torch
import torch.nn.functional as F

torch.manual_seed(20261127)
g = torch.Generator().manual_seed(20261127)


def randn(*shape, lo=None, hi=None):
    if lo is not None:
        return lo + (hi - lo) * torch.rand(tuple(shape), generator=g, dtype=torch.float64)
    return torch.randn(tuple(shape), generator=g, dtype=torch.float64)


def with_ties(x):
    # Copies a few elements so that maxima and minima tie (the split rules are then visible).
    x = x.clone()
    flat = x.view(-1)
    flat[1] = flat[0]
    flat[-1] = flat.max()
    flat[-2] = flat.max()
    return x


U = lambda f: (lambda a: f(a))
cases = []


def case(name, fn, *inputs):
    cases.append((name, fn, inputs))


# Element-wise functions of one input.
X = (3, 4)
case("exp", torch.exp, randn(*X))
case("ln", torch.log, randn(*X, lo=0.2, hi=3.0))
case("sqrt", torch.sqrt, randn(*X, lo=0.2, hi=3.0))
case("tanh", torch.tanh, randn(*X))
case("sigmoid", torch.sigmoid, randn(*X))
case("relu", torch.relu, randn(*X))
case("gelu", F.gelu, randn(*X))
case("gelu_tanh", lambda a: F.gelu(a, approximate="tanh"), randn(*X))
case("silu", F.silu, randn(*X))
case("softplus", F.softplus, randn(*X) * 8 + torch.tensor([0.0, 0.0, 0.0, 21.0], dtype=torch.float64))
case("sin", torch.sin, randn(*X))
case("cos", torch.cos, randn(*X))
case("tan", torch.tan, randn(*X, lo=-1.2, hi=1.2))
case("abs", torch.abs, randn(*X))
case("powf", lambda a: torch.pow(a, 2.5), randn(*X, lo=0.2, hi=3.0))
case("powi", lambda a: torch.pow(a, 3), randn(*X))
case("clamp", lambda a: torch.clamp(a, -0.5, 0.5), randn(*X))
case("erf", torch.erf, randn(*X))
case("erfc", torch.erfc, randn(*X))
case("log_sigmoid", F.logsigmoid, randn(*X) * 4)
case("leaky_relu", lambda a: F.leaky_relu(a, 0.1), randn(*X))
case("elu", lambda a: F.elu(a, 1.0), randn(*X))
case("selu", F.selu, randn(*X))
case("hardtanh", lambda a: F.hardtanh(a, -0.5, 0.5), randn(*X))
case("softsign", F.softsign, randn(*X))
case("square", torch.square, randn(*X))
case("recip", torch.reciprocal, randn(*X, lo=0.2, hi=3.0))
case("rsqrt", torch.rsqrt, randn(*X, lo=0.2, hi=3.0))
case("neg", torch.neg, randn(*X))
case("exp2", torch.exp2, randn(*X))
case("exp_m1", torch.expm1, randn(*X))
case("ln_1p", torch.log1p, randn(*X, lo=-0.5, hi=3.0))
case("log2", torch.log2, randn(*X, lo=0.2, hi=3.0))
case("log10", torch.log10, randn(*X, lo=0.2, hi=3.0))
case("asin", torch.asin, randn(*X, lo=-0.9, hi=0.9))
case("acos", torch.acos, randn(*X, lo=-0.9, hi=0.9))
case("atan", torch.atan, randn(*X))
case("sinh", torch.sinh, randn(*X))
case("cosh", torch.cosh, randn(*X))
case("asinh", torch.asinh, randn(*X))
case("acosh", torch.acosh, randn(*X, lo=1.2, hi=3.0))
case("atanh", torch.atanh, randn(*X, lo=-0.9, hi=0.9))
case("mul_scalar", lambda a: a * 2.5, randn(*X))
case("rdiv_scalar", lambda a: 2.0 / a, randn(*X, lo=0.2, hi=3.0))

# Two inputs, with broadcasting.
case("add", torch.add, randn(2, 3), randn(3))
case("sub", torch.sub, randn(4, 1), randn(1, 5))
case("mul", torch.mul, randn(2, 3, 4), randn(3, 1))
case("div", torch.div, randn(2, 3), randn(2, 1, lo=0.5, hi=2.0))
a = randn(3, 4)
b = a.clone()
b[0, 0] += 1.0
b[1] = randn(4)
case("maximum", torch.maximum, a, b)
case("minimum", torch.minimum, a, b)

# Reductions.
case("sum", torch.sum, randn(3, 4))
case("mean", torch.mean, randn(3, 4))
case("sum_axis1", lambda a: a.sum(1), randn(3, 4))
case("mean_axis0", lambda a: a.mean(0), randn(3, 4))
case("sum_keepdim1", lambda a: a.sum(1, keepdim=True), randn(3, 4))
case("mean_keepdim0", lambda a: a.mean(0, keepdim=True), randn(3, 4))
case("max", torch.amax, with_ties(randn(3, 4)))
case("min", torch.amin, with_ties(-randn(3, 4)))
case("amax1", lambda a: torch.amax(a, 1), with_ties(randn(3, 4)))
case("amin0", lambda a: torch.amin(a, 0), with_ties(randn(3, 4)))
case("logsumexp1", lambda a: torch.logsumexp(a, 1), randn(3, 4))
case("softmax1", lambda a: torch.softmax(a, 1), randn(3, 4))
case("softmax0", lambda a: torch.softmax(a, 0), randn(3, 4))
case("log_softmax1", lambda a: torch.log_softmax(a, 1), randn(3, 4))
case("var1", lambda a: torch.var(a, 1, correction=1), randn(3, 4))
case("var0_pop", lambda a: torch.var(a, 0, correction=0), randn(3, 4))

# Views and reshapes.
case("t", lambda a: a.t(), randn(3, 4))
case("transpose02", lambda a: a.transpose(0, 2), randn(2, 3, 4))
case("permute201", lambda a: a.permute(2, 0, 1), randn(2, 3, 4))
case("select1", lambda a: a.select(1, 1), randn(3, 4))
case("narrow1", lambda a: a.narrow(1, 1, 2), randn(3, 4))
case("flip0", lambda a: a.flip(0), randn(3, 4))
case("reshape", lambda a: a.reshape(4, 6), randn(2, 3, 4))
case("unsqueeze1", lambda a: a.unsqueeze(1), randn(3, 4))
case("slice_step", lambda a: a[:, 1::2], randn(3, 5))
case("slice_rev", lambda a: a.flip(1)[:, ::2], randn(3, 5))

# Matrix products.
case("matmul_2d", torch.matmul, randn(3, 4), randn(4, 5))
case("matmul_vec_mat", torch.matmul, randn(4), randn(4, 5))
case("matmul_mat_vec", torch.matmul, randn(3, 4), randn(4))
case("matmul_dot", torch.matmul, randn(4), randn(4))
case("matmul_batched", torch.matmul, randn(2, 3, 4), randn(4, 5))
case("matmul_broadcast", torch.matmul, randn(2, 1, 3, 4), randn(5, 4, 2))

# Convolution and pooling.
case("conv2d_pad1", lambda x, w, b: F.conv2d(x, w, b, 1, 1), randn(2, 3, 6, 6), randn(4, 3, 3, 3), randn(4))
case("conv2d_stride2", lambda x, w: F.conv2d(x, w, None, 2, 1), randn(2, 2, 8, 8), randn(3, 2, 3, 3))
case("conv2d_dil2_groups2", lambda x, w, b: F.conv2d(x, w, b, 1, 0, 2, 2), randn(1, 4, 7, 7), randn(6, 2, 3, 3), randn(6))
case("conv2d_depthwise", lambda x, w: F.conv2d(x, w, None, 1, 1, 1, 3), randn(2, 3, 5, 5), randn(3, 1, 3, 3))
case("conv1d", lambda x, w, b: F.conv1d(x, w, b, 2, 1), randn(2, 3, 9), randn(4, 3, 3), randn(4))
case("max_pool2", lambda x: F.max_pool2d(x, 2), randn(2, 3, 6, 6))
case("max_pool3s2p1", lambda x: F.max_pool2d(x, 3, 2, 1), randn(2, 2, 7, 7))
case("avg_pool2", lambda x: F.avg_pool2d(x, 2), randn(2, 3, 6, 6))
case("avg_pool3s2p1_incl", lambda x: F.avg_pool2d(x, 3, 2, 1, count_include_pad=True), randn(2, 2, 7, 7))
case("avg_pool3s2p1_excl", lambda x: F.avg_pool2d(x, 3, 2, 1, count_include_pad=False), randn(2, 2, 7, 7))

# Joins, padding and indexing (the index tensors and masks are fixed here and in the test).
case("cat1", lambda a, b: torch.cat([a, b], 1), randn(2, 3), randn(2, 2))
case("cat_all0", lambda a, b, c: torch.cat([a, b, c], 0), randn(2, 3), randn(1, 3), randn(3, 3))
case("stack0", lambda a, b, c: torch.stack([a, b, c], 0), randn(2, 3), randn(2, 3), randn(2, 3))
case("pad1", lambda a: F.pad(a, (1, 2), value=0.5), randn(2, 3))
case("pad1_reflect", lambda a: F.pad(a.unsqueeze(0), (2, 1), mode="reflect").squeeze(0), randn(2, 4))
case("pad1_replicate", lambda a: F.pad(a.unsqueeze(0), (3, 2), mode="replicate").squeeze(0), randn(2, 3))
case("pad1_circular", lambda a: F.pad(a.unsqueeze(0), (2, 3), mode="circular").squeeze(0), randn(2, 3))
case("index_select1", lambda a: a.index_select(1, torch.tensor([2, 0, 2])), randn(3, 4))
case("gather1", lambda a: a.gather(1, torch.tensor([[0, 0], [1, 3], [2, 2]])), randn(3, 4))
case("adv_index_rows", lambda a: a[torch.tensor([0, 2, 0])], randn(3, 4))
case("adv_index_pairs", lambda a: a[torch.tensor([0, 1, 1, 0]), torch.tensor([2, 0, 0, 2])], randn(3, 4))
case("masked_fill", lambda a: a.masked_fill(torch.tensor([[True, False, False, True]]), 0.5), randn(3, 4))
case("masked_select", lambda a: a.masked_select(torch.tensor([[True, False, False, True]])), randn(3, 4))
case("masked_select_broadcast", lambda a: a.masked_select(torch.tensor([[True], [False], [True]])), randn(4))
case("where", lambda a, b: torch.where(torch.tensor([[True], [False], [True]]), a, b), randn(3, 4), randn(4))

# Linear algebra (well-conditioned matrices: a random one plus 4 I).
eye4 = torch.eye(4, dtype=torch.float64) * 4
case("inv", torch.linalg.inv, randn(4, 4) + eye4)
case("inv_batched", torch.linalg.inv, randn(2, 4, 4) + eye4)
case("solve_mat", torch.linalg.solve, randn(4, 4) + eye4, randn(4, 3))
case("solve_vec", torch.linalg.solve, randn(4, 4) + eye4, randn(4))
case("det", torch.linalg.det, randn(4, 4) + eye4)
case("logabsdet", lambda a: torch.linalg.slogdet(a)[1], randn(4, 4) - eye4)
tri = torch.tril(randn(4, 4)) + eye4
case("solve_triangular_lower", lambda a, b: torch.linalg.solve_triangular(a, b, upper=False), tri, randn(4, 2))
case("solve_triangular_upper_unit", lambda a, b: torch.linalg.solve_triangular(a, b, upper=True, unitriangular=True), tri.t().contiguous(), randn(4, 3))
spd = randn(4, 4)
spd = spd @ spd.t() + eye4
case("cholesky", torch.linalg.cholesky, spd)
case("lstsq_mat", lambda a, b: torch.linalg.lstsq(a, b).solution, randn(6, 3), randn(6, 2))
case("lstsq_vec", lambda a, b: torch.linalg.lstsq(a, b).solution, randn(5, 3), randn(5))

# More reductions and scans, and the rest of the network operations.
case("prod", torch.prod, randn(3, 4))
zx = randn(3, 4)
zx[1, 2] = 0.0
case("prod_one_zero", torch.prod, zx)
zx2 = zx.clone()
zx2[0, 0] = 0.0
case("prod_two_zeros", torch.prod, zx2)
case("std1", lambda a: torch.std(a, 1, correction=1), randn(3, 4))
case("norm", torch.linalg.vector_norm, randn(3, 4))
case("cumsum1", lambda a: torch.cumsum(a, 1), randn(3, 4))
case("cumprod1", lambda a: torch.cumprod(a, 1), randn(3, 4))
zc = randn(4, 5)
zc[0, 2] = 0.0
zc[1, 0] = 0.0
zc[2, 1] = 0.0
zc[2, 3] = 0.0
case("cumprod1_zeros", lambda a: torch.cumprod(a, 1), zc)
case("cumprod0_zeros", lambda a: torch.cumprod(a, 0), zc)
case("conv_transpose2d", lambda x, w, b: F.conv_transpose2d(x, w, b, 2, 1, 1), randn(2, 3, 4, 4), randn(3, 2, 3, 3), randn(2))
case("conv_transpose2d_groups", lambda x, w: F.conv_transpose2d(x, w, None, 1, 0, 0, 2), randn(1, 4, 3, 3), randn(4, 1, 2, 2))
case("adaptive_avg_pool", lambda x: F.adaptive_avg_pool2d(x, (3, 2)), randn(2, 2, 7, 5))

# einsum (the equations in the op name after "einsum:").
case("einsum:ij,jk->ik", lambda a, b: torch.einsum("ij,jk->ik", a, b), randn(2, 3), randn(3, 4))
case("einsum:bij,bjk->bik", lambda a, b: torch.einsum("bij,bjk->bik", a, b), randn(2, 2, 3), randn(2, 3, 2))
case("einsum:ij->j", lambda a: torch.einsum("ij->j", a), randn(3, 4))
case("einsum:ij->", lambda a: torch.einsum("ij->", a), randn(3, 4))
case("einsum:i,i->", lambda a, b: torch.einsum("i,i->", a, b), randn(5), randn(5))
case("einsum:ijk->kji", lambda a: torch.einsum("ijk->kji", a), randn(2, 3, 4))
case("einsum:ij,kj,k->i", lambda a, b, c: torch.einsum("ij,kj,k->i", a, b, c), randn(2, 3), randn(4, 3), randn(4))

# A graph that is a DAG, not a chain: a skip connection and values used several times (the
# branches' gradients must all arrive; dfdx #507 lost one).
case("dag", lambda x, w: (torch.tanh(x @ w) + x) * torch.sigmoid(x) + (x * x).sum(1, keepdim=True), randn(3, 4), randn(4, 4))
# lstsq of a wide matrix: the minimum-norm solution (PyTorch's rule through the pseudo-inverse).
case("lstsq_wide_mat", lambda a, b: torch.linalg.lstsq(a, b).solution, randn(3, 5), randn(3, 2))
case("lstsq_wide_vec", lambda a, b: torch.linalg.lstsq(a, b).solution, randn(2, 4), randn(2))
# einsum with diagonals, `...` and size-1 letters that broadcast.
for eq, shapes in [
    ("ii->i", [(3, 3)]),
    ("ii", [(3, 3)]),
    ("iji->j", [(3, 2, 3)]),
    ("ii,i->i", [(3, 3), (3,)]),
    ("...ij,...jk->...ik", [(2, 3, 4), (4, 2)]),
    ("i...->...", [(3, 2, 2)]),
    ("bij,bjk->bik", [(1, 2, 3), (4, 3, 2)]),
    ("ij,ij->ij", [(3, 1), (3, 4)]),
    ("...i,...i->...", [(2, 1, 3), (4, 3)]),
]:
    case("einsum:" + eq, lambda *xs, e=eq: torch.einsum(e, *xs), *[randn(*sh) for sh in shapes])
# Advanced indexing through a closure that selects (`index_with`), beside the same through `t!`.
case("adv_index_pairs_closure", lambda a: a[torch.tensor([0, 1, 1, 0]), torch.tensor([2, 0, 0, 2])], randn(3, 4))

# The reduction and scan tables' forms that `Var` gained when its forms came to be generated from
# the tensor tables (issue 49): inputs from their own generator, so that the cases above keep
# their data.
g2 = torch.Generator().manual_seed(20261129)


def randn2(*shape):
    return torch.randn(tuple(shape), generator=g2, dtype=torch.float64)


inf = float("inf")
case("sum_whole", torch.sum, randn2(3, 4))
case("mean_whole", torch.mean, randn2(3, 4))
case("sum_keepdim0", lambda a: torch.sum(a, 0, keepdim=True), randn2(3, 4))
nx = randn2(3, 4)
nx[0, 1] = float("nan")
nx[2, 0] = float("nan")
nx[2, 3] = float("nan")
case("nansum1", lambda a: torch.nansum(a, 1), nx)
case("nanmean0", lambda a: torch.nanmean(a, 0), nx)
case("nansum_whole", torch.nansum, nx)
pz = randn2(3, 4)
pz[1, 2] = 0.0
pz[2, 0] = 0.0
pz[2, 3] = 0.0
case("prod1_zeros", lambda a: torch.prod(a, 1), pz)
case("prod_keepdim0", lambda a: torch.prod(a, 0, keepdim=True), randn2(3, 4))
case("amax_keepdim1", lambda a: torch.amax(a, 1, keepdim=True), with_ties(randn2(3, 4)))
case("max_whole", torch.max, with_ties(randn2(3, 4)))
case("min_whole", torch.min, with_ties(randn2(3, 4)))
case("var_whole", torch.var, randn2(3, 4))
case("var_keepdim0", lambda a: torch.var(a, 0, correction=0, keepdim=True), randn2(3, 4))
sz = randn2(3, 4)
sz[1] = 0.5
case("std1_constant_row", lambda a: torch.std(a, 1), sz)
case("std_whole", torch.std, randn2(3, 4))
case("norm_l1_1", lambda a: torch.linalg.vector_norm(a, 1, dim=1), randn2(3, 4))
case("norm_inf_whole", lambda a: torch.linalg.vector_norm(a, inf), with_ties(randn2(3, 4)))
case("norm_inf0", lambda a: torch.linalg.vector_norm(a, inf, dim=0), randn2(3, 4))
case("norm2_keepdim1", lambda a: torch.linalg.vector_norm(a, 2, dim=1, keepdim=True), randn2(3, 4))
case("logsumexp_whole", lambda a: torch.logsumexp(a, (0, 1)), randn2(3, 4))
case("logsumexp_keepdim0", lambda a: torch.logsumexp(a, 0, keepdim=True), randn2(3, 4))
case("logcumsumexp1", lambda a: torch.logcumsumexp(a, 1), randn2(3, 5) * 30)
case("logcumsumexp0", lambda a: torch.logcumsumexp(a, 0), randn2(4, 3))
case("cumsum0", lambda a: torch.cumsum(a, 0), randn2(3, 4))
# The two-input table's entries, with broadcasting, ties and NaN.
ma, mb = randn2(3, 4), randn2(4)
ma[0, 1] = mb[1]
ma[2, 2] = mb[2]
ma[1, 2] = float("nan")
mb[3] = float("nan")
case("maximum_bcast", torch.maximum, ma, mb)
case("minimum_bcast", torch.minimum, ma, mb)
case("pow_tensors", torch.pow, randn2(3, 4).abs() + 0.2, randn2(3, 4))
case("atan2_bcast", torch.atan2, randn2(3, 4), randn2(4))
case("hypot_bcast", torch.hypot, randn2(3, 4), randn2(3, 1))
case("logaddexp_bcast", torch.logaddexp, randn2(3, 4) * 10, randn2(4) * 10)
case("copysign", torch.copysign, randn2(3, 4), randn2(3, 4))
# The view table's entries (each a `Var` form since issue 49).
case("diagonal_offset", lambda a: torch.diagonal(a, 1, 0, 2), randn2(3, 2, 4))
case("movedim02", lambda a: torch.movedim(a, 0, 2), randn2(2, 3, 4))
case("squeeze1", lambda a: torch.squeeze(a, 1), randn2(3, 1, 4))
case("select0", lambda a: torch.select(a, 0, -1), randn2(3, 4))
case("flip01", lambda a: torch.flip(a, (0, 1)), randn2(3, 4))


def lit(v):
    if math.isnan(v):
        return "f64::NAN"
    if math.isinf(v):
        raise ValueError("inputs are finite or NaN")
    r = repr(float(v))
    return r if ("e" in r or "." in r) else r + ".0"


def arr(t):
    t = t.detach().contiguous()
    sizes = ", ".join(str(s) for s in t.shape)
    data = ", ".join(lit(v) for v in t.reshape(-1).tolist())
    return f"(&[{sizes}], &[{data}])"


out = []
out.append("// @generated by scripts/grad_data.py from PyTorch " + torch.__version__ + ": do not edit.")
out.append("// Each case: an operation, its inputs, a seed gradient for its output, the output, and")
out.append("// PyTorch's gradient of each input (torch.autograd.grad(output, inputs, seed)).")
out.append("#![allow(clippy::approx_constant, clippy::excessive_precision, clippy::unreadable_literal)]")
out.append("pub struct Case {")
out.append("    pub op: &'static str,")
out.append("    pub inputs: &'static [(&'static [usize], &'static [f64])],")
out.append("    pub seed: (&'static [usize], &'static [f64]),")
out.append("    pub out: (&'static [usize], &'static [f64]),")
out.append("    pub grads: &'static [(&'static [usize], &'static [f64])],")
out.append("}")
out.append("pub static CASES: &[Case] = &[")
for name, fn, inputs in cases:
    xs = [x.clone().requires_grad_(True) for x in inputs]
    y = fn(*xs)
    seed = torch.randn(tuple(y.shape), generator=g, dtype=torch.float64)
    grads = torch.autograd.grad(y, xs, seed)
    out.append("    Case {")
    out.append(f"        op: {name!r},".replace("'", '"'))
    out.append("        inputs: &[" + ", ".join(arr(x) for x in inputs) + "],")
    out.append(f"        seed: {arr(seed)},")
    out.append(f"        out: {arr(y)},")
    out.append("        grads: &[" + ", ".join(arr(gr) for gr in grads) + "],")
    out.append("    },")
out.append("];")
open("tests/data/grad_data.rs", "w").write("\n".join(out) + "\n")
print(f"wrote tests/data/grad_data.rs: {len(cases)} cases")
