//! `einsum` (issue 29 item 4): the runtime form over `DynShape` operands and the typed `einsum!`
//! macro, against NumPy's `np.einsum` (tests/data/einsum_data.rs, written by
//! scripts/einsum_data.py) on contiguous and strided operands, property tests against explicit
//! loops and the crate's own `matmul`, and the runtime errors.
mod common;
#[path = "data/einsum_data.rs"]
mod data;

use common::err;
use proptest::prelude::*;
use shaped::prelude::*;

fn close(got: &[f64], want: &[f64]) -> bool {
    got.len() == want.len() && got.iter().zip(want).all(|(g, w)| (g - w).abs() <= 1e-9 * (1.0 + w.abs()))
}

/// A NumPy case's operands, contiguous.
fn operands(sizes: &[&[usize]], values: &[&[f64]]) -> Vec<Tensor<f64, DynShape>> {
    sizes.iter().zip(values).map(|(s, v)| Tensor::from_vec(s, v.to_vec())).collect()
}

/// The same tensor stored with its axes reversed, seen through a permuted (non-contiguous) view.
fn reversed_storage(x: &Tensor<f64, DynShape>) -> Tensor<f64, DynShape> {
    let r = x.rank();
    let rev: Vec<isize> = (0..r as isize).rev().collect();
    let sizes: Vec<usize> = rev.iter().map(|&i| x.sizes()[i as usize]).collect();
    Tensor::from_vec(&sizes, x.permute(&rev[..]).to_vec())
}

#[test]
fn numpy_cases() {
    for &(eq, sizes, values, out_sizes, want) in data::CASES {
        let xs = operands(sizes, values);
        let refs: Vec<&Tensor<f64, DynShape>> = xs.iter().collect();
        let got = try_einsum(eq, &refs).unwrap_or_else(|e| panic!("{eq}: {e}"));
        assert_eq!(got.sizes(), out_sizes, "{eq}");
        assert!(close(&got.to_vec(), want), "{eq}: {:?} vs {want:?}", got.to_vec());
        assert!(got.is_contiguous(), "{eq}");
        // The same operands read through strided views (axes reversed in storage).
        let stored: Vec<Tensor<f64, DynShape>> = xs.iter().map(reversed_storage).collect();
        let views: Vec<TensorView<f64, DynShape>> = stored
            .iter()
            .map(|s| {
                let rev: Vec<isize> = (0..s.rank() as isize).rev().collect();
                s.permute(&rev[..])
            })
            .collect();
        let vrefs: Vec<&TensorView<f64, DynShape>> = views.iter().collect();
        let got = einsum(eq, &vrefs);
        assert_eq!(got.sizes(), out_sizes, "{eq} (strided)");
        assert!(close(&got.to_vec(), want), "{eq} (strided): {:?} vs {want:?}", got.to_vec());
    }
}

/// The NumPy case of `eq` (the first with it).
fn case(eq: &str) -> (Vec<Tensor<f64, DynShape>>, &'static [f64]) {
    let &(_, sizes, values, _, want) = data::CASES.iter().find(|c| c.0 == eq).expect("a NumPy case");
    (operands(sizes, values), want)
}

fn stat<S: Shape>(x: &Tensor<f64, DynShape>) -> Tensor<f64, S> {
    x.clone().try_into_static::<S>().unwrap()
}

#[test]
fn macro_typed_results() {
    let (x, want) = case("bij,bjk->bik");
    let (a, b) = (stat::<Shape![3, 2, 4]>(&x[0]), stat::<Shape![3, 4, 5]>(&x[1]));
    let c: Tensor<f64, Shape![3, 2, 5]> = einsum!("bij,bjk->bik", a, b);
    assert!(close(&c.to_vec(), want));
    // Views and references, and the crate's batch matmul on the same data.
    let c2: Tensor<f64, Shape![3, 2, 5]> = einsum!("bij,bjk->bik", &a, b.as_view());
    assert_eq!(c2.to_vec(), a.matmul(&b).to_vec());

    let (x, want) = case("bij,bjk->bki");
    let c: Tensor<f64, Shape![2, 2, 3]> =
        einsum!("bij,bjk->bki", stat::<Shape![2, 3, 4]>(&x[0]), stat::<Shape![2, 4, 2]>(&x[1]));
    assert!(close(&c.to_vec(), want));

    let (x, want) = case("ii->i");
    let d: Tensor<f64, Shape![4]> = einsum!("ii->i", stat::<Shape![4, 4]>(&x[0]));
    assert!(close(&d.to_vec(), want));
    let (x, want) = case("ii->");
    let t: Tensor<f64, Shape![]> = einsum!("ii->", stat::<Shape![4, 4]>(&x[0]));
    assert!(close(&t.to_vec(), want));
    let (x, want) = case("ii");
    let t: Tensor<f64, Shape![]> = einsum!("ii", stat::<Shape![3, 3]>(&x[0]));
    assert!(close(&t.to_vec(), want));

    let (x, want) = case("i,j->ij");
    let o: Tensor<f64, Shape![3, 4]> = einsum!("i,j->ij", stat::<Shape![3]>(&x[0]), stat::<Shape![4]>(&x[1]));
    assert!(close(&o.to_vec(), want));

    let (x, want) = case("i,ij,j->");
    let (u, m, v) = (stat::<Shape![3]>(&x[0]), stat::<Shape![3, 4]>(&x[1]), stat::<Shape![4]>(&x[2]));
    let f: Tensor<f64, Shape![]> = einsum!("i,ij,j->", u, m, v);
    assert!(close(&f.to_vec(), want));

    let (x, want) = case("ij->ji");
    let t: Tensor<f64, Shape![3, 2]> = einsum!("ij->ji", stat::<Shape![2, 3]>(&x[0]));
    assert!(close(&t.to_vec(), want));
    let (x, want) = case("ji");
    let t: Tensor<f64, Shape![3, 2]> = einsum!("ji", stat::<Shape![2, 3]>(&x[0]));
    assert!(close(&t.to_vec(), want));

    let (x, want) = case("ijk->ik");
    let s: Tensor<f64, Shape![2, 4]> = einsum!("ijk->ik", stat::<Shape![2, 3, 4]>(&x[0]));
    assert!(close(&s.to_vec(), want));

    let (x, want) = case("ij,jk,kl->il");
    let (p, q, r) = (stat::<Shape![2, 3]>(&x[0]), stat::<Shape![3, 4]>(&x[1]), stat::<Shape![4, 2]>(&x[2]));
    let c: Tensor<f64, Shape![2, 2]> = einsum!("ij,jk,kl->il", p, q, r);
    assert!(close(&c.to_vec(), want));

    let (x, want) = case("ij,jk");
    let c: Tensor<f64, Shape![3, 5]> = einsum!("ij,jk", stat::<Shape![3, 2]>(&x[0]), stat::<Shape![2, 5]>(&x[1]));
    assert!(close(&c.to_vec(), want));

    // `...`: a DynShape result.
    let (x, want) = case("...ij,...jk");
    let c: Tensor<f64, DynShape> = einsum!("...ij,...jk", stat::<Shape![5, 1, 2, 3]>(&x[0]), x[1].as_view());
    assert_eq!(c.sizes(), [5, 4, 2, 2]);
    assert!(close(&c.to_vec(), want));
}

#[test]
fn macro_dim_types() {
    // A letter labelling a `Dyn` and a static axis takes the static dim; all-`Dyn` letters stay
    // `Dyn`; DynShape operands give `Dyn` dims of the equation's rank.
    let a = Tensor::<f64, Shape![_, 3]>::ones_sized(&[2, 3]);
    let b = Tensor::<f64, Shape![3, 4]>::ones();
    let c: Tensor<f64, Shape![_, 4]> = einsum!("ij,jk->ik", a, b);
    assert_eq!(c.to_vec(), [3.0; 8]);
    let v = Tensor::<f64, Shape![_]>::ones_sized(&[3]);
    let w: Tensor<f64, Shape![3]> = einsum!("i,i->i", v, Tensor::<f64, Shape![3]>::ones());
    assert_eq!(w.to_vec(), [1.0; 3]);
    let w: Tensor<f64, Shape![3]> = einsum!("i,i->i", Tensor::<f64, Shape![3]>::ones(), v);
    assert_eq!(w.to_vec(), [1.0; 3]);
    let d = a.as_dyn();
    let e: Tensor<f64, Shape![_, _]> = einsum!("ij->ji", d);
    assert_eq!(e.sizes(), [3, 2]);
    // One (from unsqueeze) keeps its type.
    let ones = Tensor::<f64, Shape![3]>::ones();
    let u = ones.unsqueeze(Ax::<0>);
    let o: Tensor<f64, (Const<3>, One)> = einsum!("ij->ji", u);
    assert_eq!(o.sizes(), [3, 1]);
    // Inline operands.
    let s = stensor([[1.0, 2.0], [3.0, 4.0]]);
    let tr: Tensor<f64, Shape![]> = einsum!("ii", s);
    assert_eq!(tr.to_vec(), [5.0]);
}

#[test]
fn macro_runtime_errors() {
    let a = Tensor::<f64, Shape![_, _]>::ones_sized(&[2, 3]);
    let b = Tensor::<f64, Shape![_, _]>::ones_sized(&[4, 5]);
    let e = try_einsum!("ij,jk->ik", a, b).unwrap_err();
    assert_eq!(e.to_string(), "einsum: [2, 3] and [4, 5] differ in the size of letter 'j' (3 and 4)");
    // A DynShape operand of another rank than its term.
    let d = Tensor::<f64, DynShape>::ones_sized(&[2, 3, 4]);
    let e = try_einsum!("ij->i", d).unwrap_err();
    assert_eq!(
        e.to_string(),
        "einsum \"ij->i\": operand 0 of shape [2, 3, 4] has rank 3, but its subscripts \"ij\" name 2 axes"
    );
    let r = std::panic::catch_unwind(|| einsum!("ij,jk->ik", a, b));
    assert!(r.is_err());
}

#[test]
fn integers() {
    let a = Tensor::<i32, DynShape>::from_vec(&[2, 2], vec![1, 2, 3, 4]);
    let b = Tensor::<i32, DynShape>::from_vec(&[2, 2], vec![5, 6, 7, 8]);
    assert_eq!(einsum("ij,jk->ik", &[&a, &b]).to_vec(), [19, 22, 43, 50]);
    assert_eq!(einsum("ii", &[&a]).to_vec(), [5]);
    assert_eq!(einsum("ij->j", &[&a]).to_vec(), [4, 6]);
    // Integer sums wrap, as matmul's do.
    let big = Tensor::<u8, DynShape>::from_vec(&[2], vec![200, 100]);
    assert_eq!(einsum("i->", &[&big]).to_vec(), [44]);
    let m: Tensor<i64, Shape![2, 3]> = Tensor::from([[1, 2, 3], [4, 5, 6]]);
    let s: Tensor<i64, Shape![3]> = einsum!("ij->j", m);
    assert_eq!(s.to_vec(), [5, 7, 9]);
    let f = Tensor::<f32, DynShape>::from_vec(&[3], vec![1.0, 2.0, 3.0]);
    assert_eq!(einsum("i,i", &[&f, &f]).to_vec(), [14.0]);
}

#[test]
fn runtime_errors() {
    let a = Tensor::<f64, DynShape>::ones_sized(&[2, 3]);
    let b = Tensor::<f64, DynShape>::ones_sized(&[3, 4]);
    let e = |eq: &str, xs: &[&Tensor<f64, DynShape>]| err(try_einsum(eq, xs));
    assert_eq!(e("ij,jk->ik", &[&a, &a]), "einsum: [2, 3] and [2, 3] differ in the size of letter 'j' (3 and 2)");
    assert_eq!(e("ij,jk->ik", &[&a]), "einsum \"ij,jk->ik\": 2 operand subscripts for 1 operands");
    assert_eq!(e("ij,jk->iz", &[&a, &b]), "einsum \"ij,jk->iz\": the output letter 'z' names no operand axis");
    assert_eq!(e("ij,jk->ii", &[&a, &b]), "einsum \"ij,jk->ii\": the output names 'i' twice");
    assert_eq!(e("i1,jk", &[&a, &b]), "einsum \"i1,jk\": '1' in the term \"i1\" is neither a letter nor `...`");
    assert_eq!(e("ij->i->i", &[&a]), "einsum \"ij->i->i\": more than one `->` in \"ij->i->i\"");
    assert_eq!(e("...i...", &[&a]), "einsum \"...i...\": more than one `...` in the term \"...i...\"");
    assert_eq!(
        e("i", &[&a]),
        "einsum \"i\": operand 0 of shape [2, 3] has rank 2, but its subscripts \"i\" name 1 axes"
    );
    assert_eq!(
        e("...ijk", &[&a]),
        "einsum \"...ijk\": operand 0 of shape [2, 3] has rank 2, but its subscripts \"...ijk\" name 3 axes or more"
    );
    assert_eq!(
        e("...j->j", &[&a]),
        "einsum \"...j->j\": the operands have 1 dims under `...`, but the output has no `...`"
    );
    assert_eq!(e("ii", &[&a]), "einsum: [2, 3] and [2, 3] differ in the size of letter 'i' (2 and 3)");
    let c = Tensor::<f64, DynShape>::ones_sized(&[3, 2]);
    assert_eq!(e("...,...", &[&a, &c]), "einsum: [2, 3] and [3, 2] differ in the size of `...` dim 0 (2 and 3)");
    // The output and the intermediates have at most 6 dims.
    let v = Tensor::<f64, DynShape>::ones_sized(&[2, 2, 2, 2]);
    assert_eq!(e("abcd,efgh", &[&v, &v]), "rank 8 exceeds the maximum of 6 dims");
    assert!(std::panic::catch_unwind(|| einsum("ij,jk", &[&a, &a])).is_err());
}

/// Issue 35: a letter of size 1 in one operand broadcasts against its size in another, as in
/// NumPy and PyTorch (`torch.einsum("ij,jk->ik", ones(2, 1), ones(3, 4))` is `3 * ones(2, 4)`);
/// within one term (a diagonal) the sizes must still agree. Values by hand.
#[test]
fn size_one_letters_broadcast() {
    let a = Tensor::<f64, DynShape>::from_vec(&[2, 1], vec![1., 2.]);
    let b = Tensor::<f64, DynShape>::from_vec(&[2, 3], vec![1., 2., 3., 4., 5., 6.]);
    // a[i, 0] * b[i, j].
    let c = try_einsum("ij,ij->ij", &[&a, &b]).unwrap();
    assert_eq!((c.sizes(), c.to_vec()), (&[2, 3][..], vec![1., 2., 3., 8., 10., 12.]));
    let c = try_einsum("ij,ij->ij", &[&b, &a]).unwrap();
    assert_eq!(c.to_vec(), [1., 2., 3., 8., 10., 12.]);
    // sum_j a[i, 0] * m[j, k]: a[i] times the column sums of m, [12, 15, 18, 21].
    let m = Tensor::<f64, DynShape>::from_vec(&[3, 4], (0..12).map(f64::from).collect());
    let c = try_einsum("ij,jk->ik", &[&a, &m]).unwrap();
    assert_eq!((c.sizes(), c.to_vec()), (&[2, 4][..], vec![12., 15., 18., 21., 24., 30., 36., 42.]));
    // Implicit output, three operands, a transposed (strided) operand.
    let v = Tensor::<f64, DynShape>::from_vec(&[1], vec![2.]);
    let w = Tensor::<f64, DynShape>::from_vec(&[3], vec![1., 2., 3.]);
    assert_eq!(try_einsum("i,i", &[&v, &w]).unwrap().to_vec(), [12.]);
    assert_eq!(try_einsum("i,i,i->i", &[&w, &v, &w]).unwrap().to_vec(), [2., 8., 18.]);
    let at = a.t().to_owned().into_dyn(); // [1, 2]
    assert_eq!(try_einsum("ji,ij->ij", &[&at, &b]).unwrap().to_vec(), [1., 2., 3., 8., 10., 12.]);
    // 1 against 0 broadcasts to 0.
    let z = Tensor::<f64, DynShape>::zeros_sized(&[0]);
    assert_eq!(try_einsum("i,i->i", &[&v, &z]).unwrap().sizes(), [0]);
    assert_eq!(try_einsum("...,...->...", &[&v, &z]).unwrap().sizes(), [0]);
    // Sizes other than 1 still differ; a diagonal needs one size.
    let e = |eq: &str, xs: &[&Tensor<f64, DynShape>]| err(try_einsum(eq, xs));
    assert_eq!(e("ij,jk->ik", &[&m, &m]), "einsum: [3, 4] and [3, 4] differ in the size of letter 'j' (4 and 3)");
    let r = Tensor::<f64, DynShape>::ones_sized(&[1, 3]);
    assert_eq!(e("ii", &[&r]), "einsum: [1, 3] and [1, 3] differ in the size of letter 'i' (1 and 3)");
    assert_eq!(e("ij,ij->ij", &[&m, &b]), "einsum: [3, 4] and [2, 3] differ in the size of letter 'i' (3 and 2)");

    // einsum!: One with Const<N> is Const<N>, One with Dyn is Dyn, One alone stays One.
    let sa = Tensor::<f64, Shape![2, 1]>::from([[1.], [2.]]);
    let sm = Tensor::<f64, Shape![3, 4]>::from_vec(&[3, 4], (0..12).map(f64::from).collect());
    let c: Tensor<f64, Shape![2, 4]> = einsum!("ij,jk->ik", sa, sm);
    assert_eq!(c.to_vec(), [12., 15., 18., 21., 24., 30., 36., 42.]);
    let sb = Tensor::<f64, Shape![2, 3]>::from([[1., 2., 3.], [4., 5., 6.]]);
    let c: Tensor<f64, Shape![2, 3]> = einsum!("ij,ij->ij", sa, sb);
    assert_eq!(c.to_vec(), [1., 2., 3., 8., 10., 12.]);
    let c: Tensor<f64, Shape![2, _]> = einsum!("ij,ij->ij", sa, b.as_view().into_static::<Shape![_, _]>());
    assert_eq!(c.to_vec(), [1., 2., 3., 8., 10., 12.]);
    let c: Tensor<f64, Shape![2, 1]> = einsum!("ij,ij->ij", sa, sa);
    assert_eq!(c.to_vec(), [1., 4.]);
    let e = try_einsum!("ij,ij->ij", sa, m.as_view().into_static::<Shape![_, _]>()).unwrap_err();
    assert_eq!(e.to_string(), "einsum: [2, 1] and [3, 4] differ in the size of letter 'i' (2 and 3)");
}

/// Random sizes and small integer values (exact in f64).
fn tensor(sizes: Vec<usize>) -> impl Strategy<Value = Tensor<f64, DynShape>> {
    let n: usize = sizes.iter().product();
    proptest::collection::vec(-4i32..5, n)
        .prop_map(move |v| Tensor::from_vec(&sizes, v.into_iter().map(f64::from).collect()))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases(64, 4), failure_persistence: if cfg!(miri) { None } else { ProptestConfig::default().failure_persistence }, ..ProptestConfig::default() })]

    #[test]
    fn batch_matmul_is_matmul((a, b) in (1usize..4, 1usize..5, 1usize..5, 1usize..5)
        .prop_flat_map(|(bt, i, j, k)| (tensor(vec![bt, i, j]), tensor(vec![bt, j, k])))) {
        let c = einsum("bij,bjk->bik", &[&a, &b]);
        prop_assert_eq!(c.to_vec(), a.matmul(&b).to_vec());
        // Output order other than the product's: the explicit loop.
        let t = einsum("bij,bjk->kbi", &[&a, &b]);
        let (bn, i_n, jn, kn) = (a.sizes()[0], a.sizes()[1], a.sizes()[2], b.sizes()[2]);
        prop_assert_eq!(t.sizes(), &[kn, bn, i_n][..]);
        for k in 0..kn { for bb in 0..bn { for i in 0..i_n {
            let s: f64 = (0..jn).map(|j| a.at([bb, i, j]) * b.at([bb, j, k])).sum();
            prop_assert_eq!(t.at([k, bb, i]), s);
        }}}
    }

    #[test]
    fn traces_diagonals_and_sums(x in (1usize..5, 1usize..4).prop_flat_map(|(n, m)| tensor(vec![n, m, n]))) {
        let (n, m) = (x.sizes()[0], x.sizes()[1]);
        let d = einsum("iji->ji", &[&x]);
        let t = einsum("iji->", &[&x]);
        let s = einsum("iji->j", &[&x]);
        let mut total = 0.0;
        for j in 0..m {
            let mut sj = 0.0;
            for i in 0..n {
                prop_assert_eq!(d.at([j, i]), x.at([i, j, i]));
                sj += x.at([i, j, i]);
            }
            prop_assert_eq!(s.at([j]), sj);
            total += sj;
        }
        prop_assert_eq!(t.to_vec(), vec![total]);
        let all = einsum("ijk->", &[&x]);
        prop_assert_eq!(all.to_vec(), vec![x.to_vec().iter().sum::<f64>()]);
    }

    #[test]
    fn bilinear_and_outer((u, m, v) in (1usize..5, 1usize..5)
        .prop_flat_map(|(p, q)| (tensor(vec![p]), tensor(vec![p, q]), tensor(vec![q])))) {
        let (p, q) = (u.sizes()[0], v.sizes()[0]);
        let f = einsum("i,ij,j->", &[&u, &m, &v]);
        let mut want = 0.0;
        for i in 0..p { for j in 0..q { want += u.at([i]) * m.at([i, j]) * v.at([j]); } }
        prop_assert_eq!(f.to_vec(), vec![want]);
        let o = einsum("i,j->ji", &[&u, &v]);
        for i in 0..p { for j in 0..q { prop_assert_eq!(o.at([j, i]), u.at([i]) * v.at([j])); } }
        // Three operands, a letter shared by all: a batch dim until the last.
        let w = einsum("ij,ij,ij->i", &[&m, &m, &m]);
        for i in 0..p {
            // `e * e * e`, not `powi(3)`: the same roundings as the product, and Miri perturbs `powi`.
            let s: f64 = (0..q).map(|j| m.at([i, j]) * m.at([i, j]) * m.at([i, j])).sum();
            prop_assert_eq!(w.at([i]), s);
        }
    }
}

/// The reference: every assignment of the letters enumerated, the product of the operands'
/// elements added into the output's element (what the equation means, written out).
fn naive(terms: &[Vec<u8>], out: &[u8], size: &[usize; 4], xs: &[Tensor<f64, DynShape>]) -> Vec<f64> {
    let out_sizes: Vec<usize> = out.iter().map(|&c| size[(c - b'a') as usize]).collect();
    let mut res = vec![0.0; common::numel(&out_sizes)];
    let vals: Vec<Vec<f64>> = xs.iter().map(|x| x.to_vec()).collect();
    // Letters that no term names range over one value (their size may be 0).
    let used: Vec<usize> =
        (0..4).map(|i| if terms.iter().flatten().any(|&c| c == b'a' + i as u8) { size[i] } else { 1 }).collect();
    let total: usize = used.iter().product();
    for p in 0..total {
        let val = common::unravel(p, &used);
        let at = |t: &[u8]| t.iter().map(|&c| val[(c - b'a') as usize]).collect::<Vec<usize>>();
        // An operand axis of size 1 under a longer letter is broadcast: read at 0.
        let at_in = |t: &[u8], x: &Tensor<f64, DynShape>| {
            at(t).iter().zip(x.sizes()).map(|(&v, &n)| if n == 1 { 0 } else { v }).collect::<Vec<usize>>()
        };
        let prod: f64 =
            terms.iter().zip(xs).zip(&vals).map(|((t, x), v)| v[common::ravel(&at_in(t, x), x.sizes())]).product();
        res[common::ravel(&at(out), &out_sizes)] += prod;
    }
    res
}

/// The operand sizes of `terms` under the letter sizes `size`, with the axes that `shrink`
/// picks (bit `4 i + p` for position `p` of term `i`, where the letter appears once in the term)
/// cut to 1, and the letter sizes that result (a letter cut to 1 everywhere has size 1):
/// size-1 letters broadcast (issue 35).
fn broadcast_sizes(terms: &[Vec<u8>], size: [usize; 4], shrink: u64) -> (Vec<Vec<usize>>, [usize; 4]) {
    let mut full = [false; 4];
    let ops: Vec<Vec<usize>> = terms
        .iter()
        .enumerate()
        .map(|(i, t)| {
            t.iter()
                .enumerate()
                .map(|(p, &c)| {
                    let once = t.iter().filter(|&&d| d == c).count() == 1;
                    let k = (c - b'a') as usize;
                    if once && shrink >> (4 * i + p) & 1 == 1 {
                        1
                    } else {
                        full[k] = true;
                        size[k]
                    }
                })
                .collect()
        })
        .collect();
    let eff = core::array::from_fn(|k| if full[k] { size[k] } else { 1 });
    (ops, eff)
}

/// A random equation over the letters `a..=d`: one to three terms of zero to three letters
/// (repeats allowed: diagonals), an output of distinct letters that the terms name, in a random
/// order; and a size per letter.
fn equation() -> impl Strategy<Value = (Vec<Vec<u8>>, Vec<u8>, [usize; 4])> {
    let term =
        proptest::collection::vec(0u8..4, 0..4).prop_map(|t| t.into_iter().map(|c| b'a' + c).collect::<Vec<u8>>());
    (
        proptest::collection::vec(term, 1..4),
        proptest::collection::vec(any::<bool>(), 4),
        any::<u64>(),
        [1usize..4, 0usize..3, 1usize..4, 2usize..3],
    )
        .prop_map(|(terms, pick, seed, size)| {
            let mut out: Vec<u8> =
                (b'a'..=b'd').filter(|c| terms.iter().any(|t| t.contains(c)) && pick[(c - b'a') as usize]).collect();
            // A seeded rotation and optional reversal: some order other than the sorted one.
            if !out.is_empty() {
                let k = (seed as usize) % out.len();
                out.rotate_left(k);
                if seed & 1 << 40 != 0 {
                    out.reverse();
                }
            }
            (terms, out, size)
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases(256, 8), failure_persistence: if cfg!(miri) { None } else { ProptestConfig::default().failure_persistence }, ..ProptestConfig::default() })]

    #[test]
    fn random_equations_match_the_sum_written_out(
        ((terms, out, size), xs) in (equation(), any::<u64>()).prop_flat_map(|((terms, out, size), shrink)| {
            // A quarter of the cases cut some single-letter axes to 1 (broadcast).
            let shrink = if shrink % 4 == 0 { shrink >> 2 } else { 0 };
            let (sizes, size) = broadcast_sizes(&terms, size, shrink);
            let ops: Vec<_> = sizes.into_iter().map(tensor).collect();
            (Just((terms, out, size)), ops)
        })
    ) {
        let eq = format!(
            "{}->{}",
            terms.iter().map(|t| String::from_utf8(t.clone()).unwrap()).collect::<Vec<_>>().join(","),
            String::from_utf8(out.clone()).unwrap()
        );
        let refs: Vec<&Tensor<f64, DynShape>> = xs.iter().collect();
        let got = try_einsum(&eq, &refs).unwrap_or_else(|e| panic!("{eq}: {e}"));
        let want_sizes: Vec<usize> = out.iter().map(|&c| size[(c - b'a') as usize]).collect();
        prop_assert_eq!(got.sizes(), &want_sizes[..], "{}", eq);
        prop_assert_eq!(got.to_vec(), naive(&terms, &out, &size, &xs), "{}", eq);
    }
}
