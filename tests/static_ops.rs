//! Issue 4's statically typed operations: every-size broadcasting, keepdim and multi-axis
//! reductions, batched matmul, literal narrow/select, typed assignment, `cast_shape` and
//! `from_array`. Every result type is annotated, and the values are compared with simple
//! references.
mod common;
use common::*;
use proptest::prelude::*;
use shaped::prelude::*;
use shaped::Layout;

/// `0, 1, 2, ...` in a fully static shape.
fn arange<S: shaped::shape::AllStatic>() -> Tensor<f64, S> {
    let sizes: Vec<usize> = S::STATIC[..S::RANK.unwrap()].iter().map(|d| d.unwrap()).collect();
    Tensor::<f64, S>::from_vec(&sizes, (0..numel(&sizes)).map(|i| i as f64).collect())
}

#[test]
#[cfg_attr(miri, ignore = "large tensors; the types are what this test checks")]
fn broadcasting_has_no_size_limit() {
    // 65,536 and 50,000 are far outside typenum's table: equality and `One` need none.
    let x = Tensor::<f32, Shape![65536, 1]>::ones();
    let b: Tensor<f32, Shape![1, 3]> = Tensor::from([[1., 2., 3.]]);
    let y: Tensor<f32, Shape![65536, 3]> = &x + &b;
    assert_eq!((y.sizes(), y.sum()), (&[65536, 3][..], 65536. * 9.));
    let p = Tensor::<f32, Shape![50000]>::full(2.);
    let q: Tensor<f32, Shape![50000]> = &p * &p;
    assert_eq!(q.sum(), 200_000.);
    // [2000] + [2000] was rejected before `One` (issue 3's note).
    let s: Tensor<f32, Shape![2000]> = &Tensor::<f32, Shape![2000]>::ones() + &Tensor::<f32, Shape![2000]>::ones();
    assert_eq!(s.sum(), 4000.);
    // expand of a `One` to a large size, and squeeze back.
    let col = Tensor::<f32, Shape![3, 1]>::ones();
    let e: TensorView<f32, Shape![3, 40000]> = col.expand::<Shape![3, 40000]>();
    assert_eq!((e.strides(), e.sum()), (&[1, 0][..], 120000.));
    let sq: TensorView<f32, Shape![3]> = col.squeeze(Ax::<1>);
    assert_eq!(sq.to_vec(), [1., 1., 1.]);
}

#[test]
fn size_one_dims_from_every_source_are_one() {
    let x = arange::<Shape![2, 3]>();
    let a: TensorView<f64, Shape![2, 1, 3]> = x.unsqueeze(Ax::<1>);
    let b: TensorView<f64, Shape![1, 3]> = t!(x[0..1, ..]);
    let c: TensorView<f64, Shape![2, 1, 3]> = t!(x[.., None, ..]);
    let d: TensorView<f64, Shape![2, 1]> = t!(x[.., -1..]);
    let k: Tensor<f64, Shape![2, 1]> = x.sum_keepdim(Ax::<1>);
    let f: Tensor<f64, Shape![1, 3]> = Tensor::from([[1., 2., 3.]]);
    assert_eq!((a.numel(), b.to_vec(), c.numel(), d.to_vec()), (6, vec![0., 1., 2.], 6, vec![2., 5.]));
    assert_eq!((k.to_vec(), f.to_vec()), (vec![3., 12.], vec![1., 2., 3.]));
    // `Const<1>` (from `from_array` or generic code) is an ordinary size; cast_shape relabels it.
    let g: Tensor<f64, (Const<1>, Const<3>)> = Tensor::from_array([[1., 2., 3.]]);
    let h: Tensor<f64, Shape![1, 3]> = g.cast_shape();
    let sum: Tensor<f64, Shape![2, 3]> = &x + &h;
    assert_eq!(sum.to_vec(), [1., 3., 5., 4., 6., 8.]);
    let back: Tensor<f64, (Const<1>, Dyn)> = h.cast_shape();
    assert_eq!(back.sizes(), [1, 3]);
    let wrong: Result<Tensor<f64, Shape![1, 4]>, _> = back.try_cast_shape();
    assert_eq!(err(wrong), "sizes [1, 3] do not match shape [1, 4]");
}

#[test]
fn keepdim_reductions_broadcast_back() {
    let x = arange::<Shape![2, 3]>();
    let m: Tensor<f64, Shape![2, 1]> = x.mean_keepdim(Ax::<1>);
    assert_eq!(m.to_vec(), [1., 4.]);
    let centred: Tensor<f64, Shape![2, 3]> = &x - &m;
    assert_eq!(centred.to_vec(), [-1., 0., 1., -1., 0., 1.]);
    let s0: Tensor<f64, Shape![1, 3]> = x.sum_keepdim(Ax::<0>);
    assert_eq!(s0.to_vec(), [3., 5., 7.]);
    // A runtime shape keeps the axis too.
    let d = x.clone().into_dyn();
    assert_eq!(d.sum_keepdim(Ax::<0>).sizes(), [1, 3]);
}

#[test]
fn multi_axis_reductions_match_a_reference() {
    let x = arange::<Shape![2, 3, 4]>();
    let s: Tensor<f64, Shape![3]> = x.sum_axes((Ax::<0>, Ax::<2>));
    let k: Tensor<f64, Shape![1, 3, 1]> = x.sum_axes_keepdim((Ax::<0>, Ax::<2>));
    let m: Tensor<f64, Shape![4]> = x.mean_axes((Ax::<0>, Ax::<1>));
    let mk: Tensor<f64, Shape![2, 1, 1]> = x.mean_axes_keepdim((Ax::<1>, Ax::<2>));
    let all: Tensor<f64, Shape![]> = x.sum_axes((Ax::<0>, Ax::<1>, Ax::<2>));
    let at = |i: usize, j: usize, l: usize| (i * 12 + j * 4 + l) as f64;
    let r_s: Vec<f64> = (0..3).map(|j| (0..2).flat_map(|i| (0..4).map(move |l| at(i, j, l))).sum()).collect();
    let r_m: Vec<f64> =
        (0..4).map(|l| (0..2).flat_map(|i| (0..3).map(move |j| at(i, j, l))).sum::<f64>() / 6.).collect();
    let r_mk: Vec<f64> =
        (0..2).map(|i| (0..3).flat_map(|j| (0..4).map(move |l| at(i, j, l))).sum::<f64>() / 12.).collect();
    assert_eq!((s.to_vec(), k.to_vec()), (r_s.clone(), r_s));
    assert_eq!((m.to_vec(), mk.to_vec()), (r_m, r_mk));
    assert_eq!(all.to_vec(), [276.]);
    // On a strided view (a transpose), the reduction reads in place.
    let t: Tensor<f64, Shape![3]> = x.transpose(Ax::<0>, Ax::<2>).sum_axes((Ax::<0>, Ax::<2>));
    assert_eq!(t.to_vec(), s.to_vec());
}

/// `[.., m, k] @ [.., k, n]` by the definition, batch dims broadcast.
fn matmul_ref(a: &[f64], sa: &[usize], b: &[f64], sb: &[usize]) -> (Vec<f64>, Vec<usize>) {
    let (ra, rb) = (sa.len(), sb.len());
    let (m, k, n) = (sa[ra - 2], sa[ra - 1], sb[rb - 1]);
    let r = (ra - 2).max(rb - 2);
    let pad = |s: &[usize]| -> Vec<usize> {
        let mut v = vec![1; r - (s.len() - 2)];
        v.extend(&s[..s.len() - 2]);
        v
    };
    let (pa, pb) = (pad(sa), pad(sb));
    let batch: Vec<usize> = pa.iter().zip(&pb).map(|(x, y)| (*x).max(*y)).collect();
    let mut out = Vec::new();
    for p in 0..numel(&batch) {
        let bi = unravel(p, &batch);
        let ia: Vec<usize> = bi.iter().zip(&pa).map(|(i, s)| if *s == 1 { 0 } else { *i }).collect();
        let ib: Vec<usize> = bi.iter().zip(&pb).map(|(i, s)| if *s == 1 { 0 } else { *i }).collect();
        let (oa, ob) = (ravel(&ia, &pa) * m * k, ravel(&ib, &pb) * k * n);
        for i in 0..m {
            for j in 0..n {
                out.push((0..k).map(|q| a[oa + i * k + q] * b[ob + q * n + j]).sum());
            }
        }
    }
    let mut sizes = batch;
    sizes.extend([m, n]);
    (out, sizes)
}

#[test]
fn batched_matmul_broadcasts_batch_dims() {
    let a = arange::<Shape![2, 3, 4]>();
    let b = arange::<Shape![4, 5]>();
    let c: Tensor<f64, Shape![2, 3, 5]> = a.matmul(&b);
    assert_eq!((c.to_vec(), c.sizes().to_vec()), matmul_ref(&a.to_vec(), a.sizes(), &b.to_vec(), b.sizes()));
    let w = arange::<Shape![3, 1, 4, 2]>();
    let d: Tensor<f64, Shape![3, 2, 3, 2]> = a.matmul(&w);
    assert_eq!((d.to_vec(), d.sizes().to_vec()), matmul_ref(&a.to_vec(), a.sizes(), &w.to_vec(), w.sizes()));
    let m = arange::<Shape![3, 4]>();
    let e: Tensor<f64, Shape![2, 3, 2]> = m.matmul(&arange::<Shape![2, 4, 2]>());
    let (re, _) = matmul_ref(&m.to_vec(), m.sizes(), &arange::<Shape![2, 4, 2]>().to_vec(), &[2, 4, 2]);
    assert_eq!(e.to_vec(), re);
    // A transposed batch operand is read in place.
    let bt = arange::<Shape![2, 5, 4]>();
    let f: Tensor<f64, Shape![2, 3, 5]> = a.matmul(&bt.transpose(Ax::<1>, Ax::<2>));
    let (rf, _) = matmul_ref(&a.to_vec(), a.sizes(), &bt.transpose(Ax::<1>, Ax::<2>).to_vec(), &[2, 4, 5]);
    assert_eq!(f.to_vec(), rf);
    // Runtime batch dims that do not broadcast are an error naming both shapes.
    let x = arange::<Shape![2, 3, 4]>().into_dyn();
    let y = arange::<Shape![3, 4, 2]>().into_dyn();
    assert_eq!(err(x.try_matmul(&y)), "cannot matmul [2, 3, 4] by [3, 4, 2]: the batch dimensions do not broadcast");
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: common::cases(300, 4),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]
    #[test]
    fn batched_matmul_matches_the_reference(
        ba in proptest::collection::vec(1usize..4, 0..3),
        bb in proptest::collection::vec(1usize..4, 0..3),
        (m, k, n) in (1usize..4, 1usize..4, 1usize..4),
        ones in proptest::collection::vec(any::<bool>(), 6),
    ) {
        // Batch dims of one side set to 1 where `ones` says, so that broadcasting is exercised.
        let r = ba.len().min(bb.len());
        let mut bb = bb;
        for (i, one) in ones.iter().enumerate().take(r) {
            let (ia, ib) = (ba.len() - 1 - i, bb.len() - 1 - i);
            bb[ib] = if *one { 1 } else { ba[ia] };
        }
        let mut sa = ba.clone();
        sa.extend([m, k]);
        let mut sb = bb.clone();
        sb.extend([k, n]);
        let va: Vec<f64> = (0..numel(&sa)).map(|i| (i % 7) as f64 - 3.).collect();
        let vb: Vec<f64> = (0..numel(&sb)).map(|i| (i % 5) as f64 - 2.).collect();
        let a = Tensor::<f64, DynShape>::from_vec(&sa, va.clone());
        let b = Tensor::<f64, DynShape>::from_vec(&sb, vb.clone());
        let c = a.matmul(&b);
        let (rv, rs) = matmul_ref(&va, &sa, &vb, &sb);
        prop_assert_eq!(c.sizes(), &rs[..]);
        prop_assert_eq!(c.to_vec(), rv);
    }
}

#[test]
fn literal_narrow_and_select_are_static() {
    let x = arange::<Shape![5, 3]>();
    let n: TensorView<f64, Shape![2, 3]> = x.narrow_const::<0, 1, 2>();
    assert_eq!(n.to_vec(), [3., 4., 5., 6., 7., 8.]);
    assert!(same_storage(&x.storage()[3..], &n.storage()[n.storage_offset()..]));
    let s: TensorView<f64, Shape![5]> = x.select_const::<1, 2>();
    assert_eq!(s.to_vec(), [2., 5., 8., 11., 14.]);
    // A `Dyn` dim is checked at run time.
    let d = Tensor::<f64, Shape![_, 3]>::zeros_sized(&[2, 3]);
    assert_eq!(err(d.try_narrow_const::<0, 1, 2>()), "range 1..3 is out of bounds for dimension 0 of size 2");
    assert_eq!(err(d.try_select_const::<0, 2>()), "index 2 is out of bounds for dimension 0 of size 2");
}

#[test]
fn assignment_shapes_are_typed() {
    let mut x = Tensor::<i32, Shape![3, 4]>::zeros();
    t!(x[.., 1..3] = &Tensor::from([[1, 2], [3, 4], [5, 6]]));
    t!(x[0, ..] = Tensor::from([9, 9, 9, 9]));
    t!(x[.., 3] = &Tensor::<i32, Shape![1]>::full(7));
    assert_eq!(x.to_vec(), [9, 9, 9, 7, 0, 3, 4, 7, 0, 5, 6, 7]);
    // A runtime value is checked at run time.
    let mut y = Tensor::<i32, Shape![2, 2]>::zeros();
    let v = Tensor::from([1, 2, 3]).into_dyn();
    assert_eq!(err(y.try_assign(&v)), "cannot expand [3] to [2, 2]: only size-1 dims can be expanded");
}

/// Generic code names only `Shape` (and `Const`): a function over every static size `N`.
fn centre_rows<const N: usize, const M: usize>(x: &Tensor<f64, Shape![N, M]>) -> Tensor<f64, Shape![N, M]> {
    x - &x.mean_keepdim(Ax::<1>)
}

#[test]
#[cfg_attr(miri, ignore = "a [4096, 2] tensor is slow under Miri")]
fn generic_functions_over_sizes() {
    let x = arange::<Shape![2, 3]>();
    assert_eq!(centre_rows(&x).to_vec(), [-1., 0., 1., -1., 0., 1.]);
    let big = Tensor::<f64, Shape![4096, 2]>::ones();
    assert_eq!(centre_rows(&big).sum(), 0.);
    let arr: Tensor<f64, (Const<1>, Const<2>)> = from_generic([3., 4.]);
    assert_eq!(arr.to_vec(), [3., 4.]);
}

fn from_generic<const N: usize>(a: [f64; N]) -> Tensor<f64, (Const<1>, Const<N>)> {
    Tensor::from_array([a])
}

#[test]
fn layout_is_unchanged_by_cast_shape() {
    let x = arange::<Shape![2, 3]>();
    let l: Layout = *x.transpose(Ax::<0>, Ax::<1>).layout();
    let c: Tensor<f64, Shape![_, 3]> = x.clone().cast_shape();
    assert_eq!((c.layout(), c.to_vec()), (x.layout(), x.to_vec()));
    assert_eq!(l.strides(), [1, 3]);
}
