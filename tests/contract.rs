//! `matmul` with 1-D operands (PyTorch `torch.matmul`: `[k] @ [k] -> []`, `[.., m, k] @ [k] ->
//! [.., m]`, `[k] @ [.., k, n] -> [.., n]`), `kron` and `tensordot`, checked against hand-written
//! reference loops (and a few NumPy results pasted in), for static, inline and runtime shapes,
//! strided and broadcast views, empty operands and the runtime errors. Sizes stay tiny so that
//! Miri runs the file quickly.
mod common;
use common::{err, numel, ravel, unravel};
use proptest::prelude::*;
use shaped::prelude::*;
use shaped::STensor;

/// `n` small integers (exact in f64 sums), varied by `seed`.
fn seq(n: usize, seed: usize) -> Vec<f64> {
    (0..n).map(|i| ((i * 7 + seed * 3) % 11) as f64 - 5.0).collect()
}

fn dynt(sizes: &[usize], seed: usize) -> Tensor<f64, DynShape> {
    Tensor::from_vec(sizes, seq(numel(sizes), seed))
}

/// `torch.matmul` on row-major data, by the definition: 1-D operands promoted to a row / a
/// column, batch dims broadcast, the promoted dims dropped from the result.
fn ref_matmul(a: &[f64], sa: &[usize], b: &[f64], sb: &[usize]) -> (Vec<f64>, Vec<usize>) {
    let (va, vb) = (sa.len() == 1, sb.len() == 1);
    let sa2: Vec<usize> = if va { vec![1, sa[0]] } else { sa.to_vec() };
    let sb2: Vec<usize> = if vb { vec![sb[0], 1] } else { sb.to_vec() };
    let (ra, rb) = (sa2.len(), sb2.len());
    let (m, k, n) = (sa2[ra - 2], sa2[ra - 1], sb2[rb - 1]);
    assert_eq!(k, sb2[rb - 2]);
    let (ba, bb) = (&sa2[..ra - 2], &sb2[..rb - 2]);
    let r = ba.len().max(bb.len());
    let get = |s: &[usize], i: usize| if i + s.len() >= r { s[i + s.len() - r] } else { 1 };
    let batch: Vec<usize> = (0..r).map(|i| if get(ba, i) == 1 { get(bb, i) } else { get(ba, i) }).collect();
    let mut full = batch.clone();
    full.extend([m, n]);
    let mut out = Vec::new();
    for p in 0..numel(&full) {
        let idx = unravel(p, &full);
        // The batch index of an operand: aligned from the right, size-1 dims stay at 0.
        let bidx = |s: &[usize]| -> Vec<usize> {
            (0..s.len()).map(|j| if s[j] == 1 { 0 } else { idx[r - s.len() + j] }).collect()
        };
        let (ia, ib) = (bidx(ba), bidx(bb));
        let (i, j) = (idx[r], idx[r + 1]);
        let mut acc = 0.0;
        for q in 0..k {
            let mut xa = ia.clone();
            xa.extend([i, q]);
            let mut xb = ib.clone();
            xb.extend([q, j]);
            acc += a[ravel(&xa, &sa2)] * b[ravel(&xb, &sb2)];
        }
        out.push(acc);
    }
    let mut sizes = batch;
    if !va {
        sizes.push(m);
    }
    if !vb {
        sizes.push(n);
    }
    (out, sizes)
}

/// `np.kron` of operands of the same rank, by the definition.
fn ref_kron(a: &[f64], sa: &[usize], b: &[f64], sb: &[usize]) -> (Vec<f64>, Vec<usize>) {
    let so: Vec<usize> = sa.iter().zip(sb).map(|(x, y)| x * y).collect();
    let mut out = vec![0.0; numel(&so)];
    for (p, o) in out.iter_mut().enumerate() {
        let idx = unravel(p, &so);
        let ia: Vec<usize> = idx.iter().zip(sb).map(|(i, n)| i / n).collect();
        let ib: Vec<usize> = idx.iter().zip(sb).map(|(i, n)| i % n).collect();
        *o = a[ravel(&ia, sa)] * b[ravel(&ib, sb)];
    }
    (out, so)
}

/// `np.tensordot(a, b, axes=(ca, cb))` with non-negative axes, by the definition.
fn ref_tensordot(
    a: &[f64],
    sa: &[usize],
    b: &[f64],
    sb: &[usize],
    ca: &[usize],
    cb: &[usize],
) -> (Vec<f64>, Vec<usize>) {
    let fa: Vec<usize> = (0..sa.len()).filter(|i| !ca.contains(i)).collect();
    let fb: Vec<usize> = (0..sb.len()).filter(|i| !cb.contains(i)).collect();
    let so: Vec<usize> = fa.iter().map(|&i| sa[i]).chain(fb.iter().map(|&i| sb[i])).collect();
    let sc: Vec<usize> = ca.iter().map(|&i| sa[i]).collect();
    let mut out = Vec::new();
    for p in 0..numel(&so) {
        let idx = unravel(p, &so);
        let mut acc = 0.0;
        for q in 0..numel(&sc) {
            let c = unravel(q, &sc);
            let (mut xa, mut xb) = (vec![0; sa.len()], vec![0; sb.len()]);
            for (j, &i) in fa.iter().enumerate() {
                xa[i] = idx[j];
            }
            for (j, &i) in fb.iter().enumerate() {
                xb[i] = idx[fa.len() + j];
            }
            for (j, (&i, &i2)) in ca.iter().zip(cb).enumerate() {
                (xa[i], xb[i2]) = (c[j], c[j]);
            }
            acc += a[ravel(&xa, sa)] * b[ravel(&xb, sb)];
        }
        out.push(acc);
    }
    (out, so)
}

/// Checks `a.matmul(&b)` (any storage, runtime result) against the reference.
fn check_matmul(a: &Tensor<f64, DynShape>, b: &Tensor<f64, DynShape>) {
    let (want, sizes) = ref_matmul(&a.to_vec(), a.sizes(), &b.to_vec(), b.sizes());
    let got = a.matmul(b);
    assert_eq!(got.sizes(), sizes.as_slice(), "{:?} @ {:?}", a.sizes(), b.sizes());
    assert_eq!(got.to_vec(), want, "{:?} @ {:?}", a.sizes(), b.sizes());
}

// ---- matmul with 1-D operands ----

#[test]
fn matmul_vector_vector_is_a_0d_dot() {
    let v: Tensor<f64, Shape![3]> = Tensor::from([1., 2., 3.]);
    let w: Tensor<f64, Shape![3]> = Tensor::from([4., -5., 6.]);
    let d: Tensor<f64, Shape![]> = v.matmul(&w);
    assert_eq!(d.sizes(), [] as [usize; 0]);
    assert_eq!(d.item(), 12.);
    assert_eq!(d.item(), v.dot(&w));
    // Runtime shapes, and each mix of static and runtime.
    let e: Tensor<f64, DynShape> = v.as_dyn().matmul(&w.as_dyn());
    assert_eq!((e.sizes(), e.to_vec()), (&[][..], vec![12.]));
    let e: Tensor<f64, DynShape> = v.matmul(&w.as_dyn());
    assert_eq!((e.sizes(), e.to_vec()), (&[][..], vec![12.]));
    let e: Tensor<f64, DynShape> = v.as_dyn().matmul(&w);
    assert_eq!((e.sizes(), e.to_vec()), (&[][..], vec![12.]));
    let u = Tensor::<f64, Shape![_]>::from_vec(&[3], vec![4., -5., 6.]);
    let e: Tensor<f64, Shape![]> = v.matmul(&u);
    assert_eq!(e.item(), 12.);
}

#[test]
fn matmul_matrix_vector_and_vector_matrix() {
    // NumPy: a = np.arange(6.).reshape(2, 3); a @ [1, -1, 2] -> [3, 9]; [1, -1] @ a -> [-3, -3, -3]
    let a = Tensor::<f64, Shape![2, 3]>::from([[0., 1., 2.], [3., 4., 5.]]);
    let v = Tensor::<f64, Shape![3]>::from([1., -1., 2.]);
    let av: Tensor<f64, Shape![2]> = a.matmul(&v);
    assert_eq!(av.to_vec(), [3., 9.]);
    assert_eq!(av.to_vec(), a.mv(&v).to_vec());
    let u = Tensor::<f64, Shape![2]>::from([1., -1.]);
    let ua: Tensor<f64, Shape![3]> = u.matmul(&a);
    assert_eq!(ua.to_vec(), [-3., -3., -3.]);
    // Dyn dims keep their place in the result type.
    let ad = Tensor::<f64, Shape![_, 3]>::from_vec(&[2, 3], a.to_vec());
    let r: Tensor<f64, Shape![_]> = ad.matmul(&v);
    assert_eq!(r.to_vec(), [3., 9.]);
    let r: Tensor<f64, Shape![_]> = u.as_dyn().matmul(&a).into_static::<Shape![_]>();
    assert_eq!(r.to_vec(), [-3., -3., -3.]);
    // Runtime shapes give runtime results.
    let r = a.as_dyn().matmul(&v.as_dyn());
    assert_eq!((r.sizes(), r.to_vec()), (&[2][..], vec![3., 9.]));
    let r = u.as_dyn().matmul(&a.as_dyn());
    assert_eq!((r.sizes(), r.to_vec()), (&[3][..], vec![-3., -3., -3.]));
}

#[test]
fn matmul_inline_operands_take_the_direct_path() {
    let a = STensor::<f64, Shape![2, 3]>::new([[0., 1., 2.], [3., 4., 5.]]);
    let v = STensor::<f64, Shape![3]>::new([1., -1., 2.]);
    let u = STensor::<f64, Shape![2]>::new([1., -1.]);
    let av: STensor<f64, Shape![2]> = a.matmul(&v);
    assert_eq!(av.to_vec(), [3., 9.]);
    let ua: STensor<f64, Shape![3]> = u.matmul(&a);
    assert_eq!(ua.to_vec(), [-3., -3., -3.]);
    let d: STensor<f64, Shape![]> = v.matmul(&v);
    assert_eq!(d.item(), 6.);
    // A heap operand with an inline one, and strided views of inline tensors.
    let col = t!(a[.., 1]); // [1, 4], stride 3
    let r: STensor<f64, Shape![3]> = col.matmul(&a);
    assert_eq!(r.to_vec(), [12., 17., 22.]);
    let r: STensor<f64, Shape![3]> = a.t().matmul(&u);
    assert_eq!(r.to_vec(), [-3., -3., -3.]);
    let h = Tensor::<f64, Shape![3]>::from([1., -1., 2.]);
    let r: STensor<f64, Shape![2]> = a.matmul(&h);
    assert_eq!(r.to_vec(), [3., 9.]);
}

#[test]
fn matmul_batched_with_a_vector() {
    // [2, 2, 3] @ [3] -> [2, 2]; [3] @ [2, 3, 2] -> [2, 2]
    let a = Tensor::<f64, Shape![2, 2, 3]>::from_vec(&[2, 2, 3], seq(12, 1));
    let v = Tensor::<f64, Shape![3]>::from_vec(&[3], seq(3, 2));
    let r: Tensor<f64, Shape![2, 2]> = a.matmul(&v);
    assert_eq!(r.to_vec(), ref_matmul(&a.to_vec(), &[2, 2, 3], &v.to_vec(), &[3]).0);
    let b = Tensor::<f64, Shape![2, 3, 2]>::from_vec(&[2, 3, 2], seq(12, 3));
    let r: Tensor<f64, Shape![2, 2]> = v.matmul(&b);
    assert_eq!(r.to_vec(), ref_matmul(&v.to_vec(), &[3], &b.to_vec(), &[2, 3, 2]).0);
    // A `One` batch dim stays in the result; rank 6 on either side.
    let o = Tensor::<f64, Shape![1, 2, 3]>::from_vec(&[1, 2, 3], seq(6, 4));
    let r: Tensor<f64, Shape![1, 2]> = o.matmul(&v);
    assert_eq!(r.to_vec(), ref_matmul(&o.to_vec(), &[1, 2, 3], &v.to_vec(), &[3]).0);
    let s6 = [2, 1, 1, 2, 3, 2];
    let b6 = Tensor::<f64, Shape![2, 1, 1, 2, 3, 2]>::from_vec(&s6, seq(numel(&s6), 5));
    let r: Tensor<f64, Shape![2, 1, 1, 2, 2]> = v.matmul(&b6);
    assert_eq!(r.to_vec(), ref_matmul(&v.to_vec(), &[3], &b6.to_vec(), &s6).0);
    let s6 = [2, 1, 1, 2, 2, 3];
    let a6 = Tensor::<f64, Shape![2, 1, 1, 2, 2, 3]>::from_vec(&s6, seq(numel(&s6), 6));
    let r: Tensor<f64, Shape![2, 1, 1, 2, 2]> = a6.matmul(&v);
    assert_eq!(r.to_vec(), ref_matmul(&a6.to_vec(), &s6, &v.to_vec(), &[3]).0);
    // Runtime shapes.
    check_matmul(&a6.clone().into_dyn(), &v.clone().into_dyn());
    check_matmul(&v.into_dyn(), &b6.into_dyn());
}

#[test]
fn matmul_vector_of_strided_and_broadcast_views() {
    let x = Tensor::<f64, Shape![3, 4]>::from_vec(&[3, 4], seq(12, 7));
    // A column (stride 4), a reversed row (stride -1), a stepped row (stride 2).
    let col = t!(x[.., 1]);
    let rev = t!(x[0, ..;-1]);
    let step = t!(x[2, ..;2]);
    let m = Tensor::<f64, Shape![4, 3]>::from_vec(&[4, 3], seq(12, 8));
    let r: Tensor<f64, Shape![3]> = rev.matmul(&m);
    assert_eq!(r.to_vec(), ref_matmul(&rev.to_vec(), &[4], &m.to_vec(), &[4, 3]).0);
    let r: Tensor<f64, Shape![4]> = m.matmul(&col);
    assert_eq!(r.to_vec(), ref_matmul(&m.to_vec(), &[4, 3], &col.to_vec(), &[3]).0);
    let r: Tensor<f64, Shape![]> = step.matmul(&t!(x[1, 1..3]));
    assert_eq!(r.item(), step.dot(&t!(x[1, 1..3])));
    // A transposed matrix by a strided vector.
    let r: Tensor<f64, Shape![4]> = x.t().matmul(&col);
    assert_eq!(r.to_vec(), ref_matmul(&x.t().to_vec(), &[4, 3], &col.to_vec(), &[3]).0);
    // A broadcast batch (stride 0) on either side of a vector.
    let e = x.as_dyn().try_expand_dyn(&[2, 3, 4]).unwrap();
    let r = e.matmul(&rev);
    assert_eq!(r.sizes(), [2, 3]);
    assert_eq!(r.to_vec(), ref_matmul(&e.to_vec(), &[2, 3, 4], &rev.to_vec(), &[4]).0);
    let r = col.matmul(&e);
    assert_eq!(r.sizes(), [2, 4]);
    assert_eq!(r.to_vec(), ref_matmul(&col.to_vec(), &[3], &e.to_vec(), &[2, 3, 4]).0);
    // A transposed batch (`transpose_dyn` of the last two dims) by a vector.
    let b = dynt(&[2, 4, 3], 9);
    let bt = b.try_transpose(-1, -2).unwrap();
    check_matmul(&bt.to_owned(), &rev.to_owned().into_dyn());
    let r = bt.matmul(&rev);
    assert_eq!(r.to_vec(), ref_matmul(&bt.to_vec(), &[2, 3, 4], &rev.to_vec(), &[4]).0);
}

#[test]
fn matmul_empty_operands() {
    let e0 = Tensor::<f64, Shape![0]>::zeros();
    let d: Tensor<f64, Shape![]> = e0.matmul(&e0);
    assert_eq!(d.to_vec(), [0.]);
    let a = Tensor::<f64, Shape![2, 0]>::zeros();
    let r: Tensor<f64, Shape![2]> = a.matmul(&e0);
    assert_eq!(r.to_vec(), [0., 0.]);
    let v = Tensor::<f64, Shape![3]>::ones();
    let r: Tensor<f64, Shape![0]> = Tensor::<f64, Shape![0, 3]>::zeros().matmul(&v);
    assert_eq!(r.sizes(), [0]);
    let r: Tensor<f64, Shape![0]> = v.matmul(&Tensor::<f64, Shape![3, 0]>::zeros());
    assert_eq!(r.sizes(), [0]);
    let r: Tensor<f64, Shape![0, 2]> = Tensor::<f64, Shape![0, 2, 3]>::zeros().matmul(&v);
    assert_eq!(r.sizes(), [0, 2]);
    let r: Tensor<f64, Shape![2, 4]> =
        Tensor::<f64, Shape![0]>::zeros().matmul(&Tensor::<f64, Shape![2, 0, 4]>::zeros());
    assert_eq!(r.to_vec(), [0.; 8]);
    for (sa, sb) in [(&[0][..], &[0][..]), (&[2, 0], &[0]), (&[0], &[3, 0, 2]), (&[0, 2, 3], &[3])] {
        check_matmul(&dynt(sa, 1), &dynt(sb, 2));
    }
}

#[test]
fn matmul_runtime_errors() {
    let a = dynt(&[2, 3], 1);
    let v4 = dynt(&[4], 2);
    assert_eq!(err(a.try_matmul(&v4)), "cannot matmul [2, 3] by [4]: inner dimensions 3 and 4 differ");
    assert_eq!(err(v4.try_matmul(&a)), "cannot matmul [4] by [2, 3]: inner dimensions 4 and 2 differ");
    assert_eq!(err(dynt(&[3], 0).try_matmul(&v4)), "cannot matmul [3] by [4]: inner dimensions 3 and 4 differ");
    assert_eq!(
        err(dynt(&[3], 0).try_matmul(&dynt(&[2, 4, 2], 0))),
        "cannot matmul [3] by [2, 4, 2]: inner dimensions 3 and 4 differ"
    );
    // A 0-d operand has no matrix product (PyTorch: "both arguments to matmul need to be at least
    // 1D").
    let s = dynt(&[], 3);
    assert_eq!(err(s.try_matmul(&v4)), "cannot matmul [] by [4]: a 0-d operand has no matrix product");
    assert_eq!(err(a.try_matmul(&s)), "cannot matmul [2, 3] by []: a 0-d operand has no matrix product");
    assert_eq!(err(s.try_matmul(&s)), "cannot matmul [] by []: a 0-d operand has no matrix product");
    // Static operands with a runtime one, and `Dyn` dims of a tuple shape.
    let v3 = Tensor::<f64, Shape![3]>::ones();
    assert_eq!(err(v4.try_matmul(&v3)), "cannot matmul [4] by [3]: inner dimensions 4 and 3 differ");
    let vd = Tensor::<f64, Shape![_]>::ones_sized(&[4]);
    assert_eq!(err(v3.try_matmul(&vd)), "cannot matmul [3] by [4]: inner dimensions 3 and 4 differ");
    let m = Tensor::<f64, Shape![_, 2]>::ones_sized(&[4, 2]);
    assert_eq!(err(v3.try_matmul(&m)), "cannot matmul [3] by [4, 2]: inner dimensions 3 and 4 differ");
    let r = std::panic::catch_unwind(|| a.matmul(&v4));
    assert!(r.is_err());
    // The batch dims still must broadcast when the other side is a vector's partner.
    assert_eq!(
        err(dynt(&[2, 2, 3], 0).try_matmul(&dynt(&[3, 3, 1], 0))),
        "cannot matmul [2, 2, 3] by [3, 3, 1]: the batch dimensions do not broadcast"
    );
}

// ---- kron ----

#[test]
fn kron_static_shapes_multiply_their_sizes() {
    // NumPy: np.kron([[1, 2], [3, 4]], [[0, 5], [6, 7]])
    let a = Tensor::<i32, Shape![2, 2]>::from([[1, 2], [3, 4]]);
    let b = Tensor::<i32, Shape![2, 2]>::from([[0, 5], [6, 7]]);
    let k: Tensor<i32, Shape![4, 4]> = a.kron(&b);
    assert_eq!(k.to_vec(), [0, 5, 0, 10, 6, 7, 12, 14, 0, 15, 0, 20, 18, 21, 24, 28],);
    // `One` keeps the other factor (any size), `Dyn` gives `Dyn`, 0-d gives 0-d.
    let r = Tensor::<f64, Shape![1, 3]>::from([[1., 2., 3.]]);
    let c = Tensor::<f64, Shape![2, 1]>::from([[1.], [-1.]]);
    let k: Tensor<f64, Shape![2, 3]> = r.kron(&c);
    assert_eq!(k.to_vec(), [1., 2., 3., -1., -2., -3.]);
    let o: Tensor<f64, Shape![1, 1]> =
        Tensor::<f64, Shape![1, 1]>::full(2.).kron(&Tensor::<f64, Shape![1, 1]>::full(3.));
    assert_eq!(o.to_vec(), [6.]);
    // A size outside the typenum bridge times `One` (no arithmetic needed).
    let big = Tensor::<f64, Shape![1, 2000]>::ones();
    let k: Tensor<f64, Shape![1, 2000]> = big.kron(&Tensor::<f64, Shape![1, 1]>::full(3.));
    assert_eq!(k.sum(), 6000.);
    let d = Tensor::<f64, Shape![_, 3]>::from_vec(&[1, 3], vec![1., 2., 3.]);
    let k: Tensor<f64, Shape![_, 3]> = d.kron(&c);
    assert_eq!(k.to_vec(), [1., 2., 3., -1., -2., -3.]);
    let s: Tensor<f64, Shape![]> = Tensor::<f64, Shape![]>::full(2.).kron(&Tensor::<f64, Shape![]>::full(-4.));
    assert_eq!(s.item(), -8.);
    // Rank 3, checked against the reference; static with runtime shapes.
    let x = Tensor::<f64, Shape![2, 1, 3]>::from_vec(&[2, 1, 3], seq(6, 1));
    let y = Tensor::<f64, Shape![1, 2, 2]>::from_vec(&[1, 2, 2], seq(4, 2));
    let k: Tensor<f64, Shape![2, 2, 6]> = x.kron(&y);
    assert_eq!(k.to_vec(), ref_kron(&x.to_vec(), &[2, 1, 3], &y.to_vec(), &[1, 2, 2]).0);
    let k: Tensor<f64, DynShape> = x.kron(&y.as_dyn());
    assert_eq!((k.sizes(), k.to_vec()), (&[2, 2, 6][..], ref_kron(&x.to_vec(), &[2, 1, 3], &y.to_vec(), &[1, 2, 2]).0));
    // Inline operands give an inline result.
    let i = STensor::<f64, Shape![2]>::new([1., 2.]);
    let k: STensor<f64, Shape![4]> = i.kron(&i);
    assert_eq!(k.to_vec(), [1., 2., 2., 4.]);
}

#[test]
fn kron_views_empty_and_errors() {
    let x = Tensor::<f64, Shape![3, 4]>::from_vec(&[3, 4], seq(12, 3));
    let b = Tensor::<f64, Shape![2, 3]>::from_vec(&[2, 3], seq(6, 4));
    // A transpose and a stepped, reversed slice: read in place.
    let k: Tensor<f64, Shape![12, 6]> = x.t().kron(&b.t());
    assert_eq!(k.to_vec(), ref_kron(&x.t().to_vec(), &[4, 3], &b.t().to_vec(), &[3, 2]).0);
    let v = t!(x[..;-1, 1..4;2]);
    let k = v.kron(&b);
    assert_eq!(k.to_vec(), ref_kron(&v.to_vec(), &[3, 2], &b.to_vec(), &[2, 3]).0);
    let e = x.as_dyn().try_expand_dyn(&[2, 3, 4]).unwrap();
    let k = e.kron(&dynt(&[1, 2, 1], 5));
    assert_eq!(k.sizes(), [2, 6, 4]);
    assert_eq!(k.to_vec(), ref_kron(&e.to_vec(), &[2, 3, 4], &seq(2, 5), &[1, 2, 1]).0);
    // Empty operands.
    let k: Tensor<f64, Shape![0, 6]> = Tensor::<f64, Shape![0, 3]>::zeros().kron(&Tensor::<f64, Shape![2, 2]>::ones());
    assert_eq!(k.sizes(), [0, 6]);
    assert_eq!(dynt(&[2, 2], 0).kron(&dynt(&[3, 0], 0)).sizes(), [6, 0]);
    // Runtime ranks must agree.
    assert_eq!(err(dynt(&[2, 2], 0).try_kron(&dynt(&[2], 0))), "kron: [2, 2] and [2] differ in rank");
}

// ---- tensordot ----

#[test]
fn tensordot_against_numpy() {
    // NumPy: a = np.arange(24.).reshape(2, 3, 4); b = np.arange(12.).reshape(4, 3)
    // np.tensordot(a, b, axes=([1, 2], [1, 0])) -> [ 440. 1232.]
    let a = Tensor::<f64, Shape![2, 3, 4]>::from_vec(&[2, 3, 4], (0..24).map(f64::from).collect());
    let b = Tensor::<f64, Shape![4, 3]>::from_vec(&[4, 3], (0..12).map(f64::from).collect());
    let c = a.tensordot(&b, &[1, 2], &[1, 0]);
    assert_eq!((c.sizes(), c.to_vec()), (&[2][..], vec![440., 1232.]));
    // Negative axes, listed in another order: the same pairs.
    let c2 = a.tensordot(&b, &[-1, -2], &[0, -1]);
    assert_eq!(c2.to_vec(), c.to_vec());
    // np.tensordot(a, b, axes=([2], [0])) has shape (2, 3, 3); its [1, 2, 0] is 402.
    let c = a.tensordot(&b, &[2], &[0]);
    assert_eq!(c.sizes(), [2, 3, 3]);
    assert_eq!(c.to_vec()[9 + 2 * 3], 402.);
    assert_eq!(c.to_vec(), ref_tensordot(&a.to_vec(), &[2, 3, 4], &b.to_vec(), &[4, 3], &[2], &[0]).0);
    // No axes: the outer product. Every axis: a 0-d result (np.tensordot(a, a, 3) = 4324).
    let o = b.tensordot(&b, &[], &[]);
    assert_eq!(o.sizes(), [4, 3, 4, 3]);
    assert_eq!(o.to_vec(), ref_tensordot(&b.to_vec(), &[4, 3], &b.to_vec(), &[4, 3], &[], &[]).0);
    let s = a.tensordot(&a, &[0, 1, 2], &[0, 1, 2]);
    assert_eq!((s.sizes(), s.to_vec()), (&[][..], vec![4324.]));
    // Runtime shapes and strided views (a transpose, a reversed slice) on either side.
    let at = a.as_dyn().try_transpose(0, 2).unwrap(); // [4, 3, 2]
    let bv = t!(b[..;-1, ..]);
    let c = at.tensordot(&bv, &[0, 1], &[0, 1]);
    assert_eq!(c.to_vec(), ref_tensordot(&at.to_vec(), &[4, 3, 2], &bv.to_vec(), &[4, 3], &[0, 1], &[0, 1]).0);
    let c = bv.t().tensordot(&at, &[0], &[1]);
    assert_eq!(c.sizes(), [4, 4, 2]);
    assert_eq!(c.to_vec(), ref_tensordot(&bv.t().to_vec(), &[3, 4], &at.to_vec(), &[4, 3, 2], &[0], &[1]).0);
    // A broadcast (stride 0) operand.
    let e = b.as_dyn().try_expand_dyn(&[2, 4, 3]).unwrap();
    let c = e.tensordot(&a, &[0, 2], &[0, 1]);
    assert_eq!(c.to_vec(), ref_tensordot(&e.to_vec(), &[2, 4, 3], &a.to_vec(), &[2, 3, 4], &[0, 2], &[0, 1]).0);
    // Integer elements; empty operands.
    let i = Tensor::<i64, Shape![2, 2]>::from([[1, 2], [3, 4]]);
    assert_eq!(i.tensordot(&i, &[1], &[0]).to_vec(), [7, 10, 15, 22]);
    let z = dynt(&[2, 0], 0).tensordot(&dynt(&[0, 3], 0), &[1], &[0]);
    assert_eq!((z.sizes(), z.to_vec()), (&[2, 3][..], vec![0.; 6]));
    assert_eq!(dynt(&[0, 2], 0).tensordot(&dynt(&[2, 3], 0), &[1], &[0]).sizes(), [0, 3]);
}

#[test]
fn tensordot_errors() {
    let a = dynt(&[2, 3, 4], 0);
    let b = dynt(&[4, 3], 0);
    assert_eq!(err(a.try_tensordot(&b, &[3], &[0])), "axis 3 is out of range for a tensor of rank 3");
    assert_eq!(err(a.try_tensordot(&b, &[2], &[-3])), "axis -3 is out of range for a tensor of rank 2");
    assert_eq!(
        err(a.try_tensordot(&b, &[2, -1], &[0, 1])),
        "tensordot: axis -1 is repeated in [2, -1] (a tensor of rank 3)"
    );
    assert_eq!(
        err(a.try_tensordot(&b, &[1, 2], &[0, 1])),
        "tensordot: [2, 3, 4] and [4, 3] differ in the sizes of contracted axes 1 and 0 (3 and 4)"
    );
    assert_eq!(
        err(a.try_tensordot(&b, &[2], &[0, 1])),
        "tensordot: [2, 3, 4] and [4, 3] are contracted over axis lists of different lengths ([2] and [0, 1])"
    );
    assert_eq!(err(b.try_tensordot(&b, &[0, 1, 0], &[0, 1, 1])), "tensordot: 3 axes [0, 1, 0] for a tensor of rank 2");
    assert_eq!(a.tensordot(&a, &[], &[]).sizes(), [2, 3, 4, 2, 3, 4]);
    assert_eq!(err(a.try_tensordot(&dynt(&[2, 1, 1, 1], 0), &[], &[])), "rank 7 exceeds the maximum of 6 dims");
}

// ---- properties ----

/// Batch sizes from {1, 2} (always broadcastable), then `last`.
fn with_batch(batch: &[usize], last: &[usize]) -> Vec<usize> {
    batch.iter().chain(last).copied().collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases(200, 3), failure_persistence: None, ..ProptestConfig::default() })]

    /// Every rank pair 1..=4 (1-D either side, batches that broadcast), as runtime shapes, with
    /// the right operand's last two dims optionally read through a transpose.
    #[test]
    fn matmul_matches_the_reference(
        ba in prop::collection::vec(1usize..3, 0..3),
        bb in prop::collection::vec(1usize..3, 0..3),
        (m, k, n) in (0usize..3, 0usize..3, 0usize..3),
        (va, vb, tb) in (any::<bool>(), any::<bool>(), any::<bool>()),
    ) {
        let sa = if va { vec![k] } else { with_batch(&ba, &[m, k]) };
        let a = dynt(&sa, 1);
        let b = if vb {
            dynt(&[k], 2)
        } else if tb {
            dynt(&with_batch(&bb, &[n, k]), 2).try_transpose(-1, -2).unwrap().to_owned()
        } else {
            dynt(&with_batch(&bb, &[k, n]), 2)
        };
        check_matmul(&a, &b);
        if tb && !vb {
            // The transposed view itself, not its copy.
            let src = dynt(&with_batch(&bb, &[n, k]), 2);
            let view = src.try_transpose(-1, -2).unwrap();
            let (want, sizes) = ref_matmul(&a.to_vec(), a.sizes(), &view.to_vec(), view.sizes());
            let got = a.matmul(&view);
            prop_assert_eq!(got.sizes(), sizes.as_slice());
            prop_assert_eq!(got.to_vec(), want);
        }
    }

    #[test]
    fn kron_matches_the_reference(sa in prop::collection::vec(0usize..3, 0..4), seed in 0usize..5) {
        let sb: Vec<usize> = sa.iter().enumerate().map(|(i, &x)| (x + i + seed) % 3).collect();
        let (a, b) = (dynt(&sa, seed), dynt(&sb, seed + 1));
        let (want, sizes) = ref_kron(&a.to_vec(), &sa, &b.to_vec(), &sb);
        let got = a.kron(&b);
        prop_assert_eq!(got.sizes(), sizes.as_slice());
        prop_assert_eq!(got.to_vec(), want);
    }

    #[test]
    fn tensordot_matches_the_reference(
        sa in prop::collection::vec(1usize..3, 0..4),
        extra in prop::collection::vec(1usize..3, 0..3),
        c in 0usize..4,
        (pa, pb) in (Just((0..3).collect::<Vec<usize>>()).prop_shuffle(), Just((0..6).collect::<Vec<usize>>()).prop_shuffle()),
    ) {
        // Contract `c` axes of `a` (in a shuffled order) with `c` axes of `b`, which holds them
        // among its own free dims at shuffled positions.
        let c = c.min(sa.len());
        let ca: Vec<usize> = pa.into_iter().filter(|&i| i < sa.len()).take(c).collect();
        let rb = c + extra.len();
        let cb: Vec<usize> = pb.into_iter().filter(|&i| i < rb).take(c).collect();
        let mut sb = vec![0; rb];
        for (&i, &j) in ca.iter().zip(&cb) {
            sb[j] = sa[i];
        }
        let mut free = extra.iter();
        for s in sb.iter_mut().filter(|s| **s == 0) {
            *s = *free.next().unwrap();
        }
        let (a, b) = (dynt(&sa, 1), dynt(&sb, 2));
        let (want, sizes) = ref_tensordot(&a.to_vec(), &sa, &b.to_vec(), &sb, &ca, &cb);
        let ia: Vec<isize> = ca.iter().map(|&i| i as isize).collect();
        let ib: Vec<isize> = cb.iter().map(|&i| i as isize - rb as isize).collect();
        let got = a.tensordot(&b, &ia, &ib);
        prop_assert_eq!(got.sizes(), sizes.as_slice());
        prop_assert_eq!(got.to_vec(), want);
    }
}

/// A transposed left operand past 512² elements is copied row-major before the product (faer
/// reads a column-major left operand at half speed there): the result is that of the contiguous
/// copy exactly, for f32 and f64, with a transposed, a contiguous and a strided right operand,
/// and against the reference product.
#[test]
fn large_transposed_left_operands_are_exact() {
    let (m, k, n) = (600, 520, 70);
    let a = dynt(&[k, m], 3); // a.t() is [m, k], column-major
    let b = dynt(&[k, n], 5);
    let at = a.t();
    let want = at.contiguous().matmul(&b);
    assert_eq!(at.matmul(&b).to_vec(), want.to_vec());
    let (r, _) = ref_matmul(&at.to_vec(), &[m, k], &b.to_vec(), &[k, n]);
    let err = want.to_vec().iter().zip(&r).map(|(x, y)| (x - y).abs() / y.abs().max(1.0)).fold(0f64, f64::max);
    assert!(err < 1e-12, "relative error {err}");
    // The right operand transposed too, and strided (every other column of a wider matrix).
    let bt = dynt(&[n, k], 7);
    assert_eq!(at.matmul(&bt.t()).to_vec(), at.contiguous().matmul(&bt.t().contiguous()).to_vec());
    let wide = dynt(&[k, 2 * n], 9);
    let strided = wide.try_slice(&[SliceArg::Full, SliceArg::range(.., 2)]).unwrap();
    assert_eq!(at.matmul(&strided).to_vec(), at.contiguous().matmul(&strided.contiguous()).to_vec());
    // f32 through the same path.
    let a32: Tensor<f32, DynShape> = a.cast::<f32>();
    let b32: Tensor<f32, DynShape> = b.cast::<f32>();
    assert_eq!(a32.t().matmul(&b32).to_vec(), a32.t().contiguous().matmul(&b32).to_vec());
}
