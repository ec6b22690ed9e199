//! Linear algebra (issue 12) checked against NumPy (tests/data/linalg.rs, from
//! scripts/linalg_data.py): square matrices of orders 0..12 (the direct code up to 8x8, faer
//! above), rectangular, rank-deficient, singular and empty ones, a batch, transposed views, static
//! and dynamic shapes; decompositions checked by their defining identities where NumPy's factors
//! are unique only up to sign.
#![cfg(feature = "linalg")]
// Typed result tuples are the point of the static cases; operators by reference on views too.
#![allow(clippy::type_complexity, clippy::op_ref)]
#[path = "data/linalg.rs"]
mod data;
use shaped::prelude::*;
use shaped::{Complex, Lstsq, MatrixNorm};

/// `got` within `tol` of `want`, relative to `max(1, |want|)`, element-wise.
fn close(got: &[f64], want: &[f64], tol: f64) -> bool {
    got.len() == want.len() && got.iter().zip(want).all(|(g, w)| (g - w).abs() <= tol * w.abs().max(1.0))
}

#[track_caller]
fn assert_close(got: &[f64], want: &[f64], tol: f64, what: &str) {
    assert!(close(got, want, tol), "{what}:\n got  {got:?}\n want {want:?}");
}

fn dynm(sizes: &[usize], v: &[f64]) -> Tensor<f64, DynShape> {
    Tensor::from_vec(sizes, v.to_vec())
}

/// Row-major `[m, n]` product, the reference for the identities.
fn mm(a: &[f64], b: &[f64], m: usize, k: usize, n: usize) -> Vec<f64> {
    let mut c = vec![0.0; m * n];
    for i in 0..m {
        for p in 0..k {
            for j in 0..n {
                c[i * n + j] += a[i * k + p] * b[p * n + j];
            }
        }
    }
    c
}

fn transpose(a: &[f64], m: usize, n: usize) -> Vec<f64> {
    (0..n * m).map(|q| a[(q % m) * n + q / m]).collect()
}

fn eye(n: usize) -> Vec<f64> {
    (0..n * n).map(|q| if q / n == q % n { 1.0 } else { 0.0 }).collect()
}

const TOL: f64 = 1e-9;

/// Under Miri (which checks the bridge's raw views, slowly), the cases up to this order only.
fn small_enough(n: usize) -> bool {
    !cfg!(miri) || n <= 2
}

#[test]
fn square_matrices_match_numpy() {
    for c in data::SQUARE.iter().filter(|c| small_enough(c.n)) {
        let n = c.n;
        let what = |op: &str| format!("{op} of the {n}x{n} case");
        let a = dynm(&[n, n], c.a);
        assert_close(&a.inv().to_vec(), c.inv, TOL, &what("inv"));
        assert_close(&[a.det().item()], &[c.det], TOL, &what("det"));
        let (sign, logdet) = a.slogdet();
        assert_close(&[sign.item(), logdet.item()], &[c.sign, c.logdet], TOL, &what("slogdet"));
        assert_close(&a.solve(&dynm(&[n, 2], c.b)).to_vec(), c.x, TOL, &what("solve"));
        let bv: Vec<f64> = c.b.iter().step_by(2).copied().collect();
        assert_close(&a.solve(&dynm(&[n], &bv)).to_vec(), c.xv, TOL, &what("solve (vector)"));
        assert_close(&a.matrix_power(3).to_vec(), c.power3, TOL, &what("matrix_power 3"));
        assert_close(&a.matrix_power(-2).to_vec(), c.power_m2, 1e-8, &what("matrix_power -2"));
        assert_close(&a.matrix_power(0).to_vec(), &eye(n), 0.0, &what("matrix_power 0"));
        assert_close(&[a.trace().item()], &[c.trace], TOL, &what("trace"));

        // A transposed view is read in place: inv(Aᵀ) = inv(A)ᵀ, det(Aᵀ) = det(A).
        let at = a.t();
        assert_close(&at.inv().to_vec(), &transpose(c.inv, n, n), TOL, &what("inv of a transposed view"));
        assert_close(&[at.det().item()], &[c.det], TOL, &what("det of a transposed view"));

        // Symmetric eigenvalues (lower triangle read) and eigenvectors: S V = V diag(w), VᵀV = I.
        let sym: Vec<f64> = (0..n * n).map(|q| (c.a[q] + c.a[(q % n) * n + q / n]) / 2.0).collect();
        let s = dynm(&[n, n], &sym);
        assert_close(&s.eigvalsh().to_vec(), c.sym_w, TOL, &what("eigvalsh"));
        let (w, v) = s.eigh();
        assert_close(&w.to_vec(), c.sym_w, TOL, &what("eigh values"));
        let v = v.to_vec();
        let vw: Vec<f64> = (0..n * n).map(|q| v[q] * c.sym_w[q % n]).collect();
        assert_close(&mm(&sym, &v, n, n, n), &vw, TOL, &what("eigh: S V = V diag(w)"));
        assert_close(&mm(&transpose(&v, n, n), &v, n, n, n), &eye(n), TOL, &what("eigh: VᵀV = I"));

        // Cholesky of A Aᵀ + n I.
        let mut spd = mm(c.a, &transpose(c.a, n, n), n, n, n);
        (0..n).for_each(|i| spd[i * n + i] += n as f64);
        assert_close(&dynm(&[n, n], &spd).cholesky().to_vec(), c.chol, TOL, &what("cholesky"));

        // General eigenvalues, sorted as the data: by real part, then imaginary part.
        let mut ev: Vec<Complex<f64>> = a.eigvals().to_vec();
        ev.sort_by(|x, y| {
            let r = |v: f64| (v * 1e9).round();
            (r(x.re), r(x.im)).partial_cmp(&(r(y.re), r(y.im))).unwrap()
        });
        let re: Vec<f64> = ev.iter().map(|z| z.re).collect();
        let im: Vec<f64> = ev.iter().map(|z| z.im).collect();
        assert_close(&re, c.eig_re, 1e-8, &what("eigvals (real parts)"));
        assert_close(&im, c.eig_im, 1e-8, &what("eigvals (imaginary parts)"));
        // Eigenvectors: A v = λ v, each of unit norm.
        let (lam, vecs) = a.eig();
        let (lam, vecs) = (lam.to_vec(), vecs.to_vec());
        for j in 0..n {
            let col: Vec<Complex<f64>> = (0..n).map(|i| vecs[i * n + j]).collect();
            let norm: f64 = col.iter().map(|z| z.norm_sqr()).sum::<f64>().sqrt();
            assert!((norm - 1.0).abs() < 1e-9, "{}: eigenvector norm {norm}", what("eig"));
            for i in 0..n {
                let av: Complex<f64> = (0..n).map(|p| col[p] * c.a[i * n + p]).sum();
                assert!((av - lam[j] * col[i]).norm() < 1e-8, "{}: A v != λ v", what("eig"));
            }
        }
    }
}

#[test]
#[cfg_attr(miri, ignore = "the same code paths as the other tests; Miri runs them slowly")]
fn static_shapes_take_the_same_paths() {
    // 3x3 (closed forms, inline) and 9x9 and 12x12 (faer) through static shapes.
    let c3 = data::SQUARE.iter().find(|c| c.n == 3).unwrap();
    let a3: Tensor<f64, Shape![3, 3]> = Tensor::from_vec(&[3, 3], c3.a.to_vec());
    assert_close(&a3.inv().to_vec(), c3.inv, TOL, "static 3x3 inv");
    let d: f64 = a3.det();
    assert_close(&[d], &[c3.det], TOL, "static 3x3 det");
    let (s, l): (f64, f64) = a3.slogdet();
    assert_close(&[s, l], &[c3.sign, c3.logdet], TOL, "static 3x3 slogdet");
    let w: Tensor<f64, Shape![3]> = a3.eigvalsh();
    assert_eq!(w.sizes(), &[3]);
    let c9 = data::SQUARE.iter().find(|c| c.n == 9).unwrap();
    let a9: Tensor<f64, Shape![9, 9]> = Tensor::from_vec(&[9, 9], c9.a.to_vec());
    assert_close(&a9.inv().to_vec(), c9.inv, TOL, "static 9x9 inv");
    assert_close(&[a9.det()], &[c9.det], TOL, "static 9x9 det");
    let b9: Tensor<f64, Shape![9, 2]> = Tensor::from_vec(&[9, 2], c9.b.to_vec());
    let x9: Tensor<f64, Shape![9, 2]> = a9.solve(&b9);
    assert_close(&x9.to_vec(), c9.x, TOL, "static 9x9 solve");
    let t: f64 = a9.trace();
    assert_close(&[t], &[c9.trace], TOL, "static 9x9 trace");
    // Result shapes are typed: svd of [5, 3] is [5, 3], [3], [3, 3]; of [3, 5]: [3, 3], [3], [3, 5].
    let r = data::RECT.iter().find(|c| (c.m, c.n) == (5, 3)).unwrap();
    let a: Tensor<f64, Shape![5, 3]> = Tensor::from_vec(&[5, 3], r.a.to_vec());
    let (u, s, vh): (Tensor<f64, Shape![5, 3]>, Tensor<f64, Shape![3]>, Tensor<f64, Shape![3, 3]>) = a.svd();
    assert_close(&s.to_vec(), r.svals, TOL, "static svd values");
    assert_eq!((u.sizes(), vh.sizes()), (&[5, 3][..], &[3, 3][..]));
    let (q, rr): (Tensor<f64, Shape![3, 3]>, Tensor<f64, Shape![3, 5]>) = a.t().qr();
    assert_close(&q.matmul(&rr).to_vec(), &transpose(r.a, 5, 3), TOL, "static qr of a transposed view");
    let p: Tensor<f64, Shape![3, 5]> = a.pinv();
    assert_close(&p.to_vec(), r.pinv, TOL, "static pinv");
    let rank: usize = a.matrix_rank();
    assert_eq!(rank, r.rank);
    let x: Tensor<f64, Shape![3, 2]> = a.lstsq(&Tensor::<f64, Shape![5, 2]>::from_vec(&[5, 2], r.b.to_vec())).solution;
    assert_close(&x.to_vec(), r.x, TOL, "static lstsq");
    // f32 through the same code.
    let a32: Tensor<f32, Shape![2, 2]> = Tensor::from([[4.0, 1.0], [2.0, 3.0]]);
    assert!((a32.det() - 10.0).abs() < 1e-5);
    let w32 = a32.eigvals().to_vec();
    let mut re: Vec<f32> = w32.iter().map(|z| z.re).collect();
    re.sort_by(f32::total_cmp);
    assert!((re[0] - 2.0).abs() < 1e-5 && (re[1] - 5.0).abs() < 1e-5, "{re:?}");
}

#[test]
fn rectangular_matrices_match_numpy() {
    for c in data::RECT.iter().filter(|c| c.m * c.n == 0 || small_enough(c.m.max(c.n))) {
        let (m, n) = (c.m, c.n);
        let k = m.min(n);
        let what = |op: &str| format!("{op} of the {m}x{n} case");
        let a = dynm(&[m, n], c.a);
        assert_close(&a.svdvals().to_vec(), c.svals, TOL, &what("svdvals"));
        assert_close(&a.pinv().to_vec(), c.pinv, 1e-8, &what("pinv"));
        assert_eq!(a.matrix_rank().item(), c.rank, "{}", what("matrix_rank"));
        let ords = [MatrixNorm::Fro, MatrixNorm::Nuc, MatrixNorm::Spectral, MatrixNorm::L1, MatrixNorm::Inf];
        let got: Vec<f64> = ords.iter().map(|&o| a.matrix_norm(o).item()).collect();
        assert_close(&got, &c.norms, TOL, &what("matrix_norm"));
        // Minimum-norm least squares, rank-deficient systems included.
        let Lstsq { solution, rank, singular_values } = a.lstsq(&dynm(&[m, 2], c.b));
        assert_close(&solution.to_vec(), c.x, 1e-8, &what("lstsq"));
        assert_eq!(rank.item(), c.rank, "{}", what("lstsq rank"));
        assert_close(&singular_values.to_vec(), c.svals, TOL, &what("lstsq singular values"));
        let bv: Vec<f64> = c.b.iter().step_by(2).copied().collect();
        assert_close(&a.lstsq(&dynm(&[m], &bv)).solution.to_vec(), c.xv, 1e-8, &what("lstsq (vector)"));

        // SVD: U diag(S) Vh = A, UᵀU = I, Vh Vhᵀ = I.
        let (u, s, vh) = a.svd();
        assert_eq!((u.sizes(), s.sizes(), vh.sizes()), (&[m, k][..], &[k][..], &[k, n][..]));
        let (u, s, vh) = (u.to_vec(), s.to_vec(), vh.to_vec());
        let us: Vec<f64> = (0..m * k).map(|q| u[q] * s[q % k]).collect();
        assert_close(&mm(&us, &vh, m, k, n), c.a, TOL, &what("svd: U S Vh = A"));
        assert_close(&mm(&transpose(&u, m, k), &u, k, m, k), &eye(k), TOL, &what("svd: UᵀU = I"));
        assert_close(&mm(&vh, &transpose(&vh, k, n), k, n, k), &eye(k), TOL, &what("svd: Vh Vhᵀ = I"));

        // QR: Q R = A, QᵀQ = I, R upper triangular.
        let (q, r) = a.qr();
        let (q, r) = (q.to_vec(), r.to_vec());
        assert_close(&mm(&q, &r, m, k, n), c.a, TOL, &what("qr: Q R = A"));
        assert_close(&mm(&transpose(&q, m, k), &q, k, m, k), &eye(k), TOL, &what("qr: QᵀQ = I"));
        assert!((0..k * n).all(|p| p / n <= p % n || r[p] == 0.0), "{}", what("qr: R upper"));

        // LU: P L U = A, P a permutation, L unit lower, U upper.
        let (p, l, uu) = a.lu();
        assert_eq!((p.sizes(), l.sizes(), uu.sizes()), (&[m, m][..], &[m, k][..], &[k, n][..]));
        let (p, l, uu) = (p.to_vec(), l.to_vec(), uu.to_vec());
        assert_close(&mm(&p, &mm(&l, &uu, m, k, n), m, m, n), c.a, TOL, &what("lu: P L U = A"));
        assert!((0..m).all(|i| (0..m).map(|j| p[i * m + j]).sum::<f64>() == 1.0), "{}", what("lu: P"));
        assert!((0..m * k).all(|q| (q / k < q % k && l[q] == 0.0) || (q / k == q % k && l[q] == 1.0) || q / k > q % k));
        assert!((0..k * n).all(|q| q / n <= q % n || uu[q] == 0.0), "{}", what("lu: U upper"));
    }
}

#[test]
#[cfg_attr(miri, ignore = "the same code paths as the other tests; Miri runs them slowly")]
fn batches_match_numpy() {
    let a = dynm(&[3, 4, 4], data::BATCH_A);
    let b = dynm(&[3, 4, 2], data::BATCH_B);
    assert_close(&a.det().to_vec(), data::BATCH_DET, TOL, "batched det");
    assert_eq!(a.det().sizes(), &[3]);
    assert_close(&a.inv().to_vec(), data::BATCH_INV, TOL, "batched inv");
    assert_close(&a.solve(&b).to_vec(), data::BATCH_X, TOL, "batched solve");
    let bv: Vec<f64> = data::BATCH_B.iter().step_by(2).copied().collect();
    let xv = a.solve(&dynm(&[3, 4], &bv));
    assert_eq!(xv.sizes(), &[3, 4]);
    assert_close(&xv.to_vec(), data::BATCH_XV, TOL, "batched solve (a vector per matrix)");
    assert_close(&a.svdvals().to_vec(), data::BATCH_SVALS, TOL, "batched svdvals");
    assert_close(&a.pinv().to_vec(), data::BATCH_PINV, 1e-8, "batched pinv");
    assert_close(&a.lstsq(&b).solution.to_vec(), data::BATCH_LSTSQ, 1e-8, "batched lstsq");
    let sym = (&a + &a.try_transpose(-1, -2).unwrap()) * 0.5;
    assert_close(&sym.eigvalsh().to_vec(), data::BATCH_SYM_W, TOL, "batched eigvalsh");
    // The same through static batch shapes, and a right side broadcast over the batch.
    let s: Tensor<f64, Shape![3, 4, 4]> = Tensor::from_vec(&[3, 4, 4], data::BATCH_A.to_vec());
    let dets: Tensor<f64, Shape![3]> = s.det();
    assert_close(&dets.to_vec(), data::BATCH_DET, TOL, "static batched det");
    let xs: Tensor<f64, Shape![3, 4, 2]> =
        s.solve(&Tensor::<f64, Shape![3, 4, 2]>::from_vec(&[3, 4, 2], data::BATCH_B.to_vec()));
    assert_close(&xs.to_vec(), data::BATCH_X, TOL, "static batched solve");
    let b0 = dynm(&[4, 2], &data::BATCH_B[..8]);
    let x0 = a.solve(&b0);
    assert_eq!(x0.sizes(), &[3, 4, 2]);
    let inv = data::BATCH_INV;
    for i in 0..3 {
        let want = mm(&inv[i * 16..][..16], &data::BATCH_B[..8], 4, 4, 2);
        assert_close(&x0.to_vec()[i * 8..][..8], &want, TOL, "solve with a right side broadcast over the batch");
    }
}

#[test]
#[cfg_attr(miri, ignore = "the same code paths as the other tests; Miri runs them slowly")]
fn singular_and_indefinite_inputs_are_errors() {
    let singular = dynm(&[2, 2], &[1.0, 2.0, 2.0, 4.0]);
    assert!(matches!(singular.try_inv(), Err(ShapeError::Singular { op: "inv", n: 2 })));
    assert!(matches!(singular.try_solve(&dynm(&[2], &[1.0, 1.0])), Err(ShapeError::Singular { op: "solve", .. })));
    assert_eq!(singular.det().item(), 0.0);
    let (sign, logdet) = singular.slogdet();
    assert_eq!((sign.item(), logdet.item()), (0.0, f64::NEG_INFINITY));
    // Numerically singular: NumPy returns an inverse of size 1e15; here it is an error.
    let near = dynm(&[2, 2], &[1.0, 1.0, 1.0, 1.0 + 1e-15]);
    assert!(matches!(near.try_inv(), Err(ShapeError::Singular { .. })));
    // Above 8x8 (faer): a 9x9 matrix of rank 8.
    let mut v: Vec<f64> = (0..81).map(|q| ((q * 37 % 11) as f64) - 5.0).collect();
    for j in 0..9 {
        v[8 * 9 + j] = v[j] + v[9 + j];
    }
    let s9 = dynm(&[9, 9], &v);
    assert!(matches!(s9.try_inv(), Err(ShapeError::Singular { op: "inv", n: 9 })));
    assert!(matches!(s9.try_solve(&dynm(&[9], &[1.0; 9])), Err(ShapeError::Singular { op: "solve", n: 9 })));
    assert!(s9.det().item().abs() < 1e-9);
    assert_eq!(s9.matrix_rank().item(), 8);
    assert!(matches!(s9.try_matrix_power(-1), Err(ShapeError::Singular { .. })));
    // An exactly zero pivot above 8x8 (faer's LU gives 0/0 there): det 0, slogdet (0, -inf).
    let z9 = dynm(&[9, 9], &[0.0; 81]);
    assert_eq!(z9.det().item(), 0.0);
    let (sign, logdet) = z9.slogdet();
    assert_eq!((sign.item(), logdet.item()), (0.0, f64::NEG_INFINITY));
    assert!(matches!(z9.try_inv(), Err(ShapeError::Singular { .. })));
    let (_, l, u) = z9.lu();
    assert!(l.to_vec().iter().chain(&u.to_vec()).all(|v| v.is_finite()));
    // Least squares of an all-zero matrix: the minimum-norm solution is zero, the rank 0.
    let z = dynm(&[2, 2], &[0.0; 4]);
    let r = z.lstsq(&dynm(&[2], &[1.0, 2.0]));
    assert_eq!((r.solution.to_vec(), r.rank.item()), (vec![0.0, 0.0], 0));
    assert_eq!(z.pinv().to_vec(), vec![0.0; 4]);
    // Not positive definite.
    let indef = dynm(&[2, 2], &[1.0, 2.0, 2.0, 1.0]);
    let e = indef.try_cholesky().unwrap_err();
    assert!(matches!(e, ShapeError::NotPositiveDefinite { op: "cholesky", n: 2 }));
    assert_eq!(e.to_string(), "cholesky: the 2x2 matrix is not symmetric positive definite");
    // Shapes: non-square, too few dims, mismatched right sides.
    let r23 = dynm(&[2, 3], &[0.0; 6]);
    assert!(matches!(r23.try_inv(), Err(ShapeError::Invalid(_))));
    assert!(matches!(r23.try_eigh(), Err(ShapeError::Invalid(_))));
    assert!(matches!(dynm(&[3], &[1.0; 3]).try_svd(), Err(ShapeError::Invalid(_))));
    assert!(matches!(indef.try_solve(&dynm(&[3], &[1.0; 3])), Err(ShapeError::MatMul { .. })));
    assert!(indef.try_lstsq(&dynm(&[3, 1], &[1.0; 3])).is_err());
}

#[test]
fn strided_views_are_read_in_place() {
    // Negative strides (both axes flipped) and a step-2 column slice reach faer as views (the
    // 9x9 case; under Miri the 3x3 one, which takes the same views: CI's Miri time).
    let n = if cfg!(miri) { 3 } else { 9 };
    let c = data::SQUARE.iter().find(|c| c.n == n).unwrap();
    let a = dynm(&[n, n], c.a);
    let f = a.try_flip_dyn(&[0, 1]).unwrap();
    let rev: Vec<f64> = c.inv.iter().rev().copied().collect();
    assert_close(&f.inv().to_vec(), &rev, TOL, "inv of a matrix with negative strides");
    assert_close(&[f.det().item()], &[c.det], TOL, "det of a matrix with negative strides");
    let wide =
        dynm(&[n, 2 * n], &(0..2 * n * n).map(|q| if q % 2 == 0 { c.a[q / 2] } else { f64::NAN }).collect::<Vec<_>>());
    let strided = wide.try_slice(&[SliceArg::Full, SliceArg::range(0.., 2)]).unwrap();
    assert_close(&strided.inv().to_vec(), c.inv, TOL, "inv of a step-2 slice");
    assert_close(&strided.svdvals().to_vec(), &a.svdvals().to_vec(), TOL, "svdvals of a step-2 slice");
}

#[test]
fn eig_of_a_rotation_is_complex() {
    // The lecture's torch.eig: a real matrix with complex eigenvalues ±i.
    let r: Tensor<f64, Shape![2, 2]> = Tensor::from([[0.0, -1.0], [1.0, 0.0]]);
    let (w, v) = r.eig();
    let mut w = w.to_vec();
    w.sort_by(|a, b| a.im.total_cmp(&b.im));
    assert!((w[0] - Complex::new(0.0, -1.0)).norm() < 1e-12 && (w[1] - Complex::new(0.0, 1.0)).norm() < 1e-12);
    assert_eq!(v.sizes(), &[2, 2]);
}

#[test]
fn vector_products_of_runtime_shapes() {
    let a = dynm(&[3], &[1.0, 2.0, 3.0]);
    let b = dynm(&[3], &[4.0, 5.0, 6.0]);
    assert_eq!(a.dot(&b), 32.0);
    let o = a.outer(&b);
    assert_eq!((o.sizes(), o.to_vec()), (&[3, 3][..], vec![4., 5., 6., 8., 10., 12., 12., 15., 18.]));
    assert_eq!(a.cross(&b).to_vec(), vec![-3.0, 6.0, -3.0]);
    let m = dynm(&[2, 3], &[1.0, 0.0, 0.0, 0.0, 1.0, 1.0]);
    assert_eq!(m.mv(&a).to_vec(), vec![1.0, 5.0]);
    assert!(matches!(a.try_dot(&m), Err(ShapeError::Invalid(_))));
    assert!(matches!(a.try_dot(&dynm(&[2], &[1.0, 2.0])), Err(ShapeError::MatMul { .. })));
    assert!(a.try_cross(&dynm(&[2], &[1.0, 2.0])).is_err());
    assert!(matches!(m.try_mv(&dynm(&[2], &[1.0, 2.0])), Err(ShapeError::MatMul { .. })));
    assert!(matches!(a.try_mv(&a), Err(ShapeError::Invalid(_))));
}
