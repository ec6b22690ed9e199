//! shaped's functional layer (`shaped::autograd::nn`) against PyTorch's `torch.nn.functional`
//! (tests/data/nn_data.rs, written by scripts/nn_data.py): values, the gradient of every float
//! input and the running statistics after a batch_norm step, in f64 (to 1e-10 relative) and f32
//! (to 2e-4); typed calls checked with `gradcheck`; the errors that name a bad value.
use shaped::autograd::nn::{self, Reduction};
use shaped::autograd::{gradcheck, GradFloat, Tape, Var};
use shaped::prelude::*;

#[path = "data/nn_data.rs"]
mod nn_data;
use nn_data::{Arr, Case, CASES};

type V<'t, T> = Var<'t, T, DynShape>;
type Vector<'t, T> = Var<'t, T, (Dyn,)>;

fn k<T: GradFloat>(v: f64) -> T {
    T::from_f64(v)
}

fn tensor<T: GradFloat>((sizes, data): &Arr) -> Tensor<T, DynShape> {
    Tensor::from_vec(sizes, data.iter().map(|&v| k::<T>(v)).collect())
}

/// Any value under another shape type with the same sizes.
fn cast<'t, T: GradFloat, S: Shape, S2: Shape>(v: &Var<'t, T, S>) -> Var<'t, T, S2> {
    v.try_cast_shape::<S2>().unwrap()
}

/// A scalar loss as a runtime-shaped value.
fn d<'t, T: GradFloat, S: Shape>(v: Var<'t, T, S>) -> V<'t, T> {
    cast(&v)
}

/// Runs the call `op` on the inputs `x` (all runtime-shaped), the integer inputs `ints` and the
/// running statistics `state` (updated in place).
fn apply<'t, T: GradFloat>(
    op: &str,
    x: &[V<'t, T>],
    ints: &Tensor<i64, DynShape>,
    state: &mut [Tensor<T, (Dyn,)>],
) -> V<'t, T> {
    let red = if op.contains("_sum") { Reduction::Sum } else { Reduction::Mean };
    let targets = || ints.clone().try_into_static::<(Dyn,)>().unwrap();
    match op {
        "linear_bias" | "linear_3d" | "linear_1d" => {
            nn::linear(&x[0], &cast::<_, _, (Dyn, Dyn)>(&x[1]), Some(&cast(&x[2])))
        }
        "linear_no_bias" => nn::linear(&x[0], &cast::<_, _, (Dyn, Dyn)>(&x[1]), None),
        "layer_norm" => nn::layer_norm(&x[0], Some(&cast(&x[1])), Some(&cast(&x[2])), k(1e-5)),
        "layer_norm_plain" => nn::layer_norm(&x[0], None, None, k(1e-5)),
        "layer_norm_weight" => nn::layer_norm(&x[0], Some(&cast(&x[1])), None, k(1e-3)),
        "batch_norm_train_3d_plain" => nn::batch_norm(&x[0], None, None, None, None, true, k(0.3), k(1e-3)),
        "batch_norm_eval_2d_plain" => {
            let (rm, rv) = state.split_at_mut(1);
            nn::batch_norm(&x[0], Some(&mut rm[0]), Some(&mut rv[0]), None, None, false, k(0.1), k(1e-5))
        }
        "batch_norm_train_2d" | "batch_norm_train_4d" | "batch_norm_eval_4d" => {
            let (rm, rv) = state.split_at_mut(1);
            let (w, b): (Vector<T>, Vector<T>) = (cast(&x[1]), cast(&x[2]));
            nn::batch_norm(
                &x[0],
                Some(&mut rm[0]),
                Some(&mut rv[0]),
                Some(&w),
                Some(&b),
                op.contains("train"),
                k(0.1),
                k(1e-5),
            )
        }
        "embedding_2d" | "embedding_1d" => nn::embedding(ints, &cast::<_, _, (Dyn, Dyn)>(&x[0])),
        "embedding_pad1" => nn::embedding_with(ints, &cast::<_, _, (Dyn, Dyn)>(&x[0]), Some(1)),
        "embedding_pad_neg1" => nn::embedding_with(ints, &cast::<_, _, (Dyn, Dyn)>(&x[0]), Some(-1)),
        // reduction='none'
        "mse_none" => nn::mse_loss(&x[0], &x[1], nn::Unreduced),
        "l1_none" => nn::l1_loss(&x[0], &x[1], nn::Unreduced),
        "huber_none" => nn::huber_loss(&x[0], &x[1], nn::Unreduced, k(0.8)),
        "bce_logits_none" => nn::binary_cross_entropy_with_logits(&x[0], &x[1], nn::Unreduced),
        // Class weights, ignore_index, label smoothing.
        op if op.starts_with("ce_") || op.starts_with("nll_opts") => {
            let input = cast::<_, _, (Dyn, Dyn)>(&x[0]);
            let weight = (op.starts_with("ce_opts") || op.starts_with("nll_opts"))
                .then(|| Tensor::<T, (Dyn,)>::from_vec(&[4], [0.5, 2.0, 1.0, 1.5].map(k::<T>).to_vec()));
            let ignore_index = Some(if op.starts_with("ce_ignore1") { 1 } else { -100 });
            let label_smoothing = k(if op.ends_with("0.2") { 0.2 } else { 0.0 });
            let opts = nn::ClassLossOptions { weight, ignore_index, label_smoothing };
            let nll = op.starts_with("nll");
            match (op.contains("_none"), nll) {
                (true, false) => d(nn::cross_entropy_with(&input, &targets(), nn::Unreduced, &opts)),
                (true, true) => d(nn::nll_loss_with(&input, &targets(), nn::Unreduced, &opts)),
                (false, false) => d(nn::cross_entropy_with(&input, &targets(), red, &opts)),
                (false, true) => d(nn::nll_loss_with(&input, &targets(), red, &opts)),
            }
        }
        op if op.starts_with("sdpa") => nn::scaled_dot_product_attention(&x[0], &x[1], &x[2], op.contains("causal")),
        op if op.starts_with("mse") => d(nn::mse_loss(&x[0], &x[1], red)),
        op if op.starts_with("l1") => d(nn::l1_loss(&x[0], &x[1], red)),
        op if op.starts_with("huber") => {
            d(nn::huber_loss(&x[0], &x[1], red, k(if op.ends_with("half") { 0.5 } else { 1.0 })))
        }
        op if op.starts_with("bce_logits") => d(nn::binary_cross_entropy_with_logits(&x[0], &x[1], red)),
        op if op.starts_with("cross_entropy") => {
            let ls = if op.ends_with("0.1") { 0.1 } else { 0.0 };
            d(nn::cross_entropy(&cast::<_, _, (Dyn, Dyn)>(&x[0]), &targets(), red, k(ls)))
        }
        op if op.starts_with("nll") => d(nn::nll_loss(&cast::<_, _, (Dyn, Dyn)>(&x[0]), &targets(), red)),
        other => panic!("no such call in the test: {other}"),
    }
}

/// The largest error relative to `1 + |want|`.
fn max_err(got: &[f64], want: &[f64], what: &str) -> f64 {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    got.iter().zip(want).map(|(g, w)| (g - w).abs() / (1.0 + w.abs())).fold(0.0, f64::max)
}

/// Runs one case and returns the largest relative error, checking every value against `rtol`.
fn run_case<T: GradFloat>(case: &Case, rtol: f64) -> f64 {
    let tape = Tape::<T>::new();
    let xs: Vec<V<'_, T>> = case.inputs.iter().map(|a| tape.var(tensor::<T>(a))).collect();
    // No integer inputs: an empty vector.
    let ints = match case.ints.1 {
        [] => Tensor::<i64, DynShape>::from_vec(&[0], vec![]),
        v => Tensor::<i64, DynShape>::from_vec(case.ints.0, v.to_vec()),
    };
    let mut state: Vec<Tensor<T, (Dyn,)>> =
        case.state.iter().map(|a| tensor::<T>(a).try_into_static().unwrap()).collect();
    let y = apply(case.op, &xs, &ints, &mut state);
    assert_eq!(y.sizes(), case.out.0, "{}: output sizes", case.op);
    let to64 = |v: Vec<T>| v.into_iter().map(|x| x.as_f64()).collect::<Vec<_>>();
    let mut worst = 0.0f64;
    let mut check = |got: Vec<f64>, want: &[f64], what: String| {
        let e = max_err(&got, want, &what);
        assert!(e <= rtol, "{what}: max relative error {e} > {rtol}\n shaped {got:?}\n PyTorch {want:?}");
        worst = worst.max(e);
    };
    check(to64(y.value().to_vec()), case.out.1, format!("{} output", case.op));
    for (i, (s, (sizes, want))) in state.iter().zip(case.state_after).enumerate() {
        assert_eq!(s.sizes(), *sizes);
        check(to64(s.to_vec()), want, format!("{} running statistic {i}", case.op));
    }
    let grads = y.backward_with(&tensor::<T>(&case.seed));
    for (i, (x, (sizes, want))) in xs.iter().zip(case.grads).enumerate() {
        let g = grads.wrt(x).unwrap_or_else(|| panic!("{}: no gradient for input {i}", case.op));
        assert_eq!(g.sizes(), *sizes, "{}: gradient {i} sizes", case.op);
        check(to64(g.to_vec()), want, format!("{} gradient {i}", case.op));
    }
    worst
}

fn run_all<T: GradFloat>(rtol: f64) {
    let mut report = Vec::new();
    for case in CASES {
        report.push((case.op, run_case::<T>(case, rtol)));
    }
    // `cargo test -- --nocapture` shows the largest error of each case.
    for (op, e) in report {
        println!("{op}: {e:.2e}");
    }
}

#[test]
fn every_case_matches_pytorch_in_f64() {
    run_all::<f64>(1e-10);
}

#[test]
fn every_case_matches_pytorch_in_f32() {
    run_all::<f32>(2e-4);
}

// ---------------------------------------------------------------------------------------------
// Typed calls, checked against central differences.

fn t<S: Shape>(sizes: &[usize], seed: u64) -> Tensor<f64, S> {
    // A fixed, irregular pattern (no RNG needed for gradcheck inputs).
    let n: usize = sizes.iter().product();
    let v = (0..n).map(|i| ((i as f64 + 1.0) * 0.7371 + seed as f64 * 1.13).sin() * 1.5).collect();
    Tensor::from_vec(sizes, v)
}

#[test]
fn gradcheck_linear_typed() {
    let w = t::<Shape![4, 3]>(&[4, 3], 1);
    let b = t::<Shape![4]>(&[4], 2);
    let x = t::<Shape![2, 3]>(&[2, 3], 3);
    assert!(gradcheck(
        |x: &Var<f64, Shape![2, 3]>| nn::linear(x, &Var::constant(w.clone()), Some(&Var::constant(b.clone()))),
        &x
    ));
    assert!(gradcheck(|w: &Var<f64, Shape![4, 3]>| nn::linear(&Var::constant(x.clone()), w, None), &w));
    assert!(gradcheck(
        |b: &Var<f64, Shape![4]>| nn::linear(&Var::constant(x.clone()), &Var::constant(w.clone()), Some(b)),
        &b
    ));
}

#[test]
fn gradcheck_layer_norm_typed() {
    let w = t::<Shape![5]>(&[5], 1);
    let x = t::<Shape![3, 5]>(&[3, 5], 2);
    assert!(gradcheck(|x: &Var<f64, Shape![3, 5]>| nn::layer_norm(x, Some(&Var::constant(w.clone())), None, 1e-5), &x));
    assert!(gradcheck(|w: &Var<f64, Shape![5]>| nn::layer_norm(&Var::constant(x.clone()), Some(w), None, 1e-5), &w));
}

#[test]
fn gradcheck_batch_norm_typed() {
    let x = t::<Shape![4, 2, 3]>(&[4, 2, 3], 4);
    let w = t::<Shape![2]>(&[2], 5);
    assert!(gradcheck(
        |x: &Var<f64, Shape![4, 2, 3]>| nn::batch_norm(
            x,
            None,
            None,
            Some(&Var::constant(w.clone())),
            None,
            true,
            0.1,
            1e-5
        ),
        &x
    ));
    let (rm, rv) = (t::<Shape![2]>(&[2], 6), Tensor::<f64, Shape![2]>::from([0.5, 2.0]));
    assert!(gradcheck(
        |x: &Var<f64, Shape![4, 2, 3]>| {
            let (mut m, mut v) = (rm.clone(), rv.clone());
            nn::batch_norm(x, Some(&mut m), Some(&mut v), Some(&Var::constant(w.clone())), None, false, 0.1, 1e-5)
        },
        &x
    ));
}

#[test]
fn gradcheck_attention_typed() {
    let q = t::<Shape![2, 3, 4]>(&[2, 3, 4], 7);
    let k = t::<Shape![2, 5, 4]>(&[2, 5, 4], 8);
    let v = t::<Shape![5, 2]>(&[5, 2], 9);
    for causal in [false, true] {
        let (kc, vc) = (Var::constant(k.clone()), Var::constant(v.clone()));
        assert!(gradcheck(
            |q: &Var<f64, Shape![2, 3, 4]>| {
                let o: Var<f64, Shape![2, 3, 2]> = nn::scaled_dot_product_attention(q, &kc, &vc, causal);
                o
            },
            &q
        ));
        let qc = Var::constant(q.clone());
        assert!(gradcheck(|k: &Var<f64, Shape![2, 5, 4]>| nn::scaled_dot_product_attention(&qc, k, &vc, causal), &k));
        let kc = Var::constant(k.clone());
        assert!(gradcheck(|v: &Var<f64, Shape![5, 2]>| nn::scaled_dot_product_attention(&qc, &kc, v, causal), &v));
    }
}

#[test]
fn gradcheck_embedding_typed() {
    let idx = Tensor::<i64, Shape![2, 3]>::from([[0, 2, 0], [3, 0, 2]]);
    let w = t::<Shape![4, 2]>(&[4, 2], 10);
    assert!(gradcheck(
        |w: &Var<f64, Shape![4, 2]>| {
            let e: Var<f64, Shape![2, 3, 2]> = nn::embedding(&idx, w);
            e
        },
        &w
    ));
}

#[test]
fn gradcheck_losses_typed() {
    let x = t::<Shape![3, 4]>(&[3, 4], 11);
    let y = t::<Shape![3, 4]>(&[3, 4], 12);
    let targets = Tensor::<i64, Shape![3]>::from([3, 0, 1]);
    for red in [Reduction::Mean, Reduction::Sum] {
        let yc = Var::constant(y.clone());
        let probs = Var::constant(y.map(|v| 0.5 + 0.3 * v.sin()));
        assert!(gradcheck(|x: &Var<f64, Shape![3, 4]>| nn::mse_loss(x, &yc, red), &x));
        assert!(gradcheck(|x: &Var<f64, Shape![3, 4]>| nn::l1_loss(x, &yc, red), &x));
        assert!(gradcheck(|x: &Var<f64, Shape![3, 4]>| nn::huber_loss(x, &yc, red, 0.7), &x));
        assert!(gradcheck(|x: &Var<f64, Shape![3, 4]>| nn::binary_cross_entropy_with_logits(x, &probs, red), &x));
        assert!(gradcheck(
            |p: &Var<f64, Shape![3, 4]>| nn::binary_cross_entropy_with_logits(&Var::constant(x.clone()), p, red),
            &y
        ));
        for ls in [0.0, 0.2] {
            assert!(gradcheck(|x: &Var<f64, Shape![3, 4]>| nn::cross_entropy(x, &targets, red, ls), &x));
        }
        assert!(gradcheck(|x: &Var<f64, Shape![3, 4]>| nn::nll_loss(&x.log_softmax(Ax::<1>), &targets, red), &x));
    }
}

// ---------------------------------------------------------------------------------------------
// Errors that name the bad value.

#[test]
fn a_bad_class_index_is_named() {
    let logits = Var::constant(Tensor::<f64, Shape![3, 4]>::zeros());
    let targets = Tensor::<i64, Shape![3]>::from([1, 7, 0]);
    let e = nn::try_cross_entropy(&logits, &targets, Reduction::Mean, 0.0).unwrap_err();
    assert_eq!(e.to_string(), "cross_entropy: target 7 at position 1 is out of bounds: the classes are 0..4");
    let e = nn::try_nll_loss(&logits, &Tensor::<i64, Shape![3]>::from([0, 1, -100]), Reduction::Sum).unwrap_err();
    assert_eq!(e.to_string(), "nll_loss: target -100 at position 2 is out of bounds: the classes are 0..4");
}

#[test]
#[should_panic(expected = "cross_entropy: target 7 at position 1 is out of bounds: the classes are 0..4")]
fn the_plain_form_panics_with_the_message() {
    let logits = Var::constant(Tensor::<f64, Shape![3, 4]>::zeros());
    nn::cross_entropy(&logits, &Tensor::<i64, Shape![3]>::from([1, 7, 0]), Reduction::Sum, 0.0);
}

#[test]
fn a_bad_embedding_index_is_named() {
    let w = Var::constant(Tensor::<f64, Shape![3, 2]>::zeros());
    let idx = Tensor::<i64, Shape![2, 2]>::from([[0, 1], [3, 2]]);
    let e = nn::try_embedding(&idx, &w).unwrap_err();
    assert_eq!(e, ShapeError::IndexEntry { index: 3, position: vec![1, 0], axis: 0, size: 3 });
    assert_eq!(e.to_string(), "index 3 at position [1, 0] is out of bounds for dimension 0 of size 3");
    let e = nn::try_embedding(&Tensor::<i32, Shape![1]>::from([-1]), &w).unwrap_err();
    assert!(e.to_string().starts_with("index -1 at position [0]"), "{e}");
}

#[test]
fn runtime_size_errors() {
    // A `Dyn` input whose last size is not the weight's `in`.
    let x: Var<f64, (Dyn, Dyn)> = Var::constant(Tensor::zeros_sized(&[2, 3]));
    let w: Var<f64, (Dyn, Dyn)> = Var::constant(Tensor::zeros_sized(&[4, 5]));
    let e = nn::try_linear(&x, &w, None).unwrap_err();
    assert_eq!(e.to_string(), "cannot matmul [2, 3] by [5, 4]: inner dimensions 3 and 5 differ");
    let w: Var<f64, (Dyn, Dyn)> = Var::constant(Tensor::zeros_sized(&[4, 3]));
    let b: Var<f64, (Dyn,)> = Var::constant(Tensor::zeros_sized(&[5]));
    let e = nn::try_linear(&x, &w, Some(&b)).unwrap_err();
    assert_eq!(e.to_string(), "linear: [5] and [4] differ: the bias must have one element per output feature");
    // Losses of two sizes.
    let a: Var<f64, DynShape> = Var::constant(Tensor::zeros_sized(&[2, 3]));
    let c: Var<f64, DynShape> = Var::constant(Tensor::zeros_sized(&[3, 2]));
    let e = nn::try_mse_loss(&a, &c, Reduction::Mean).unwrap_err();
    assert_eq!(e.to_string(), "mse_loss: [2, 3] and [3, 2] differ: the target must have the input's sizes");
    // batch_norm: one value per channel in training; no running statistics in evaluation.
    let one: Var<f64, Shape![1, 3]> = Var::constant(Tensor::zeros());
    let e = nn::try_batch_norm(&one, None, None, None, None, true, 0.1, 1e-5).unwrap_err();
    assert!(e.to_string().contains("more than 1 value per channel"), "{e}");
    let e = nn::try_batch_norm(&one, None, None, None, None, false, 0.1, 1e-5).unwrap_err();
    assert!(e.to_string().contains("evaluation mode"), "{e}");
    // A running statistic of the wrong length leaves the other unchanged.
    let x: Var<f64, (Dyn, Dyn)> = Var::constant(Tensor::from_vec(&[2, 2], vec![1., 2., 3., 4.]));
    let mut m = Tensor::<f64, (Dyn,)>::zeros_sized(&[2]);
    let mut v = Tensor::<f64, (Dyn,)>::ones_sized(&[3]);
    let e = nn::try_batch_norm(&x, Some(&mut m), Some(&mut v), None, None, true, 0.1, 1e-5).unwrap_err();
    assert_eq!(
        e.to_string(),
        "batch_norm: [3] and [2] differ: the running variance must have one element per channel (dim 1 of the input)"
    );
    assert_eq!(m.to_vec(), [0., 0.]);
    // Probabilities and smoothing out of range.
    let logits = Var::constant(Tensor::<f64, Shape![1, 2]>::zeros());
    let e = nn::try_cross_entropy(&logits, &Tensor::<i64, Shape![1]>::from([0]), Reduction::Mean, 1.5).unwrap_err();
    assert!(e.to_string().contains("label_smoothing must be between 0.0 and 1.0, got 1.5"), "{e}");
    let e = nn::try_huber_loss(&logits, &logits, Reduction::Mean, 0.0).unwrap_err();
    assert!(e.to_string().contains("delta must be positive"), "{e}");
    let e = nn::try_huber_loss(&logits, &logits, nn::Unreduced, -1.0).unwrap_err();
    assert!(e.to_string().contains("delta must be positive"), "{e}");
    // The options: a weight per class, ignore_index, smoothing only for cross-entropy.
    let x: Var<f64, (Dyn, Dyn)> = Var::constant(Tensor::zeros_sized(&[2, 3]));
    let t = Tensor::<i64, (Dyn,)>::from_vec(&[2], vec![0, -100]);
    let opts = nn::ClassLossOptions { weight: Some(Tensor::<f64, (Dyn,)>::ones_sized(&[2])), ..Default::default() };
    let e = nn::try_cross_entropy_with(&x, &t, Reduction::Mean, &opts).unwrap_err();
    assert_eq!(e.to_string(), "cross_entropy: [2] and [3] differ: the weight must have one element per class");
    let opts = nn::ClassLossOptions { ignore_index: None, ..Default::default() };
    let e = nn::try_nll_loss_with(&x, &t, nn::Unreduced, &opts).unwrap_err();
    assert_eq!(e.to_string(), "nll_loss: target -100 at position 1 is out of bounds: the classes are 0..3");
    let opts = nn::ClassLossOptions { label_smoothing: 0.1, ..Default::default() };
    let e = nn::try_nll_loss_with(&x, &t, Reduction::Sum, &opts).unwrap_err();
    assert!(e.to_string().contains("label_smoothing is cross_entropy's"), "{e}");
    // Every row ignored: the mean is 0 / 0 = NaN as PyTorch's, and the gradient is 0.
    let tape = Tape::<f64>::new();
    let xv = tape.var(Tensor::<f64, (Dyn, Dyn)>::zeros_sized(&[2, 3]));
    let all = Tensor::<i64, (Dyn,)>::from_vec(&[2], vec![-100, -100]);
    let l = nn::cross_entropy_with(&xv, &all, Reduction::Mean, &nn::ClassLossOptions::default());
    assert!(l.item().is_nan());
    assert_eq!(l.backward().wrt(&xv).unwrap().to_vec(), [0.0; 6]);
    // padding_idx inside the rows.
    let w: Var<f64, Shape![3, 2]> = Var::constant(Tensor::zeros());
    let e = nn::try_embedding_with(&Tensor::<i64, Shape![1]>::from([0]), &w, Some(3)).unwrap_err();
    assert_eq!(e.to_string(), "embedding: padding_idx 3 must be within the 3 rows (-3..3)");
}

// ---------------------------------------------------------------------------------------------
// Dropout: no PyTorch values (another generator); its properties instead.

#[test]
fn dropout_masks_scales_and_is_seeded() {
    use shaped::rand::{rngs::StdRng, SeedableRng};
    let tape = Tape::<f64>::new();
    let x = tape.var(Tensor::<f64, Shape![40, 50]>::from_vec(&[40, 50], (0..2000).map(|i| 1.0 + i as f64).collect()));
    let y = nn::dropout(&x, 0.3, true, &mut StdRng::seed_from_u64(3));
    let again = nn::dropout(&x.detach(), 0.3, true, &mut StdRng::seed_from_u64(3));
    assert_eq!(y.value().to_vec(), again.value().to_vec(), "the same seed gives the same mask");
    let (xs, ys) = (x.value().to_vec(), y.value().to_vec());
    let kept = ys.iter().filter(|&&v| v != 0.0).count();
    // 2000 draws of p = 0.7: 1400 expected, standard deviation 20.5.
    assert!((1300..=1500).contains(&kept), "{kept} kept");
    for (a, b) in xs.iter().zip(&ys) {
        assert!(*b == 0.0 || (b - a / 0.7).abs() <= 1e-12 * b.abs(), "{a} -> {b}");
    }
    let g = y.sum().backward();
    let gx = g.wrt(&x).unwrap().to_vec();
    for (gv, yv) in gx.iter().zip(&ys) {
        assert_eq!(*gv == 0.0, *yv == 0.0);
        assert!(*gv == 0.0 || (gv - 1.0 / 0.7).abs() < 1e-12);
    }
    // Identity when not training or p = 0; zeros for p = 1; an error outside [0, 1].
    let mut rng = StdRng::seed_from_u64(0);
    let x = x.detach();
    assert_eq!(nn::dropout(&x, 0.5, false, &mut rng).value().to_vec(), xs);
    assert_eq!(nn::dropout(&x, 0.0, true, &mut rng).value().to_vec(), xs);
    assert!(nn::dropout(&x, 1.0, true, &mut rng).value().iter().all(|&v| v == 0.0));
    let e = nn::try_dropout(&x, 1.5, true, &mut rng).unwrap_err();
    assert_eq!(e.to_string(), "dropout probability has to be between 0 and 1, but got 1.5");
    assert!(nn::try_dropout(&x, f64::NAN, true, &mut rng).is_err());
}

mod layer_norm_rows {
    use super::*;
    use proptest::prelude::*;

    /// `layer_norm` of no rows takes the tensor form (the fused kernel wants rows), forward and
    /// backward: an empty output, an empty input gradient and zero parameter gradients, as
    /// PyTorch's.
    #[test]
    fn no_rows_take_the_tensor_form() {
        let tape = Tape::new();
        let x = tape.var(Tensor::<f64, DynShape>::from_vec(&[0, 4], vec![]));
        let w = tape.var(Tensor::<f64, (Dyn,)>::from_vec(&[4], vec![1.0, 2.0, 3.0, 4.0]));
        let b = tape.var(Tensor::<f64, (Dyn,)>::from_vec(&[4], vec![0.5; 4]));
        let y = nn::layer_norm(&x, Some(&w), Some(&b), 1e-5);
        assert_eq!(y.value().sizes(), &[0, 4]);
        let g = y.sum().backward();
        assert_eq!(g.wrt(&x).unwrap().sizes(), &[0, 4]);
        assert_eq!(g.wrt(&w).unwrap().to_vec(), vec![0.0; 4]);
        assert_eq!(g.wrt(&b).unwrap().to_vec(), vec![0.0; 4]);
    }

    /// A NaN in the seed of `layer_norm`'s backward (past one block of rows and one leaf) makes
    /// its row's input gradient and its column's weight and bias gradients NaN, and no other
    /// element: IEEE through the fused pass.
    #[test]
    fn a_nan_seed_stays_in_its_row_and_column() {
        let (rows, d) = (300, 70);
        let tape = Tape::new();
        let x =
            tape.var(Tensor::<f64, DynShape>::from_vec(&[rows, d], (0..rows * d).map(|i| (i % 13) as f64).collect()));
        let w = tape.var(Tensor::<f64, (Dyn,)>::from_vec(&[d], vec![1.5; d]));
        let b = tape.var(Tensor::<f64, (Dyn,)>::from_vec(&[d], vec![0.5; d]));
        let mut seed = vec![1.0; rows * d];
        seed[250 * d + 7] = f64::NAN;
        let seed = Var::constant(Tensor::<f64, DynShape>::from_vec(&[rows, d], seed));
        let grads = (&nn::layer_norm(&x, Some(&w), Some(&b), 1e-5) * &seed).sum().backward();
        let gx = grads.wrt(&x).unwrap().to_vec();
        for (i, v) in gx.iter().enumerate() {
            assert_eq!(v.is_nan(), i / d == 250, "input gradient {i}: {v}");
        }
        for g in [grads.wrt(&w).unwrap().to_vec(), grads.wrt(&b).unwrap().to_vec()] {
            for (k, v) in g.iter().enumerate() {
                assert_eq!(v.is_nan(), k == 7, "parameter gradient {k}: {v}");
            }
        }
    }

    /// Layer norm of one row in f64, PyTorch's formula: biased variance, `(x - mean) / sqrt(var
    /// + eps) * w + b`.
    fn reference(row: &[f64], w: &[f64], b: &[f64], eps: f64) -> Vec<f64> {
        let d = row.len() as f64;
        let mean = row.iter().sum::<f64>() / d;
        let var = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / d;
        let r = 1.0 / (var + eps).sqrt();
        row.iter().zip(w).zip(b).map(|((v, w), b)| (v - mean) * r * w + b).collect()
    }

    /// Values with the magnitudes the issue names: ordinary, huge, tiny, and now and then ±inf
    /// or NaN.
    fn value() -> impl Strategy<Value = f64> {
        prop_oneof![
            20 => -3.0f64..3.0,
            2 => -1e30f64..1e30,
            2 => -1e-30f64..1e-30,
            1 => Just(f64::INFINITY),
            1 => Just(f64::NEG_INFINITY),
            1 => Just(f64::NAN),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: if cfg!(miri) { 2 } else { 64 }, failure_persistence: None, ..ProptestConfig::default() })]

        /// The fused row kernel of `layer_norm` (contiguous rows, of a few elements up to more
        /// than a pairwise leaf, and sizes that cross rayon's split) against the f64 formula, in
        /// f64 and f32: a row holding ±inf or NaN is NaN throughout (as PyTorch's), every other
        /// row within a few roundings of its scale.
        #[test]
        fn layer_norm_rows_match_the_formula(
            rows in 1usize..6,
            d in prop_oneof![1usize..8, 60usize..70, Just(384usize)],
            seed in proptest::collection::vec(value(), 64),
            wb in proptest::collection::vec(-2.0f64..2.0, 16),
            big in any::<bool>(),
        ) {
            // `big` repeats the rows past the kernel's parallel threshold (2^16 elements).
            let rows = if big && !cfg!(miri) { rows * (70_000 / d + 1) } else { rows };
            let x: Vec<f64> = (0..rows * d).map(|i| seed[(i * 7 + i / 64) % 64]).collect();
            let w: Vec<f64> = (0..d).map(|i| wb[i % 16]).collect();
            let b: Vec<f64> = (0..d).map(|i| wb[(i + 5) % 16] * 0.5).collect();
            let want: Vec<f64> = x.chunks(d).flat_map(|r| reference(r, &w, &b, 1e-5)).collect();
            let check = |got: Vec<f64>, rel: f64| -> Result<(), TestCaseError> {
                for (i, (g, e)) in got.iter().zip(&want).enumerate() {
                    let row = &x[i / d * d..(i / d + 1) * d];
                    if row.iter().any(|v| !v.is_finite()) {
                        prop_assert!(g.is_nan(), "row {} holds a non-finite value: {} should be NaN", i / d, g);
                    } else if e.is_finite() {
                        prop_assert!((g - e).abs() <= rel * (1.0 + e.abs()), "element {}: {} against {}", i, g, e);
                    }
                }
                Ok(())
            };
            let run = |xs: &[f64], ws: &[f64], bs: &[f64]| -> Vec<f64> {
                let xv = Var::constant(Tensor::<f64, DynShape>::from_vec(&[rows, d], xs.to_vec()));
                let wv = Var::constant(Tensor::<f64, (Dyn,)>::from_vec(&[d], ws.to_vec()));
                let bv = Var::constant(Tensor::<f64, (Dyn,)>::from_vec(&[d], bs.to_vec()));
                nn::layer_norm(&xv, Some(&wv), Some(&bv), 1e-5).value().to_vec()
            };
            check(run(&x, &w, &b), 1e-12)?;
            // f32, where the squares of the centred values fit f32 (PyTorch's f32 variance overflows
            // there as this one does).
            if x.iter().all(|v| !v.is_finite() || v.abs() < 1e15) {
                let x32: Vec<f32> = x.iter().map(|&v| v as f32).collect();
                let xv = Var::constant(Tensor::<f32, DynShape>::from_vec(&[rows, d], x32));
                let wv = Var::constant(Tensor::<f32, (Dyn,)>::from_vec(&[d], w.iter().map(|&v| v as f32).collect()));
                let bv = Var::constant(Tensor::<f32, (Dyn,)>::from_vec(&[d], b.iter().map(|&v| v as f32).collect()));
                let got: Vec<f64> = nn::layer_norm(&xv, Some(&wv), Some(&bv), 1e-5).value().to_vec().iter().map(|&v| v as f64).collect();
                check(got, 2e-4)?;
            }
        }

        /// The fused backward of `layer_norm` (input, weight and bias gradients from one pass
        /// over the rows) against the f64 formula, for every set of tracked inputs, with rows
        /// that cross its blocks of 16 rows, its leaves (2^14 elements) and rayon's split; the
        /// seed is a random tensor. Errors within a few roundings of the sums' scale.
        #[test]
        fn layer_norm_backward_matches_the_formula(
            rows in 1usize..6,
            d in prop_oneof![1usize..8, 60usize..70, Just(384usize)],
            seed in proptest::collection::vec(-3.0f64..3.0, 64),
            wb in proptest::collection::vec(-2.0f64..2.0, 16),
            grow in 0usize..3,
            tracked in 1usize..8,
        ) {
            let rows = match grow {
                0 => rows,
                1 => rows * 9,
                _ if cfg!(miri) => rows,
                _ => rows * (70_000 / d + 1),
            };
            let x: Vec<f64> = (0..rows * d).map(|i| seed[(i * 7 + i / 64) % 64]).collect();
            let gs: Vec<f64> = (0..rows * d).map(|i| seed[(i * 5 + i / 64 + 3) % 64] * 0.5).collect();
            let w: Vec<f64> = (0..d).map(|i| wb[i % 16]).collect();
            let b: Vec<f64> = (0..d).map(|i| wb[(i + 5) % 16] * 0.5).collect();
            // The formula in f64: x̂, then each row's gradient and the two column sums. The
            // column sums run over up to 210,000 rows, so they are Neumaier-compensated (a plain
            // f64 sum of that many terms errs by more than the tolerance below).
            let (mut want_x, mut want_w, mut want_b) = (vec![0.0; rows * d], vec![0.0; d], vec![0.0; d]);
            let (mut err_w, mut err_b) = (vec![0.0f64; d], vec![0.0f64; d]);
            let neumaier = |s: &mut f64, c: &mut f64, v: f64| {
                let t = *s + v;
                *c += if s.abs() >= v.abs() { (*s - t) + v } else { (v - t) + *s };
                *s = t;
            };
            let (mut scale_x, mut scale_w) = (vec![0.0f64; rows], vec![0.0; d]);
            for r in 0..rows {
                let xr = &x[r * d..(r + 1) * d];
                let gr = &gs[r * d..(r + 1) * d];
                let mean = xr.iter().sum::<f64>() / d as f64;
                let var = xr.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / d as f64;
                let rstd = 1.0 / (var + 1e-5).sqrt();
                let h: Vec<f64> = xr.iter().map(|v| (v - mean) * rstd).collect();
                let gh: Vec<f64> = gr.iter().zip(&w).map(|(g, w)| g * w).collect();
                let m1 = gh.iter().sum::<f64>() / d as f64;
                let m2 = gh.iter().zip(&h).map(|(g, h)| g * h).sum::<f64>() / d as f64;
                for k in 0..d {
                    want_x[r * d + k] = rstd * (gh[k] - m1 - h[k] * m2);
                    neumaier(&mut want_w[k], &mut err_w[k], gr[k] * h[k]);
                    neumaier(&mut want_b[k], &mut err_b[k], gr[k]);
                    scale_w[k] += (gr[k] * h[k]).abs() + gr[k].abs();
                }
                scale_x[r] = rstd * gh.iter().map(|v| v.abs()).sum::<f64>();
            }
            for k in 0..d {
                want_w[k] += err_w[k];
                want_b[k] += err_b[k];
            }
            let tape = Tape::new();
            let var = |t: Tensor<f64, DynShape>, on: bool| if on { tape.var(t) } else { Var::constant(t) };
            let xv = var(Tensor::from_vec(&[rows, d], x.clone()), tracked & 1 != 0);
            let wv = Tensor::<f64, (Dyn,)>::from_vec(&[d], w.clone());
            let wv = if tracked & 2 != 0 { tape.var(wv) } else { Var::constant(wv) };
            let bv = Tensor::<f64, (Dyn,)>::from_vec(&[d], b.clone());
            let bv = if tracked & 4 != 0 { tape.var(bv) } else { Var::constant(bv) };
            let seed_t = Var::constant(Tensor::<f64, DynShape>::from_vec(&[rows, d], gs.clone()));
            let y = nn::layer_norm(&xv, Some(&wv), Some(&bv), 1e-5);
            let grads = (&y * &seed_t).sum().backward();
            if tracked & 1 != 0 {
                let got = grads.wrt(&xv).unwrap().to_vec();
                for (i, (g, e)) in got.iter().zip(&want_x).enumerate() {
                    prop_assert!((g - e).abs() <= 1e-12 * (1.0 + scale_x[i / d]), "x grad {}: {} against {}", i, g, e);
                }
            }
            for (bit, v, want) in [(2, &wv, &want_w), (4, &bv, &want_b)] {
                if tracked & bit != 0 {
                    let got = grads.wrt(v).unwrap().to_vec();
                    for (k, (g, e)) in got.iter().zip(want.iter()).enumerate() {
                        prop_assert!((g - e).abs() <= 1e-13 * (1.0 + scale_w[k]), "param {} grad {}: {} against {}", bit, k, g, e);
                    }
                }
            }
        }
    }
}

/// The fused forward and backward of `batch_norm` (`kernels::norm::batch_norm_rows` and
/// `batch_norm_backward`: each row's sums, the channels' compensated totals, then a pass over the
/// rows) against the f64 formula.
mod batch_norm_rows {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: if cfg!(miri) { 2 } else { 48 }, failure_persistence: None, ..ProptestConfig::default() })]

        /// Inputs of rank 2 to 4 (rows of 1 to 90,000 elements, sizes past rayon's split), training
        /// and evaluation, with and without a weight, every set of tracked inputs: the three
        /// gradients within a few roundings of their scale.
        #[test]
        fn batch_norm_backward_matches_the_formula(
            n in 2usize..5,
            c in 1usize..5,
            rest in prop_oneof![Just(vec![]), (1usize..40).prop_map(|l| vec![l]), (1usize..6, 1usize..6).prop_map(|(h, w)| vec![h, w]), Just(vec![300usize]), Just(vec![64usize, 64]), Just(vec![300usize, 300])],
            seed in proptest::collection::vec(-3.0f64..3.0, 64),
            wb in proptest::collection::vec(-2.0f64..2.0, 16),
            training in any::<bool>(),
            with_weight in any::<bool>(),
            tracked in 1usize..8,
        ) {
            if !with_weight && tracked & 5 == 0 {
                return Ok(()); // only the absent weight tracked: nothing to differentiate
            }
            let inner: usize = rest.iter().product();
            let mut sizes = vec![n, c];
            sizes.extend(&rest);
            let len = n * c * inner;
            let x: Vec<f64> = (0..len).map(|i| seed[(i * 7 + i / 64) % 64]).collect();
            let gs: Vec<f64> = (0..len).map(|i| seed[(i * 5 + i / 64 + 3) % 64] * 0.5).collect();
            let w: Vec<f64> = (0..c).map(|k| wb[k % 16]).collect();
            let b: Vec<f64> = (0..c).map(|k| wb[(k + 5) % 16] * 0.5).collect();
            let (rm, rv): (Vec<f64>, Vec<f64>) = (0..c).map(|k| (wb[(k + 3) % 16] * 0.3, wb[(k + 7) % 16].abs() + 0.5)).unzip();
            let eps = 1e-5;
            let channel = |i: usize| (i / inner) % c;
            let count = (n * inner) as f64;
            // Per channel: the statistics, then the sums of the gradients (Neumaier-compensated).
            let neumaier = |acc: &mut (f64, f64), v: f64| {
                let t = acc.0 + v;
                acc.1 += if acc.0.abs() >= v.abs() { (acc.0 - t) + v } else { (v - t) + acc.0 };
                acc.0 = t;
            };
            let (mut mean, mut rstd) = (rm.clone(), vec![0.0; c]);
            if training {
                let mut s = vec![(0.0, 0.0); c];
                for i in 0..len { neumaier(&mut s[channel(i)], x[i]); }
                mean = s.iter().map(|a| (a.0 + a.1) / count).collect();
                let mut v = vec![(0.0, 0.0); c];
                for i in 0..len { neumaier(&mut v[channel(i)], (x[i] - mean[channel(i)]).powi(2)); }
                for k in 0..c { rstd[k] = 1.0 / ((v[k].0 + v[k].1) / count + eps).sqrt(); }
            } else {
                for k in 0..c { rstd[k] = 1.0 / (rv[k] + eps).sqrt(); }
            }
            let wk = |k: usize| if with_weight { w[k] } else { 1.0 };
            let h: Vec<f64> = (0..len).map(|i| (x[i] - mean[channel(i)]) * rstd[channel(i)]).collect();
            let (mut sg, mut sgh, mut scale) = (vec![(0.0, 0.0); c], vec![(0.0, 0.0); c], vec![0.0; c]);
            for i in 0..len {
                let k = channel(i);
                neumaier(&mut sg[k], gs[i]);
                neumaier(&mut sgh[k], gs[i] * h[i]);
                scale[k] += gs[i].abs() + (gs[i] * h[i]).abs();
            }
            let total = |a: (f64, f64)| a.0 + a.1;
            let want_x: Vec<f64> = (0..len).map(|i| {
                let k = channel(i);
                let gh = gs[i] * wk(k);
                if training {
                    let (m1, m2) = (wk(k) * total(sg[k]) / count, wk(k) * total(sgh[k]) / count);
                    rstd[k] * (gh - m1 - h[i] * m2)
                } else {
                    gh * rstd[k]
                }
            }).collect();
            let tape = Tape::new();
            let var = |t: Tensor<f64, DynShape>, on: bool| if on { tape.var(t) } else { Var::constant(t) };
            let xv = var(Tensor::from_vec(&sizes, x.clone()), tracked & 1 != 0);
            let wv = Tensor::<f64, (Dyn,)>::from_vec(&[c], w.clone());
            let wv = if tracked & 2 != 0 { tape.var(wv) } else { Var::constant(wv) };
            let bv = Tensor::<f64, (Dyn,)>::from_vec(&[c], b.clone());
            let bv = if tracked & 4 != 0 { tape.var(bv) } else { Var::constant(bv) };
            let (mut rmt, mut rvt) = (Tensor::<f64, (Dyn,)>::from_vec(&[c], rm.clone()), Tensor::<f64, (Dyn,)>::from_vec(&[c], rv.clone()));
            let seed_t = Var::constant(Tensor::<f64, DynShape>::from_vec(&sizes, gs.clone()));
            let y = nn::batch_norm(&xv, Some(&mut rmt), Some(&mut rvt), with_weight.then_some(&wv), Some(&bv), training, 0.1, eps);
            // The forward's values and the running statistics' update.
            for (i, v) in y.value().to_vec().iter().enumerate() {
                let k = channel(i);
                let want = h[i] * wk(k) + b[k];
                prop_assert!((v - want).abs() <= 1e-12 * (1.0 + h[i].abs() * wk(k).abs() + b[k].abs()), "y {}: {} against {}", i, v, want);
            }
            if training {
                let mut var = vec![0.0; c];
                for i in 0..len { var[channel(i)] += (x[i] - mean[channel(i)]).powi(2) / (count - 1.0); }
                for k in 0..c {
                    let (m, v) = (0.9 * rm[k] + 0.1 * mean[k], 0.9 * rv[k] + 0.1 * var[k]);
                    prop_assert!((rmt.to_vec()[k] - m).abs() <= 1e-12 * (1.0 + m.abs()), "running mean {}", k);
                    prop_assert!((rvt.to_vec()[k] - v).abs() <= 1e-11 * (1.0 + v.abs()), "running var {}", k);
                }
            } else {
                prop_assert_eq!(rmt.to_vec(), rm.clone());
                prop_assert_eq!(rvt.to_vec(), rv.clone());
            }
            let grads = (&y * &seed_t).sum().backward();
            if tracked & 1 != 0 {
                let got = grads.wrt(&xv).unwrap().to_vec();
                for (i, (g, e)) in got.iter().zip(&want_x).enumerate() {
                    let k = channel(i);
                    let sc = rstd[k] * wk(k).abs() * (1.0 + scale[k] / count) * (1.0 + h[i].abs());
                    prop_assert!((g - e).abs() <= 1e-12 * (1.0 + sc), "x grad {}: {} against {}", i, g, e);
                }
            }
            if tracked & 2 != 0 && with_weight {
                let got = grads.wrt(&wv).unwrap().to_vec();
                for k in 0..c {
                    prop_assert!((got[k] - total(sgh[k])).abs() <= 1e-13 * (1.0 + scale[k]), "weight grad {}: {} against {}", k, got[k], total(sgh[k]));
                }
            }
            if tracked & 4 != 0 {
                let got = grads.wrt(&bv).unwrap().to_vec();
                for k in 0..c {
                    prop_assert!((got[k] - total(sg[k])).abs() <= 1e-13 * (1.0 + scale[k]), "bias grad {}: {} against {}", k, got[k], total(sg[k]));
                }
            }
        }
    }
}
