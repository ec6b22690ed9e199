//! The second layer of PyTorch operations (issue 29): `pad`, `repeat`, `repeat_interleave`,
//! `quantile`, `nanquantile`, `nanmedian`, `searchsorted`, `bucketize`, `histc`, `unique`,
//! `bincount`, `floor_divide`, `remainder`, `digamma` and `erfinv` (mpmath at 50 digits), `cov`,
//! `corrcoef`, `trapezoid`, `addmm`/`baddbmm`, `scaled_add`, `hstack`/`vstack`/`dstack`,
//! `split_sizes`, `squeeze_all`, `expand_as`, `diag_embed`, `block_diag`, `meshgrid`,
//! `solve_triangular`, `cholesky_solve`, the factor objects, `cond`, `multi_dot` and
//! `matrix_exp` (mpmath's `expm` at 40 digits), against NumPy (`np.pad`, `np.tile`, `np.repeat`, `np.quantile`, ...: cases written
//! by `scripts/ops_more_data.py`), on contiguous and transposed inputs, typed and
//! dynamic, with the identities that hold for every input.
mod common;

#[path = "data/ops_more.rs"]
mod data;

use proptest::prelude::*;
use shaped::prelude::*;
use shaped::{meshgrid, try_meshgrid, Indexing};

fn mode(name: &str) -> PadMode {
    match name {
        "Constant" => PadMode::Constant,
        "Reflect" => PadMode::Reflect,
        "Replicate" => PadMode::Replicate,
        _ => PadMode::Circular,
    }
}

#[test]
fn pad_matches_numpy() {
    for c in data::PAD {
        let n: usize = c.sizes.iter().product();
        let x = Tensor::<i64, DynShape>::try_from_vec(c.sizes, (0..n as i64).map(|v| v * 3 - 7).collect()).unwrap();
        let y = x.pad_dyn(c.pads, mode(c.mode), 9);
        assert_eq!(y.sizes(), c.out_sizes, "{:?} {:?} {}", c.sizes, c.pads, c.mode);
        assert_eq!(y.to_vec(), c.out, "{:?} {:?} {}", c.sizes, c.pads, c.mode);
        // The same from a permuted (non-contiguous) copy of the input.
        let rank = c.sizes.len();
        let rev: Vec<isize> = (0..rank as isize).rev().collect();
        let xt = x.permute(&rev[..]).contiguous().into_owned();
        let back = xt.permute(&rev[..]);
        assert_eq!(back.pad_dyn(c.pads, mode(c.mode), 9).to_vec(), c.out);
    }
}

#[test]
fn pad_typed_shapes() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::from([[1., 2., 3.], [4., 5., 6.]]);
    let y: Tensor<f32, Shape![2, 7]> = x.pad((Const::<2>, Const::<2>), Ax::<1>, PadMode::Circular, 0.0);
    assert_eq!(y.to_vec(), [2., 3., 1., 2., 3., 1., 2., 5., 6., 4., 5., 6., 4., 5.]);
    let z: Tensor<f32, Shape![5, 3]> = x.pad((Const::<3>, Const::<0>), Ax::<-2>, PadMode::Replicate, 0.0);
    assert_eq!(&z.to_vec()[..9], [1., 2., 3., 1., 2., 3., 1., 2., 3.]);
    // A runtime dim stays runtime; a DynShape stays DynShape.
    let d = x.narrow(Ax::<1>, 0, 3); // narrowing makes the dim `Dyn`
    let w: Tensor<f32, (Const<2>, Dyn)> = d.pad((Const::<1>, Const::<0>), Ax::<1>, PadMode::Constant, -1.0);
    assert_eq!(w.sizes(), &[2, 4]);
    let v = x.as_view().into_dyn().pad((Const::<1>, Const::<1>), Ax::<0>, PadMode::Reflect, 0.0);
    assert_eq!(v.sizes(), &[4, 3]);
    assert_eq!(v.to_vec(), [4., 5., 6., 1., 2., 3., 4., 5., 6., 1., 2., 3.]);
}

#[test]
fn pad_errors() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::ones();
    let e = common::err(x.try_pad((Const::<3>, Const::<0>), Ax::<1>, PadMode::Reflect, 0.0));
    assert!(e.contains("(3, 0)") && e.contains("size 3"), "{e}");
    let e = common::err(x.try_pad((Const::<0>, Const::<3>), Ax::<0>, PadMode::Circular, 0.0));
    assert!(e.contains("(0, 3)") && e.contains("size 2"), "{e}");
    // Constant padding has no limit.
    assert_eq!(x.try_pad((Const::<5>, Const::<5>), Ax::<0>, PadMode::Constant, 0.0).unwrap().sizes(), &[12, 3]);
    let e = common::err(x.try_pad_dyn(&[1, 1, 1], PadMode::Constant, 0.0));
    assert!(e.contains("3 pads") && e.contains("rank 2"), "{e}");
    let e = common::err(x.try_pad_dyn(&[1, 1, 1, 1, 1, 1], PadMode::Constant, 0.0));
    assert!(e.contains("6 pads"), "{e}");
    let e = common::err(x.try_pad_dyn(&[usize::MAX, 1], PadMode::Constant, 0.0));
    assert!(e.contains("overflow"), "{e}");
    let empty = Tensor::<f32, DynShape>::try_from_vec(&[0], vec![]).unwrap();
    assert!(empty.try_pad_dyn(&[1, 0], PadMode::Replicate, 0.0).is_err());
    assert_eq!(empty.pad_dyn(&[1, 1], PadMode::Constant, 2.0).to_vec(), [2.0, 2.0]);
    // No pairs: a copy.
    assert_eq!(x.pad_dyn(&[], PadMode::Reflect, 0.0).to_vec(), x.to_vec());
}

fn arange(sizes: &[usize]) -> Tensor<i64, DynShape> {
    let n: usize = sizes.iter().product();
    Tensor::try_from_vec(sizes, (0..n as i64).map(|v| v * 5 + 1).collect()).unwrap()
}

#[test]
fn repeat_matches_numpy() {
    for c in data::TILE {
        let y = arange(c.sizes).repeat_dyn(c.reps);
        assert_eq!((y.sizes(), y.to_vec().as_slice()), (c.out_sizes, c.out), "{:?} {:?}", c.sizes, c.reps);
    }
    for c in data::INTERLEAVE {
        let counts: Tensor<i64, (Dyn,)> = Tensor::try_from_vec(&[c.counts.len()], c.counts.to_vec()).unwrap();
        let y = arange(c.sizes).repeat_interleave_counts(&counts, c.axis);
        assert_eq!((y.sizes(), y.to_vec().as_slice()), (c.out_sizes, c.out), "{:?} {:?}", c.sizes, c.counts);
    }
}

#[test]
fn repeat_typed() {
    let x: Tensor<i32, Shape![2, 3]> = Tensor::from([[1, 2, 3], [4, 5, 6]]);
    let y: Tensor<i32, Shape![4, 3]> = x.repeat(Const::<2>, Ax::<0>);
    assert_eq!(y.to_vec(), [1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6]);
    let z: Tensor<i32, Shape![3, 6]> = x.t().repeat_interleave(Const::<3>, Ax::<-1>);
    assert_eq!(z.to_vec(), [1, 1, 1, 4, 4, 4, 2, 2, 2, 5, 5, 5, 3, 3, 3, 6, 6, 6]);
    // Equal to the DynShape forms, and zero repeats give an empty dim.
    assert_eq!(x.repeat(Const::<2>, Ax::<1>).to_vec(), x.repeat_dyn(&[1, 2]).to_vec());
    // Counts of 1 only: a copy, with the leading dims the extra counts add.
    let ones = x.t().repeat_dyn(&[1, 1, 1]);
    assert_eq!((ones.sizes(), ones.to_vec()), (&[1, 3, 2][..], x.t().contiguous().to_vec()));
    let e: Tensor<i32, Shape![0, 3]> = x.repeat_interleave(Const::<0>, Ax::<0>);
    assert_eq!(e.numel(), 0);
    let d = x.narrow(Ax::<1>, 0, 2).repeat(Const::<2>, Ax::<1>);
    let _: &Tensor<i32, (Const<2>, Dyn)> = &d;
    assert_eq!(d.to_vec(), [1, 2, 1, 2, 4, 5, 4, 5]);
}

#[test]
fn repeat_errors() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::ones();
    let e = common::err(x.try_repeat_dyn(&[2]));
    assert!(e.contains("1 counts") && e.contains("rank 2"), "{e}");
    assert!(x.try_repeat_dyn(&[1, 1, 1, 1, 1, 1, 1]).is_err(), "rank above MAX_RANK");
    let e = common::err(x.try_repeat_dyn(&[usize::MAX, 1]));
    assert!(e.contains("overflow"), "{e}");
    let e = common::err(x.try_repeat_interleave_counts(&Tensor::from([1i64, 2]), 1));
    assert!(e.contains("[2, 3]") && e.contains("[2]"), "{e}");
    let e = common::err(x.try_repeat_interleave_counts(&Tensor::from([1i64, -2, 0]), 1));
    assert!(e.contains("-2"), "{e}");
    let e = common::err(x.try_repeat_interleave_counts(&Tensor::from([1i64, 1]), 2));
    assert!(e.contains("axis"), "{e}");
    let e = common::err(x.try_repeat_interleave_counts(&Tensor::from([i64::MAX, i64::MAX]), 0));
    assert!(e.contains("overflow") || e.contains("alloc"), "{e}");
}

/// Equal, NaN equal to NaN; within `tol` relative for interpolated values.
fn close(a: &[f64], b: &[f64], tol: f64) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(&x, &y)| (x.is_nan() && y.is_nan()) || x == y || (x - y).abs() <= tol * y.abs().max(1.0))
}

fn xs() -> Tensor<f64, Shape![4, 7]> {
    Tensor::try_from_vec(&data::X_SIZES, data::X.to_vec()).unwrap()
}

#[test]
fn quantiles_match_numpy() {
    let x = xs();
    let cases = [
        (0.0, data::QUANTILE_0_0, data::QUANTILE0_0_0, data::NANQUANTILE_0_0),
        (0.25, data::QUANTILE_0_25, data::QUANTILE0_0_25, data::NANQUANTILE_0_25),
        (0.5, data::QUANTILE_0_5, data::QUANTILE0_0_5, data::NANQUANTILE_0_5),
        (0.9, data::QUANTILE_0_9, data::QUANTILE0_0_9, data::NANQUANTILE_0_9),
        (1.0, data::QUANTILE_1_0, data::QUANTILE0_1_0, data::NANQUANTILE_1_0),
    ];
    for (q, rows, cols, nan_rows) in cases {
        let r: Tensor<f64, Shape![4]> = x.quantile(q, Ax::<1>);
        assert!(close(&r.to_vec(), rows, 1e-15), "q={q}: {:?} vs {rows:?}", r.to_vec());
        let c: Tensor<f64, Shape![7]> = x.quantile(q, Ax::<0>);
        assert!(close(&c.to_vec(), cols, 1e-15), "q={q} axis 0: {:?} vs {cols:?}", c.to_vec());
        assert!(close(&x.t().quantile(q, 0).to_vec(), rows, 1e-15));
        let n = x.nanquantile(q, Ax::<-1>);
        assert!(close(&n.to_vec(), nan_rows, 1e-15), "q={q}: {:?} vs {nan_rows:?}", n.to_vec());
    }
    let (m, i) = x.nanmedian_axis(Ax::<1>);
    assert!(close(&m.to_vec(), data::NANMEDIAN, 0.0), "{:?}", m.to_vec());
    for (r, (&v, &p)) in m.to_vec().iter().zip(&i.to_vec()).enumerate() {
        assert!(v == data::X[r * 7 + p as usize] || v.is_nan(), "the index points at the value");
    }
    // f32, a whole-tensor quantile, and the errors.
    let f = Tensor::from([4.0f32, 1.0, 3.0, 2.0]);
    assert_eq!(f.quantile_all(0.5), 2.5);
    assert_eq!(f.nanmedian(), 2.0);
    assert!(common::err(f.try_quantile_all(1.5)).contains("1.5"));
    assert!(f.try_quantile_all(f32::NAN).is_err());
    let empty = Tensor::<f32, DynShape>::try_from_vec(&[2, 0], vec![]).unwrap();
    assert!(empty.try_quantile(0.5, 1).is_err());
    assert!(Tensor::from([f32::NAN, f32::NAN]).nanmedian().is_nan());
}

/// Issue 35: `quantile` is PyTorch's: `lerp` (its kernel, from the nearer end) between the
/// sorted elements at `floor` and `ceil` of `q (n - 1)`, so a whole position reads one element
/// (`torch.quantile(tensor([-inf, 1., inf]), 0.5)` is 1; reading the next element too gave
/// `1 + 0 * inf`, NaN) and `q = 1` is the largest element exactly.
#[test]
fn quantile_interpolates_as_pytorch() {
    let x = Tensor::from([f64::NEG_INFINITY, 1.0, f64::INFINITY]);
    assert_eq!(x.quantile_all(0.5), 1.0);
    assert_eq!(x.nanquantile(0.5, Ax::<0>).to_vec(), [1.0]);
    assert_eq!(x.quantile_all(0.25), f64::NEG_INFINITY); // lerp(-inf, 1, 0.5) = 1 - inf * 0.5
    let f = Tensor::from([f32::NEG_INFINITY, 2.0, 3.0, f32::NAN]);
    assert_eq!(f.nanquantile(0.5, Ax::<0>).to_vec(), [2.0]);
    // Weights at and past 0.5 interpolate from the upper end: q = 0.9 of [3, 0.1]'s sort
    // [0.1, 3] is 3 - (3 - 0.1) * (1 - 0.9), to the bit.
    let y = Tensor::from([3.0f64, 0.1]);
    assert_eq!(y.quantile_all(0.9).to_bits(), (3.0 - (3.0 - 0.1) * (1.0 - 0.9f64)).to_bits());
    assert_eq!(y.quantile_all(0.2).to_bits(), (0.1 + 0.2 * (3.0 - 0.1f64)).to_bits());
    assert_eq!(y.quantile_all(1.0), 3.0);
}

#[test]
fn search_and_count_match_numpy() {
    let edges = Tensor::from(<[f64; 7]>::try_from(data::EDGES).unwrap());
    let x = xs();
    let left: Tensor<i64, Shape![4, 7]> = edges.searchsorted(&x, false);
    assert_eq!(left.to_vec(), data::SEARCH_LEFT);
    assert_eq!(edges.searchsorted(&x.t(), true).t().contiguous().to_vec(), data::SEARCH_RIGHT);
    assert_eq!(x.bucketize(&edges, false).to_vec(), data::SEARCH_LEFT);
    // Batched: each row of a [4, 7] sequence searched for the row of values at its position.
    let sorted = x.sort(Ax::<1>, false).0;
    let pos = sorted.searchsorted(&x, false);
    for r in 0..4 {
        for c in 0..7 {
            let v = data::X[r * 7 + c];
            let row: Vec<f64> = sorted.to_vec()[r * 7..r * 7 + 7].to_vec();
            let want = row.iter().filter(|&&s| if v.is_nan() { !s.is_nan() } else { s < v }).count();
            assert_eq!(pos.to_vec()[r * 7 + c], want as i64, "row {r} value {v}");
        }
    }
    assert!(sorted.try_searchsorted(&Tensor::from([1.0f64]), false).is_err());
    let none = Tensor::<f64, DynShape>::try_from_vec(&[2, 0], vec![]).unwrap();
    let v2 = Tensor::<f64, DynShape>::try_from_vec(&[2, 3], vec![1.0; 6]).unwrap();
    assert_eq!(none.searchsorted(&v2, true).to_vec(), [0; 6], "empty sequences");

    let y = Tensor::<f64, DynShape>::try_from_vec(&[4, 7], data::Y.to_vec()).unwrap();
    assert_eq!(y.histc(8, -4.0, 4.0).to_vec(), data::HIST_8_M4_4);
    assert_eq!(y.histc(5, 0.0, 0.0).to_vec(), data::HIST_5_DATA);
    assert!(y.try_histc(0, 0.0, 1.0).is_err());
    assert!(y.try_histc(3, 1.0, 0.0).is_err());
    assert!(y.try_histc(3, 0.0, f64::INFINITY).is_err());
    assert_eq!(Tensor::from([f32::NAN, 1.0]).histc(2, 0.0, 2.0).to_vec(), [0.0, 1.0]);

    let u = y.unique_all();
    assert_eq!(u.values.to_vec(), data::UNIQUE);
    assert_eq!(u.inverse.to_vec(), data::UNIQUE_INV);
    assert_eq!(u.counts.to_vec(), data::UNIQUE_COUNTS);
    let _: &Tensor<i64, DynShape> = &u.inverse;
    // PyTorch keeps every NaN apart; -0.0 and 0.0 are one value.
    let n = Tensor::from([f32::NAN, 1.0, f32::NAN, -0.0, 0.0]).unique_all();
    assert_eq!(n.counts.to_vec(), [2, 1, 1, 1]);
    assert_eq!(n.inverse.to_vec(), [2, 1, 3, 0, 0]);

    let ints = Tensor::from(<[i64; 40]>::try_from(data::INTS).unwrap());
    assert_eq!(ints.bincount(0).to_vec(), data::BINCOUNT);
    let w = Tensor::from(<[f64; 40]>::try_from(data::W).unwrap());
    assert!(close(&ints.bincount_weighted(&w, 12).to_vec(), data::BINCOUNT_W12, 1e-12));
    let e = common::err(Tensor::from([1i32, -4]).try_bincount(0));
    assert!(e.contains("-4"), "{e}");
    assert!(Tensor::from([u64::MAX]).try_bincount(0).is_err(), "a count vector past memory is an error");
    assert_eq!(Tensor::<u8, (Dyn,)>::try_from_vec(&[0], vec![]).unwrap().bincount(3).to_vec(), [0, 0, 0]);
}

/// Counts and weighted sums that a running total in the element type would get wrong: `histc`
/// counts past 2048 in `f16` and 256 in `bf16` (`count + 1` rounds back to `count` there),
/// integer weights whose sum passes the weights' type, and many small float weights.
#[test]
fn counts_and_weighted_sums_do_not_stick_or_wrap() {
    use shaped::{bf16, f16};
    let h = Tensor::<f16, (Dyn,)>::full_sized(&[3000], f16::from_f32(0.5));
    assert_eq!(h.histc(2, f16::from_f32(0.0), f16::from_f32(2.0)).to_vec(), [f16::from_f32(3000.0), f16::ZERO]);
    let b = Tensor::<bf16, (Dyn,)>::full_sized(&[1000], bf16::from_f32(0.5));
    assert_eq!(b.histc(1, bf16::from_f32(0.0), bf16::from_f32(1.0)).to_vec(), [bf16::from_f32(1000.0)]);
    // 2049 is not an f16: the count rounds to the nearest one, as a conversion of the exact count.
    let h = Tensor::<f16, (Dyn,)>::full_sized(&[2051], f16::from_f32(0.5));
    assert_eq!(h.histc(1, f16::from_f32(0.0), f16::from_f32(1.0)).to_vec(), [f16::from_f32(2052.0)]);
    // i8 weights: 200 x 100 = 20000 in bin 0 (an i8 running sum would wrap), as i64.
    let bins = Tensor::<i64, (Dyn,)>::zeros_sized(&[200]);
    let w = Tensor::<i8, (Dyn,)>::full_sized(&[200], 100);
    let s: Tensor<i64, (Dyn,)> = bins.bincount_weighted(&w, 2);
    assert_eq!(s.to_vec(), [20000, 0]);
    let u = Tensor::<u8, (Dyn,)>::full_sized(&[300], 255);
    assert_eq!(Tensor::<i64, (Dyn,)>::zeros_sized(&[300]).bincount_weighted(&u, 0).to_vec(), [76500u64]);
    // A bin's sum past 64 bits is an error naming the operation, not a wrapped value.
    let big = Tensor::<u64, (Dyn,)>::full_sized(&[2], u64::MAX);
    let e = common::err(Tensor::<i64, (Dyn,)>::zeros_sized(&[2]).try_bincount_weighted(&big, 0));
    assert!(e.contains("bincount") && e.contains("64 bits"), "{e}");
    // A histogram of more bins than memory holds: an allocation error, nothing written.
    assert!(Tensor::from([1.0f32]).try_histc(usize::MAX, 0.0, 1.0).is_err());
    // 1e5 weights of 0.1f32 in one bin: compensated (a plain f32 running sum gives 9998.557,
    // relative error 1.4e-4).
    let n = if cfg!(miri) { 2_000 } else { 100_000 };
    let w = Tensor::<f32, (Dyn,)>::full_sized(&[n], 0.1);
    let got = Tensor::<i64, (Dyn,)>::zeros_sized(&[n]).bincount_weighted(&w, 0).to_vec()[0] as f64;
    let exact = n as f64 * 0.1f32 as f64;
    assert!((got - exact).abs() / exact < 1e-7, "{got} against {exact}");
}

fn ulps(a: f64, b: f64) -> u64 {
    if a == b || (a.is_nan() && b.is_nan()) {
        return 0;
    }
    let key = |v: f64| {
        let b = v.to_bits() as i64;
        if b < 0 {
            i64::MIN - b
        } else {
            b
        }
    };
    key(a).abs_diff(key(b))
}

#[test]
fn floor_division_matches_numpy() {
    let a = Tensor::from(<[f64; 16]>::try_from(data::FA).unwrap());
    let b = Tensor::from(<[f64; 16]>::try_from(data::FB).unwrap());
    let (q, r) = (a.floor_divide(&b).to_vec(), a.remainder(&b).to_vec());
    for k in 0..16 {
        let (a, b) = (data::FA[k], data::FB[k]);
        assert_eq!(ulps(q[k], data::FLOORDIV[k]), 0, "{a} // {b}: {} vs {}", q[k], data::FLOORDIV[k]);
        assert_eq!(ulps(r[k], data::REMAINDER[k]), 0, "{a} % {b}: {} vs {}", r[k], data::REMAINDER[k]);
        if !q[k].is_nan() {
            assert_eq!(q[k].is_sign_negative(), data::FDIV_SIGNS[k], "sign of {a} // {b}");
        }
        if !r[k].is_nan() {
            assert_eq!(r[k].is_sign_negative(), data::FREM_SIGNS[k], "sign of {a} % {b}");
        }
    }
    let ia = Tensor::from(<[i32; 10]>::try_from(data::IA).unwrap());
    let ib = Tensor::from(<[i32; 10]>::try_from(data::IB).unwrap());
    assert_eq!(ia.floor_divide(&ib).to_vec(), data::IFLOORDIV);
    assert_eq!(ia.remainder(&ib).to_vec(), data::IREMAINDER);
    // Broadcasting, f32, unsigned, wrapping and the zero divisor.
    let m = Tensor::from([[7.0f32, -7.0], [7.5, -0.5]]);
    assert_eq!(m.remainder(&Tensor::from([2.0f32, -2.0])).to_vec(), [1.0, -1.0, 1.5, -0.5]);
    assert_eq!(Tensor::from([7u8, 250]).floor_divide(&Tensor::from([2u8])).to_vec(), [3, 125]);
    assert_eq!(Tensor::from([i32::MIN]).floor_divide(&Tensor::from([-1])).to_vec(), [i32::MIN]);
    let e = common::err(Tensor::from([1, 2]).try_remainder(&Tensor::from([1, 0])));
    assert!(e.contains("zero"), "{e}");
    assert!(Tensor::from([1.0f64]).remainder(&Tensor::from([0.0])).to_vec()[0].is_nan());
    // Scalar right sides (`torch.remainder(x, 3)`): the same values as a tensor of that scalar.
    let ints = Tensor::from([7, -7, 0, i32::MIN]);
    assert_eq!(ints.remainder(3).to_vec(), ints.remainder(&Tensor::from([3])).to_vec());
    assert_eq!(ints.remainder(3).to_vec(), [1, 2, 0, 1]);
    assert_eq!(ints.floor_divide(-2).to_vec(), [-4, 3, 0, 1 << 30]);
    let e = common::err(ints.try_floor_divide(0));
    assert!(e.contains("zero"), "{e}");
    assert!(Tensor::<i32, (Dyn,)>::zeros_sized(&[0]).try_remainder(0).is_ok(), "nothing divided");
    let f = Tensor::from([5.5f32, -5.5, 0.0]);
    assert_eq!(f.floor_divide(2.0).to_vec(), [2.0, -3.0, 0.0]);
    assert_eq!(f.remainder(-2.0).to_vec(), [-0.5, -1.5, -0.0]);
    let z = f.floor_divide(0.0).to_vec();
    assert!(z[0] == f32::INFINITY && z[1] == f32::NEG_INFINITY && z[2].is_nan(), "{z:?}");
    let s: STensor<i64, Shape![2, 2]> = stensor([[9i64, -9], [4, -4]]).remainder(4);
    assert_eq!(s.to_vec(), [1, 3, 0, 0]);
}

#[test]
#[cfg_attr(miri, ignore = "libm's sqrt is inline assembly, which Miri cannot run; Miri also perturbs float functions")]
fn digamma_and_erfinv_match_mpmath() {
    let x = Tensor::<f64, DynShape>::try_from_vec(&[data::DIGAMMA_X.len()], data::DIGAMMA_X.to_vec()).unwrap();
    for ((&v, &got), &want) in data::DIGAMMA_X.iter().zip(&x.digamma().to_vec()).zip(data::DIGAMMA) {
        // Near the root at 1.4616 the absolute error is what stays small.
        assert!(ulps(got, want) <= 8 || (got - want).abs() < 1e-15, "digamma({v}) = {got:e}, mpmath {want:e}");
    }
    let d = Tensor::from([0.0f64, -0.0, -1.0, -4.0, f64::INFINITY, f64::NEG_INFINITY, f64::NAN]).digamma().to_vec();
    assert_eq!(&d[..2], &[f64::NEG_INFINITY, f64::INFINITY]);
    assert!(d[2].is_nan() && d[3].is_nan() && d[5].is_nan() && d[6].is_nan());
    assert_eq!(d[4], f64::INFINITY);
    let y = Tensor::<f64, DynShape>::try_from_vec(&[data::ERFINV_Y.len()], data::ERFINV_Y.to_vec()).unwrap();
    for ((&v, &got), &want) in data::ERFINV_Y.iter().zip(&y.erfinv().to_vec()).zip(data::ERFINV) {
        assert!(ulps(got, want) <= 4, "erfinv({v}) = {got:e}, mpmath {want:e}");
        assert!(ulps((-y.erfinv()).to_vec()[0], -y.erfinv().to_vec()[0]) == 0);
    }
    let e = Tensor::from([1.0f32, -1.0, 1.5, f32::NAN, -0.0]).erfinv().to_vec();
    assert_eq!(&e[..2], &[f32::INFINITY, f32::NEG_INFINITY]);
    assert!(e[2].is_nan() && e[3].is_nan() && e[4] == 0.0 && e[4].is_sign_negative());
    // erf(erfinv(y)) = y over (-1, 1).
    for k in -99..100 {
        let v = k as f64 / 100.0;
        let back = Tensor::from([v]).erfinv().erf().to_vec()[0];
        assert!((back - v).abs() <= 2e-16 * v.abs().max(1e-3), "{v} -> {back}");
    }
}

#[test]
fn statistics_match_numpy() {
    let z: Tensor<f64, Shape![3, 6]> = Tensor::try_from_vec(&[3, 6], data::Z.to_vec()).unwrap();
    let c1: Tensor<f64, Shape![3, 3]> = z.cov(1);
    assert!(close(&c1.to_vec(), data::COV1, 1e-14), "{:?}", c1.to_vec());
    assert!(close(&z.cov(0).to_vec(), data::COV0, 1e-14));
    assert!(close(&z.corrcoef().to_vec(), data::CORRCOEF, 1e-14));
    // A transposed view of the transposed data: same answers.
    let zt = z.t().contiguous().into_owned();
    assert!(close(&zt.t().cov(1).to_vec(), data::COV1, 1e-14));
    let rows: Tensor<f64, Shape![3]> = z.trapezoid(0.5, Ax::<1>);
    assert!(close(&rows.to_vec(), data::TRAPZ_ROWS, 1e-14));
    assert!(close(&z.trapezoid(1.0, Ax::<0>).to_vec(), data::TRAPZ_COLS, 1e-14));
    assert!(close(&z.trapezoid(0.5, -1).to_vec(), data::TRAPZ_ROWS, 1e-14));
    let px = Tensor::from(<[f64; 6]>::try_from(data::TRAPZ_PX).unwrap());
    assert!(close(&z.trapezoid_x(&px, Ax::<1>).to_vec(), data::TRAPZ_X_ROWS, 1e-14));
    assert!(z.try_trapezoid_x(&px, Ax::<0>).is_err(), "6 points for an axis of 3");
    // Edge cases: one observation divides by zero; a constant row has NaN correlations.
    let one: Tensor<f64, Shape![2, 1]> = Tensor::from([[1.0], [2.0]]);
    assert!(one.cov(1).to_vec().iter().all(|v| v.is_nan()));
    let flat: Tensor<f32, Shape![2, 3]> = Tensor::from([[1.0, 1.0, 1.0], [1.0, 2.0, 3.0]]);
    let r = flat.corrcoef().to_vec();
    assert!(r[0].is_nan() && r[1].is_nan() && r[3] == 1.0);
    let short: Tensor<f32, Shape![2, 1]> = Tensor::from([[5.0], [6.0]]);
    assert_eq!(short.trapezoid(1.0, Ax::<1>).to_vec(), [0.0, 0.0]);
}

#[test]
fn fused_products() {
    let bias: Tensor<f64, Shape![3]> = Tensor::from([1.0, 2.0, 3.0]);
    let a: Tensor<f64, Shape![2, 4]> = Tensor::from([[1.0, 2.0, 3.0, 4.0], [-1.0, 0.5, 0.0, 2.0]]);
    let b: Tensor<f64, Shape![4, 3]> =
        Tensor::from([[1.0, 0.0, 2.0], [0.0, 1.0, 1.0], [3.0, 1.0, 0.0], [1.0, 1.0, 1.0]]);
    let y: Tensor<f64, Shape![2, 3]> = bias.addmm(&a, &b, 0.5, 2.0);
    let p = a.matmul(&b).to_vec();
    let want: Vec<f64> = (0..6).map(|k| 0.5 * bias.to_vec()[k % 3] + 2.0 * p[k]).collect();
    assert_eq!(y.to_vec(), want);
    // beta = 0 ignores NaN in self, as PyTorch.
    let nan: Tensor<f64, Shape![2, 3]> = Tensor::full(f64::NAN);
    assert_eq!(nan.addmm(&a, &b, 0.0, 1.0).to_vec(), p);
    // Batched: baddbmm over [2, 2, 4] @ [2, 4, 3].
    let ba: Tensor<f64, Shape![2, 2, 4]> = Tensor::stack([&a, &(&a * 2.0)], Ax::<0>);
    let bb: Tensor<f64, Shape![2, 4, 3]> = Tensor::stack([&b, &b], Ax::<0>);
    let z: Tensor<f64, Shape![2, 2, 3]> = bias.baddbmm(&ba, &bb, 1.0, 1.0);
    assert_eq!(&z.to_vec()[..6], (0..6).map(|k| bias.to_vec()[k % 3] + p[k]).collect::<Vec<_>>().as_slice());
    assert_eq!(&z.to_vec()[6..], (0..6).map(|k| bias.to_vec()[k % 3] + 2.0 * p[k]).collect::<Vec<_>>().as_slice());
    // A runtime self that does not broadcast.
    let bad = Tensor::<f64, DynShape>::ones_sized(&[4]);
    let e = common::err(bad.try_addmm(&a, &b, 1.0, 1.0));
    assert!(e.contains("[4]") && e.contains("[2, 3]"), "{e}");
    // scaled_add: broadcast, integers wrap, a mismatch leaves self unchanged.
    let mut s: Tensor<i32, Shape![2, 3]> = Tensor::from([[1, 2, 3], [4, 5, 6]]);
    s.scaled_add(-2, &Tensor::from([1, 0, 1]));
    assert_eq!(s.to_vec(), [-1, 2, 1, 2, 5, 4]);
    let mut w = Tensor::from([i8::MAX]);
    w.scaled_add(2, &Tensor::from([1i8]));
    assert_eq!(w.to_vec(), [i8::MIN + 1]);
    let mut d = Tensor::<f32, DynShape>::ones_sized(&[2, 3]);
    assert!(d.try_scaled_add(1.0, &Tensor::<f32, DynShape>::ones_sized(&[2])).is_err());
    assert_eq!(d.to_vec(), [1.0; 6]);
}

#[test]
fn stacking_diagonals_and_grids_match_numpy() {
    type T = Tensor<i64, DynShape>;
    let a1 = Tensor::from([0i64, 1, 2]);
    let b1 = Tensor::from([10i64, 11, 12]);
    let a2 = Tensor::from([[0i64, 1, 2], [3, 4, 5]]);
    let b2 = Tensor::from([[20i64, 21], [22, 23]]);
    let a3 = &a2 + 100;
    let check = |t: T, sizes: &[usize], values: &[i64]| assert_eq!((t.sizes(), t.to_vec().as_slice()), (sizes, values));
    check(T::hstack(&[&a1, &b1]), data::HSTACK_1D_SIZES, data::HSTACK_1D);
    check(T::hstack(&[&a2.as_dyn(), &b2.as_dyn()]), data::HSTACK_2D_SIZES, data::HSTACK_2D);
    check(T::vstack(&[&a1, &b1]), data::VSTACK_1D_SIZES, data::VSTACK_1D);
    check(T::vstack(&[&a2, &a3]), data::VSTACK_2D_SIZES, data::VSTACK_2D);
    check(T::dstack(&[&a1, &b1]), data::DSTACK_1D_SIZES, data::DSTACK_1D);
    check(T::dstack(&[&a2, &a3]), data::DSTACK_2D_SIZES, data::DSTACK_2D);
    assert!(T::try_vstack(&[&a2.as_dyn(), &b2.as_dyn()]).is_err(), "3 and 2 columns");
    let none: [&Tensor<i64, (Dyn,)>; 0] = [];
    assert!(T::try_hstack(&none).is_err());

    let d: Tensor<i64, Shape![3, 3]> = b1.diag_embed();
    assert_eq!(d.to_vec(), data::DIAG_0);
    assert_eq!(b1.diag_embed_dyn(2).to_vec(), data::DIAG_2);
    assert_eq!(b1.diag_embed_dyn(-1).to_vec(), data::DIAG_M1);
    // Batched, from a transposed view: each row of [3, 2] on the diagonal of a 2x2.
    let batch: Tensor<i64, Shape![3, 2, 2]> = a2.t().diag_embed();
    assert_eq!(batch.to_vec(), [0, 0, 0, 3, 1, 0, 0, 4, 2, 0, 0, 5]);
    // The diagonal of the embedding is the input.
    assert_eq!(d.diagonal(0, 0, 1).to_vec(), b1.to_vec());
    assert!(Tensor::<i64, DynShape>::try_from_vec(&[], vec![1]).unwrap().try_diag_embed_dyn(0).is_err());

    let nine = Tensor::from([9i64]);
    let bd = T::block_diag(&[&a2.as_dyn(), &b2.as_dyn(), &nine.as_dyn()]);
    assert_eq!(bd.sizes(), &[5, 6]);
    #[rustfmt::skip]
    let want = [
        0, 1, 2, 0, 0, 0,
        3, 4, 5, 0, 0, 0,
        0, 0, 0, 20, 21, 0,
        0, 0, 0, 22, 23, 0,
        0, 0, 0, 0, 0, 9,
    ];
    assert_eq!(bd.to_vec(), want);
    assert!(T::try_block_diag(&[&Tensor::<i64, DynShape>::ones_sized(&[1, 1, 1])]).is_err());

    let y = Tensor::from([7i64, 8]);
    let g = meshgrid(&[a1.as_dyn(), y.as_dyn()], Indexing::Xy);
    assert_eq!((g[0].sizes(), g[0].to_vec().as_slice()), (&[2, 3][..], data::MESH_XY_0));
    assert_eq!(g[1].to_vec(), data::MESH_XY_1);
    let g = meshgrid(&[a1.as_dyn(), y.as_dyn(), b1.as_dyn()], Indexing::Ij);
    assert_eq!(g[2].sizes(), &[3, 2, 3]);
    assert_eq!(g[2].to_vec()[..6], [10, 11, 12, 10, 11, 12]);
    assert!(try_meshgrid(&[a2.as_dyn()], Indexing::Ij).is_err());
}

#[test]
fn split_squeeze_and_expand_as() {
    let x: Tensor<i32, Shape![5, 2]> = Tensor::from([[0, 1], [2, 3], [4, 5], [6, 7], [8, 9]]);
    let p = x.split_sizes(&[1, 4], Ax::<0>);
    let _: &TensorView<i32, (Dyn, Const<2>)> = &p[0];
    assert_eq!((p[0].to_vec(), p[1].to_vec()), (vec![0, 1], vec![2, 3, 4, 5, 6, 7, 8, 9]));
    let q = x.split_sizes(&[1, 0, 1], -1);
    assert_eq!((q[0].to_vec(), q[1].numel(), q[2].to_vec()), (vec![0, 2, 4, 6, 8], 0, vec![1, 3, 5, 7, 9]));
    let e = common::err(x.try_split_sizes(&[2, 2], Ax::<0>));
    assert!(e.contains("[2, 2]") && e.contains("size 5"), "{e}");
    assert!(x.try_split_sizes(&[usize::MAX, 3], Ax::<1>).is_err());

    let y: Tensor<f32, Shape![1, 3, 1]> = Tensor::from([[[1.0], [2.0], [3.0]]]);
    assert_eq!(y.squeeze_all().sizes(), &[3]);
    let one: Tensor<f32, Shape![1, 1]> = Tensor::from([[4.0]]);
    assert_eq!(one.squeeze_all().sizes(), &[] as &[usize]);

    let col: Tensor<i32, Shape![5, 1]> = Tensor::from([[1], [2], [3], [4], [5]]);
    let v = col.expand_as(&x);
    let _: &TensorView<i32, Shape![5, 2]> = &v;
    assert_eq!(v.to_vec(), [1, 1, 2, 2, 3, 3, 4, 4, 5, 5]);
    let d = Tensor::<i32, DynShape>::ones_sized(&[3]);
    assert!(d.try_expand_as(&x).is_err(), "3 does not broadcast to [5, 2]");
}

fn m4(v: &[f64]) -> Tensor<f64, Shape![4, 4]> {
    Tensor::try_from_vec(&[4, 4], v.to_vec()).unwrap()
}

#[test]
fn triangular_solves_match_numpy() {
    let b: Tensor<f64, Shape![4, 3]> = Tensor::try_from_vec(&[4, 3], data::BM.to_vec()).unwrap();
    let bv: Tensor<f64, Shape![4]> = Tensor::try_from_vec(&[4], data::BV.to_vec()).unwrap();
    let (l, u) = (m4(data::TRI_L), m4(data::TRI_U));
    let x: Tensor<f64, Shape![4, 3]> = l.solve_triangular(&b, false, false);
    assert!(close(&x.to_vec(), data::SOLVE_L, 1e-13), "{:?}", x.to_vec());
    assert!(close(&u.solve_triangular(&b, true, false).to_vec(), data::SOLVE_U, 1e-13));
    // Only the named triangle is read: garbage above the diagonal of `l` changes nothing, and
    // the unit diagonal is not read either.
    let mut noisy = l.clone();
    noisy.fill_(7.5);
    let full = &noisy.triu(1) + &l;
    assert!(close(&full.solve_triangular(&b, false, false).to_vec(), data::SOLVE_L, 1e-13));
    assert!(close(&full.solve_triangular(&bv, false, true).to_vec(), data::SOLVE_UNIT_L, 1e-13));
    // Batched: the same matrix twice against two right sides.
    let lb = Tensor::stack_all(&[&l, &l], 0).into_dyn();
    let bb = Tensor::stack_all(&[&b, &(&b * 2.0)], 0).into_dyn();
    let xb = lb.solve_triangular(&bb, false, false).to_vec();
    assert!(close(&xb[..12], data::SOLVE_L, 1e-13));
    assert!(close(&xb[12..], &data::SOLVE_L.iter().map(|v| v * 2.0).collect::<Vec<_>>(), 1e-13));
    // Right side: x · u = bᵀ, checked by multiplying back; batched against one matrix.
    let bt = b.t().contiguous().into_owned();
    let xr: Tensor<f64, Shape![3, 4]> = u.solve_triangular_right(&bt, true, false);
    assert!(close(&xr.matmul(&u).to_vec(), &bt.to_vec(), 1e-13));
    let xl = l.solve_triangular_right(&bt, false, false);
    assert!(close(&xl.matmul(&l).to_vec(), &bt.to_vec(), 1e-13));
    let b3 = Tensor::stack_all(&[&bt, &bt], 0).into_dyn();
    let x3 = u.as_dyn().solve_triangular_right(&b3, true, false).to_vec();
    assert!(close(&x3[..12], &xr.to_vec(), 0.0) && close(&x3[12..], &xr.to_vec(), 0.0));
    assert!(u.try_solve_triangular_right(&b, true, false).is_err(), "[4, 3]: 3 columns against n = 4");
    // A zero on the diagonal is an error, not inf.
    let mut sing = l.clone();
    sing.as_view_mut().diagonal_mut(0, 0, 1).fill_(1.0);
    t!(sing[2, 2] = 0.0);
    let e = common::err(sing.try_solve_triangular(&bv, false, false));
    assert!(e.contains("singular"), "{e}");
    assert!(sing.try_solve_triangular(&bv, false, true).is_ok(), "unit diagonal: the zero is not read");

    // cholesky_solve needs only the factor: the one NumPy computed.
    let chol = m4(data::CHOL);
    assert!(close(&b.cholesky_solve(&chol).to_vec(), data::SPD_SOLVE, 1e-12));
}

#[test]
#[cfg(feature = "linalg")]
fn factor_objects_match_numpy() {
    let b: Tensor<f64, Shape![4, 3]> = Tensor::try_from_vec(&[4, 3], data::BM.to_vec()).unwrap();
    let bv: Tensor<f64, Shape![4]> = Tensor::try_from_vec(&[4], data::BV.to_vec()).unwrap();
    let a = m4(data::SPD);
    let f = a.cholesky_factor();
    assert!(close(&f.l().to_vec(), data::CHOL, 1e-13));
    assert!(close(&f.solve(&b).to_vec(), data::SPD_SOLVE, 1e-12));
    assert!(close(&f.inverse().to_vec(), data::SPD_INV, 1e-12));
    assert!(close(&[f.det()], &[data::SPD_DET], 1e-12));
    assert!(close(&b.cholesky_solve(f.l()).to_vec(), data::SPD_SOLVE, 1e-12));

    let g = m4(data::G);
    let lu = g.lu_factor();
    assert!(close(&lu.solve(&bv).to_vec(), data::G_SOLVE, 1e-12), "{:?}", lu.solve(&bv).to_vec());
    assert!(close(&lu.inverse().to_vec(), data::G_INV, 1e-12));
    assert!(close(&[lu.det()], &[data::G_DET], 1e-12), "{} vs {}", lu.det(), data::G_DET);
    // A singular matrix factorises; solving with it is the error.
    let s = Tensor::from([[1.0f64, 2.0], [2.0, 4.0]]);
    let sf = s.lu_factor();
    assert_eq!(sf.det(), 0.0);
    assert!(common::err(sf.try_solve(&Tensor::from([1.0, 1.0]))).contains("singular"));
    assert!(Tensor::from([[1.0f64, 2.0], [2.0, 1.0]]).try_cholesky_factor().is_err());

    assert!(close(&[g.cond()], &[data::G_COND], 1e-12));
    assert!(close(&[a.cond()], &[data::SPD_COND], 1e-12));
    assert_eq!(Tensor::from([[1.0f64, 0.0], [0.0, 0.0]]).cond(), f64::INFINITY);
}

#[test]
fn multi_dot_and_matrix_exp_match_references() {
    type T = Tensor<f64, DynShape>;
    let a1 = T::try_from_vec(&[3, 5], data::MD_A1.to_vec()).unwrap();
    let a2 = T::try_from_vec(&[5, 2], data::MD_A2.to_vec()).unwrap();
    let a3 = T::try_from_vec(&[2, 6], data::MD_A3.to_vec()).unwrap();
    let v6 = T::try_from_vec(&[6], data::MD_V6.to_vec()).unwrap();
    assert!(close(&T::multi_dot(&[&a1, &a2, &a3]).to_vec(), data::MULTI_DOT, 1e-13));
    let mv = T::multi_dot(&[&a1, &a2, &a3, &v6]);
    assert_eq!(mv.sizes(), &[3]);
    assert!(close(&mv.to_vec(), data::MULTI_DOT_V, 1e-13));
    let e = common::err(T::try_multi_dot(&[&a1, &a3]));
    assert!(e.contains("[3, 5]") && e.contains("[2, 6]"), "{e}");
    assert!(T::try_multi_dot(&[&a1]).is_err());

    for (scale, want, tol) in
        [(1.0, data::EXPM_G, 1e-13), (7.5, data::EXPM_BIG, 1e-11), (1e-3, data::EXPM_SMALL, 1e-14)]
    {
        let g = &m4(data::G) * scale;
        let e: Tensor<f64, Shape![4, 4]> = g.matrix_exp();
        assert!(close(&e.to_vec(), want, tol), "scale {scale}: {:?} vs {want:?}", e.to_vec());
    }
    // exp(0) = I, exp of a diagonal is the exponentials, a batch, and NaN for non-finite input.
    let z: Tensor<f32, Shape![3, 3]> = Tensor::zeros();
    assert_eq!(z.matrix_exp().to_vec(), [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]);
    let d = Tensor::from([[[1.0f64, 0.0], [0.0, -2.0]], [[0.5, 0.0], [0.0, 0.0]]]).matrix_exp().to_vec();
    assert!(close(&d, &[1f64.exp(), 0.0, 0.0, (-2f64).exp(), 0.5f64.exp(), 0.0, 0.0, 1.0], 1e-15));
    assert!(Tensor::from([[f64::INFINITY]]).matrix_exp().to_vec()[0].is_nan());
}

#[test]
#[cfg(feature = "linalg")]
fn full_svd_reconstructs() {
    for (m, n) in [(3usize, 5usize), (5, 3), (4, 4), (0, 2), (2, 0)] {
        let a = Tensor::<f64, DynShape>::try_from_vec(
            &[m, n],
            data::MD_A1.iter().chain(data::G).copied().cycle().take(m * n).collect(),
        )
        .unwrap();
        let (u, s, vh) = a.svd_full();
        assert_eq!((u.sizes(), vh.sizes()), (&[m, m][..], &[n, n][..]));
        // Orthogonal factors, and A = U[:, :k] diag(S) Vh[:k, :].
        let eye = |k: usize| Tensor::<f64, DynShape>::eye_sized(k, k);
        assert!(close(&u.matmul(&u.t()).to_vec(), &eye(m).to_vec(), 1e-13), "{m}x{n}");
        assert!(close(&vh.matmul(&vh.t()).to_vec(), &eye(n).to_vec(), 1e-13), "{m}x{n}");
        let k = m.min(n);
        let us = u.narrow(1, 0, k) * s.unsqueeze(0);
        let back = us.matmul(&vh.narrow(0, 0, k));
        assert!(close(&back.to_vec(), &a.to_vec(), 1e-13), "{m}x{n}");
        assert!(close(&s.to_vec(), &a.svdvals().to_vec(), 1e-14));
    }
    let x: Tensor<f32, Shape![2, 3]> = Tensor::from([[3.0, 0.0, 0.0], [0.0, 4.0, 0.0]]);
    let (u, s, vh) = x.svd_full();
    let _: &Tensor<f32, Shape![2, 2]> = &u;
    let _: &Tensor<f32, Shape![2]> = &s;
    let _: &Tensor<f32, Shape![3, 3]> = &vh;
    assert_eq!(s.to_vec(), [4.0, 3.0]);
    assert_eq!((u.numel(), vh.numel()), (4, 9));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases(256, 8), failure_persistence: None, ..ProptestConfig::default() })]

    /// For every mode, the middle of the padded tensor is the input, and each pad position
    /// holds the input element its mode names.
    #[test]
    fn pad_identities(
        (rows, n, x) in (1usize..4, 1usize..6).prop_flat_map(|(r, n)| (Just(r), Just(n), proptest::collection::vec(-50i32..50, r * n))),
        left in 0usize..6,
        right in 0usize..6,
        m in 0usize..4,
    ) {
        let mode = [PadMode::Constant, PadMode::Reflect, PadMode::Replicate, PadMode::Circular][m];
        let t = Tensor::<i32, DynShape>::try_from_vec(&[rows, n], x.clone()).unwrap();
        let got = t.try_pad_dyn(&[left, right], mode, 77);
        let fits = match mode {
            PadMode::Reflect => left < n && right < n,
            PadMode::Circular => left <= n && right <= n,
            _ => true,
        };
        prop_assert_eq!(got.is_ok(), fits);
        let Ok(y) = got else { return Ok(()) };
        let w = n + left + right;
        prop_assert_eq!(y.sizes(), &[rows, w]);
        let y = y.to_vec();
        for r in 0..rows {
            for k in 0..w {
                let i = k as i64 - left as i64;
                let n = n as i64;
                let want = match mode {
                    PadMode::Constant if i < 0 || i >= n => 77,
                    PadMode::Reflect => x[r * n as usize + (if i < 0 { -i } else if i >= n { 2 * n - 2 - i } else { i }) as usize],
                    PadMode::Replicate => x[r * n as usize + i.clamp(0, n - 1) as usize],
                    _ => x[r * n as usize + i.rem_euclid(n) as usize],
                };
                prop_assert_eq!(y[r * w + k], want, "row {} position {}", r, k);
            }
        }
    }

    /// `unique_all` rebuilds its input (`values[inverse] == x`), its values strictly increase
    /// and its counts add up; `searchsorted` brackets each value in the sorted input.
    #[test]
    fn unique_and_searchsorted_identities(x in proptest::collection::vec(-6i32..6, 0..40), v in proptest::collection::vec(-8i32..8, 0..10)) {
        let t = Tensor::<i32, DynShape>::try_from_vec(&[x.len()], x.clone()).unwrap();
        let u = t.unique_all();
        let (vals, inv, cnt) = (u.values.to_vec(), u.inverse.to_vec(), u.counts.to_vec());
        prop_assert!(vals.windows(2).all(|w| w[0] < w[1]));
        prop_assert_eq!(cnt.iter().sum::<i64>() as usize, x.len());
        prop_assert_eq!(inv.iter().map(|&i| vals[i as usize]).collect::<Vec<_>>(), x.clone());
        let mut sorted = x.clone();
        sorted.sort();
        let s = Tensor::<i32, (Dyn,)>::try_from_vec(&[sorted.len()], sorted.clone()).unwrap();
        let q = Tensor::<i32, (Dyn,)>::try_from_vec(&[v.len()], v.clone()).unwrap();
        let (left, right) = (s.searchsorted(&q, false).to_vec(), s.searchsorted(&q, true).to_vec());
        for (k, &val) in v.iter().enumerate() {
            let (l, r) = (left[k] as usize, right[k] as usize);
            prop_assert!(l <= r && r <= sorted.len());
            prop_assert!(sorted[..l].iter().all(|&e| e < val) && sorted[l..r].iter().all(|&e| e == val));
            prop_assert!(sorted[r..].iter().all(|&e| e > val));
        }
        // bincount of the shifted values counts each value's occurrences.
        let shifted = Tensor::<i64, (Dyn,)>::try_from_vec(&[x.len()], x.iter().map(|&e| (e + 6) as i64).collect()).unwrap();
        let bc = shifted.bincount(0).to_vec();
        for (val, &c) in vals.iter().zip(&cnt) {
            prop_assert_eq!(bc[(*val + 6) as usize], c);
        }
    }

    /// Floor division and remainder recombine (`q * b + r == a`, wrapping), and the remainder
    /// takes the divisor's sign and is smaller than it in magnitude.
    #[test]
    fn floor_division_identities(a in proptest::collection::vec(any::<i32>(), 1..20), b in proptest::collection::vec(any::<i32>().prop_filter("nonzero", |&b| b != 0), 1..20)) {
        let n = a.len().min(b.len());
        let ta = Tensor::<i32, (Dyn,)>::try_from_vec(&[n], a[..n].to_vec()).unwrap();
        let tb = Tensor::<i32, (Dyn,)>::try_from_vec(&[n], b[..n].to_vec()).unwrap();
        let (q, r) = (ta.floor_divide(&tb).to_vec(), ta.remainder(&tb).to_vec());
        for k in 0..n {
            prop_assert_eq!(q[k].wrapping_mul(b[k]).wrapping_add(r[k]), a[k]);
            prop_assert!(r[k] == 0 || (r[k] < 0) == (b[k] < 0));
            prop_assert!((r[k] as i64).abs() < (b[k] as i64).abs());
        }
    }

    /// `split_sizes` then `hstack` is the identity, and `repeat_interleave` equals an
    /// `index_select` with each position repeated.
    #[test]
    fn split_stack_and_repeat_identities(
        (rows, sections) in (1usize..4, proptest::collection::vec(0usize..4, 1..5)),
        k in 0usize..4,
    ) {
        let n: usize = sections.iter().sum();
        let x = Tensor::<i32, DynShape>::try_from_vec(&[rows, n], (0..(rows * n) as i32).collect()).unwrap();
        let parts = x.split_sizes(&sections, 1);
        let back = Tensor::<i32, DynShape>::hstack(&parts.iter().collect::<Vec<_>>());
        prop_assert_eq!(back.to_vec(), x.to_vec());
        let counts = Tensor::<i64, (Dyn,)>::try_from_vec(&[n], vec![k as i64; n]).unwrap();
        let idx: Vec<i64> = (0..n as i64).flat_map(|i| std::iter::repeat_n(i, k)).collect();
        let idx = Tensor::<i64, (Dyn,)>::try_from_vec(&[idx.len()], idx).unwrap();
        prop_assert_eq!(x.repeat_interleave_counts(&counts, 1).to_vec(), x.index_select(1, &idx).to_vec());
    }
}

// ---------------------------------------------------------------- issue 35: hostile inputs

/// `matrix_exp` of finite elements whose 1-norm overflows f64 (`log2(inf)` made the squaring
/// count saturate at i32::MAX: the call never returned). Now at most ~1024 squarings: an
/// exponential past the range is `inf`/NaN (as `torch.linalg.matrix_exp`), one within it is
/// exact where scaling by powers of two is (a nilpotent matrix: `exp(N) = I + N`).
#[test]
#[cfg_attr(miri, ignore = "about a thousand 2x2 squarings and solves: slow under Miri")]
fn matrix_exp_of_huge_elements_returns_at_once() {
    let x = Tensor::<f64, DynShape>::from_vec(&[2, 2], vec![1e308; 4]);
    let e = x.try_matrix_exp().unwrap().to_vec();
    assert!(e.iter().all(|v| !v.is_finite()), "{e:?}");
    // exp([[a, a], [a, a]]) = I + (e^{2a} - 1) / 2 * ones: every element +inf.
    assert!(e.iter().all(|&v| v == f64::INFINITY), "{e:?}");
    let n = Tensor::<f64, DynShape>::from_vec(&[2, 2], vec![0.0, 1e308, 0.0, 0.0]);
    assert_eq!(n.matrix_exp().to_vec(), [1.0, 1e308, 0.0, 1.0]);
    let n = Tensor::<f64, DynShape>::from_vec(&[2, 2], vec![0.0, f64::MAX, 0.0, 0.0]);
    assert_eq!(n.matrix_exp().to_vec(), [1.0, f64::MAX, 0.0, 1.0]);
    let f = Tensor::<f32, Shape![2, 2]>::full(3e38);
    assert!(f.matrix_exp().to_vec().iter().all(|&v| v == f32::INFINITY));
    let n = Tensor::<f32, Shape![2, 2]>::from([[0.0, f32::MAX], [0.0, 0.0]]);
    assert_eq!(n.matrix_exp().to_vec(), [1.0, f32::MAX, 0.0, 1.0]);
}

/// Non-finite elements give NaN at once (no scaling loop over them).
#[test]
fn matrix_exp_of_non_finite_elements_returns_at_once() {
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let x = Tensor::<f64, DynShape>::from_vec(&[2, 2], vec![1.0, bad, 0.0, 1e308]);
        assert!(x.matrix_exp().to_vec().iter().all(|v| v.is_nan()), "{bad}");
    }
}

/// `histc` bins in f64: the width `hi - lo` of `[-3e38, 3e38]` is inf in f32 (every element went
/// to the last bin), 70000 bins is inf in f16, and an f64 width past f64's range is binned by
/// halves. The bins of the exact arithmetic.
#[test]
fn histc_bins_do_not_overflow_the_element_type() {
    use shaped::f16;
    let x = Tensor::from([0.0f32, 1e38, -2e38]);
    assert_eq!(x.try_histc(4, -3e38, 3e38).unwrap().to_vec(), [1.0, 0.0, 2.0, 0.0]);
    let h = Tensor::from([f16::from_f32(0.0), f16::from_f32(0.5), f16::from_f32(1.0)]);
    let c = h.try_histc(70000, f16::from_f32(0.0), f16::from_f32(1.0)).unwrap().to_vec();
    assert_eq!(c.len(), 70000);
    let ones: Vec<usize> = (0..c.len()).filter(|&i| c[i] != f16::ZERO).collect();
    assert_eq!(ones, [0, 35000, 69999]);
    assert!(ones.iter().all(|&i| c[i] == f16::ONE));
    // f64 bounds whose width overflows: -1e308 is in bin 0, 0.5e308 in bin 2 of 4.
    let d = Tensor::from([0.5e308f64, -1e308]);
    assert_eq!(d.try_histc(4, -1.5e308, 1.5e308).unwrap().to_vec(), [1.0, 0.0, 1.0, 0.0]);
    // Over [-MAX, MAX]: positions 0.89 and 2.56.
    assert_eq!(d.try_histc(4, -f64::MAX, f64::MAX).unwrap().to_vec(), [1.0, 0.0, 1.0, 0.0]);
}

/// `adaptive_avg_pool2d_dyn` to `[2^32, 2^32]`: `oh * ow` overflowed (a debug-build panic); the
/// output's element count is the overflow error.
#[test]
#[cfg(target_pointer_width = "64")]
fn adaptive_pool_to_an_overflowing_size_is_the_overflow_error() {
    let x = Tensor::<f32, DynShape>::zeros_sized(&[1, 1, 2, 0]);
    match x.try_adaptive_avg_pool2d_dyn([1 << 32, 1 << 32]) {
        Err(ShapeError::Overflow { sizes }) => assert_eq!(sizes, [1, 1, 1 << 32, 1 << 32]),
        r => panic!("{:?}", r.map(|t| t.sizes().to_vec())),
    }
    let y = Tensor::<f32, DynShape>::zeros_sized(&[1, 1, 2, 2]);
    assert!(matches!(y.try_adaptive_avg_pool2d_dyn([1 << 32, 1 << 32]), Err(ShapeError::Overflow { .. })));
    // An empty plane with a non-empty output that fits is still its own error.
    assert!(common::err(x.try_adaptive_avg_pool2d_dyn([1, 1])).contains("empty input plane"));
    assert_eq!(x.adaptive_avg_pool2d_dyn([0, 3]).sizes(), [1, 1, 0, 3]);
}

/// Counts that overflow the result are named with their position (the error named the input's
/// shape), and `repeat_dyn` checks the result's size before allocating anything (it ran out of
/// memory for an index table of an intermediate result).
#[test]
#[cfg(target_pointer_width = "64")]
fn repeat_overflows_name_the_count() {
    let x: Tensor<f32, Shape![2, 2]> = Tensor::ones();
    let e = common::err(x.try_repeat_interleave_counts(&Tensor::from([u64::MAX, 1]), 0));
    assert_eq!(
        e,
        "repeat_interleave: count 18446744073709551615 at position 0 overflows the result: dimension 0 of [2, 2] \
         would hold 18446744073709551615 elements"
    );
    let e = common::err(x.try_repeat_interleave_counts(&Tensor::from([1, u64::MAX]), 1));
    assert!(e.starts_with("repeat_interleave: count 18446744073709551615 at position 1 "), "{e}");
    // Past isize (with the other dim) before usize: the count at which it happens.
    let e = common::err(x.try_repeat_interleave_counts(&Tensor::from([3i64, 1 << 62]), 0));
    assert!(e.starts_with("repeat_interleave: count 4611686018427387904 at position 1 "), "{e}");
    match x.try_repeat_dyn(&[1 << 31, 1 << 31]) {
        Err(e @ ShapeError::Overflow { .. }) => {
            assert_eq!(e.to_string(), "the element count of [4294967296, 4294967296] overflows isize")
        }
        r => panic!("{:?}", r.map(|t| t.sizes().to_vec())),
    }
    let e = common::err(x.try_repeat_dyn(&[1, usize::MAX]));
    assert!(e.contains(&format!("count {} for dimension 1 of size 2", usize::MAX)), "{e}");
}
