//! The element-wise and copy kernels' loop choices (contiguous rows, broadcast rows, strided rows,
//! tiled transposes) against a reference that indexes the source data by hand: permuted,
//! flipped and stepped views of random sizes, broadcasts along rows and columns, compound
//! assignment through views.
mod common;
use proptest::prelude::*;
use shaped::prelude::*;

/// Row-major strides of `sizes`.
fn strides(sizes: &[usize]) -> Vec<usize> {
    let mut st = vec![1; sizes.len()];
    for d in (0..sizes.len().saturating_sub(1)).rev() {
        st[d] = st[d + 1] * sizes[d + 1];
    }
    st
}

/// Every index of `sizes` in row-major order.
fn indices(sizes: &[usize]) -> Vec<Vec<usize>> {
    let n: usize = sizes.iter().product();
    (0..n)
        .map(|mut f| {
            let mut idx = vec![0; sizes.len()];
            for d in (0..sizes.len()).rev() {
                idx[d] = f % sizes[d];
                f /= sizes[d];
            }
            idx
        })
        .collect()
}

/// The element of the view `x.permute(perm)` (then `flip(flip)` when given) at `idx`, read from
/// `data` (row-major of `sizes`) by hand.
fn permuted(data: &[f32], sizes: &[usize], perm: &[usize], flip: Option<usize>, idx: &[usize]) -> f32 {
    let st = strides(sizes);
    let psizes: Vec<usize> = perm.iter().map(|&p| sizes[p]).collect();
    let mut flat = 0;
    for (k, &p) in perm.iter().enumerate() {
        let i = if flip == Some(k) { psizes[k] - 1 - idx[k] } else { idx[k] };
        flat += i * st[p];
    }
    data[flat]
}

fn shape_and_perm() -> impl Strategy<Value = (Vec<usize>, Vec<usize>, Option<usize>)> {
    prop::collection::vec(1usize..if cfg!(miri) { 7 } else { 40 }, 2..=4)
        .prop_filter("at most 40,000 elements", |s| s.iter().product::<usize>() <= 40_000)
        .prop_flat_map(|sizes| {
            let r = sizes.len();
            (Just(sizes), Just((0..r).collect::<Vec<_>>()).prop_shuffle(), prop::option::of(0..r))
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases(64, 4), failure_persistence: None, ..ProptestConfig::default() })]

    /// `contiguous`/`to_vec` of permuted and flipped views: the tiled transpose, the strided and
    /// the contiguous row loops.
    #[test]
    fn copies_of_permuted_views((sizes, perm, flip) in shape_and_perm()) {
        let n: usize = sizes.iter().product();
        let data: Vec<f32> = (0..n).map(|i| i as f32).collect();
        let x = Tensor::<f32, DynShape>::from_vec(&sizes, data.clone());
        let p = x.try_permute_dyn(&perm).unwrap();
        let v = match flip {
            Some(a) => p.try_flip_dyn(&[a as isize]).unwrap().to_vec(),
            None => p.to_vec(),
        };
        let psizes: Vec<usize> = perm.iter().map(|&p| sizes[p]).collect();
        let want: Vec<f32> = indices(&psizes).iter().map(|i| permuted(&data, &sizes, &perm, flip, i)).collect();
        prop_assert_eq!(v, want);
    }

    /// Binary ops of a permuted view with a broadcast column and a broadcast row.
    #[test]
    fn broadcasts_of_permuted_views((sizes, perm, _) in shape_and_perm(), col in any::<bool>()) {
        let n: usize = sizes.iter().product();
        let data: Vec<f32> = (0..n).map(|i| i as f32).collect();
        let x = Tensor::<f32, DynShape>::from_vec(&sizes, data.clone());
        let p = x.try_permute_dyn(&perm).unwrap();
        let psizes: Vec<usize> = perm.iter().map(|&p| sizes[p]).collect();
        let r = psizes.len();
        // A column [.., m, 1] or a row [n] of distinct values.
        let bsizes: Vec<usize> = if col { let mut b = psizes.clone(); b[r - 1] = 1; b } else { vec![psizes[r - 1]] };
        let bn: usize = bsizes.iter().product();
        let bdata: Vec<f32> = (0..bn).map(|i| 1000.0 * (i + 1) as f32).collect();
        let b = Tensor::<f32, DynShape>::from_vec(&bsizes, bdata.clone());
        let bst = strides(&bsizes);
        let bat = |idx: &[usize]| -> f32 {
            if col { bdata[idx[..r - 1].iter().zip(&bst).map(|(i, s)| i * s).sum::<usize>()] } else { bdata[idx[r - 1]] }
        };
        let sum = (p + &b).to_vec();
        let want: Vec<f32> = indices(&psizes).iter().map(|i| permuted(&data, &sizes, &perm, None, i) + bat(i)).collect();
        prop_assert_eq!(&sum, &want);
        // The same through `+=` into a contiguous copy and into a permuted view of a copy.
        let mut c = p.to_owned();
        c += &b;
        prop_assert_eq!(&c.to_vec(), &want);
        let mut y = x.to_owned();
        let mut yp = y.try_permute_dyn_mut(&perm).unwrap();
        yp += &b;
        let got = y.try_permute_dyn(&perm).unwrap().to_vec();
        prop_assert_eq!(&got, &want);
        // And through `add_out` into a permuted view of a fresh buffer (a strided `out`), and
        // `map_out` of the same view into a contiguous one.
        let mut o = Tensor::<f32, DynShape>::zeros_sized(&sizes);
        let mut op = o.try_permute_dyn_mut(&perm).unwrap();
        p.add_out(&b, &mut op);
        prop_assert_eq!(&o.try_permute_dyn(&perm).unwrap().to_vec(), &want);
        let mut m = Tensor::<f32, DynShape>::zeros_sized(&psizes);
        p.map_out(&mut m, |v| v * 2.0);
        prop_assert_eq!(m.to_vec(), p.to_vec().iter().map(|v| v * 2.0).collect::<Vec<_>>());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases(64, 4), failure_persistence: None, ..ProptestConfig::default() })]

    /// Sums, maxima and argmax of permuted and flipped views over every axis and over all of
    /// them (the row-wise reduction paths: slices of one output, rows of consecutive outputs,
    /// strided elements) against sums and first maxima computed by hand.
    #[test]
    fn reductions_of_permuted_views((sizes, perm, flip) in shape_and_perm()) {
        let n: usize = sizes.iter().product();
        // Repeating values, so that argmax has ties (the first one in row-major order wins).
        let data: Vec<f32> = (0..n).map(|i| ((i * 37) % 11) as f32 - 3.0).collect();
        let x = Tensor::<f32, DynShape>::from_vec(&sizes, data.clone());
        let p = x.try_permute_dyn(&perm).unwrap();
        let v = match flip { Some(a) => p.try_flip_dyn(&[a as isize]).unwrap(), None => p };
        let psizes: Vec<usize> = perm.iter().map(|&p| sizes[p]).collect();
        let vals: Vec<f32> = indices(&psizes).iter().map(|i| permuted(&data, &sizes, &perm, flip, i)).collect();
        prop_assert_eq!(v.sum(), vals.iter().map(|&e| e as f64).sum::<f64>() as f32);
        // The flat index of the first maximum, in the view's row-major order.
        let best = vals.iter().cloned().fold(f32::NEG_INFINITY, f32::max);
        prop_assert_eq!(v.argmax(), vals.iter().position(|&e| e == best).unwrap() as i64);
        for ax in 0..psizes.len() {
            let s = v.sum_axis(ax as isize).to_vec();
            let m = v.argmax_axis(ax as isize).to_vec();
            let mut osizes = psizes.clone();
            osizes.remove(ax);
            for (o, oi) in indices(&osizes).iter().enumerate() {
                let pst = strides(&psizes);
                let at = |k: usize| { let mut i = oi.clone(); i.insert(ax, k); vals[i.iter().zip(&pst).map(|(a, b)| a * b).sum::<usize>()] };
                let col: Vec<f32> = (0..psizes[ax]).map(at).collect();
                prop_assert_eq!(s[o], col.iter().map(|&e| e as f64).sum::<f64>() as f32);
                let best = col.iter().cloned().fold(f32::NEG_INFINITY, f32::max);
                prop_assert_eq!(m[o], col.iter().position(|&e| e == best).unwrap() as i64);
            }
        }
    }
}

/// Matrix sizes of `integer_and_half_matmul` (small under Miri, where faer's kernels are slow).
const DIM: usize = if cfg!(miri) { 6 } else { 24 };

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases(48, 3), failure_persistence: None, ..ProptestConfig::default() })]

    /// Integer products (wrapping, the blocked loop) of transposed and flipped operands against a
    /// triple loop; f16 and bf16 products (through the f32 kernel) within one rounding of the
    /// f32 product.
    #[test]
    fn integer_and_half_matmul(m in 1usize..DIM, k in 1usize..DIM, n in 1usize..DIM, ta in any::<bool>(), flip in any::<bool>()) {
        let av: Vec<i32> = (0..m * k).map(|i| ((i * 7919) % 201) as i32 - 100).collect();
        let bv: Vec<i32> = (0..k * n).map(|i| ((i * 104_729) % 199) as i32 - 99).collect();
        // `a` stored as [k, m] and transposed, or as [m, k]; `b`'s columns reversed or not.
        let a = if ta {
            let st: Vec<i32> = (0..k * m).map(|f| av[(f % m) * k + f / m]).collect();
            Tensor::<i32, DynShape>::from_vec(&[k, m], st).t().contiguous().into_owned()
        } else {
            Tensor::<i32, DynShape>::from_vec(&[m, k], av.clone())
        };
        let a_view = if ta { Tensor::<i32, DynShape>::from_vec(&[k, m], (0..k * m).map(|f| av[(f % m) * k + f / m]).collect()) } else { a.clone() };
        let b = Tensor::<i32, DynShape>::from_vec(&[k, n], bv.clone());
        let bf = b.try_flip_dyn(if flip { &[1][..] } else { &[][..] }).unwrap();
        let got = if ta { a_view.t().matmul(&bf) } else { a_view.matmul(&bf) }.to_vec();
        let bat = |p: usize, j: usize| if flip { bv[p * n + (n - 1 - j)] } else { bv[p * n + j] };
        let want: Vec<i32> = (0..m * n).map(|f| (0..k).map(|p| av[(f / n) * k + p] * bat(p, f % n)).sum()).collect();
        prop_assert_eq!(&got, &want);
        prop_assert_eq!(a.matmul(&bf).to_vec(), want);
        let (af, bff) = (a.map(|v| v as f32 * 0.01), bf.map(|v| v as f32 * 0.01));
        let want = af.matmul(&bff).to_vec();
        let h = af.map(shaped::f16::from_f32).matmul(&bff.map(shaped::f16::from_f32)).to_vec();
        let b16 = af.map(shaped::bf16::from_f32).matmul(&bff.map(shaped::bf16::from_f32)).to_vec();
        for ((w, h), b) in want.iter().zip(&h).zip(&b16) {
            // The operands round too (0.01 steps are not exact in f16/bf16): a few units of
            // each format's epsilon, relative to the terms' size.
            let scale = 1.0 + w.abs();
            prop_assert!((h.to_f32() - w).abs() <= 4e-3 * scale, "f16 {} against {}", h, w);
            prop_assert!((b.to_f32() - w).abs() <= 3e-2 * scale, "bf16 {} against {}", b, w);
        }
    }
}

/// A long f32 sum against the f64 one: pairwise lanes keep the error near `log2(n)` roundings,
/// where a plain running sum drifts by about 1e-3 relative here.
#[test]
#[cfg_attr(miri, ignore = "2^22 elements")]
fn long_sums_are_accurate() {
    let n = 1 << 22;
    let data: Vec<f32> = (0..n).map(|i| 1.0 + (i % 1000) as f32 * 1e-3).collect();
    let exact: f64 = data.iter().map(|&e| e as f64).sum();
    let x = Tensor::<f32, DynShape>::from_vec(&[2048, 2048], data);
    for (what, s) in [("full", x.sum()), ("transposed", x.t().sum())] {
        let rel = ((s as f64 - exact) / exact).abs();
        assert!(rel < 1e-6, "{what}: {s} against {exact}: relative error {rel:e}");
    }
    // Column sums (2048 terms each) read across rows and, through the transpose, along rows.
    let v = x.to_vec();
    let want: Vec<f64> = (0..2048).map(|j| (0..2048).map(|i| v[i * 2048 + j] as f64).sum()).collect();
    for got in [x.sum_axis(Ax::<0>).to_vec(), x.t().sum_axis(Ax::<1>).to_vec()] {
        for (g, w) in got.iter().zip(&want) {
            assert!(((*g as f64 - w) / w).abs() < 1e-6, "{g} against {w}");
        }
    }
}

#[test]
fn assign_fill_and_map_inplace_through_strided_views() {
    let mut x = Tensor::<f32, Shape![6, 8]>::from_fn(|[i, j]| (i * 8 + j) as f32);
    let y = Tensor::<f32, Shape![8, 6]>::from_fn(|[i, j]| (100 * i + j) as f32);
    x.assign(&y.t());
    assert_eq!(x.at([2, 5]), 502.0);
    // Every other column, reversed rows: strided rows of stride 2.
    let mut v = t!(mut x[..;-1, ..;2]);
    v.fill_(-1.0);
    assert_eq!((x.at([0, 0]), x.at([0, 1]), x.at([5, 6]), x.at([5, 7])), (-1.0, 100.0, -1.0, 705.0));
    let mut w = t!(mut x[.., 1..;2]);
    w.map_inplace(|e| e + 0.5);
    assert_eq!((x.at([3, 1]), x.at([3, 2])), (103.5, -1.0));
    // A broadcast column added in place to a transposed view.
    let mut z = Tensor::<f32, Shape![4, 3]>::zeros();
    let col = Tensor::<f32, Shape![3, 1]>::from([[1.0], [2.0], [3.0]]);
    let mut zt = z.t_mut();
    zt += &col;
    assert_eq!(z.to_vec(), [1., 2., 3., 1., 2., 3., 1., 2., 3., 1., 2., 3.]);
}

/// The `_out` forms: NumPy's `out=` rule (inputs broadcast to `out`, which keeps its shape),
/// scalars, bool outputs, inline outputs, and errors that leave `out` unchanged.
#[test]
fn out_forms() {
    let a = Tensor::<f32, Shape![2, 3]>::from([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]]);
    let row = Tensor::<f32, Shape![3]>::from([10.0, 20.0, 30.0]);
    let mut out = Tensor::<f32, Shape![2, 3]>::zeros();
    a.add_out(&row, &mut out);
    assert_eq!(out.to_vec(), [11.0, 18.0, 33.0, 14.0, 25.0, 24.0]);
    a.mul_out(2.0, &mut out);
    assert_eq!(out.to_vec(), [2.0, -4.0, 6.0, 8.0, 10.0, -12.0]);
    // Only `row` goes in: it broadcasts to out's shape (NumPy allows an `out` larger than the
    // inputs' broadcast shape).
    row.sub_out(&row, &mut out);
    assert_eq!(out.to_vec(), [0.0; 6]);
    a.maximum_out(0.0, &mut out);
    assert_eq!(out.to_vec(), a.relu().to_vec());
    a.clamp_out(-1.0, 1.0, &mut out);
    assert_eq!(out.to_vec(), [1.0, -1.0, 1.0, 1.0, 1.0, -1.0]);
    a.neg_out(&mut out);
    assert_eq!(out.to_vec(), (-&a).to_vec());
    a.exp_out(&mut out);
    // Within an ulp or two: Miri perturbs each libm result a little.
    assert!(out.to_vec().iter().zip(a.exp().to_vec()).all(|(x, y)| (x - y).abs() <= 1e-6 * y.abs()));
    a.powi_out(2, &mut out);
    assert!(out.to_vec().iter().zip([1.0, 4.0, 9.0, 16.0, 25.0, 36.0]).all(|(x, y)| (x - y).abs() <= 1e-5 * y));
    // Into a transposed view: out[j, i] = a[i, j] * 10.
    let mut tb = Tensor::<f32, Shape![3, 2]>::zeros();
    a.mul_out(10.0, &mut tb.t_mut());
    assert_eq!(tb.to_vec(), [10.0, 40.0, -20.0, 50.0, 30.0, -60.0]);
    // Comparisons into bool tensors.
    let mut mask = Tensor::<bool, Shape![2, 3]>::full(false);
    a.greater_out(&row.map(|v| v / 10.0), &mut mask);
    assert_eq!(mask.to_vec(), [false, false, false, true, true, false]);
    a.is_nan_out(&mut mask);
    assert_eq!(mask.to_vec(), [false; 6]);
    // Inline (stack) tensors take the static kernels.
    let s = STensor::<f32, Shape![3]>::from([1.0, 2.0, 3.0]);
    let mut so = STensor::<f32, Shape![2, 3]>::zeros();
    s.atan2_out(&s, &mut so);
    assert!(so.to_vec().iter().all(|&v| (v - core::f32::consts::FRAC_PI_4).abs() < 1e-6));
    s.zip_with_out(&a, &mut so, |x, y| x * y);
    assert_eq!(so.to_vec(), [1.0, -4.0, 9.0, 4.0, 10.0, -18.0]);
}

#[test]
fn out_form_errors_leave_out_unchanged() {
    // Runtime sizes that do not broadcast to out's shape.
    let a = Tensor::<f32, DynShape>::from_vec(&[2, 3], vec![1.0; 6]);
    let b = Tensor::<f32, DynShape>::from_vec(&[2], vec![1.0; 2]);
    let mut out = Tensor::<f32, DynShape>::full_sized(&[2, 3], 7.0);
    let e = a.try_add_out(&b, &mut out).unwrap_err();
    assert!(matches!(e, ShapeError::Expand { .. }), "{e}");
    assert!(e.to_string().contains("[2]") && e.to_string().contains("[2, 3]"), "{e}");
    // An input larger than out: out never broadcasts.
    let mut small = Tensor::<f32, DynShape>::full_sized(&[3], 7.0);
    assert!(a.try_exp_out(&mut small).is_err());
    assert_eq!(small.to_vec(), [7.0; 3]);
    assert_eq!(out.to_vec(), [7.0; 6]);
    // Integer division by a zero element: nothing is written.
    let x = Tensor::<i32, Shape![3]>::from([6, 8, 9]);
    let y = Tensor::<i32, Shape![3]>::from([2, 0, 3]);
    let mut q = Tensor::<i32, Shape![3]>::full(-1);
    assert!(matches!(x.try_div_out(&y, &mut q), Err(ShapeError::DivisionByZero { .. })));
    assert!(matches!(x.try_rem_out(0, &mut q), Err(ShapeError::DivisionByZero { .. })));
    assert_eq!(q.to_vec(), [-1; 3]);
    x.div_out(3, &mut q);
    assert_eq!(q.to_vec(), [2, 2, 3]);
}

/// A contiguous `_out` above the rayon threshold (split into chunks) against the new-tensor form.
#[test]
#[cfg_attr(miri, ignore = "2^20 elements")]
fn out_forms_large() {
    let n = 1 << 20;
    let a = Tensor::<f32, DynShape>::from_vec(&[n], (0..n).map(|i| i as f32).collect());
    let b = Tensor::<f32, DynShape>::from_vec(&[n], (0..n).map(|i| (n - i) as f32 * 0.5).collect());
    let mut out = Tensor::<f32, DynShape>::zeros_sized(&[n]);
    a.add_out(&b, &mut out);
    assert_eq!(out.to_vec(), (&a + &b).to_vec());
    a.sqrt_out(&mut out);
    assert_eq!(out.to_vec(), a.sqrt().to_vec());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases(48, 3), failure_persistence: None, ..ProptestConfig::default() })]

    /// `matmul_out` into a row-major tensor, a transposed view and a batch of them gives exactly
    /// `matmul`'s values, for 2-D, batched (broadcast) and 1-D operands.
    #[test]
    fn matmul_out_matches_matmul(b in 1usize..4, m in 1usize..DIM, k in 1usize..DIM, n in 1usize..DIM, pool in proptest::collection::vec(-5.0f32..5.0, 64)) {
        let val = |i: usize| pool[(i * 13 + i / 64) % 64];
        let a = Tensor::<f32, DynShape>::from_vec(&[b, m, k], (0..b * m * k).map(val).collect());
        let w = Tensor::<f32, DynShape>::from_vec(&[k, n], (0..k * n).map(|i| val(i + 7)).collect());
        let v = Tensor::<f32, DynShape>::from_vec(&[k], (0..k).map(|i| val(i + 3)).collect());
        // A batch [b, m, k] @ [k, n] (the right operand broadcast over the batch).
        let want = a.matmul(&w);
        let mut out = Tensor::<f32, DynShape>::full_sized(&[b, m, n], f32::NAN);
        a.matmul_out(&w, &mut out);
        prop_assert_eq!(out.to_vec(), want.to_vec());
        // Into a view with permuted strides: out2 is [b, n, m], written through its transpose.
        let mut out2 = Tensor::<f32, DynShape>::full_sized(&[b, n, m], f32::NAN);
        a.matmul_out(&w, &mut out2.try_transpose_mut(1, 2).unwrap());
        prop_assert_eq!(out2.try_transpose(1, 2).unwrap().contiguous().to_vec(), want.to_vec());
        // Matrix-vector: [b, m, k] @ [k] -> [b, m].
        let mut mv = Tensor::<f32, DynShape>::full_sized(&[b, m], f32::NAN);
        a.matmul_out(&v, &mut mv);
        prop_assert_eq!(mv.to_vec(), a.matmul(&v).to_vec());
        // Two matrices (the unbatched path) into a row-major tensor and a transposed view,
        // against the product written out in f64.
        let a2 = Tensor::<f32, DynShape>::from_vec(&[m, k], (0..m * k).map(val).collect());
        let want2: Vec<f32> = (0..m * n)
            .map(|ij| (0..k).map(|p| a2.to_vec()[ij / n * k + p] as f64 * w.to_vec()[p * n + ij % n] as f64).sum::<f64>() as f32)
            .collect();
        let mut o2 = Tensor::<f32, DynShape>::full_sized(&[m, n], f32::NAN);
        a2.matmul_out(&w, &mut o2);
        for (g, e) in o2.to_vec().iter().zip(&want2) {
            prop_assert!((g - e).abs() <= 1e-4 * (1.0 + e.abs()), "{} against {}", g, e);
        }
        let mut o3 = Tensor::<f32, DynShape>::full_sized(&[n, m], f32::NAN);
        a2.matmul_out(&w, &mut o3.try_transpose_mut(0, 1).unwrap());
        prop_assert_eq!(o3.try_transpose(0, 1).unwrap().contiguous().to_vec(), o2.to_vec());
        prop_assert_eq!(a2.matmul(&w).to_vec(), o2.to_vec());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases(48, 3), failure_persistence: None, ..ProptestConfig::default() })]

    /// A batch of matrices times one matrix (`[b0, b1, m, k] @ [k, n]` or `@ [1, k, n]`, a
    /// linear layer), which runs as one product when the left's batch and row dims step as one
    /// dim: against the product written out in f64, for the left operand contiguous, with its
    /// batch dims swapped (not foldable), narrowed rows (not foldable), and size-1 dims; the right
    /// operand row-major, transposed, or broadcast from `[1, k, n]`.
    #[test]
    fn matmul_batch_by_one_matrix(b0 in 1usize..4, b1 in 1usize..4, m in 1usize..DIM, k in 1usize..DIM, n in 1usize..DIM, left in 0usize..4, right in 0usize..3) {
        let val = |i: usize| ((i * 7919 + 13) % 101) as f64 * 0.03 - 1.5;
        // The logical left operand [b0, b1, m, k], stored as `left` says and viewed as it.
        let a_at = |i0: usize, i1: usize, r: usize, p: usize| val(((i0 * b1 + i1) * m + r) * k + p);
        let stored = |sizes: &[usize], at: &dyn Fn(&[usize]) -> f64| {
            let idx = |mut f: usize| { let mut ix = vec![0; sizes.len()]; for d in (0..sizes.len()).rev() { ix[d] = f % sizes[d]; f /= sizes[d]; } ix };
            Tensor::<f64, DynShape>::from_vec(sizes, (0..sizes.iter().product::<usize>()).map(|f| at(&idx(f))).collect())
        };
        let w_at = |p: usize, j: usize| val(p * n + j + 5);
        let w_store = match right {
            0 => stored(&[k, n], &|i| w_at(i[0], i[1])),
            1 => stored(&[n, k], &|i| w_at(i[1], i[0])),
            _ => stored(&[1, k, n], &|i| w_at(i[1], i[2])),
        };
        // The right operand as a view: row-major, transposed (column-major), or [1, k, n].
        let w = w_store.try_transpose(0, if right == 1 { 1 } else { 0 }).unwrap();
        let w32 = w.map(|v| v as f32);
        let want: Vec<f64> = (0..b0 * b1 * m * n)
            .map(|f| { let (j, r, bb) = (f % n, f / n % m, f / (n * m)); (0..k).map(|p| a_at(bb / b1, bb % b1, r, p) * w_at(p, j)).sum() })
            .collect();
        macro_rules! check { ($s:expr, $($view:tt)*) => {{
            let s = $s;
            let a = s.$($view)*.unwrap();
            prop_assert_eq!(a.sizes(), &[b0, b1, m, k][..]);
            let got64 = a.matmul(&w);
            prop_assert_eq!(got64.sizes(), &[b0, b1, m, n][..]);
            let got32 = a.map(|v| v as f32).matmul(&w32).to_vec();
            for ((g, h), e) in got64.to_vec().iter().zip(&got32).zip(&want) {
                prop_assert!((g - e).abs() <= 1e-12 * (1.0 + e.abs()), "f64 {} against {}", g, e);
                prop_assert!((*h as f64 - e).abs() <= 1e-4 * (1.0 + e.abs()), "f32 {} against {}", h, e);
            }
        }}}
        match left {
            // Contiguous: one product.
            0 => check!(stored(&[b0, b1, m, k], &|i| a_at(i[0], i[1], i[2], i[3])), try_transpose_dyn(0, 0)),
            // Stored [b1, b0, m, k], viewed with the batch dims swapped: one product per matrix.
            1 => check!(stored(&[b1, b0, m, k], &|i| a_at(i[1], i[0], i[2], i[3])), try_transpose_dyn(0, 1)),
            // Two more rows per matrix, narrowed away: the rows do not continue the batch.
            2 => check!(stored(&[b0, b1, m + 2, k], &|i| if i[2] < m { a_at(i[0], i[1], i[2], i[3]) } else { f64::NAN }), try_narrow_dyn(2, 0, m)),
            // Each matrix stored column-major (rows of stride 1).
            _ => check!(stored(&[b0, b1, k, m], &|i| a_at(i[0], i[1], i[3], i[2])), try_transpose_dyn(2, 3)),
        }
    }
}

#[test]
fn matmul_out_static_inline_and_errors() {
    let a = Tensor::<f32, Shape![2, 3]>::from([[1., 2., 3.], [4., 5., 6.]]);
    let b = STensor::<f32, Shape![3, 2]>::from([[1., 0.], [0., 1.], [1., 1.]]);
    // Static shapes: the direct kernel, into a heap tensor and an inline one.
    let mut c = Tensor::<f32, Shape![2, 2]>::zeros();
    a.matmul_out(&b, &mut c);
    assert_eq!(c.to_vec(), [4., 5., 10., 11.]);
    let mut ci = STensor::<f32, Shape![2, 2]>::zeros();
    b.t().matmul_out(&a.t(), &mut ci);
    assert_eq!(ci.to_vec(), [4., 10., 5., 11.]);
    // Runtime sizes that are not the product's: an error naming both, `out` unchanged.
    let ad = a.as_dyn();
    let mut wrong = Tensor::<f32, DynShape>::full_sized(&[2, 3], 7.0);
    let e = ad.try_matmul_out(&b.as_dyn(), &mut wrong).unwrap_err();
    assert!(matches!(e, ShapeError::Mismatch { .. }), "{e}");
    assert!(e.to_string().contains("[2, 2]") && e.to_string().contains("[2, 3]"), "{e}");
    assert_eq!(wrong.to_vec(), [7.0; 6]);
    // Into rows 1..3 of a larger tensor (a contiguous view at an offset): only those rows
    // are written; a view of the wrong size is an error that writes nothing.
    let mut big = Tensor::<f32, DynShape>::full_sized(&[4, 2], -1.0);
    ad.matmul_out(&b.as_dyn(), &mut big.try_narrow_mut(0, 1, 2).unwrap());
    assert_eq!(big.to_vec(), [-1., -1., 4., 5., 10., 11., -1., -1.]);
    assert!(ad.try_matmul_out(&b.as_dyn(), &mut big.try_narrow_mut(0, 1, 3).unwrap()).is_err());
    assert_eq!(big.to_vec(), [-1., -1., 4., 5., 10., 11., -1., -1.]);
    // Inner dims that differ: the matmul error, `out` unchanged.
    let mut o = Tensor::<f32, DynShape>::full_sized(&[2, 2], 7.0);
    assert!(matches!(ad.try_matmul_out(&ad, &mut o), Err(ShapeError::MatMul { .. })));
    assert_eq!(o.to_vec(), [7.0; 4]);
    // Integers (wrapping product) and an empty product.
    let x = Tensor::<i64, DynShape>::from_vec(&[2, 2], vec![1, 2, 3, 4]);
    let mut xo = Tensor::<i64, DynShape>::zeros_sized(&[2, 2]);
    x.matmul_out(&x, &mut xo);
    assert_eq!(xo.to_vec(), [7, 10, 15, 22]);
    let e0 = Tensor::<f32, DynShape>::zeros_sized(&[0, 3]);
    let mut eo = Tensor::<f32, DynShape>::zeros_sized(&[0, 2]);
    e0.matmul_out(&b.as_dyn(), &mut eo);
    assert_eq!(eo.numel(), 0);
}

/// In-place operations above the rayon thresholds (contiguous tensors split into chunks) give
/// exactly the new-tensor forms' values; strided targets and broadcast right sides take the
/// serial row loops and agree too.
#[test]
#[cfg_attr(miri, ignore = "2^20 elements")]
fn inplace_large() {
    let n = 1 << 20;
    let data: Vec<f32> = (0..n).map(|i| ((i % 2001) as f32 - 1000.0) * 1e-3).collect();
    let x = Tensor::<f32, DynShape>::from_vec(&[1024, 1024], data);
    let y = x.map(|v| 0.5 - v);
    let mut a = x.clone();
    a.exp_();
    assert_eq!(a.to_vec(), x.exp().to_vec());
    let mut a = x.clone();
    a.relu_();
    assert_eq!(a.to_vec(), x.relu().to_vec());
    let mut a = x.clone();
    a.clamp_(-0.25, 0.5);
    assert_eq!(a.to_vec(), x.clamp(-0.25, 0.5).to_vec());
    let mut a = x.clone();
    a *= 3.0;
    assert_eq!(a.to_vec(), (&x * 3.0).to_vec());
    let mut a = x.clone();
    a += &y;
    assert_eq!(a.to_vec(), (&x + &y).to_vec());
    let mut a = x.clone();
    a /= &y;
    assert_eq!(a.to_vec(), (&x / &y).to_vec());
    // A broadcast column, and a transposed target (row loops).
    let col = y.try_narrow(1, 0, 1).unwrap().contiguous().into_owned();
    let mut a = x.clone();
    a -= &col;
    assert_eq!(a.to_vec(), (&x - &col).to_vec());
    let mut a = x.clone();
    let mut v = a.t_mut();
    v -= &y;
    assert_eq!(a.to_vec(), (&x - y.t()).to_vec());
    let mut a = x.clone();
    a.t_mut().neg_();
    assert_eq!(a.to_vec(), (-&x).to_vec());
    // Integers: wrapping adds, as the new-tensor form.
    let xi = x.map(|v| (v * 1e6) as i32);
    let mut ai = xi.clone();
    ai += &xi;
    assert_eq!(ai.to_vec(), (&xi + &xi).to_vec());
}

/// The tiled transpose with full 16x16 tiles and ragged edges, from a source with an offset and
/// a leading dim walked around the tiles, by `contiguous`, `assign` and a mapping copy (`cast`).
#[test]
fn tiled_transpose_with_offset_and_full_tiles() {
    let sizes = [2usize, 40, 33];
    let n: usize = sizes.iter().product();
    let x = Tensor::<f32, DynShape>::from_vec(&sizes, (0..n).map(|i| i as f32).collect());
    // Rows 3..36 of dim 1 (offset 3 * 33), then dims 1 and 2 swapped: [2, 33, 33].
    let v = x.try_narrow(1, 3, 33).unwrap().try_transpose(1, 2).unwrap();
    let want: Vec<f32> = (0..2)
        .flat_map(|b| (0..33).flat_map(move |j| (0..33).map(move |i| (b * 40 * 33 + (i + 3) * 33 + j) as f32)))
        .collect();
    assert_eq!(v.contiguous().to_vec(), want);
    let mut y = Tensor::<f32, DynShape>::zeros_sized(&[2, 33, 33]);
    y.assign(&v);
    assert_eq!(y.to_vec(), want);
    assert_eq!(v.cast::<f64>().to_vec(), want.iter().map(|&w| w as f64).collect::<Vec<_>>());
}

/// New-output broadcasts whose rows merge into at most two levels take a loop without the
/// odometer: a column broadcast of strided, offset views; `[2, 3, 4] + [2, 3, 1]` (the outer dims
/// merge); a single row; and a row broadcast, each against the element-wise definition.
#[test]
fn two_level_broadcasts() {
    let x = Tensor::<f32, Shape![5, 8]>::from_fn(|[i, j]| (10 * i + j) as f32);
    let c = Tensor::<f32, Shape![6, 1]>::from_fn(|[i, _]| 100.0 * i as f32);
    let (xv, cv) = (t!(x[1.., ..;2]), t!(c[2.., ..]));
    let got = xv + cv;
    let want = Tensor::<f32, Shape![4, 4]>::from_fn(|[i, j]| (10 * (i + 1) + 2 * j) as f32 + 100.0 * (i + 2) as f32);
    assert_eq!(got.to_vec(), want.to_vec());
    let a = Tensor::<f32, Shape![2, 3, 4]>::from_fn(|[i, j, k]| (100 * i + 10 * j + k) as f32);
    let b = Tensor::<f32, Shape![2, 3, 1]>::from_fn(|[i, j, _]| -((3 * i + j) as f32));
    let want = Tensor::<f32, Shape![2, 3, 4]>::from_fn(|[i, j, k]| (100 * i + 10 * j + k) as f32 - (3 * i + j) as f32);
    assert_eq!((&a * 1.0 + &b).to_vec(), want.to_vec());
    assert_eq!((t!(a[1, ..1, ..]) + t!(b[1, ..1, ..])).to_vec(), [97.0, 98.0, 99.0, 100.0]);
    let row = Tensor::<f32, Shape![4]>::from([1.0, 2.0, 3.0, 4.0]);
    let want = Tensor::<f32, Shape![4, 4]>::from_fn(|[i, j]| (10 * (i + 1) + 2 * j) as f32 - (j + 1) as f32);
    assert_eq!((xv - &row).to_vec(), want.to_vec());
}

/// faer's kernels can return with the upper halves of the vector registers dirty, and then every
/// legacy-SSE instruction the thread runs afterwards pays a merge (`relu` of `[360, 16, 4, 4]`
/// 31 µs after a 64x64 product instead of 20 µs). The crate clears them after each call into
/// faer (`kernels::faer_view::clean_vector_state`): read here from the processor's XINUSE bitmap
/// (`xgetbv` with ECX = 1; bit 2 the upper halves of the YMM registers, bit 6 those of ZMM0-15),
/// on the calling thread.
#[test]
#[cfg(all(target_arch = "x86_64", not(miri)))]
fn products_and_decompositions_leave_the_vector_registers_clean() {
    use std::arch::x86_64::{__cpuid_count, _xgetbv};
    const DIRTY: u64 = (1 << 2) | (1 << 6);
    #[target_feature(enable = "xsave")]
    fn xinuse() -> u64 {
        // SAFETY: XGETBV with ECX = 1 exists where CPUID leaf 0xD, sub-leaf 1 sets EAX bit 2,
        // checked before any call of `xinuse` (and XSAVE, which its caller checks too).
        unsafe { _xgetbv(1) }
    }
    // CPUID leaf 0xD exists on every x86-64 with XSAVE, checked first.
    let has_xinuse = std::is_x86_feature_detected!("xsave")
        && std::is_x86_feature_detected!("avx")
        && __cpuid_count(0xd, 1).eax & 4 != 0;
    if !has_xinuse {
        eprintln!("skipped: this processor cannot report XINUSE");
        return;
    }
    // SAFETY: XSAVE and XGETBV with ECX = 1 are there (`has_xinuse`).
    let dirty = || unsafe { xinuse() } & DIRTY;
    let a = Tensor::<f32, Shape![_, _]>::from_fn_sized(&[64, 64], |[i, j]| {
        if i == j {
            4.0
        } else {
            ((i * 7 + j) % 5) as f32 * 0.01
        }
    });
    let a64 = a.cast::<f64>();
    let c = a.matmul(&a);
    assert_eq!(dirty(), 0, "after a 64x64 f32 matmul");
    let c64 = a64.matmul(&a64.t());
    assert_eq!(dirty(), 0, "after a 64x64 f64 matmul by a transposed view");
    let i = a64.inv();
    assert_eq!(dirty(), 0, "after inv");
    let s = a64.solve(&c64);
    assert_eq!(dirty(), 0, "after solve");
    let x = Tensor::<f32, Shape![8, 4, 12, 12]>::from_fn(|[n, c, h, w]| ((n + c * 3 + h * 5 + w) % 7) as f32 - 3.0);
    let k = Tensor::<f32, Shape![8, 4, 3, 3]>::full(0.5);
    let y = x.conv2d(&k, NoBias, Conv::<1, 1>);
    assert_eq!(dirty(), 0, "after conv2d");
    // A product split across a pool, called from one of its threads (which runs kernels too).
    let big = Tensor::<f32, Shape![_, _]>::from_fn_sized(&[256, 256], |[i, j]| ((i + j) % 9) as f32);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let (p, after) = pool.install(|| (big.matmul(&big), dirty()));
    assert_eq!(after, 0, "after a parallel product, on the calling thread");
    std::hint::black_box((c, i, s, y, p));
}
