#!/usr/bin/env python3
"""Writes tests/data/optim_more_data.rs: PyTorch's RMSprop and Adagrad trajectories, optimizers
with two parameter groups, clip_grad_value_, and the LinearLR, ExponentialLR, OneCycleLR and
ReduceLROnPlateau schedules, for tests/optim_more.rs (issue 47). The cases of
scripts/optim_data.py (tests/data/optim_data.rs) are left as they are.

* Optimizers: W of shape [2, 3] and B of shape [3] (float64, fixed seed), six steps of fixed
  gradients (scaled per step; B has no gradient at the fourth step, as a parameter whose .grad is
  None). For each configuration of torch.optim.RMSprop / Adagrad (foreach=False, PyTorch's default
  path on the CPU) the parameters after every step are recorded. The `groups` cases put W in the
  first group (the constructor's hyper-parameters) and B in a second group with its own lr and
  weight_decay (`[{"params": [W]}, {"params": [B], "lr": .., "weight_decay": ..}]`); one of them
  also steps a StepLR after every optimizer step, whose base lrs are the groups' own.
* clip_grad_value_: gradients with NaN and infinities, clip values 0.5, 0, -0.3, NaN and inf, in
  float64 and float32 (the clipped values exactly, signed zeros included).
* Schedules: the lrs of every group after 0, 1, 2, ... scheduler.step() calls
  (scheduler.get_last_lr()), and the closed form where PyTorch has one. OneCycleLR with
  cycle_momentum=False (shaped does not cycle the momentum). ReduceLROnPlateau over a fixed series
  of metrics (a NaN among them), with its best, num_bad_epochs and cooldown_counter after each
  step.

Run from the repository root: python3 scripts/optim_more_data.py (needs torch, CPU is enough; CI
reads the committed file and never needs PyTorch).
"""
import math
import torch

g = torch.Generator().manual_seed(20261203)


def randn(*shape):
    return torch.randn(tuple(shape), generator=g, dtype=torch.float64)


W0 = randn(2, 3)
B0 = randn(3)
STEPS = 6
SCALE = [2.0, 0.3, 1.0, 0.05, 0.7, 1.5]
GRADS = []
for s in range(STEPS):
    gw = randn(2, 3) * SCALE[s]
    gb = randn(3) * SCALE[s]
    GRADS.append((gw, None if s == 3 else gb))

# name, optimizer, keyword arguments (PyTorch's names), group 1 (B's lr and weight_decay) or None,
# StepLR (step_size, gamma) stepped after every optimizer step or None.
CONFIGS = [
    ("rmsprop_default", "rmsprop", dict(), None, None),
    ("rmsprop_momentum", "rmsprop", dict(lr=0.01, momentum=0.9), None, None),
    ("rmsprop_centered", "rmsprop", dict(lr=0.005, centered=True), None, None),
    ("rmsprop_centered_momentum_wd", "rmsprop", dict(lr=0.02, alpha=0.9, momentum=0.5, centered=True, weight_decay=0.1), None, None),
    # 1 - alpha >= 0.5: ATen's lerp computes from the other side.
    ("rmsprop_small_alpha_centered", "rmsprop", dict(lr=0.01, alpha=0.3, eps=1e-3, centered=True), None, None),
    ("rmsprop_maximize_wd", "rmsprop", dict(lr=0.01, weight_decay=0.05, maximize=True), None, None),
    ("adagrad_default", "adagrad", dict(), None, None),
    ("adagrad_lr_decay", "adagrad", dict(lr=0.1, lr_decay=0.3), None, None),
    ("adagrad_wd_init", "adagrad", dict(lr=0.05, weight_decay=0.2, initial_accumulator_value=0.5), None, None),
    ("adagrad_maximize_eps", "adagrad", dict(lr=0.1, eps=0.01, maximize=True, lr_decay=0.01), None, None),
    # Two parameter groups: W with the constructor's hyper-parameters, B with its own.
    ("sgd_groups", "sgd", dict(lr=0.05, momentum=0.9, weight_decay=0.01), (0.2, 0.0), None),
    ("sgd_groups_steplr", "sgd", dict(lr=0.1, momentum=0.5, nesterov=True), (0.03, 0.1), (2, 0.5)),
    ("adam_groups", "adam", dict(lr=0.01, weight_decay=0.02), (0.05, 0.3), None),
    ("adamw_groups", "adamw", dict(lr=0.01, amsgrad=True), (0.003, 0.5), None),
    ("rmsprop_groups", "rmsprop", dict(lr=0.01, momentum=0.3, centered=True), (0.002, 0.05), None),
    ("adagrad_groups", "adagrad", dict(lr=0.1, lr_decay=0.1), (0.5, 0.01), None),
]
# Every field of the Rust case: PyTorch's defaults where an optimizer has the field, else unused.
FIELDS = dict(lr=0.0, momentum=0.0, dampening=0.0, nesterov=False, betas=(0.9, 0.999), eps=1e-8, amsgrad=False,
              weight_decay=0.0, maximize=False, alpha=0.99, centered=False, lr_decay=0.0,
              initial_accumulator_value=0.0)
CLASSES = {"sgd": torch.optim.SGD, "adam": torch.optim.Adam, "adamw": torch.optim.AdamW,
           "rmsprop": torch.optim.RMSprop, "adagrad": torch.optim.Adagrad}


def run(kind, kw, group1, steplr):
    w = W0.clone().requires_grad_(True)
    b = B0.clone().requires_grad_(True)
    if group1 is None:
        params = [w, b]
    else:
        params = [{"params": [w]}, {"params": [b], "lr": group1[0], "weight_decay": group1[1]}]
    opt = CLASSES[kind](params, foreach=False, **kw)
    sched = None if steplr is None else torch.optim.lr_scheduler.StepLR(opt, step_size=steplr[0], gamma=steplr[1])
    # The hyper-parameters as PyTorch holds them (its defaults for those not given).
    group = {k: v for k, v in opt.param_groups[0].items() if k != "params"}
    after = []
    for gw, gb in GRADS:
        w.grad = gw.clone()
        b.grad = None if gb is None else gb.clone()
        opt.step()
        if sched is not None:
            sched.step()
        after.append((w.detach().clone(), b.detach().clone()))
    return group, after


def lit(v):
    v = float(v)
    if math.isnan(v):
        return "f64::NAN"
    if math.isinf(v):
        return "f64::INFINITY" if v > 0 else "f64::NEG_INFINITY"
    r = repr(v)
    return r if ("e" in r or "." in r) else r + ".0"


def data(t):
    return "&[" + ", ".join(lit(v) for v in t.detach().contiguous().reshape(-1).tolist()) + "]"


def lits(vs):
    return "&[" + ", ".join(lit(v) for v in vs) + "]"


def opt_lit(x, f):
    return "None" if x is None else f"Some({f(x)})"


out = []
out.append("// @generated by scripts/optim_more_data.py from PyTorch " + torch.__version__ + ": do not edit.")
out.append("// RMSprop and Adagrad trajectories and two-group optimizers (torch.optim, foreach=False) of")
out.append("// W: [2, 3] and B: [3] under fixed gradients, clip_grad_value_ cases, and the LinearLR,")
out.append("// ExponentialLR, OneCycleLR and ReduceLROnPlateau schedules.")
out.append("#![allow(clippy::approx_constant, clippy::excessive_precision, clippy::unreadable_literal, dead_code)]")
out.append("")
out.append("/// W's initial value, [2, 3] row-major.")
out.append(f"pub static W0: &[f64] = {data(W0)};")
out.append("/// B's initial value, [3].")
out.append(f"pub static B0: &[f64] = {data(B0)};")
out.append("/// The gradients of each step: W's, and B's (`None`: B has no gradient at that step).")
out.append("pub static GRADS: &[(&[f64], Option<&[f64]>)] = &[")
for gw, gb in GRADS:
    out.append(f"    ({data(gw)}, " + ("None" if gb is None else f"Some({data(gb)})") + "),")
out.append("];")
out.append("")
out.append("pub struct OptimCase {")
out.append("    /// Names ending in _default give no hyper-parameter: these are PyTorch's defaults.")
out.append("    pub name: &'static str,")
out.append("    /// \"sgd\", \"adam\", \"adamw\", \"rmsprop\" or \"adagrad\".")
out.append("    pub optimizer: &'static str,")
for k, v in FIELDS.items():
    ty = "bool" if isinstance(v, bool) else "(f64, f64)" if isinstance(v, tuple) else "f64"
    out.append(f"    pub {k}: {ty},")
out.append("    /// B in a second group with this (lr, weight_decay); `None`: one group.")
out.append("    pub group1: Option<(f64, f64)>,")
out.append("    /// A StepLR (step_size, gamma) stepped after every optimizer step.")
out.append("    pub step_lr: Option<(usize, f64)>,")
out.append("    /// W and B after each step.")
out.append("    pub after: &'static [(&'static [f64], &'static [f64])],")
out.append("}")
out.append("")
out.append("pub static OPTIM_CASES: &[OptimCase] = &[")
for name, kind, kw, group1, steplr in CONFIGS:
    group, after = run(kind, kw, group1, steplr)
    p = dict(FIELDS)
    p.update({k: group[k] for k in FIELDS if k in group})
    if steplr is not None:
        # The group's lr after the schedule has run; the case needs the initial one.
        p["lr"] = group["initial_lr"]
    out.append("    OptimCase {")
    out.append(f'        name: "{name}",')
    out.append(f'        optimizer: "{kind}",')
    for k, v in FIELDS.items():
        if isinstance(v, bool):
            out.append(f"        {k}: {str(bool(p[k])).lower()},")
        elif isinstance(v, tuple):
            out.append(f"        {k}: ({lit(p[k][0])}, {lit(p[k][1])}),")
        else:
            out.append(f"        {k}: {lit(p[k])},")
    out.append(f"        group1: {opt_lit(group1, lambda x: f'({lit(x[0])}, {lit(x[1])})')},")
    out.append(f"        step_lr: {opt_lit(steplr, lambda x: f'({x[0]}, {lit(x[1])})')},")
    out.append("        after: &[")
    for w, b in after:
        out.append(f"            ({data(w)}, {data(b)}),")
    out.append("        ],")
    out.append("    },")
out.append("];")
out.append("")

# clip_grad_value_ (its default foreach path: clamp_min_(-c) then clamp_max_(c)).
CLIP_GRADS = [1.0, -2.0, 0.1, float("nan"), float("inf"), -float("inf"), 0.4999, -0.5, 3e-8, -7.25]
out.append("/// The gradient that clip_grad_value_ clips in every CLIP_VALUE_CASES case.")
out.append(f"pub static CLIP_GRAD: &[f64] = {lits(CLIP_GRADS)};")
out.append("")
out.append("pub struct ClipValueCase {")
out.append("    /// 32 or 64.")
out.append("    pub bits: u32,")
out.append("    pub clip: f64,")
out.append("    /// The clipped gradient, exactly (as f64).")
out.append("    pub clipped: &'static [f64],")
out.append("}")
out.append("")
out.append("pub static CLIP_VALUE_CASES: &[ClipValueCase] = &[")
for bits, dt in [(64, torch.float64), (32, torch.float32)]:
    for c in [0.5, 0.0, -0.3, float("nan"), float("inf"), 1e-3]:
        p = torch.zeros(len(CLIP_GRADS), dtype=dt, requires_grad=True)
        p.grad = torch.tensor(CLIP_GRADS, dtype=dt)
        torch.nn.utils.clip_grad_value_([p], c)
        out.append(f"    ClipValueCase {{ bits: {bits}, clip: {lit(c)}, clipped: {data(p.grad.double())} }},")
out.append("];")
out.append("")


def lrs_of(opt):
    return [grp["lr"] for grp in opt.param_groups]


def two_groups(lr0, lr1):
    w = torch.zeros(2, requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    params = [{"params": [w]}] if lr1 is None else [{"params": [w]}, {"params": [b], "lr": lr1}]
    return torch.optim.SGD(params, lr=lr0)


def sched_rows(opt, sched, n):
    """get_last_lr() after 0, 1, .., n-1 scheduler steps, and the closed form where there is one."""
    rows, closed = [], []
    for _ in range(n):
        rows.append(list(sched.get_last_lr()))
        if hasattr(sched, "_get_closed_form_lr") and not isinstance(sched, torch.optim.lr_scheduler.OneCycleLR):
            closed.append(sched._get_closed_form_lr()[0])
        opt.step()
        sched.step()
    return rows, closed


def rows_lit(rows):
    return "&[" + ", ".join(lits(r) for r in rows) + "]"


out.append("/// LinearLR(start_factor, end_factor, total_iters) on an SGD with lr base_lr (and a second")
out.append("/// group with lr base_lr1).")
out.append("pub struct LinearCase {")
out.append("    pub base_lr: f64,")
out.append("    pub base_lr1: Option<f64>,")
out.append("    pub start_factor: f64,")
out.append("    pub end_factor: f64,")
out.append("    pub total_iters: usize,")
out.append("    /// get_last_lr() after 0, 1, .. scheduler.step() calls, one lr per group.")
out.append("    pub last_lr: &'static [&'static [f64]],")
out.append("    /// _get_closed_form_lr()[0] at the same epochs.")
out.append("    pub closed: &'static [f64],")
out.append("}")
out.append("")
out.append("pub static LINEAR_CASES: &[LinearCase] = &[")
for base, base1, sf, ef, ti, n in [(0.1, None, 1.0 / 3, 1.0, 5, 12), (0.05, 0.2, 0.1, 1.0, 10, 15),
                                   (0.3, None, 1.0, 0.2, 7, 12), (0.01, 0.001, 0.25, 0.75, 3, 8)]:
    opt = two_groups(base, base1)
    sched = torch.optim.lr_scheduler.LinearLR(opt, start_factor=sf, end_factor=ef, total_iters=ti)
    rows, closed = sched_rows(opt, sched, n)
    out.append(f"    LinearCase {{ base_lr: {lit(base)}, base_lr1: {opt_lit(base1, lit)}, start_factor: {lit(sf)}, "
               f"end_factor: {lit(ef)}, total_iters: {ti}, last_lr: {rows_lit(rows)}, closed: {lits(closed)} }},")
out.append("];")
out.append("")

out.append("/// ExponentialLR(gamma) on an SGD with lr base_lr (and a second group).")
out.append("pub struct ExponentialCase {")
out.append("    pub base_lr: f64,")
out.append("    pub base_lr1: Option<f64>,")
out.append("    pub gamma: f64,")
out.append("    pub last_lr: &'static [&'static [f64]],")
out.append("    pub closed: &'static [f64],")
out.append("}")
out.append("")
out.append("pub static EXPONENTIAL_CASES: &[ExponentialCase] = &[")
for base, base1, gamma, n in [(0.1, None, 0.9, 30), (0.5, 0.05, 0.5, 20), (0.01, None, 1.0, 5), (0.2, None, 0.97, 60)]:
    opt = two_groups(base, base1)
    sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=gamma)
    rows, closed = sched_rows(opt, sched, n)
    out.append(f"    ExponentialCase {{ base_lr: {lit(base)}, base_lr1: {opt_lit(base1, lit)}, gamma: {lit(gamma)}, "
               f"last_lr: {rows_lit(rows)}, closed: {lits(closed)} }},")
out.append("];")
out.append("")

out.append("/// OneCycleLR(max_lr, total_steps, pct_start, anneal_strategy, div_factor, final_div_factor,")
out.append("/// three_phase, cycle_momentum=False) over all total_steps + 1 lrs (the last one is")
out.append("/// step total_steps, the furthest PyTorch goes), on an SGD whose own lr is ignored.")
out.append("pub struct OneCycleCase {")
out.append("    pub max_lr: f64,")
out.append("    pub total_steps: usize,")
out.append("    pub pct_start: f64,")
out.append("    /// \"cos\" or \"linear\".")
out.append("    pub anneal: &'static str,")
out.append("    pub div_factor: f64,")
out.append("    pub final_div_factor: f64,")
out.append("    pub three_phase: bool,")
out.append("    /// Two groups (both follow max_lr).")
out.append("    pub two_groups: bool,")
out.append("    pub last_lr: &'static [&'static [f64]],")
out.append("}")
out.append("")
out.append("pub static ONECYCLE_CASES: &[OneCycleCase] = &[")
for max_lr, total, pct, anneal, div, fdiv, three, grouped in [
    (0.1, 20, 0.3, "cos", 25.0, 1e4, False, False),
    (0.01, 100, 0.25, "cos", 25.0, 1e4, False, True),
    (1.0, 17, 0.4, "linear", 10.0, 100.0, False, False),
    (0.05, 30, 0.3, "cos", 25.0, 1e4, True, False),
    (0.2, 11, 0.5, "linear", 4.0, 1e3, True, True),
    (0.003, 7, 0.3, "cos", 25.0, 1e4, False, False),
]:
    opt = two_groups(0.123, 0.456 if grouped else None)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=max_lr, total_steps=total, pct_start=pct,
                                                anneal_strategy=anneal, div_factor=div, final_div_factor=fdiv,
                                                three_phase=three, cycle_momentum=False)
    rows, _ = sched_rows(opt, sched, total)
    rows.append(list(sched.get_last_lr()))  # step total_steps: the last PyTorch allows
    out.append(f"    OneCycleCase {{ max_lr: {lit(max_lr)}, total_steps: {total}, pct_start: {lit(pct)}, "
               f'anneal: "{anneal}", div_factor: {lit(div)}, final_div_factor: {lit(fdiv)}, '
               f"three_phase: {str(three).lower()}, two_groups: {str(grouped).lower()}, last_lr: {rows_lit(rows)} }},")
out.append("];")
out.append("")

METRICS = [1.0, 0.9, 0.95, 0.95, 0.96, 0.97, 0.899, 0.8999, 0.9, 0.9, 0.9, 0.5, 0.5, 0.5, float("nan"), 0.5,
           0.5, 0.49995, 0.49, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.1, 0.2, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3,
           0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3]
out.append("/// The metric of every ReduceLROnPlateau step.")
out.append(f"pub static PLATEAU_METRICS: &[f64] = {lits(METRICS)};")
out.append("")
out.append("/// ReduceLROnPlateau on an SGD with groups of lr base_lr and base_lr1.")
out.append("pub struct PlateauCase {")
out.append("    /// \"min\" or \"max\".")
out.append("    pub mode: &'static str,")
out.append("    pub factor: f64,")
out.append("    pub patience: usize,")
out.append("    pub threshold: f64,")
out.append("    /// \"rel\" or \"abs\".")
out.append("    pub threshold_mode: &'static str,")
out.append("    pub cooldown: usize,")
out.append("    pub min_lr: f64,")
out.append("    pub eps: f64,")
out.append("    pub base_lr: f64,")
out.append("    pub base_lr1: f64,")
out.append("    /// Whether the metrics are negated (for mode max).")
out.append("    pub negate: bool,")
out.append("    /// After each step: the lrs of the groups, best, num_bad_epochs, cooldown_counter.")
out.append("    pub after: &'static [(&'static [f64], f64, usize, usize)],")
out.append("}")
out.append("")
out.append("pub static PLATEAU_CASES: &[PlateauCase] = &[")
for mode, factor, patience, threshold, tmode, cooldown, min_lr, eps, base, base1, negate in [
    ("min", 0.1, 10, 1e-4, "rel", 0, 0.0, 1e-8, 0.1, 0.01, False),
    ("min", 0.5, 2, 1e-4, "rel", 0, 0.0, 1e-8, 0.1, 0.01, False),
    ("min", 0.5, 1, 0.01, "abs", 2, 0.02, 1e-8, 0.1, 0.03, False),
    ("max", 0.3, 1, 1e-3, "rel", 1, 0.0, 1e-8, 1.0, 0.5, True),
    ("max", 0.7, 0, 0.05, "abs", 0, 1e-3, 1e-2, 0.05, 0.02, True),
    ("min", 0.9, 0, 0.0, "rel", 0, 0.0, 1e-3, 0.01, 1.0, False),
]:
    opt = two_groups(base, base1)
    sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode=mode, factor=factor, patience=patience,
                                                       threshold=threshold, threshold_mode=tmode,
                                                       cooldown=cooldown, min_lr=min_lr, eps=eps)
    rows = []
    for m in METRICS:
        opt.step()
        sched.step(-m if negate else m)
        rows.append(f"({lits(lrs_of(opt))}, {lit(sched.best)}, {sched.num_bad_epochs}, {sched.cooldown_counter})")
    out.append(f'    PlateauCase {{ mode: "{mode}", factor: {lit(factor)}, patience: {patience}, threshold: {lit(threshold)}, '
               f'threshold_mode: "{tmode}", cooldown: {cooldown}, min_lr: {lit(min_lr)}, eps: {lit(eps)}, '
               f"base_lr: {lit(base)}, base_lr1: {lit(base1)}, negate: {str(negate).lower()}, after: &[{', '.join(rows)}] }},")
out.append("];")

open("tests/data/optim_more_data.rs", "w").write("\n".join(out) + "\n")
print(f"wrote tests/data/optim_more_data.rs: {len(CONFIGS)} optimizer cases, 12 clip_grad_value_ cases, "
      "4 LinearLR, 4 ExponentialLR, 6 OneCycleLR and 6 ReduceLROnPlateau cases")
