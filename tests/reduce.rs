//! Reductions against NumPy (tests/data/reduce.rs, from scripts/reduce_data.py), on contiguous
//! tensors, strided views and inline tensors; accuracy of float sums on every path; integer sums
//! and products that never wrap; NaN and empty-reduction rules.
#![allow(clippy::approx_constant, clippy::bool_assert_comparison)]
mod common;
use proptest::prelude::*;
use shaped::prelude::*;

#[path = "data/reduce.rs"]
mod data;

fn close(got: &[f64], want: &[f64], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() <= 1e-9 * (1.0 + w.abs()), "{what}: got {got:?}, want {want:?}");
    }
}

/// Runs reduction `op` over `axis` (-1: all) of `x` through the dynamic API.
fn run<D: shaped::Data<Elem = f64>>(x: &shaped::TensorBase<D, DynShape>, op: &str, axis: i32) -> Vec<f64> {
    macro_rules! go {
        ($whole:ident, $ax:ident $(, $p:expr)?) => {
            if axis < 0 { vec![x.$whole($($p)?) as f64] } else { x.$ax(axis as isize $(, $p)?).to_vec().into_iter().map(|v| v as f64).collect() }
        };
    }
    match op {
        "sum" => go!(sum, sum_axis),
        "mean" => go!(mean, mean_axis),
        "prod" => go!(prod, prod_axis),
        "max" => go!(max, max_axis),
        "min" => go!(min, min_axis),
        "argmax" => go!(argmax, argmax_axis),
        "argmin" => go!(argmin, argmin_axis),
        "var1" => go!(var, var_axis, 1),
        "var0" => go!(var, var_axis, 0),
        "std1" => go!(std, std_axis, 1),
        "l1" => go!(norm, norm_axis, Norm::L1),
        "l2" => go!(norm, norm_axis, Norm::L2),
        "linf" => go!(norm, norm_axis, Norm::Inf),
        "logsumexp" => go!(logsumexp, logsumexp_axis),
        "count_nonzero" => go!(count_nonzero, count_nonzero_axis),
        _ => unreachable!("{op}"),
    }
}

#[test]
fn every_reduction_matches_numpy_contiguous_and_strided() {
    let x: Tensor<f64, DynShape> = Tensor::<f64, Shape![3, 4, 5]>::from_vec(&[3, 4, 5], data::X.to_vec()).into_dyn();
    // The same values behind a permuted, reversed layout: [5, 3, 4] strided, reversed along 0,
    // then permuted back to [3, 4, 5] logical order through a copy-free view chain.
    let rev = {
        let mut buf = vec![0.0; 60];
        for i in 0..3 {
            for j in 0..4 {
                for k in 0..5 {
                    buf[(4 - k) * 12 + i * 4 + j] = data::X[i * 20 + j * 5 + k];
                }
            }
        }
        Tensor::<f64, Shape![5, 3, 4]>::from_vec(&[5, 3, 4], buf).into_dyn()
    };
    let strided = rev.try_flip_dyn(&[0]).unwrap().try_permute_dyn(&[1, 2, 0]).unwrap();
    assert!(!strided.is_contiguous());
    for &(op, axis, want) in data::CASES {
        close(&run(&x, op, axis), want, &format!("{op} axis {axis}"));
        close(&run(&strided, op, axis), want, &format!("{op} axis {axis} (strided)"));
    }
}

#[test]
fn static_axis_and_keepdim_forms_have_typed_results() {
    let x = Tensor::<f64, Shape![3, 4, 5]>::from_vec(&[3, 4, 5], data::X.to_vec());
    let want = |op: &str, axis: i32| data::CASES.iter().find(|c| c.0 == op && c.1 == axis).unwrap().2;
    let m: Tensor<f64, Shape![3, 5]> = x.max_axis(Ax::<1>);
    close(&m.to_vec(), want("max", 1), "max_axis::<1>");
    let a: Tensor<i64, Shape![3, 4]> = x.argmin_axis(Ax::<-1>);
    close(&a.to_vec().iter().map(|&v| v as f64).collect::<Vec<_>>(), want("argmin", 2), "argmin_axis::<-1>");
    let s: Tensor<f64, Shape![1, 4, 5]> = x.std_keepdim(Ax::<0>, 1);
    close(&s.to_vec(), want("std1", 0), "std_keepdim::<0>");
    let l: Tensor<f64, Shape![3, 4, 1]> = x.logsumexp_keepdim(Ax::<2>);
    close(&l.to_vec(), want("logsumexp", 2), "logsumexp_keepdim::<2>");
    // keepdim results broadcast back: softmax-style normalisation type-checks for every size.
    let p = (&x - &l).exp_sum_check();
    assert!((p - 12.0).abs() < 1e-9, "each of the 12 rows sums to 1: {p}");
    assert_eq!(x.try_sum_axis(3).unwrap_err().to_string(), x.try_sum_axis(3).unwrap_err().to_string());
    assert!(matches!(x.try_max_axis(-4), Err(ShapeError::Axis { .. })));
    let k = x.var_keepdim(1, 0);
    assert_eq!(k.sizes(), &[3, 1, 5]);
    close(&k.to_vec(), want("var0", 1), "var_keepdim_dyn");
}

/// `sum(exp(v))` over every element, through a `map` (exp lands with the element-wise functions).
trait ExpSum {
    fn exp_sum_check(&self) -> f64;
}
impl ExpSum for Tensor<f64, Shape![3, 4, 5]> {
    fn exp_sum_check(&self) -> f64 {
        self.map(f64::exp).sum()
    }
}

#[test]
fn inline_reductions_match_heap_ones() {
    let v: [[f32; 4]; 3] = [[1., -2., 3.5, 0.], [4., 4., -1., 2.], [0.5, 9., -3., 1.]];
    let s = stensor(v);
    let h = Tensor::<f32, Shape![3, 4]>::from(v);
    let a: STensor<f32, Shape![4]> = s.max_axis(Ax::<0>);
    assert_eq!(a.to_vec(), h.max_axis(Ax::<0>).to_vec());
    assert_eq!(a.to_vec(), vec![4., 9., 3.5, 2.]);
    let i: STensor<i64, Shape![3]> = s.argmax_axis(Ax::<1>);
    assert_eq!(i.to_vec(), vec![2, 0, 1]);
    assert_eq!(s.sum(), 19.0);
    assert_eq!(s.mean_keepdim(Ax::<1>).to_vec(), h.mean_keepdim(Ax::<1>).to_vec());
    assert_eq!(s.var_axis(Ax::<1>, 1).to_vec(), h.var_axis(Ax::<1>, 1).to_vec());
    assert_eq!(s.norm(Norm::Inf), 9.0);
    assert_eq!(s.count_nonzero(), 11);
    assert_eq!(s.t().sum_axis(Ax::<0>).to_vec(), vec![2.5, 9., 7.5]);
}

#[test]
fn float_sums_are_accurate_on_every_path() {
    // 10^7 copies of 0.1f32 read through a strided view (every other element): the error of a
    // running f32 sum would be about 9%.
    let n = if cfg!(miri) { 1_000 } else { 10_000_000 };
    let x = Tensor::<f32, Shape![_]>::full_sized(&[2 * n], 0.1);
    let v = t!(x[..;2]);
    assert!(!v.is_contiguous());
    for (what, m) in [("strided", v.mean()), ("contiguous", x.mean())] {
        let rel = ((m as f64) - 0.1f32 as f64).abs() / 0.1f32 as f64;
        eprintln!("mean of {n} x 0.1f32 ({what}): {m:e}, relative error {rel:.2e}");
        assert!(rel < 1e-6, "{what} mean {m}");
    }
    // Along a leading axis (memory-order walk, Kahan) and the last axis (pairwise).
    let rows = if cfg!(miri) { 100 } else { 1_000_000 };
    let m = Tensor::<f32, Shape![_, 4]>::full_sized(&[rows, 4], 0.1);
    eprintln!("axis-0 mean of [{rows}, 4] x 0.1f32: {:e}", m.mean_axis(Ax::<0>).at([0]));
    for s in m.mean_axis(Ax::<0>).to_vec().into_iter().chain(m.t().mean_axis(Ax::<1>).to_vec()) {
        assert!(((s as f64) - 0.1f32 as f64).abs() / 0.1 < 1e-6, "axis mean {s}");
    }
    let f = Tensor::<shaped::f16, Shape![_]>::full_sized(&[1 << 14], shaped::f16::from_f32(0.1));
    eprintln!("f16 sum of 16384 x f16(0.1) = {} (exact {})", f.sum(), 16384.0 * shaped::f16::from_f32(0.1).to_f64());
    assert!((f.sum().to_f32() - 1638.4).abs() < 2.0, "f16 sums accumulate in f32: {}", f.sum());
}

/// Column sums take rows four at a time, then the leftover rows one by one, in blocks of 64 rows:
/// row counts around those steps, the terms powers of two below 2^16 (every partial sum is an
/// exact integer even in f32), against the sum per column.
#[test]
fn column_sums_count_every_row_once() {
    for rows in [1usize, 3, 4, 5, 63, 64, 65, 67, 130] {
        let x =
            Tensor::<f64, Shape![_, 3]>::from_fn_sized(&[rows, 3], |[i, j]| ((i % 16) as f64).exp2() * (j + 1) as f64);
        let want: Vec<f64> =
            (0..3).map(|j| (0..rows).map(|i| ((i % 16) as f64).exp2() * (j + 1) as f64).sum()).collect();
        assert_eq!(x.sum_axis(Ax::<0>).to_vec(), want, "{rows} rows");
        assert_eq!(x.t().sum_axis(Ax::<1>).to_vec(), want, "{rows} rows, transposed");
        let xf = x.cast::<f32>();
        let wf: Vec<f32> = want.iter().map(|&w| w as f32).collect();
        assert_eq!(xf.sum_axis(Ax::<0>).to_vec(), wf, "{rows} rows, f32");
    }
}

#[test]
fn integer_sums_and_products_never_wrap() {
    let u = Tensor::from([200u8, 100]);
    let s: u64 = u.sum();
    assert_eq!(s, 300);
    let i = Tensor::from([i32::MAX, i32::MAX, i32::MAX]);
    assert_eq!(i.sum(), 3 * i32::MAX as i64);
    let col: Tensor<i64, Shape![2]> = Tensor::from([[i32::MAX, 1], [i32::MAX, -1]]).sum_axis(Ax::<0>);
    assert_eq!(col.to_vec(), vec![2 * i32::MAX as i64, 0]);
    // Exact intermediate sums: i64::MAX + 1 - 1 is i64::MAX, not an overflow.
    assert_eq!(Tensor::from([i64::MAX, 1, -1]).sum(), i64::MAX);
    let e = Tensor::from([i64::MAX, 1]).try_sum().unwrap_err();
    assert!(e.to_string().contains("does not fit"), "{e}");
    assert_eq!(Tensor::from([u64::MAX, 0]).sum(), u64::MAX);
    assert!(Tensor::from([u64::MAX, 1]).try_sum().is_err());
    assert_eq!(Tensor::from([3u8, 100, 200]).prod(), 60_000u64);
    assert!(Tensor::from([i64::MAX, 2]).try_prod().is_err());
}

#[test]
fn nan_and_empty_rules_follow_pytorch() {
    let x = Tensor::from([1.0f32, f32::NAN, 3.0, f32::NAN]);
    assert!(x.max().is_nan() && x.min().is_nan());
    assert_eq!((x.argmax(), x.argmin()), (1, 1));
    let t = Tensor::from([2.0f64, 5.0, 5.0, -1.0, -1.0]);
    assert_eq!((t.argmax(), t.argmin()), (1, 3), "first occurrence");
    let e = Tensor::<f32, Shape![_]>::zeros_sized(&[0]);
    assert!(e.try_max().is_err() && e.try_argmin().is_err());
    assert_eq!(e.sum(), 0.0);
    assert!(e.mean().is_nan());
    assert_eq!(e.logsumexp(), f32::NEG_INFINITY);
    assert_eq!(e.prod(), 1.0);
    let big = Tensor::from([1000.0f64, 1000.0]);
    assert!((big.logsumexp() - (1000.0 + 2f64.ln())).abs() < 1e-12, "no overflow");
    let b = Tensor::from([[true, false], [true, true]]);
    assert!(!b.all() && b.any());
    assert_eq!(b.all_axis(Ax::<0>).to_vec(), vec![true, false]);
    assert_eq!(b.any_axis(1).to_vec(), vec![true, true]);
    assert_eq!(Tensor::<bool, Shape![_]>::full_sized(&[0], true).all(), true);
    assert_eq!(Tensor::from([1.0f32]).var(1).is_nan(), true, "n - correction = 0 gives NaN, as PyTorch");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases(64, 4), failure_persistence: None, ..ProptestConfig::default() })]
    /// Sums along any axis of any strided view equal an f64 reference within f32 rounding.
    #[test]
    fn sums_of_views_match_reference(v in prop::collection::vec(-100.0f32..100.0, 24), axis in 0usize..3, perm in 0usize..6) {
        let perms = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
        let x = Tensor::<f32, Shape![2, 3, 4]>::from_vec(&[2, 3, 4], v.clone()).into_dyn();
        let p = perms[perm];
        let view = x.try_permute_dyn(&p).unwrap();
        let got = view.sum_axis(axis as isize).to_vec();
        let sizes: Vec<usize> = p.iter().map(|&d| [2, 3, 4][d]).collect();
        let mut want = vec![0f64; 24 / sizes[axis]];
        let mut idx = [0usize; 3];
        for _ in 0..24 {
            let src = idx[0..3].iter().zip(p).fold(0, |acc, (&i, d)| acc + i * [12, 4, 1][d]);
            let kept: Vec<usize> = (0..3).filter(|&d| d != axis).collect();
            let o = idx[kept[0]] * sizes[kept[1]] + idx[kept[1]];
            want[o] += v[src] as f64;
            for d in (0..3).rev() {
                idx[d] += 1;
                if idx[d] < sizes[d] { break; }
                idx[d] = 0;
            }
        }
        for (g, w) in got.iter().zip(&want) {
            prop_assert!((*g as f64 - w).abs() < 1e-3, "{got:?} vs {want:?}");
        }
    }

    /// `max`/`min` along the last axis and over everything, in f32, f64 and i32, on rows of up
    /// to 300 elements (past the run-time AVX2 path's 64 and its 16 lanes, with tails) holding
    /// ±inf, NaN, ±0, huge and tiny values: NaN when a row holds one (PyTorch), else the extreme,
    /// and the same on every path (row kernel, whole tensor, inline static).
    #[test]
    fn extremes_follow_ieee_on_every_length(
        v in prop::collection::vec(prop_oneof![
            12 => -1e3f64..1e3,
            2 => -1e38f64..1e38,
            2 => -1e-38f64..1e-38,
            1 => Just(0.0f64),
            1 => Just(-0.0f64),
            1 => Just(f64::INFINITY),
            1 => Just(f64::NEG_INFINITY),
            1 => Just(f64::NAN),
        ], 0..600),
        n in 1usize..300,
        nan_free in any::<bool>(),
    ) {
        let v: Vec<f64> = if nan_free { v.into_iter().filter(|x| !x.is_nan()).collect() } else { v };
        let rows = v.len() / n;
        prop_assume!(rows > 0);
        let v = &v[..rows * n];
        let want = |row: &[f64], gt: bool| -> f64 {
            if row.iter().any(|x| x.is_nan()) {
                return f64::NAN;
            }
            row.iter().copied().fold(if gt { f64::NEG_INFINITY } else { f64::INFINITY }, |a, x| if gt { a.max(x) } else { a.min(x) })
        };
        let same = |g: f64, w: f64| (g.is_nan() && w.is_nan()) || g == w;
        let x64 = Tensor::<f64, DynShape>::from_vec(&[rows, n], v.to_vec());
        let x32 = Tensor::<f32, DynShape>::from_vec(&[rows, n], v.iter().map(|&x| x as f32).collect());
        for gt in [true, false] {
            let (g64, g32) = if gt { (x64.max_axis(-1), x32.max_axis(-1)) } else { (x64.min_axis(-1), x32.min_axis(-1)) };
            for (r, row) in v.chunks(n).enumerate() {
                let w = want(row, gt);
                prop_assert!(same(g64.to_vec()[r], w), "f64 row {r} of {n}: {} vs {w}", g64.to_vec()[r]);
                let w32 = want(&row.iter().map(|&x| x as f32 as f64).collect::<Vec<_>>(), gt);
                prop_assert!(same(g32.to_vec()[r] as f64, w32), "f32 row {r} of {n}: {} vs {w32}", g32.to_vec()[r]);
            }
            let all = want(v, gt);
            let got = if gt { x64.max() } else { x64.min() };
            prop_assert!(same(got, all), "f64 over all: {got} vs {all}");
        }
        // Integers: the same kernel on i32.
        let xi = Tensor::<i32, DynShape>::from_vec(&[rows, n], v.iter().map(|&x| if x.is_nan() { 7 } else { x.clamp(-2e9, 2e9) as i32 }).collect());
        let (mx, mn) = (xi.max_axis(-1).to_vec(), xi.min_axis(-1).to_vec());
        for (r, row) in xi.to_vec().chunks(n).enumerate() {
            prop_assert_eq!(mx[r], *row.iter().max().unwrap());
            prop_assert_eq!(mn[r], *row.iter().min().unwrap());
        }
    }
}

#[test]
fn dynamic_shape_api_is_complete() {
    // What dynamic code reaches for, all on Tensor<_, DynShape>.
    let x = Tensor::<f64, DynShape>::from_vec(&[2, 3], vec![1., -2., 3., 4., 5., -6.]);
    assert_eq!(x.sum_keepdim(1).sizes(), &[2, 1]);
    assert_eq!(x.max_keepdim(0).to_vec(), vec![4., 5., 3.]);
    assert_eq!(x.argmax_axis(-1).to_vec(), vec![2, 1]);
    assert_eq!(x.norm(Norm::Fro), x.norm(Norm::L2));
    assert_eq!(x.norm(Norm::Inf), 6.0);
    assert_eq!(x.norm_axis(1, Norm::L1).to_vec(), vec![6., 15.]);
    assert_eq!(x.prod_axis(0).to_vec(), vec![4., -10., -18.]);
    assert!((x.std_axis(1, 0).at([0]) - (114.0f64 / 27.0).sqrt()).abs() < 1e-12);
    assert_eq!(x.count_nonzero_keepdim(0).sizes(), &[1, 3]);
    assert_eq!(
        Tensor::<f64, Shape![_]>::linspace_sized(0.0, 1.0, 5).into_dyn().to_vec(),
        vec![0., 0.25, 0.5, 0.75, 1.]
    );
    close(
        &Tensor::<f64, Shape![_]>::logspace_sized(0.0, 2.0, 3, 10.0).into_dyn().to_vec(),
        &[1., 10., 100.],
        "logspace",
    );
    assert_eq!(
        Tensor::<f64, Shape![_]>::try_arange_with(0.0, 1.0, 0.25).unwrap().into_dyn().to_vec(),
        vec![0., 0.25, 0.5, 0.75]
    );
    assert_eq!(Tensor::<f32, DynShape>::eye_sized(2, 3).to_vec(), vec![1., 0., 0., 0., 1., 0.]);
    let b = x.greater(0.0);
    assert_eq!(b.count_nonzero(), 4);
    assert!(!b.all() && b.any_axis(1).all());
    assert!(matches!(x.try_var_axis(5, 1), Err(ShapeError::Axis { .. })));
}
