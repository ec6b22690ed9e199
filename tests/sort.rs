//! `sort`, `argsort`, `topk`, `kthvalue` and `median` along an axis (issue 29): stable, ascending or descending, NaN above
//! every number as in PyTorch, on contiguous, transposed and `DynShape` tensors, against an
//! insertion sort of each line (a reference written apart from the library's merge sort) and
//! cases whose answers NumPy (`np.argsort(kind='stable')`) and PyTorch (`torch.sort(stable=True,
//! descending=True)`) give.
mod common;

use proptest::prelude::*;
use shaped::prelude::*;

/// PyTorch's order: NaN above every number, NaNs equal.
fn greater(a: f32, b: f32) -> bool {
    match (a.is_nan(), b.is_nan()) {
        (true, false) => true,
        (false, true) | (true, true) => false,
        _ => a > b,
    }
}

/// The stable permutation of `line` by insertion sort: each element moves left past the ones
/// it must precede, never past an equal one.
fn reference(line: &[f32], descending: bool) -> Vec<i64> {
    let mut order: Vec<usize> = Vec::new();
    for i in 0..line.len() {
        let mut at = order.len();
        while at > 0 {
            let prev = line[order[at - 1]];
            let before = if descending { greater(line[i], prev) } else { greater(prev, line[i]) };
            if !before {
                break;
            }
            at -= 1;
        }
        order.insert(at, i);
    }
    order.into_iter().map(|i| i as i64).collect()
}

fn same_bits(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

#[test]
fn numpy_and_pytorch_cases() {
    // np.argsort([3, nan, 1, 3, -inf, -0.0, 0.0], kind='stable') = [4, 5, 6, 2, 0, 3, 1].
    let x = Tensor::from([3.0f32, f32::NAN, 1.0, 3.0, f32::NEG_INFINITY, -0.0, 0.0]);
    assert_eq!(x.argsort(Ax::<0>, false).to_vec(), vec![4, 5, 6, 2, 0, 3, 1]);
    // torch.sort(..., descending=True, stable=True): NaN first, equal elements in order.
    let (v, i) = x.sort(Ax::<0>, true);
    assert_eq!(i.to_vec(), vec![1, 0, 3, 2, 5, 6, 4]);
    assert!(v.to_vec()[0].is_nan());
    assert_eq!(&v.to_vec()[1..], &[3.0, 3.0, 1.0, -0.0, 0.0, f32::NEG_INFINITY]);
    assert!(v.to_vec()[4].is_sign_negative(), "-0.0 keeps its place before 0.0");
    // Along the leading axis of a matrix: np.argsort(m, axis=0, kind='stable').
    let m = Tensor::from([[2, 9, 1], [2, 3, 7], [0, 3, 1]]);
    assert_eq!(m.argsort(Ax::<0>, false).to_vec(), vec![2, 1, 0, 0, 2, 2, 1, 0, 1]);
    assert_eq!(m.argsort(-1, false).to_vec(), vec![2, 0, 1, 0, 1, 2, 0, 2, 1]);
    let (v, _) = m.sort(Ax::<0>, false);
    assert_eq!(v.to_vec(), vec![0, 3, 1, 2, 3, 1, 2, 9, 7]);
}

#[test]
fn forms_and_errors() {
    // Inline, DynShape, empty lines, and a runtime axis out of range.
    let s = stensor([[3u8, 1, 2], [0, 0, 5]]);
    let (v, i) = s.sort(Ax::<1>, false);
    assert_eq!(v.to_vec(), vec![1, 2, 3, 0, 0, 5]);
    assert_eq!(i.to_vec(), vec![1, 2, 0, 0, 1, 2]);
    let d = Tensor::<f64, DynShape>::from_vec(&[2, 2], vec![1.0, 0.5, -1.0, 2.0]);
    assert_eq!(d.argsort(0, true).to_vec(), vec![0, 1, 1, 0]);
    assert!(d.try_argsort(Ax::<2>, false).is_err());
    assert!(d.try_sort(2, false).is_err());
    let e = Tensor::<f32, DynShape>::from_vec(&[0, 3], vec![]);
    assert_eq!(e.sort(0, false).0.sizes(), &[0, 3]);
}

#[test]
fn topk_forms() {
    // torch.topk(x, 2, dim=1): values sorted, NaN counted largest; ties in position order.
    let x: Tensor<f32, Shape![2, 4]> = Tensor::from([[1.0, f32::NAN, 3.0, 3.0], [0.0, -1.0, 5.0, 2.0]]);
    let (v, i) = x.topk(Const::<2>, Ax::<1>, true);
    let _: &Tensor<f32, Shape![2, 2]> = &v;
    let _: &Tensor<i64, Shape![2, 2]> = &i;
    assert!(v.to_vec()[0].is_nan());
    assert_eq!(&v.to_vec()[1..], &[3.0, 5.0, 2.0]);
    assert_eq!(i.to_vec(), vec![1, 2, 2, 3]);
    let (v, i) = x.topk(Const::<3>, Ax::<1>, false);
    assert_eq!(v.to_vec(), vec![1.0, 3.0, 3.0, -1.0, 0.0, 2.0]);
    assert_eq!(i.to_vec(), vec![0, 2, 3, 1, 0, 3]);
    // Along the leading axis, with K the whole dim and with 0.
    let (v, _) = x.topk(Const::<2>, Ax::<0>, true);
    assert_eq!(v.sizes(), &[2, 4]);
    let (v, i): (Tensor<f32, Shape![0, 4]>, _) = x.topk(Const::<0>, Ax::<0>, true);
    assert_eq!((v.numel(), i.numel()), (0, 0));
    // A runtime k (Dyn at the axis) and a runtime axis (DynShape).
    let (v, i) = x.topk_axis(1, Ax::<1>, false);
    let _: &Tensor<f32, Shape![2, _]> = &v;
    assert_eq!((v.to_vec(), i.to_vec()), (vec![1.0, -1.0], vec![0, 1]));
    let (v, i) = x.topk_dyn(2, -1, true);
    assert_eq!(v.sizes(), &[2, 2]);
    assert_eq!(i.to_vec(), vec![1, 2, 2, 3]);
    // k past a runtime dim, and an axis past the rank: errors naming them.
    let d = x.clone().into_dyn();
    assert_eq!(common::err(d.try_topk_dyn(5, 1, true)), "range 0..5 is out of bounds for dimension 1 of size 4");
    assert!(d.try_topk(Const::<5>, Ax::<1>, true).is_err());
    assert!(d.try_topk_dyn(1, 2, true).is_err());
    assert!(x.try_topk_axis(9, Ax::<1>, true).is_err());
}

#[test]
fn kthvalue_and_median() {
    // torch.kthvalue(x, 2, dim=1), torch.median(x, dim=1) (lower median, NaN propagates).
    let x: Tensor<f32, Shape![3, 4]> =
        Tensor::from([[4.0, 1.0, 3.0, 2.0], [0.0, f32::NAN, 1.0, f32::NAN], [5.0, 5.0, -1.0, 5.0]]);
    let (v, i): (Tensor<f32, Shape![3]>, Tensor<i64, Shape![3]>) = x.kthvalue(2, Ax::<1>);
    assert_eq!((v.to_vec(), i.to_vec()), (vec![2.0, 1.0, 5.0], vec![3, 2, 0]));
    let (v, i) = x.median_axis(Ax::<1>);
    assert_eq!((v.to_vec()[0], v.to_vec()[2]), (2.0, 5.0));
    assert!(v.to_vec()[1].is_nan());
    assert_eq!(i.to_vec(), vec![3, 1, 0]);
    // np.median would average; PyTorch's lower median of [1, 2, 3, 4] is 2.
    assert_eq!(Tensor::from([4, 1, 3, 2]).median(), 2);
    assert!(x.median().is_nan());
    assert_eq!(x.t().median_axis(Ax::<0>).0.to_vec()[0], 2.0);
    let (v, i) = x.median_axis(0);
    assert_eq!(v.sizes(), &[4]);
    // Columns [4, 0, 5], [1, NaN, 5], [3, 1, -1], [2, NaN, 5]: medians 4, NaN, 1, NaN.
    assert_eq!(i.to_vec(), vec![0, 1, 1, 1]);
    assert_eq!(v.to_vec()[2], 1.0);
    // Errors: k = 0, k past the dim, an empty dim, an axis past the rank.
    assert_eq!(common::err(x.try_kthvalue(0, Ax::<1>)), "index 0 is out of bounds for dimension 1 of size 4");
    assert!(x.try_kthvalue(5, Ax::<1>).is_err());
    assert!(x.try_kthvalue(1, 2).is_err());
    let e = Tensor::<f32, DynShape>::from_vec(&[2, 0], vec![]);
    assert!(e.try_median_axis(1).is_err());
    assert!(e.try_median().is_err());
    // Along a dim of static size 0 for the kept ones: an empty result.
    assert_eq!(e.median_axis(0).0.sizes(), &[0]);
}

fn check(r: usize, c: usize, v: Vec<f32>, descending: bool) -> Result<(), TestCaseError> {
    let m = Tensor::<f32, Shape![_, _]>::from_vec(&[r, c], v.clone());
    // Rows, then columns through a transposed copy and through the strided `.t()` view.
    let (vals, idx) = m.sort(Ax::<1>, descending);
    for i in 0..r {
        let line = &v[i * c..(i + 1) * c];
        let want = reference(line, descending);
        prop_assert_eq!(&idx.to_vec()[i * c..(i + 1) * c], &want[..]);
        let want_vals: Vec<f32> = want.iter().map(|&k| line[k as usize]).collect();
        prop_assert!(same_bits(&vals.to_vec()[i * c..(i + 1) * c], &want_vals));
    }
    // topk: the first k of each sorted row.
    let k = c / 2;
    let (tv, ti) = m.topk_axis(k, Ax::<1>, descending);
    for i in 0..r {
        prop_assert_eq!(&ti.to_vec()[i * k..(i + 1) * k], &idx.to_vec()[i * c..i * c + k]);
        prop_assert!(same_bits(&tv.to_vec()[i * k..(i + 1) * k], &vals.to_vec()[i * c..i * c + k]));
    }
    // topk along the leading axis (the lines are columns: moved last, then back) against the
    // sort of the columns; and through f64 and i64 keys (the 64-bit path).
    let k0 = r / 2;
    let (cv, ci) = m.sort(Ax::<0>, descending);
    let (tv0, ti0) = m.topk_axis(k0, Ax::<0>, descending);
    prop_assert_eq!(&ti0.to_vec()[..], &ci.to_vec()[..k0 * c]);
    prop_assert!(same_bits(&tv0.to_vec(), &cv.to_vec()[..k0 * c]));
    let wide: Tensor<f64, Shape![_, _]> = m.cast();
    prop_assert_eq!(wide.topk_axis(k, Ax::<1>, descending).1.to_vec(), ti.to_vec());
    // kthvalue and median of each row against the ascending reference.
    if c > 0 {
        let k = c.div_ceil(2);
        let (kv, ki) = m.kthvalue(k, Ax::<1>);
        let (mv, mi) = m.median_axis(Ax::<1>);
        for i in 0..r {
            let line = &v[i * c..(i + 1) * c];
            let up = reference(line, false);
            prop_assert_eq!(ki.to_vec()[i], up[k - 1]);
            prop_assert_eq!(kv.to_vec()[i].to_bits(), line[up[k - 1] as usize].to_bits());
            let nans = line.iter().filter(|x| x.is_nan()).count();
            let p = if nans > 0 { c - nans } else { (c - 1) / 2 };
            prop_assert_eq!(mi.to_vec()[i], up[p]);
            prop_assert_eq!(mv.to_vec()[i].to_bits(), line[up[p] as usize].to_bits());
        }
    }
    let t = m.t();
    let cols = t.argsort(Ax::<1>, descending).to_vec();
    let cols_dyn = m.clone().into_dyn().argsort(0, descending);
    for j in 0..c {
        let line: Vec<f32> = (0..r).map(|i| v[i * c + j]).collect();
        let want = reference(&line, descending);
        prop_assert_eq!(&cols[j * r..(j + 1) * r], &want[..]);
        let got: Vec<i64> = (0..r).map(|i| cols_dyn.to_vec()[i * c + j]).collect();
        prop_assert_eq!(got, want);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases(256, 4), failure_persistence: None, ..ProptestConfig::default() })]

    /// Random matrices with duplicates, signed zeros, infinities and NaN.
    #[test]
    fn random_lines(
        (r, c, v) in (1usize..6, 0usize..40).prop_flat_map(|(r, c)| (Just(r), Just(c), prop::collection::vec(prop_oneof![
            4 => (-3i8..3).prop_map(|k| k as f32),
            1 => Just(f32::NAN),
            1 => Just(-0.0f32),
            1 => Just(f32::INFINITY),
            1 => Just(f32::NEG_INFINITY),
            2 => -1e3f32..1e3,
        ], r * c))),
        descending in any::<bool>(),
    ) {
        check(r, c, v, descending)?;
    }
}

/// Arguments at the ends of their types: errors or well-defined results, never a panic or a
/// wrapped index.
#[test]
fn extreme_arguments() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::from([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
    assert!(x.try_topk_dyn(usize::MAX, 1, true).is_err());
    assert!(x.try_topk_axis(usize::MAX, Ax::<1>, false).is_err());
    assert!(x.try_kthvalue(usize::MAX, Ax::<1>).is_err());
    assert!(x.try_kthvalue(1, isize::MIN).is_err());
    assert!(x.try_sort(isize::MAX, false).is_err());
    // Rotations by the extreme shifts equal rotations by their remainders modulo the dim.
    let by = |s: isize| x.roll(s, 1).to_vec();
    assert_eq!(by(isize::MIN), by(isize::MIN.rem_euclid(3)));
    assert_eq!(by(isize::MAX), by(isize::MAX.rem_euclid(3)));
    // Diagonals far outside the matrix: everything or nothing.
    assert_eq!(x.tril(isize::MAX).to_vec(), x.to_vec());
    assert_eq!(x.tril(isize::MIN).to_vec(), vec![0.0; 6]);
    assert_eq!(x.triu(isize::MIN).to_vec(), x.to_vec());
    assert_eq!(x.triu(isize::MAX).to_vec(), vec![0.0; 6]);
    // Shifts by the extreme counts.
    let v = Tensor::from([-5i64, 5]);
    assert_eq!(v.bitwise_left_shift(i64::MAX).to_vec(), vec![0, 0]);
    assert_eq!(v.bitwise_right_shift(i64::MIN).to_vec(), vec![-1, 0]);
    // A rank-0 tensor has no axis to sort, roll or difference.
    let s = Tensor::<f32, DynShape>::from_vec(&[], vec![1.0]);
    assert!(s.try_argsort(0, false).is_err());
    assert!(s.try_roll(1, 0).is_err());
    assert!(s.try_diff(0).is_err());
    assert!(s.try_tril(0).is_err());
    assert_eq!(s.median(), 1.0);
}
