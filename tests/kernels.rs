//! The element-wise and copy kernels' loop choices (contiguous rows, broadcast rows, strided rows,
//! tiled transposes) against a reference that indexes the source data by hand: permuted,
//! flipped and stepped views of random sizes, broadcasts along rows and columns, compound
//! assignment through views.
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
    #![proptest_config(ProptestConfig { cases: if cfg!(miri) { 4 } else { 64 }, failure_persistence: None, ..ProptestConfig::default() })]

    /// `contiguous`/`to_vec` of permuted and flipped views: the tiled transpose, the strided and
    /// the contiguous row loops.
    #[test]
    fn copies_of_permuted_views((sizes, perm, flip) in shape_and_perm()) {
        let n: usize = sizes.iter().product();
        let data: Vec<f32> = (0..n).map(|i| i as f32).collect();
        let x = Tensor::<f32, DynShape>::from_vec(&sizes, data.clone());
        let p = x.permute_dyn(&perm).unwrap();
        let v = match flip {
            Some(a) => p.flip_dyn(&[a as isize]).unwrap().to_vec(),
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
        let p = x.permute_dyn(&perm).unwrap();
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
        let mut yp = y.permute_dyn_mut(&perm).unwrap();
        yp += &b;
        let got = y.permute_dyn(&perm).unwrap().to_vec();
        prop_assert_eq!(&got, &want);
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
