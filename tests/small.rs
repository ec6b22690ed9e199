//! Inline tensors of static shapes (`STensor`, issue 10): their layout in memory, the rule that
//! picks where results live, every operation's inline path checked against the heap path on the
//! same data (which the other suites check against references), and `inv`/`det`/`solve` checked
//! against NumPy (tests/data/small_linalg.rs, from scripts/small_linalg_data.py).
// The by-reference operator impls are what these tests exercise, on `Copy` inline tensors too.
#![allow(clippy::op_ref)]
mod common;
#[path = "data/small_linalg.rs"]
mod data;
use common::err;
use proptest::prelude::*;
use shaped::prelude::*;
use shaped::{Inline, InlineArray, STensor, TensorBase};

/// Values that make f32 sums and products exact (small integers), so inline and heap paths,
/// which may add in different orders, must agree exactly.
fn vals(n: usize) -> impl Strategy<Value = Vec<f32>> {
    prop::collection::vec((-8i32..8).prop_map(|v| v as f32), n)
}

/// The inline constructors give what the heap ones give: `from_fn` (ranks 0 to 3, with a size-1
/// dim), `eye`, `linspace`, `logspace`, `Default`.
#[test]
fn inline_constructors_match_heap() {
    let f = |[i, j, k]: [usize; 3]| (100 * i + 10 * j + k) as i32;
    assert_eq!(
        STensor::<i32, Shape![2, 1, 3]>::from_fn(f).to_vec(),
        Tensor::<i32, Shape![2, 1, 3]>::from_fn(f).to_vec()
    );
    let m = STensor::<f32, Shape![3, 4]>::from_fn(|[i, j]| (i * 4 + j) as f32);
    assert_eq!(m.as_array(), &[[0., 1., 2., 3.], [4., 5., 6., 7.], [8., 9., 10., 11.]]);
    assert_eq!(STensor::<u8, Shape![]>::from_fn(|[]| 7).to_vec(), [7]);
    assert_eq!(STensor::<f64, Shape![4, 4]>::eye().to_vec(), Tensor::<f64, Shape![4, 4]>::eye().to_vec());
    assert_eq!(
        STensor::<f32, Shape![7]>::linspace(-1., 2.).to_vec(),
        Tensor::<f32, Shape![7]>::linspace(-1., 2.).to_vec()
    );
    assert_eq!(
        STensor::<f64, Shape![5]>::logspace(0., 2., 10.).to_vec(),
        Tensor::<f64, Shape![5]>::logspace(0., 2., 10.).to_vec()
    );
    assert_eq!(STensor::<f32, Shape![2, 3]>::default().to_vec(), [0.; 6]);
    assert_eq!(STensor::<u8, Shape![5]>::arange().to_vec(), Tensor::<u8, Shape![5]>::arange().to_vec());
    // The random constructors: the heap forms' values for the same seed, and their errors.
    use rand::{rngs::StdRng, SeedableRng};
    let seed = || StdRng::seed_from_u64(3);
    assert_eq!(
        STensor::<f32, Shape![2, 3]>::rand(&mut seed()).to_vec(),
        Tensor::<f32, Shape![2, 3]>::rand(&mut seed()).to_vec()
    );
    assert_eq!(
        STensor::<f64, Shape![4]>::randn(&mut seed()).to_vec(),
        Tensor::<f64, Shape![4]>::randn(&mut seed()).to_vec()
    );
    assert_eq!(
        STensor::<f32, Shape![3]>::normal(2., 0.5, &mut seed()).to_vec(),
        Tensor::<f32, Shape![3]>::normal(2., 0.5, &mut seed()).to_vec()
    );
    assert_eq!(
        STensor::<f32, Shape![3]>::uniform(-1., 1., &mut seed()).to_vec(),
        Tensor::<f32, Shape![3]>::uniform(-1., 1., &mut seed()).to_vec()
    );
    assert_eq!(
        STensor::<i32, Shape![2, 2]>::randint(-5, 5, &mut seed()).to_vec(),
        Tensor::<i32, Shape![2, 2]>::randint(-5, 5, &mut seed()).to_vec()
    );
    assert_eq!(
        STensor::<bool, Shape![6]>::bernoulli(0.3, &mut seed()).to_vec(),
        Tensor::<bool, Shape![6]>::bernoulli(0.3, &mut seed()).to_vec()
    );
    assert!(STensor::<f32, Shape![2]>::try_uniform(1., 1., &mut seed()).is_err());
    assert!(STensor::<f32, Shape![2]>::try_normal(0., -1., &mut seed()).is_err());
    assert!(STensor::<i32, Shape![2]>::try_randint(3, 3, &mut seed()).is_err());
    assert!(STensor::<f32, Shape![2]>::try_bernoulli(1.5, &mut seed()).is_err());
}

fn fracs(n: usize) -> impl Strategy<Value = Vec<f32>> {
    prop::collection::vec(-4.0f32..4.0, n)
}

fn heap<const N: usize>(sizes: &[usize], v: &[f32]) -> Tensor<f32, DynShape> {
    assert_eq!(v.len(), N);
    Tensor::from_vec(sizes, v.to_vec())
}

#[test]
fn an_inline_tensor_is_its_array_and_nothing_else() {
    assert_eq!(size_of::<STensor<f32, Shape![4, 4]>>(), 64);
    assert_eq!(size_of::<STensor<f64, Shape![3]>>(), 24);
    assert_eq!(size_of::<STensor<f32, Shape![]>>(), 4);
    assert_eq!(size_of::<STensor<u8, Shape![2, 1, 3]>>(), 6);
    // A shape with a runtime dim has no inline form: the alias is the heap tensor.
    let h: Tensor<f32, Shape![_, 3]> = STensor::<f32, Shape![_, 3]>::zeros_sized(&[2, 3]);
    assert_eq!(h.sizes(), [2, 3]);
    // Copy, like the array.
    let a = stensor([1f32, 2., 3.]);
    let b = a;
    assert_eq!(a.to_vec(), b.to_vec());
}

#[test]
fn constructors_and_conversions() {
    let z = STensor::<f32, Shape![2, 3]>::zeros();
    assert_eq!((z.sizes(), z.strides(), z.storage_offset()), (&[2, 3][..], &[3, 1][..], 0));
    assert_eq!(STensor::<i32, Shape![2]>::ones().to_vec(), [1, 1]);
    assert_eq!(STensor::<i32, Shape![2, 2]>::full(7).to_vec(), [7; 4]);
    let a = STensor::<f64, Shape![2, 2]>::new([[1., 2.], [3., 4.]]);
    assert_eq!(*a.as_array(), [[1., 2.], [3., 4.]]);
    let from: STensor<f64, Shape![2, 2]> = [[1., 2.], [3., 4.]].into();
    assert_eq!(from, a);
    // stensor infers the shape; a length-1 level is the broadcastable One.
    let col = stensor([[1f32], [2.]]);
    let _: &TensorBase<Inline<[[f32; 1]; 2]>, (Const<2>, One)> = &col;
    // To the heap and back, O(n).
    let h: Tensor<f64, Shape![2, 2]> = a.to_heap();
    assert_eq!(h.to_vec(), [1., 2., 3., 4.]);
    let back: STensor<f64, Shape![2, 2]> = h.to_inline();
    assert_eq!(back.into_array(), [[1., 2.], [3., 4.]]);
    // A strided view copies to a row-major inline tensor.
    let t: STensor<f64, Shape![2, 2]> = a.t().to_inline();
    assert_eq!(t.to_vec(), [1., 3., 2., 4.]);
    // DynShape and back.
    let d = a.into_dyn();
    assert_eq!(d.sizes(), [2, 2]);
    let s = d.into_static::<Shape![2, 2]>();
    assert_eq!(s.to_vec(), [1., 2., 3., 4.]);
    let mut m = a;
    m.as_array_mut()[1][0] = 9.;
    assert_eq!(m.at([1, 0]), 9.);
}

#[test]
fn inline_storage_takes_only_its_row_major_layout() {
    let l = shaped::Layout::from_parts(&[2, 2], &[1, 2], 0).unwrap();
    let e = err(TensorBase::<Inline<[f32; 4]>, Shape![2, 2]>::try_from_parts(Inline([1., 2., 3., 4.]), l));
    assert!(e.contains("row-major"), "{e}");
    let ok = TensorBase::<Inline<[f32; 4]>, Shape![2, 2]>::try_from_parts(
        Inline([1., 2., 3., 4.]),
        shaped::Layout::contiguous(&[2, 2]).unwrap(),
    );
    assert_eq!(ok.unwrap().to_vec(), [1., 2., 3., 4.]);
    // With a runtime shape the layout is stored, so any layout that fits is fine.
    let dy = TensorBase::<Inline<[f32; 4]>, DynShape>::try_from_parts(Inline([1., 2., 3., 4.]), l).unwrap();
    assert_eq!(dy.to_vec(), [1., 3., 2., 4.]);
    let e = err(dy.try_into_static::<Shape![2, 2]>());
    assert!(e.contains("row-major"), "{e}");
}

/// The result types: inline when an operand is inline and the result shape is static.
#[test]
fn results_live_inline_when_an_operand_is_inline() {
    let a = STensor::<f32, Shape![4, 4]>::full(1.);
    let b = STensor::<f32, Shape![4, 4]>::full(2.);
    let v = STensor::<f32, Shape![4]>::full(1.);
    let h = Tensor::<f32, Shape![4, 4]>::full(3.);
    let _: STensor<f32, Shape![4, 4]> = a.matmul(&b);
    let _: STensor<f32, Shape![4, 4]> = a.matmul(&b.t());
    let _: STensor<f32, Shape![4, 4]> = h.t().matmul(&a);
    let _: STensor<f32, Shape![4, 4]> = &a + &b;
    let _: STensor<f32, Shape![4, 4]> = &a + &v;
    let _: STensor<f32, Shape![4, 4]> = &h - &a;
    let _: STensor<f32, Shape![4, 4]> = a * 2.0;
    let _: STensor<f32, Shape![4, 4]> = 2.0 * a;
    let _: STensor<bool, Shape![4, 4]> = a.map(|x| x > 0.);
    let _: STensor<f32, Shape![4]> = a.sum_axis(Ax::<0>);
    let _: STensor<f32, Shape![4, 1]> = a.mean_keepdim(Ax::<1>);
    let _: STensor<f32, Shape![4]> = a.mv(&v);
    let _: STensor<f32, Shape![4, 4]> = v.outer(&v);
    let _: STensor<f32, Shape![4, 4]> = a.inv_or_identity();
    // Heap operands give heap results, as before; runtime dims too.
    let _: Tensor<f32, Shape![4, 4]> = &h + &h;
    let _: Tensor<f32, Shape![4, 4]> = h.t().matmul(&h);
    let d = Tensor::<f32, Shape![_, 4]>::zeros_sized(&[2, 4]);
    let _: Tensor<f32, Shape![_, 4]> = &d + &v;
    let _: Tensor<f32, Shape![_, 4]> = d.matmul(&a);
}

/// `inv`, falling back to the identity for this file's type checks.
trait InvOrIdentity {
    fn inv_or_identity(&self) -> Self;
}
impl InvOrIdentity for STensor<f32, Shape![4, 4]> {
    fn inv_or_identity(&self) -> Self {
        self.try_inv().unwrap_or(Self::new([[1., 0., 0., 0.], [0., 1., 0., 0.], [0., 0., 1., 0.], [0., 0., 0., 1.]]))
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases(300, 3), failure_persistence: None, ..ProptestConfig::default() })]

    // The 4x4 `mv` (f32 on x86-64: straddled SSE windows) against an f64 reference on
    // fractional values: inline, heap with a static shape, a `[4, 4]` view at an offset inside a
    // `[6, 4]` tensor, and f64 (the plain loop); and the inline row sums, the same kernel.
    #[test]
    fn mv4x4_matches_an_f64_reference(x in fracs(24), v in fracs(4)) {
        let want = |rows: &[f32]| -> Vec<f64> {
            (0..4).map(|i| (0..4).map(|j| rows[4 * i + j] as f64 * v[j] as f64).sum()).collect()
        };
        let close = |got: Vec<f32>, want: Vec<f64>| got.iter().zip(&want).all(|(g, w)| (*g as f64 - w).abs() <= 1e-5 * (1.0 + w.abs()));
        let a = STensor::<f32, Shape![4, 4]>::zeros().with(&x[..16]);
        let vec = STensor::<f32, Shape![4]>::zeros().with(&v);
        prop_assert!(close(a.mv(&vec).to_vec(), want(&x[..16])));
        let h = Tensor::<f32, Shape![4, 4]>::from_vec(&[4, 4], x[..16].to_vec());
        prop_assert!(close(h.mv(&vec).to_vec(), want(&x[..16])));
        let big = STensor::<f32, Shape![6, 4]>::zeros().with(&x);
        let view: TensorView<f32, Shape![4, 4]> = t!(big[1..5, ..]);
        prop_assert!(close(view.mv(&vec).to_vec(), want(&x[4..20])));
        let a64 = a.map(|e| e as f64);
        let got64: Vec<f32> = a64.mv(&vec.map(|e| e as f64)).to_vec().into_iter().map(|e| e as f32).collect();
        prop_assert!(close(got64, want(&x[..16])));
        // The row sums (and means) of the inline 4x4 take the same SSE kernel against ones: the
        // bits of the heap tensor's pairwise sums.
        let bits = |v: Vec<f32>| v.into_iter().map(f32::to_bits).collect::<Vec<_>>();
        prop_assert_eq!(bits(a.sum_axis(Ax::<1>).to_vec()), bits(h.sum_axis(Ax::<1>).to_vec()));
        prop_assert_eq!(bits(a.mean_axis(Ax::<1>).to_vec()), bits(h.mean_axis(Ax::<1>).to_vec()));
        let ones = STensor::<f32, Shape![4]>::ones();
        prop_assert!(close(a.sum_axis(Ax::<1>).to_vec(), (0..4).map(|i| (0..4).map(|j| x[4 * i + j] as f64).sum()).collect()));
        prop_assert!(close(a.mv(&ones).to_vec(), (0..4).map(|i| (0..4).map(|j| x[4 * i + j] as f64).sum()).collect()));
    }

    #[test]
    fn element_wise_inline_equals_heap(x in vals(12), y in vals(12), r in vals(4), c in vals(3)) {
        let a = STensor::<f32, Shape![3, 4]>::zeros().with(&x);
        let b = STensor::<f32, Shape![3, 4]>::zeros().with(&y);
        let row = STensor::<f32, Shape![4]>::zeros().with(&r);
        let col = STensor::<f32, Shape![3, 1]>::zeros().with(&c);
        let (ha, hb, hr, hc) = (heap::<12>(&[3, 4], &x), heap::<12>(&[3, 4], &y), heap::<4>(&[4], &r), heap::<3>(&[3, 1], &c));
        prop_assert_eq!((&a + &b).to_vec(), (&ha + &hb).to_vec());
        prop_assert_eq!((&a - &row).to_vec(), (&ha - &hr).to_vec());
        prop_assert_eq!((&col * &row).to_vec(), (&hc * &hr).to_vec());
        prop_assert_eq!((&a * &col).to_vec(), (&ha * &hc).to_vec());
        prop_assert_eq!((&a / 2.0).to_vec(), (&ha / 2.0).to_vec());
        prop_assert_eq!((3.0f32 - &a).to_vec(), (3.0f32 - &ha).to_vec());
        prop_assert_eq!(a.map(|v| v * v + 1.).to_vec(), ha.map(|v| v * v + 1.).to_vec());
        prop_assert_eq!(a.add_same(&b).to_vec(), ha.add_same(&hb).to_vec());
        // Mixed inline and heap operands, and views of inline tensors.
        prop_assert_eq!((&a + &hb.clone().into_static::<Shape![3, 4]>()).to_vec(), (&ha + &hb).to_vec());
        prop_assert_eq!((&a.t() * &b.t()).to_vec(), (&ha.try_transpose(0, 1).unwrap() * &hb.try_transpose(0, 1).unwrap()).to_vec());
        // Compound assignment, broadcast.
        let (mut m, mut hm) = (a, ha.clone());
        m += &row;
        hm += &hr;
        m *= &col;
        hm *= &hc;
        m -= 1.0;
        hm -= 1.0;
        prop_assert_eq!(m.to_vec(), hm.to_vec());
    }

    #[test]
    fn reductions_inline_equal_heap(x in vals(24)) {
        let a = STensor::<f32, Shape![2, 3, 4]>::zeros().with(&x);
        let h = heap::<24>(&[2, 3, 4], &x).into_static::<Shape![2, 3, 4]>();
        prop_assert_eq!(a.sum(), h.sum());
        prop_assert_eq!(a.sum_axis(Ax::<0>).to_vec(), h.sum_axis(Ax::<0>).to_vec());
        prop_assert_eq!(a.sum_axis(Ax::<1>).to_vec(), h.sum_axis(Ax::<1>).to_vec());
        prop_assert_eq!(a.sum_axis(Ax::<-1>).to_vec(), h.sum_axis(Ax::<-1>).to_vec());
        prop_assert_eq!(a.sum_keepdim(Ax::<1>).to_vec(), h.sum_keepdim(Ax::<1>).to_vec());
        prop_assert_eq!(a.mean_axis(Ax::<2>).to_vec(), h.mean_axis(Ax::<2>).to_vec());
        prop_assert_eq!(a.mean_keepdim(Ax::<0>).to_vec(), h.mean_keepdim(Ax::<0>).to_vec());
        prop_assert_eq!(a.sum_axes((Ax::<0>, Ax::<2>)).to_vec(), h.sum_axes((Ax::<0>, Ax::<2>)).to_vec());
        prop_assert_eq!(a.mean_axes_keepdim((Ax::<1>, Ax::<2>)).to_vec(), h.mean_axes_keepdim((Ax::<1>, Ax::<2>)).to_vec());
        // A view of an inline tensor is an ordinary view (its reductions give heap tensors).
        prop_assert_eq!(a.permute((Ax::<2>, Ax::<0>, Ax::<1>)).sum_axis(Ax::<1>).to_vec(), h.permute((Ax::<2>, Ax::<0>, Ax::<1>)).sum_axis(Ax::<1>).to_vec());
    }

    #[test]
    fn products_inline_equal_heap(x in vals(16), y in vals(16), v in vals(4), w in vals(3), u in vals(3)) {
        let a = STensor::<f32, Shape![4, 4]>::zeros().with(&x);
        let b = STensor::<f32, Shape![4, 4]>::zeros().with(&y);
        let vec = STensor::<f32, Shape![4]>::zeros().with(&v);
        let (ha, hb, hv) = (heap::<16>(&[4, 4], &x), heap::<16>(&[4, 4], &y), heap::<4>(&[4], &v));
        prop_assert_eq!(a.matmul(&b).to_vec(), ha.matmul(&hb).to_vec());
        prop_assert_eq!(a.matmul(&b.t()).to_vec(), ha.matmul(&hb.try_transpose(0, 1).unwrap()).to_vec());
        prop_assert_eq!(a.t().matmul(&b).to_vec(), ha.try_transpose(0, 1).unwrap().matmul(&hb).to_vec());
        prop_assert_eq!(a.t().matmul(&b.t()).to_vec(), ha.try_transpose(0, 1).unwrap().matmul(&hb.try_transpose(0, 1).unwrap()).to_vec());
        let hv2 = hv.try_unsqueeze(1).unwrap();
        prop_assert_eq!(a.mv(&vec).to_vec(), ha.matmul(&hv2).to_vec());
        prop_assert_eq!(a.t().mv(&vec).to_vec(), ha.try_transpose(0, 1).unwrap().matmul(&hv2).to_vec());
        let dot: f32 = v.iter().zip(&x[..4]).map(|(p, q)| p * q).sum();
        prop_assert_eq!(vec.dot(&a.select(Ax::<0>, 0)), dot);
        prop_assert_eq!(vec.outer(&vec).to_vec(), hv2.matmul(&hv2.try_transpose(0, 1).unwrap()).to_vec());
        // Non-square, batched and gemm-sized static products.
        let c = STensor::<f32, Shape![2, 4]>::zeros().with(&x[..8]);
        let hc = heap::<8>(&[2, 4], &x[..8]);
        prop_assert_eq!(c.matmul(&a).to_vec(), hc.matmul(&ha).to_vec());
        let batch = STensor::<f32, Shape![2, 2, 4]>::zeros().with(&[&x[..], &x[..]].concat()[..16]);
        let hbatch = heap::<16>(&[2, 2, 4], &x);
        prop_assert_eq!(batch.matmul(&a).to_vec(), hbatch.matmul(&ha).to_vec());
        // Cross product against its definition.
        let (p, q) = (STensor::<f32, Shape![3]>::zeros().with(&w), STensor::<f32, Shape![3]>::zeros().with(&u));
        let cr = [w[1] * u[2] - w[2] * u[1], w[2] * u[0] - w[0] * u[2], w[0] * u[1] - w[1] * u[0]];
        prop_assert_eq!(p.cross(&q).to_vec(), cr.to_vec());
        prop_assert_eq!(p.cross(&heap::<3>(&[3], &u).into_static::<Shape![3]>()).to_vec(), cr.to_vec());
    }
}

/// Helpers for filling inline tensors from a slice.
trait With {
    fn with(self, v: &[f32]) -> Self;
}
impl<A: shaped::InlineArray<Elem = f32>, S: shaped::shape::AllStatic> With for TensorBase<Inline<A>, S> {
    fn with(mut self, v: &[f32]) -> Self {
        self.as_array_mut().flat_mut().copy_from_slice(v);
        self
    }
}

#[test]
fn large_static_products_use_the_gemm_and_stay_inline() {
    // 20x20 @ 20x20 is past the direct kernel: the gemm writes into the inline array.
    let mut a = STensor::<f64, Shape![20, 20]>::zeros();
    let mut b = STensor::<f64, Shape![20, 20]>::zeros();
    for i in 0..20 {
        for j in 0..20 {
            a.set([i, j], (i * 20 + j) as f64 % 7.);
            b.set([i, j], (i + 2 * j) as f64 % 5.);
        }
    }
    let c: STensor<f64, Shape![20, 20]> = a.matmul(&b);
    let hc = a.to_heap().into_dyn().matmul(&b.to_heap().into_dyn());
    assert_eq!(c.to_vec(), hc.to_vec());
    let mut expect = 0.;
    for p in 0..20 {
        expect += a.at([3, p]) * b.at([p, 7]);
    }
    assert_eq!(c.at([3, 7]), expect);
}

#[test]
fn integer_division_by_zero_is_still_an_error_inline() {
    let a = stensor([1i32, 2, 3]);
    let z = stensor([1i32, 0, 1]);
    assert!(err(a.try_div(&z)).contains("division by zero"));
    assert_eq!((a % 2).to_vec(), [1, 0, 1]);
    assert_eq!((a * 2).to_vec(), [2, 4, 6]);
}

fn close(a: &[f64], b: &[f64], tol: f64) -> bool {
    let scale = b.iter().fold(1f64, |m, v| m.max(v.abs()));
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tol * scale)
}

/// `inv`, `det` and `solve` of NumPy's cases, for static order `$n`, through inline, heap,
/// DynShape and transposed-view operands.
macro_rules! linalg_case {
    ($a:expr, $inv:expr, $det:expr, $b:expr, $x:expr, $n:literal) => {{
        let mut s = STensor::<f64, Shape![$n, $n]>::zeros();
        s.as_array_mut().flat_mut().copy_from_slice($a);
        let mut rhs = STensor::<f64, Shape![$n, 2]>::zeros();
        rhs.as_array_mut().flat_mut().copy_from_slice($b);
        let inv: STensor<f64, Shape![$n, $n]> = s.inv();
        assert!(close(&inv.to_vec(), $inv, 1e-9), "inv {}: {:?} vs {:?}", $n, inv.to_vec(), $inv);
        assert!((s.det() - $det).abs() <= 1e-9 * $det.abs().max(1.), "det {}: {} vs {}", $n, s.det(), $det);
        let x: STensor<f64, Shape![$n, 2]> = s.solve(&rhs);
        assert!(close(&x.to_vec(), $x, 1e-9), "solve {}", $n);
        // One column as a vector right side.
        let col: STensor<f64, Shape![$n]> = s.solve(&rhs.select(Ax::<1>, 0));
        let x0: Vec<f64> = $x.iter().step_by(2).copied().collect();
        assert!(close(&col.to_vec(), &x0, 1e-9), "solve vector {}", $n);
        // Heap, dynamic and a transposed view: inv(Aᵀ) = inv(A)ᵀ.
        let h = s.to_heap();
        assert!(close(&h.inv().to_vec(), $inv, 1e-9));
        let d = s.as_dyn();
        assert!(close(&d.inv().to_vec(), $inv, 1e-9));
        assert!((d.det().item() - $det).abs() <= 1e-9 * $det.abs().max(1.));
        assert!(close(&d.solve(&rhs.as_dyn()).to_vec(), $x, 1e-9));
        // A view is an ordinary view: one-operand results of it live on the heap.
        let tt: Tensor<f64, Shape![$n, $n]> = s.t().inv();
        assert!(close(&tt.t().to_vec(), $inv, 1e-9));
    }};
}

#[test]
fn inv_det_solve_match_numpy() {
    let mut seen = 0;
    for &(n, a, inv, det, b, x) in data::CASES {
        match n {
            1 => linalg_case!(a, inv, det, b, x, 1),
            2 => linalg_case!(a, inv, det, b, x, 2),
            3 => linalg_case!(a, inv, det, b, x, 3),
            4 => linalg_case!(a, inv, det, b, x, 4),
            5 => linalg_case!(a, inv, det, b, x, 5),
            6 => linalg_case!(a, inv, det, b, x, 6),
            7 => linalg_case!(a, inv, det, b, x, 7),
            8 => linalg_case!(a, inv, det, b, x, 8),
            10 => linalg_case!(a, inv, det, b, x, 10),
            _ => unreachable!(),
        }
        seen += 1;
    }
    assert_eq!(seen, data::CASES.len());
}

#[test]
fn inv_det_solve_in_f32() {
    let a = stensor([[2f32, 1.], [1., 3.]]);
    assert_eq!(a.det(), 5.);
    let i = a.inv();
    assert!(close(&i.to_vec().iter().map(|&v| v as f64).collect::<Vec<_>>(), &[0.6, -0.2, -0.2, 0.4], 1e-6));
    let x = a.solve(&stensor([3f32, 5.]));
    assert!((x.at([0]) - 0.8).abs() < 1e-6 && (x.at([1]) - 1.4).abs() < 1e-6);
}

#[test]
fn singular_matrices_are_errors_not_noise() {
    // Exactly singular in exact arithmetic; rounding leaves a pivot of about 1e-16.
    let s = stensor([[1f64, 2., 3.], [4., 5., 6.], [7., 8., 9.]]);
    assert_eq!(
        err(s.try_inv()),
        "inv: the 3x3 matrix is singular to working precision (its 1-norm reciprocal condition number is at most 3·ε)"
    );
    assert!(err(s.try_solve(&stensor([1f64, 2., 3.]))).starts_with("solve: the 3x3 matrix is singular"));
    assert!(s.det().abs() < 1e-12);
    // Every order, and the elimination path above 4x4: a zero matrix and a repeated row.
    assert!(err(STensor::<f64, Shape![1, 1]>::zeros().try_inv()).contains("singular"));
    assert!(err(STensor::<f32, Shape![4, 4]>::ones().try_inv()).contains("singular"));
    let mut r = STensor::<f64, Shape![6, 6]>::zeros();
    for i in 0..6 {
        for j in 0..6 {
            r.set(
                [i, j],
                if i == 5 { (j + 1) as f64 } else { ((i * 7 + j * 3) % 5) as f64 + if i == j { 4. } else { 0. } },
            );
        }
    }
    for j in 0..6 {
        r.set([4, j], (j + 1) as f64);
    }
    assert!(err(r.try_inv()).contains("6x6 matrix is singular"));
    assert_eq!(r.det(), 0.);
    // Dynamic: a runtime non-square shape is an error naming the sizes.
    let d = Tensor::<f64, DynShape>::zeros_sized(&[2, 3]);
    assert_eq!(err(d.try_inv()), "inv: needs a square [n, n] matrix or a batch [..b, n, n], got sizes [2, 3]");
    // Nearly singular but well within f64: fine.
    let ok = stensor([[1f64, 1.], [1., 1. + 1e-8]]);
    assert!(close(&ok.inv().to_vec(), &[1e8 + 1., -1e8, -1e8, 1e8], 1e-6));
}

#[test]
fn the_empty_matrix_inverts_to_itself() {
    let e = STensor::<f64, Shape![0, 0]>::zeros();
    assert_eq!(e.inv().sizes(), [0, 0]);
    assert_eq!(e.det(), 1.);
}

#[test]
fn runtime_vector_errors() {
    let a = Tensor::<f32, DynShape>::zeros_sized(&[4]);
    let b = Tensor::<f32, DynShape>::zeros_sized(&[3]);
    let a1 = a.as_view().into_static::<Shape![_]>();
    let b1 = b.as_view().into_static::<Shape![_]>();
    assert_eq!(err(a1.try_dot(&b1)), err(a.matmul_1d_error(&b)));
    assert!(err(a1.try_cross(&b1)).contains("cross"));
}

trait Err1d {
    fn matmul_1d_error(&self, b: &Self) -> Result<f32, ShapeError>;
}
impl Err1d for Tensor<f32, DynShape> {
    fn matmul_1d_error(&self, b: &Self) -> Result<f32, ShapeError> {
        Err(ShapeError::MatMul { lhs: self.sizes().into(), rhs: b.sizes().into() })
    }
}
