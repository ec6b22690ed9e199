//! `scatter_add`, `scatter_reduce`, `index_add` and `index_put_` (issue 29): PyTorch's documented examples,
//! NumPy's unbuffered `ufunc.at` (`np.add.at`, `np.maximum.at`, ...) for the cases it can state,
//! and a property test against a reference written apart from the library: plain loops over the
//! coordinates of a `[R, C]` index, on contiguous and transposed tensors, with repeated
//! positions, NaN and wrapping integers.
mod common;

use proptest::prelude::*;
use shaped::prelude::*;

#[test]
fn pytorch_documented_examples() {
    // torch.Tensor.scatter_reduce_ docs: src = [1..6], index = [0, 1, 0, 1, 2, 1].
    let src = Tensor::from([1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let index = Tensor::from([0i64, 1, 0, 1, 2, 1]);
    let input = Tensor::from([1.0f32, 2.0, 3.0, 4.0]);
    assert_eq!(input.scatter_reduce(Ax::<0>, &index, &src, ScatterReduce::Sum, true).to_vec(), [5.0, 14.0, 8.0, 4.0]);
    assert_eq!(input.scatter_reduce(Ax::<0>, &index, &src, ScatterReduce::Sum, false).to_vec(), [4.0, 12.0, 5.0, 4.0]);
    let input2 = Tensor::from([5.0f32, 4.0, 3.0, 2.0]);
    assert_eq!(input2.scatter_reduce(Ax::<0>, &index, &src, ScatterReduce::Amax, true).to_vec(), [5.0, 6.0, 5.0, 2.0]);
    assert_eq!(input2.scatter_reduce(Ax::<0>, &index, &src, ScatterReduce::Amax, false).to_vec(), [3.0, 6.0, 5.0, 2.0]);
    // torch.Tensor.scatter_add_ docs: src = ones(2, 5), index = [[0, 1, 2, 0, 0]] along 0.
    let x: Tensor<f32, Shape![3, 5]> = Tensor::zeros();
    let ones: Tensor<f32, Shape![2, 5]> = Tensor::ones();
    let y = x.scatter_add(Ax::<0>, &Tensor::from([[0i64, 1, 2, 0, 0]]), &ones);
    assert_eq!(y.to_vec(), [1., 0., 0., 1., 1., 0., 1., 0., 0., 0., 0., 0., 1., 0., 0.]);
    let y = x.scatter_add(Ax::<0>, &Tensor::from([[0i64, 1, 2, 0, 0], [0, 1, 2, 2, 2]]), &ones);
    assert_eq!(y.to_vec(), [2., 0., 0., 1., 1., 0., 2., 0., 0., 0., 0., 0., 2., 1., 1.]);
    // torch.Tensor.index_add_ docs: x = ones(5, 3), t = [[1,2,3],[4,5,6],[7,8,9]], index = [0, 4, 2].
    let x: Tensor<f32, Shape![5, 3]> = Tensor::ones();
    let t: Tensor<f32, Shape![3, 3]> = Tensor::from([[1., 2., 3.], [4., 5., 6.], [7., 8., 9.]]);
    let y = x.index_add(Ax::<0>, &Tensor::from([0i64, 4, 2]), &t, 1.0);
    assert_eq!(y.to_vec(), [2., 3., 4., 1., 1., 1., 8., 9., 10., 1., 1., 1., 5., 6., 7.]);
    // ... and with alpha = 2 along the columns: x = ones(2, 3), index = [0, 2, 0].
    let x: Tensor<f32, Shape![2, 3]> = Tensor::ones();
    let s: Tensor<f32, Shape![2, 3]> = Tensor::from([[1., 2., 3.], [4., 5., 6.]]);
    let y = x.index_add(Ax::<1>, &Tensor::from([0i64, 2, 0]), &s, 2.0);
    assert_eq!(y.to_vec(), [9., 1., 5., 21., 1., 11.]);
}

#[test]
fn numpy_ufunc_at_cases() {
    // np.add.at(a, [0, 0, 3, 3, 3], [1, 2, 3, 4, 5]) on a = arange(5): [3, 1, 2, 15, 4].
    let mut a = Tensor::from([0i32, 1, 2, 3, 4]);
    a.scatter_add_(Ax::<0>, &Tensor::from([0i64, 0, 3, 3, 3]), &Tensor::from([1, 2, 3, 4, 5]));
    assert_eq!(a.to_vec(), [3, 1, 2, 15, 4]);
    // np.multiply.at(b, [1, 1, 2], [2, 3, 4]) on b = [1., 2., 3.]: [1, 12, 12].
    let b = Tensor::from([1.0f64, 2.0, 3.0]);
    let i = Tensor::from([1i64, 1, 2]);
    let v = Tensor::from([2.0, 3.0, 4.0]);
    assert_eq!(b.scatter_reduce(Ax::<0>, &i, &v, ScatterReduce::Prod, true).to_vec(), [1.0, 12.0, 12.0]);
    // np.minimum.at(c, [0, 0, 2], [5, -1, 9]) on c = [0, 0, 0]: [-1, 0, 0].
    let c = Tensor::from([0i64, 0, 0]);
    let r =
        c.scatter_reduce(Ax::<0>, &Tensor::from([0i64, 0, 2]), &Tensor::from([5, -1, 9]), ScatterReduce::Amin, true);
    assert_eq!(r.to_vec(), [-1, 0, 0]);
    // np.add.at(x, [1, -1], 1) on x = zeros(3) is [0, 1, 1], but PyTorch's scatter_add_ rejects
    // the -1 ("index -1 is out of bounds for dimension 0 with size 3"), and so does this crate
    // (issue 35); index_put_ with accumulate is np.add.at's form and counts from the end.
    let mut x = Tensor::from([0u8, 0, 0]);
    let e = common::err(x.try_scatter_add_(Ax::<0>, &Tensor::from([1i64, -1]), &Tensor::from([1u8, 1])));
    assert_eq!(
        e,
        "index -1 at position [1] is out of bounds for dimension 0 of size 3 \
         (negative indices are not counted from the end here, as in PyTorch)"
    );
    assert_eq!(x.to_vec(), [0, 0, 0]);
    x.index_put_(&[&Tensor::from([1i64, -1])], &Tensor::from([1u8, 1]), true);
    assert_eq!(x.to_vec(), [0, 1, 1]);
}

/// Issue 35: the writing operations reject negative index entries as PyTorch does
/// (`torch.zeros(2, 4).scatter_add_(1, tensor([[0, 1, -1]]), ones(1, 3))` raises "index -1 is out
/// of bounds for dimension 1 with size 4"; so do `scatter_`, `scatter_reduce_` and
/// `index_add_`), naming the entry and its position in the index; the tensor is unchanged.
/// `gather` and `index_select` still count negative entries from the end.
#[test]
fn writing_ops_reject_negative_indices() {
    let mut x: Tensor<f32, Shape![2, 4]> = Tensor::zeros();
    let src: Tensor<f32, Shape![2, 3]> = Tensor::ones();
    let idx = Tensor::from([[0i64, 1, 2], [0, 1, -1]]);
    let want = "index -1 at position [1, 2] is out of bounds for dimension 1 of size 4 \
                (negative indices are not counted from the end here, as in PyTorch)";
    assert_eq!(common::err(x.try_scatter_add_(Ax::<1>, &idx, &src)), want);
    assert_eq!(common::err(x.try_scatter_(Ax::<1>, &idx, &src)), want);
    assert_eq!(common::err(x.try_scatter_value_(Ax::<1>, &idx, 5.0)), want);
    assert_eq!(common::err(x.try_scatter_reduce_(Ax::<1>, &idx, &src, ScatterReduce::Sum, true)), want);
    assert_eq!(common::err(x.try_scatter_reduce_(Ax::<1>, &idx, &src, ScatterReduce::Mean, false)), want);
    assert!(matches!(
        x.try_scatter_add(Ax::<1>, &idx, &src),
        Err(ShapeError::IndexEntry { index: -1, ref position, axis: 1, size: 4 }) if position == &[1, 2]
    ));
    // u64 and i8 index tensors: the entry as given.
    let e = common::err(x.try_scatter_add_(Ax::<1>, &Tensor::from([[u64::MAX]]), &src));
    assert_eq!(e, "index 18446744073709551615 at position [0, 0] is out of bounds for dimension 1 of size 4");
    let e = common::err(x.try_scatter_(Ax::<0>, &Tensor::from([[0i8], [-2]]), &src));
    assert!(e.starts_with("index -2 at position [1, 0] is out of bounds for dimension 0 of size 2"), "{e}");
    // index_add_: the position in the 1-D index.
    let rows: Tensor<f32, Shape![3, 4]> = Tensor::ones();
    let e = common::err(x.try_index_add_(Ax::<0>, &Tensor::from([0i64, 1, -2]), &rows, 1.0));
    assert!(e.starts_with("index -2 at position [2] is out of bounds for dimension 0 of size 2"), "{e}");
    let cols: Tensor<f32, Shape![2, 2]> = Tensor::ones();
    let e = common::err(x.try_index_add_(Ax::<1>, &Tensor::from([3i64, 4]), &cols, 1.0));
    assert_eq!(e, "index 4 at position [1] is out of bounds for dimension 1 of size 4");
    assert_eq!(x.to_vec(), [0.0; 8], "no write before every index is checked");
    // The reading operations keep counting from the end.
    let y: Tensor<f32, Shape![2, 4]> = Tensor::from([[0., 1., 2., 3.], [4., 5., 6., 7.]]);
    assert_eq!(y.gather(Ax::<1>, &Tensor::from([[-1i64], [-4]])).to_vec(), [3., 4.]);
    assert_eq!(y.index_select(Ax::<1>, &Tensor::from([-1i64])).to_vec(), [3., 7.]);
}

#[test]
fn mean_and_integers() {
    // PyTorch: integer "mean" is a floor division; include_self counts self as one more value.
    let x = Tensor::from([0i32, 10, 7]);
    let i = Tensor::from([0i64, 0, 1, 2, 2]);
    let v = Tensor::from([-3, -4, 1, 2, 2]);
    assert_eq!(x.scatter_reduce(Ax::<0>, &i, &v, ScatterReduce::Mean, false).to_vec(), [-4, 1, 2]); // -7/2 floors to -4
    assert_eq!(x.scatter_reduce(Ax::<0>, &i, &v, ScatterReduce::Mean, true).to_vec(), [-3, 5, 3]); // -7/3, 11/2, 11/3
                                                                                                   // Integer sums wrap, as the arithmetic operators (and PyTorch) do.
    let mut w = Tensor::from([250u8, 0]);
    w.scatter_add_(Ax::<0>, &Tensor::from([0i64, 0]), &Tensor::from([3u8, 4]));
    assert_eq!(w.to_vec(), [1, 0]);
    // NaN propagates through amax/amin/sum; untouched positions keep theirs.
    let f = Tensor::from([1.0f32, f32::NAN, 2.0]);
    let r =
        f.scatter_reduce(Ax::<0>, &Tensor::from([0i64, 2]), &Tensor::from([f32::NAN, 1.0]), ScatterReduce::Amax, true);
    assert!(r.to_vec()[0].is_nan() && r.to_vec()[1].is_nan());
    assert_eq!(r.to_vec()[2], 2.0);
}

#[test]
fn errors_leave_the_tensor_unchanged() {
    let mut x: Tensor<f32, Shape![2, 3]> = Tensor::from([[1., 2., 3.], [4., 5., 6.]]);
    let before = x.to_vec();
    // The last entry is out of range: nothing is written, although the first ones are fine.
    let e =
        common::err(x.try_scatter_add_(Ax::<1>, &Tensor::from([[0i64, 1, 3]]), &Tensor::from([[9.0f32, 9.0, 9.0]])));
    assert!(e.contains('3'), "{e}");
    assert_eq!(x.to_vec(), before);
    let e = common::err(x.try_scatter_reduce_(
        Ax::<0>,
        &Tensor::from([[0i64, -3, 0]]),
        &Tensor::from([[9.0f32, 9.0, 9.0]]),
        ScatterReduce::Mean,
        false,
    ));
    assert!(e.contains("-3"), "{e}");
    assert_eq!(x.to_vec(), before);
    // An index larger than src.
    let e = common::err(x.try_scatter_add_(Ax::<0>, &Tensor::from([[0i64, 1, 0]]), &Tensor::from([[9.0f32, 9.0]])));
    assert!(e.contains("[1, 3]") && e.contains("[1, 2]"), "{e}");
    assert_eq!(x.to_vec(), before);
    // index_add: source of the wrong shape, and an index entry outside the dim.
    let e = common::err(x.try_index_add_(Ax::<0>, &Tensor::from([1i64]), &Tensor::from([[1.0f32, 2.0]]), 1.0));
    assert!(e.contains("[2, 3]") && e.contains("[1, 2]"), "{e}");
    let e = common::err(x.try_index_add_(Ax::<0>, &Tensor::from([2i64]), &Tensor::from([[1.0f32, 2.0, 3.0]]), 1.0));
    assert!(e.contains('2'), "{e}");
    assert_eq!(x.to_vec(), before);
    // A DynShape tensor without the axis.
    let mut d = Tensor::<f32, DynShape>::ones_sized(&[3]);
    let e =
        common::err(d.try_scatter_add_(Ax::<1>, &Tensor::from([0i64]).into_dyn(), &Tensor::from([1.0f32]).into_dyn()));
    assert!(e.contains("axis"), "{e}");
}

#[test]
fn index_put_matches_numpy() {
    // np.add.at(x, (i, j), v) and x[i, j] = v on x = zeros((3, 4)).
    let mut x: Tensor<f64, Shape![3, 4]> = Tensor::zeros();
    let (i, j) = (Tensor::from([0i64, 2, 0, -1]), Tensor::from([1i64, 3, 1, 0]));
    x.index_put_(&[&i, &j], &Tensor::from([1.0, 2.0, 3.0, 4.0]), true);
    assert_eq!(x.to_vec(), [0., 4., 0., 0., 0., 0., 0., 0., 4., 0., 0., 2.]);
    x.index_put_(&[&i, &j], &Tensor::from([1.0, 2.0, 3.0, 4.0]), false);
    assert_eq!(x.to_vec(), [0., 3., 0., 0., 0., 0., 0., 0., 4., 0., 0., 2.]);
    // One index tensor: whole rows, values broadcast over them; np.add.at(x, [1, 1], [1, 2, 3, 4]).
    let mut y: Tensor<i32, Shape![3, 4]> = Tensor::zeros();
    y.index_put_(&[&Tensor::from([1i64, 1])], &Tensor::from([1, 2, 3, 4]), true);
    assert_eq!(y.to_vec(), [0, 0, 0, 0, 2, 4, 6, 8, 0, 0, 0, 0]);
    // Broadcast index shapes: a column of rows against a row of columns selects a block.
    let rows = Tensor::from([[0i64], [2]]);
    let cols = Tensor::from([[1i64, 3]]);
    y.index_put_(&[&rows.as_dyn(), &cols.as_dyn()], &Tensor::from([[9, 9], [9, 9]]), false);
    assert_eq!(y.to_vec(), [0, 9, 0, 9, 2, 4, 6, 8, 0, 9, 0, 9]);
    // Errors leave y unchanged.
    let before = y.to_vec();
    let e = common::err(y.try_index_put_(&[&Tensor::from([0i64, 3])], &Tensor::<i32, Shape![]>::scalar(1), true));
    assert!(e.contains('3'), "{e}");
    assert!(y.try_index_put_(&[&i, &j, &i], &Tensor::<i32, Shape![]>::scalar(1), true).is_err());
    assert!(y.try_index_put_(&[&i], &Tensor::from([1, 2, 3]), true).is_err(), "values [3] against [4, 4]");
    assert!(y.try_index_put_(&[&Tensor::from([u64::MAX])], &Tensor::<i32, Shape![]>::scalar(1), true).is_err());
    assert_eq!(y.to_vec(), before);
}

/// The reference: plain loops over the `[r, c]` index, combining into a copy of `x` (row-major
/// `[n, m]`) along `axis`, with `f` and the start value of a position left out.
#[allow(clippy::too_many_arguments)]
fn reference(
    x: &[f32],
    (n, m): (usize, usize),
    idx: &[i64],
    (r, c): (usize, usize),
    src: &[f32],
    src_cols: usize,
    axis: usize,
    reduce: ScatterReduce,
    include_self: bool,
) -> Vec<f32> {
    let mut out = x.to_vec();
    let mut count = vec![0u32; n * m];
    let pos = |i: usize, j: usize| {
        let v = idx[i * c + j];
        if axis == 0 {
            v as usize * m + j
        } else {
            i * m + v as usize
        }
    };
    for i in 0..r {
        for j in 0..c {
            count[pos(i, j)] += 1;
        }
    }
    if !include_self {
        for (o, &k) in out.iter_mut().zip(&count) {
            if k > 0 {
                *o = match reduce {
                    ScatterReduce::Sum | ScatterReduce::Mean => 0.0,
                    ScatterReduce::Prod => 1.0,
                    ScatterReduce::Amax => f32::NEG_INFINITY,
                    ScatterReduce::Amin => f32::INFINITY,
                };
            }
        }
    }
    for i in 0..r {
        for j in 0..c {
            let (p, s) = (pos(i, j), src[i * src_cols + j]);
            out[p] = match reduce {
                ScatterReduce::Sum | ScatterReduce::Mean => out[p] + s,
                ScatterReduce::Prod => out[p] * s,
                ScatterReduce::Amax if out[p].is_nan() || s.is_nan() => f32::NAN,
                ScatterReduce::Amin if out[p].is_nan() || s.is_nan() => f32::NAN,
                ScatterReduce::Amax => out[p].max(s),
                ScatterReduce::Amin => out[p].min(s),
            };
        }
    }
    if reduce == ScatterReduce::Mean {
        for (o, &k) in out.iter_mut().zip(&count) {
            if k > 0 {
                *o /= (k + include_self as u32) as f32;
            }
        }
    }
    out
}

fn value() -> impl Strategy<Value = f32> {
    prop_oneof![
        8 => (-8i32..8).prop_map(|v| v as f32 * 0.5),
        1 => Just(f32::NAN),
        1 => Just(f32::INFINITY),
        1 => Just(f32::NEG_INFINITY),
        1 => Just(-0.0f32),
    ]
}

fn reduction() -> impl Strategy<Value = ScatterReduce> {
    prop_oneof![
        Just(ScatterReduce::Sum),
        Just(ScatterReduce::Prod),
        Just(ScatterReduce::Mean),
        Just(ScatterReduce::Amax),
        Just(ScatterReduce::Amin),
    ]
}

/// Equal values, NaN equal to NaN (the sign of a zero from `max(0.0, -0.0)` is unspecified).
fn same(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x.is_nan() && y.is_nan()) || x == y)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases(256, 8), failure_persistence: None, ..ProptestConfig::default() })]

    /// `scatter_reduce` (and `scatter_add` as its `Sum` with `self`) along either axis of a
    /// `[n, m]` tensor, contiguous or transposed, against the reference.
    #[test]
    fn scatter_reduce_matches_loops(
        (n, m, r, c, axis, x, idx, src) in (1usize..5, 1usize..5, 0usize..2).prop_flat_map(|(n, m, axis)| {
            let (rmax, cmax) = if axis == 0 { (6, m) } else { (n, 6) };
            (Just(n), Just(m), 0..=rmax, 0..=cmax, Just(axis)).prop_flat_map(move |(n, m, r, c, axis)| {
                let size = if axis == 0 { n } else { m } as i64;
                (
                    Just(n), Just(m), Just(r), Just(c), Just(axis),
                    proptest::collection::vec(value(), n * m),
                    proptest::collection::vec(0..size, r * c), // negative entries are errors
                    proptest::collection::vec(value(), r * (c + 1)),
                )
            })
        }),
        reduce in reduction(),
        include_self in any::<bool>(),
        transposed in any::<bool>(),
    ) {
        let want = reference(&x, (n, m), &idx, (r, c), &src, c + 1, axis, reduce, include_self);
        let index = Tensor::<i64, DynShape>::try_from_vec(&[r, c], idx.clone()).unwrap();
        // src is [r, c + 1]: larger than the index, as scatter allows.
        let s = Tensor::<f32, DynShape>::try_from_vec(&[r, c + 1], src.clone()).unwrap();
        let mut t = Tensor::<f32, DynShape>::try_from_vec(&[n, m], x.clone()).unwrap();
        let mut tt = Tensor::<f32, DynShape>::try_from_vec(&[m, n], vec![0.0; n * m]).unwrap();
        tt.t_mut().assign(&t);
        let got = if transposed {
            let mut v = tt.t_mut();
            if axis == 0 {
                v.try_scatter_reduce_(Ax::<0>, &index, &s, reduce, include_self).unwrap();
            } else {
                v.try_scatter_reduce_(Ax::<1>, &index, &s, reduce, include_self).unwrap();
            }
            tt.t().to_vec()
        } else {
            if axis == 0 {
                t.try_scatter_reduce_(Ax::<0>, &index, &s, reduce, include_self).unwrap();
            } else {
                t.try_scatter_reduce_(Ax::<1>, &index, &s, reduce, include_self).unwrap();
            }
            t.to_vec()
        };
        prop_assert!(same(&got, &want), "{reduce:?} include_self={include_self}: {got:?} vs {want:?}");
        if reduce == ScatterReduce::Sum && include_self {
            let base = Tensor::<f32, DynShape>::try_from_vec(&[n, m], x.clone()).unwrap();
            let add = if axis == 0 { base.scatter_add(Ax::<0>, &index, &s) } else { base.scatter_add(Ax::<1>, &index, &s) };
            prop_assert!(same(&add.to_vec(), &want));
        }
    }

    /// `index_add` along axis 0 of a `[n, m]` tensor equals `scatter_add` with the index
    /// repeated across the columns, and the loop `x[i[k]] += alpha * src[k]`.
    #[test]
    fn index_add_matches_loops(
        (n, m, k, x, idx, src) in (1usize..5, 1usize..4, 0usize..6).prop_flat_map(|(n, m, k)| (
            Just(n), Just(m), Just(k),
            proptest::collection::vec(-4i32..4, n * m),
            proptest::collection::vec(0..n as i64, k),
            proptest::collection::vec(-4i32..4, k * m),
        )),
        alpha in -3i32..3,
    ) {
        let mut want = x.clone();
        for (row, &i) in idx.iter().enumerate() {
            let i = i as usize;
            for j in 0..m {
                want[i * m + j] += alpha * src[row * m + j];
            }
        }
        let t = Tensor::<i32, DynShape>::try_from_vec(&[n, m], x).unwrap();
        let s = Tensor::<i32, DynShape>::try_from_vec(&[k, m], src).unwrap();
        let index: Tensor<i64, (Dyn,)> = Tensor::try_from_vec(&[k], idx).unwrap();
        prop_assert_eq!(t.index_add(Ax::<0>, &index, &s, alpha).to_vec(), want);
    }
}
