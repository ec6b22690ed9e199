//! shaped's backward rules against PyTorch's gradients (tests/data/grad_data.rs, written by
//! scripts/grad_data.py): every case runs in f64 (to 1e-10 relative) and in f32 (to 2e-4).
use shaped::autograd::{GradFloat, Tape, Var};
use shaped::prelude::*;
use shaped::{ConvT, PadMode};

#[path = "data/grad_data.rs"]
mod grad_data;
use grad_data::{Case, CASES};
#[path = "data/trust_data.rs"]
mod trust_data;

type V<'t, T> = Var<'t, T, DynShape>;

/// Any value as a runtime-shaped one.
fn d<'t, T: GradFloat, S: Shape>(v: Var<'t, T, S>) -> V<'t, T> {
    v.try_cast_shape::<DynShape>().unwrap()
}

fn k<T: GradFloat>(v: f64) -> T {
    T::from_f64(v)
}

/// The runtime-axis form of an axis operation (`None` for the others).
fn apply_dyn<'t, T: GradFloat>(op: &str, a: &V<'t, T>) -> Option<V<'t, T>> {
    Some(match op {
        "sum_axis1" => a.sum_axis(1),
        "mean_axis0" => a.mean_axis(0),
        "sum_keepdim1" => a.sum_keepdim(-1),
        "mean_keepdim0" => a.mean_keepdim(-2),
        "amax1" => a.max_axis(1),
        "amin0" => a.min_axis(0),
        "logsumexp1" => a.logsumexp_axis(1),
        "softmax1" => a.softmax(1),
        "softmax0" => a.softmax(0),
        "log_softmax1" => a.log_softmax(-1),
        "var1" => a.var_axis(1, 1),
        "var0_pop" => a.var_axis(0, 0),
        "transpose02" => a.transpose(0, 2),
        "permute201" => a.permute([2, 0, 1]),
        "sum_keepdim0" => a.sum_keepdim(0),
        "nansum1" => a.nansum_axis(1),
        "nanmean0" => a.nanmean_axis(0),
        "prod1_zeros" => a.prod_axis(1),
        "prod_keepdim0" => a.prod_keepdim(0),
        "amax_keepdim1" => a.max_keepdim(1),
        "var_keepdim0" => a.var_keepdim(0, 0),
        "std1_constant_row" => a.std_axis(1, 1),
        "norm_l1_1" => a.norm_axis(1, Norm::L1),
        "norm_inf0" => a.norm_axis(0, Norm::Inf),
        "norm2_keepdim1" => a.norm_keepdim(-1, Norm::L2),
        "logsumexp_keepdim0" => a.logsumexp_keepdim(0),
        "logcumsumexp1" => a.logcumsumexp(1),
        "logcumsumexp0" => a.logcumsumexp(-2),
        "cumsum0" => a.cumsum(0),
        "cumprod1" => a.cumprod(1),
        "diagonal_offset" => a.diagonal(1, 0, -1),
        "movedim02" => a.movedim(0, 2),
        "squeeze1" => a.squeeze(1),
        "narrow1" => a.narrow(1, 1, 2),
        "select0" => a.select(0, -1),
        _ => return None,
    })
}

fn apply<'t, T: GradFloat>(op: &str, x: &[V<'t, T>]) -> V<'t, T> {
    let a = &x[0];
    match op {
        "exp" => a.exp(),
        "ln" => a.ln(),
        "sqrt" => a.sqrt(),
        "tanh" => a.tanh(),
        "sigmoid" => a.sigmoid(),
        "relu" => a.relu(),
        "gelu" => a.gelu(),
        "gelu_tanh" => a.gelu_tanh(),
        "silu" => a.silu(),
        "softplus" => a.softplus(),
        "sin" => a.sin(),
        "cos" => a.cos(),
        "tan" => a.tan(),
        "abs" => a.abs(),
        "powf" => a.powf(k(2.5)),
        "powi" => a.powi(3),
        "clamp" => a.clamp(k(-0.5), k(0.5)),
        "erf" => a.erf(),
        "erfc" => a.erfc(),
        "log_sigmoid" => a.log_sigmoid(),
        "leaky_relu" => a.leaky_relu(k(0.1)),
        "elu" => a.elu(k(1.0)),
        "selu" => a.selu(),
        "hardtanh" => a.hardtanh(k(-0.5), k(0.5)),
        "softsign" => a.softsign(),
        "square" => a.square(),
        "recip" => a.recip(),
        "rsqrt" => a.rsqrt(),
        "neg" => -a,
        "exp2" => a.exp2(),
        "exp_m1" => a.exp_m1(),
        "ln_1p" => a.ln_1p(),
        "log2" => a.log2(),
        "log10" => a.log10(),
        "asin" => a.asin(),
        "acos" => a.acos(),
        "atan" => a.atan(),
        "sinh" => a.sinh(),
        "cosh" => a.cosh(),
        "asinh" => a.asinh(),
        "acosh" => a.acosh(),
        "atanh" => a.atanh(),
        "mul_scalar" => a.mul_scalar(k(2.5)),
        "rdiv_scalar" => a.rdiv_scalar(k(2.0)),
        "add" => a + &x[1],
        "sub" => a - &x[1],
        "mul" => a * &x[1],
        "div" => a / &x[1],
        "maximum" => a.maximum(&x[1]),
        "minimum" => a.minimum(&x[1]),
        "sum" => d(a.sum()),
        "mean" => d(a.mean()),
        "sum_axis1" => a.sum_axis(Ax::<1>),
        "mean_axis0" => a.mean_axis(Ax::<0>),
        "sum_keepdim1" => a.sum_keepdim(Ax::<1>),
        "mean_keepdim0" => a.mean_keepdim(Ax::<0>),
        "max" => d(a.max()),
        "min" => d(a.min()),
        "amax1" => a.max_axis(Ax::<1>),
        "amin0" => a.min_axis(Ax::<0>),
        "logsumexp1" => a.logsumexp_axis(Ax::<1>),
        "softmax1" => a.softmax(Ax::<1>),
        "softmax0" => a.softmax(Ax::<0>),
        "log_softmax1" => a.log_softmax(Ax::<1>),
        "var1" => a.var_axis(Ax::<1>, 1),
        "var0_pop" => a.var_axis(Ax::<0>, 0),
        "t" => a.t(),
        "transpose02" => a.transpose(Ax::<0>, Ax::<2>),
        "permute201" => a.view_with(|v| v.permute([2, 0, 1])),
        "select1" => a.select(Ax::<1>, 1),
        "narrow1" => a.narrow(Ax::<1>, 1, 2),
        "flip0" => a.flip(Ax::<0>),
        "reshape" => d(a.reshape::<Shape![4, 6]>()),
        "unsqueeze1" => a.unsqueeze(Ax::<1>),
        // `t!` on a tracked value directly (runtime sizes: the loose rules).
        "slice_step" => t!(a[.., 1..;2]),
        "slice_rev" => t!(a[.., ..;-2]),
        "matmul_2d" | "matmul_vec_mat" | "matmul_mat_vec" | "matmul_dot" | "matmul_batched" | "matmul_broadcast" => {
            a.matmul(&x[1])
        }
        "conv2d_pad1" => a.conv2d(&x[1], &x[2], Conv::<1, 1>),
        "conv2d_stride2" => a.conv2d(&x[1], NoBias, Conv::<2, 1>),
        "conv2d_dil2_groups2" => a.conv2d(&x[1], &x[2], Conv::<1, 0, 2, 2>),
        "conv2d_depthwise" => a.conv2d(&x[1], NoBias, Conv::<1, 1, 1, 3>),
        "conv1d" => a.conv1d(&x[1], &x[2], Conv::<2, 1>),
        "max_pool2" => a.max_pool2d(Pool::<2>),
        "max_pool3s2p1" => a.max_pool2d(Pool::<3, 2, 1>),
        "avg_pool2" => a.avg_pool2d(Pool::<2>, true),
        "avg_pool3s2p1_incl" => a.avg_pool2d(Pool::<3, 2, 1>, true),
        "avg_pool3s2p1_excl" => a.avg_pool2d(Pool::<3, 2, 1>, false),
        "cat1" => a.cat(&x[1], Ax::<1>),
        "cat_all0" => V::cat_all(&[&x[0], &x[1], &x[2]], Ax::<0>),
        "stack0" => d(V::stack([&x[0], &x[1], &x[2]], Ax::<0>)),
        "pad1" => a.pad((Const::<1>, Const::<2>), Ax::<1>, PadMode::Constant, k(0.5)),
        "pad1_reflect" => a.pad((Const::<2>, Const::<1>), Ax::<1>, PadMode::Reflect, k(0.0)),
        "pad1_replicate" => a.pad((Const::<3>, Const::<2>), Ax::<1>, PadMode::Replicate, k(0.0)),
        "pad1_circular" => a.pad((Const::<2>, Const::<3>), Ax::<1>, PadMode::Circular, k(0.0)),
        "index_select1" => a.index_select(Ax::<1>, &Tensor::<i64, Shape![_]>::from_vec(&[3], vec![2, 0, 2])),
        "gather1" => a.gather(Ax::<1>, &Tensor::<i64, DynShape>::from_vec(&[3, 2], vec![0, 0, 1, 3, 2, 2])),
        "masked_fill" => {
            a.masked_fill(&Tensor::<bool, DynShape>::from_vec(&[1, 4], vec![true, false, false, true]), k(0.5))
        }
        "where" => a.where_(&Tensor::<bool, DynShape>::from_vec(&[3, 1], vec![true, false, true]), &x[1]),
        "dag" => {
            let h = &a.matmul(&x[1]).tanh() + a;
            let q = &h * &a.sigmoid();
            &q + &(a * a).sum_keepdim(Ax::<1>)
        }
        "inv" | "inv_batched" => a.inv(),
        "solve_mat" | "solve_vec" => a.solve(&x[1]),
        "det" => d(a.cast_shape::<Shape![_, _]>().det()),
        "logabsdet" => d(a.cast_shape::<Shape![_, _]>().logabsdet()),
        "prod" | "prod_one_zero" | "prod_two_zeros" => d(a.prod()),
        "std1" => a.std_axis(Ax::<1>, 1),
        "norm" => d(a.norm(Norm::L2)),
        "cumsum1" => a.cumsum(Ax::<1>),
        "sum_whole" => d(a.sum()),
        "mean_whole" => d(a.mean()),
        "sum_keepdim0" => a.sum_keepdim(Ax::<0>),
        "nansum1" => a.nansum_axis(Ax::<1>),
        "nanmean0" => a.nanmean_axis(Ax::<0>),
        "nansum_whole" => d(a.nansum()),
        "prod1_zeros" => a.prod_axis(Ax::<1>),
        "prod_keepdim0" => a.prod_keepdim(Ax::<0>),
        "amax_keepdim1" => a.max_keepdim(Ax::<1>),
        "max_whole" => d(a.max()),
        "min_whole" => d(a.min()),
        "var_whole" => d(a.var(1)),
        "var_keepdim0" => a.var_keepdim(Ax::<0>, 0),
        "std1_constant_row" => a.std_axis(Ax::<1>, 1),
        "std_whole" => d(a.std(1)),
        "norm_l1_1" => a.norm_axis(Ax::<1>, Norm::L1),
        "norm_inf_whole" => d(a.norm(Norm::Inf)),
        "norm_inf0" => a.norm_axis(Ax::<0>, Norm::Inf),
        "norm2_keepdim1" => a.norm_keepdim(Ax::<1>, Norm::L2),
        "logsumexp_whole" => d(a.logsumexp()),
        "logsumexp_keepdim0" => a.logsumexp_keepdim(Ax::<0>),
        "logcumsumexp1" => a.logcumsumexp(Ax::<1>),
        "logcumsumexp0" => a.logcumsumexp(Ax::<0>),
        "cumsum0" => a.cumsum(Ax::<0>),
        "maximum_bcast" => a.maximum(&x[1]),
        "minimum_bcast" => a.minimum(&x[1]),
        "pow_tensors" => a.pow(&x[1]),
        "atan2_bcast" => a.atan2(&x[1]),
        "hypot_bcast" => a.hypot(&x[1]),
        "logaddexp_bcast" => a.logaddexp(&x[1]),
        "copysign" => a.copysign(&x[1]),
        "diagonal_offset" => a.diagonal(1, Ax::<0>, Ax::<2>),
        "movedim02" => a.movedim(Ax::<0>, Ax::<2>),
        "squeeze1" => a.squeeze(Ax::<1>),
        "select0" => a.select(Ax::<0>, -1),
        "flip01" => a.flip_dyn(&[0, 1]),
        "cumprod1" | "cumprod1_zeros" => a.cumprod(Ax::<1>),
        "cumprod0_zeros" => a.cumprod(Ax::<0>),
        "conv_transpose2d" => a.conv_transpose2d(&x[1], &x[2], ConvT::<2, 1, 1>),
        "conv_transpose2d_groups" => a.conv_transpose2d(&x[1], NoBias, ConvT::<1, 0, 0, 1, 2>),
        "adaptive_avg_pool" => a.adaptive_avg_pool2d::<3, 2>(),
        "solve_triangular_lower" => a.solve_triangular(&x[1], false, false),
        "solve_triangular_upper_unit" => a.solve_triangular(&x[1], true, true),
        "cholesky" | "cholesky_batch_issue" | "cholesky_batch3" | "cholesky_batch2x2" => a.cholesky(),
        "solve_batch_vec"
        | "solve_batch_vec_b4"
        | "solve_broadcast_a"
        | "solve_broadcast_b"
        | "solve_vec_batched_a" => a.solve(&x[1]),
        "solve_triangular_batch_vec" | "solve_triangular_unbatched_a" => a.solve_triangular(&x[1], false, false),
        "lstsq_batch_vec" => a.lstsq(&x[1]),
        "inv_batch3_of_2" => a.inv(),
        "lstsq_mat" | "lstsq_vec" | "lstsq_wide_mat" | "lstsq_wide_vec" => a.lstsq(&x[1]),
        op if op.starts_with("einsum:") => {
            let refs: Vec<&V<'t, T>> = x.iter().collect();
            shaped::autograd::einsum(&op["einsum:".len()..], &refs)
        }
        "masked_select" => {
            d(a.masked_select(&Tensor::<bool, DynShape>::from_vec(&[1, 4], vec![true, false, false, true])))
        }
        "masked_select_broadcast" => {
            d(a.masked_select(&Tensor::<bool, DynShape>::from_vec(&[3, 1], vec![true, false, true])))
        }
        "adv_index_rows" => {
            let rows: Tensor<i64, Shape![3]> = Tensor::from([0, 2, 0]);
            t!(a[&rows])
        }
        "adv_index_pairs" => {
            let (r, c): (Tensor<i64, Shape![4]>, Tensor<i64, Shape![4]>) = ([0, 1, 1, 0].into(), [2, 0, 0, 2].into());
            t!(a[&r, &c])
        }
        // The same pairs through `index_with` (a closure that selects).
        "adv_index_pairs_closure" => a.index_with(|v| {
            let (r, c) = (Tensor::<i64, Shape![4]>::from([0, 1, 1, 0]), Tensor::<i64, Shape![4]>::from([2, 0, 0, 2]));
            let flat = v.reshape_dyn(&[-1]).to_owned();
            let at = &(&r * 4) + &c; // row-major positions of a [3, 4] value
            flat.index_select(0, &at)
        }),
        other => panic!("no such op in the test: {other}"),
    }
}

fn close(got: &[f64], want: &[f64], rtol: f64, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let tol = rtol * (1.0 + w.abs());
        let same_nan = g.is_nan() && w.is_nan();
        assert!(same_nan || (g - w).abs() <= tol, "{what}[{i}]: shaped {g}, PyTorch {w} (tolerance {tol})");
    }
}

fn run_case<T: GradFloat>(case: &Case, rtol: f64) {
    run_case_with::<T>(case, rtol, false);
    run_case_with::<T>(case, rtol, true);
}

/// One case, through the typed form or (`runtime_axis`) the runtime-axis form where it has one.
fn run_case_with<T: GradFloat>(case: &Case, rtol: f64, runtime_axis: bool) {
    let tape = Tape::<T>::new();
    let xs: Vec<V<'_, T>> = case
        .inputs
        .iter()
        .map(|(sizes, data)| {
            tape.var(Tensor::<T, DynShape>::from_vec(sizes, data.iter().map(|&v| k::<T>(v)).collect()))
        })
        .collect();
    let y = if runtime_axis {
        match apply_dyn(case.op, &xs[0]) {
            Some(y) => y,
            None => return,
        }
    } else {
        apply(case.op, &xs)
    };
    assert_eq!(y.sizes(), case.out.0, "{}: output sizes", case.op);
    let to64 = |v: &[T]| v.iter().map(|x| x.as_f64()).collect::<Vec<_>>();
    close(&to64(&y.value().to_vec()), case.out.1, rtol, &format!("{} output", case.op));
    let seed = Tensor::<T, DynShape>::from_vec(case.seed.0, case.seed.1.iter().map(|&v| k::<T>(v)).collect());
    let grads = y.backward_with(&seed);
    for (i, (x, (sizes, want))) in xs.iter().zip(case.grads).enumerate() {
        let g = grads.wrt(x).unwrap_or_else(|| panic!("{}: no gradient for input {i}", case.op));
        assert_eq!(g.sizes(), *sizes, "{}: gradient {i} sizes", case.op);
        close(&to64(&g.to_vec()), want, rtol, &format!("{} gradient {i}", case.op));
    }
}

#[test]
fn every_case_matches_pytorch_in_f64() {
    for case in CASES {
        run_case::<f64>(case, 1e-10);
    }
}

#[test]
fn every_case_matches_pytorch_in_f32() {
    for case in CASES {
        run_case::<f32>(case, 2e-4);
    }
}

/// Batched linear algebra (issue 46: the batched cholesky rule solved against an unbatched
/// identity; solve, solve_triangular and lstsq took a batch of vectors for matrices), against
/// PyTorch (tests/data/trust_data.rs, scripts/trust_data.py).
#[test]
fn batched_linear_algebra_matches_pytorch() {
    for case in trust_data::CASES {
        run_case_with::<f64>(case, 1e-10, false);
        run_case_with::<f32>(case, 2e-4, false);
    }
}

/// Equal, with NaN equal to NaN and infinities compared exactly.
fn same(got: f64, want: f64, rtol: f64) -> bool {
    (got.is_nan() && want.is_nan()) || got == want || (got - want).abs() <= rtol * (1.0 + want.abs())
}

/// Element-wise functions at their edges (bounds, ±0, ±inf, NaN): PyTorch's value and gradient
/// (issue 46: clamp's gradient at a bound, relu's at NaN).
#[test]
fn edges_match_pytorch() {
    fn run<T: GradFloat>(rtol: f64) {
        for e in trust_data::EDGES {
            let tape = Tape::<T>::new();
            let x = tape.var(Tensor::<T, DynShape>::from_vec(&[e.x.len()], e.x.iter().map(|&v| k::<T>(v)).collect()));
            let y = match e.op {
                "clamp" => x.clamp(k(-0.5), k(0.5)),
                "hardtanh" => x.hardtanh(k(-0.5), k(0.5)),
                "leaky_relu" => x.leaky_relu(k(0.1)),
                "elu" => x.elu(k(1.0)),
                op => apply(op, core::slice::from_ref(&x)),
            };
            let g = y.sum().backward();
            let g = g.wrt(&x).unwrap().to_vec();
            for (i, &xi) in e.x.iter().enumerate() {
                let (yv, gv) = (y.value().to_vec()[i].as_f64(), g[i].as_f64());
                assert!(same(yv, e.y[i], rtol), "{}({xi}): shaped {yv}, PyTorch {}", e.op, e.y[i]);
                assert!(same(gv, e.grad[i], rtol), "{}'({xi}): shaped {gv}, PyTorch {}", e.op, e.grad[i]);
            }
        }
    }
    run::<f64>(1e-12);
    run::<f32>(1e-6);
}

/// `Grads::clip_norm` against `nn.utils.clip_grad_norm_` (issue 46: a NaN norm left the
/// gradients unscaled; PyTorch makes them NaN).
#[test]
fn clip_norm_matches_pytorch() {
    use shaped::autograd::Param;
    for c in trust_data::CLIPS {
        let p0 = Param::new(Tensor::<f64, Shape![2]>::zeros());
        let p1 = Param::new(Tensor::<f64, Shape![2]>::zeros());
        let tape = Tape::<f64>::new();
        let (v0, v1) = (tape.watch(&p0), tape.watch(&p1));
        // A loss whose gradients are the case's: sum(g0 * p0) + sum(g1 * p1).
        let g0 = Var::constant(Tensor::<f64, Shape![2]>::from([c.grads[0][0], c.grads[0][1]]));
        let g1 = Var::constant(Tensor::<f64, Shape![2]>::from([c.grads[1][0], c.grads[1][1]]));
        let loss = &(&v0 * &g0).sum() + &(&v1 * &g1).sum();
        let mut grads = loss.backward();
        let norm = grads.clip_norm(c.max_norm);
        assert!(same(norm, c.norm, 1e-12), "norm of {:?}: shaped {norm}, PyTorch {}", c.grads, c.norm);
        for (p, want) in [(&p0, c.after[0]), (&p1, c.after[1])] {
            let got = grads.param(p).unwrap().to_vec();
            for (g, w) in got.iter().zip(want) {
                assert!(same(*g, *w, 1e-12), "clip of {:?}: shaped {got:?}, PyTorch {want:?}", c.grads);
            }
        }
    }
}
