//! The autograd layer's contract: gradients typed as their parameters, one model function for
//! inference and training, errors that name what went wrong, gradcheck on random inputs.
use proptest::prelude::*;
use shaped::autograd::{gradcheck, try_gradcheck, Param, Tape, Var};
use shaped::prelude::*;

/// A two-layer network written once over `Var`: the batch is generic, the widths static.
fn mlp<'t, N: Dim>(
    tape: &'t Tape<f64>,
    w1: &Param<f64, Shape![8, 4]>,
    b1: &Param<f64, Shape![8]>,
    w2: &Param<f64, Shape![3, 8]>,
    x: &Var<'t, f64, (N, Const<4>)>,
) -> Var<'t, f64, (N, Const<3>)> {
    let (w1, b1, w2) = (tape.watch(w1), tape.watch(b1), tape.watch(w2));
    let h = (&x.matmul(&w1.t()) + &b1).relu();
    h.matmul(&w2.t()).log_softmax(Ax::<1>)
}

type Params = (Param<f64, Shape![8, 4]>, Param<f64, Shape![8]>, Param<f64, Shape![3, 8]>);

fn params() -> Params {
    let w1 =
        Tensor::<f64, Shape![8, 4]>::from_vec(&[8, 4], (0..32).map(|i| ((i * 7 % 11) as f64 - 5.0) / 10.0).collect());
    let b1 = Tensor::<f64, Shape![8]>::from_vec(&[8], (0..8).map(|i| (i as f64 - 3.0) / 20.0).collect());
    let w2 =
        Tensor::<f64, Shape![3, 8]>::from_vec(&[3, 8], (0..24).map(|i| ((i * 5 % 7) as f64 - 3.0) / 8.0).collect());
    (Param::new(w1), Param::new(b1), Param::new(w2))
}

fn batch() -> Tensor<f64, Shape![_, 4]> {
    Tensor::from_vec(&[5, 4], (0..20).map(|i| ((i * 3 % 13) as f64 - 6.0) / 4.0).collect())
}

#[test]
fn gradients_have_their_parameters_types() {
    let (w1, b1, w2) = params();
    let tape = Tape::new();
    let x = Var::constant(batch());
    let loss = mlp(&tape, &w1, &b1, &w2, &x).mean().neg();
    let grads = loss.backward();
    let g1: &Tensor<f64, Shape![8, 4]> = grads.param(&w1).unwrap();
    let gb: &Tensor<f64, Shape![8]> = grads.param(&b1).unwrap();
    let g2: &Tensor<f64, Shape![3, 8]> = grads.param(&w2).unwrap();
    assert_eq!((g1.numel(), gb.numel(), g2.numel()), (32, 8, 24));
    assert!(g2.to_vec().iter().any(|&v| v != 0.0));
    // The graph is freed: the tape is empty again.
    assert!(tape.is_empty());
}

#[test]
fn one_model_function_serves_inference_and_training() {
    let (w1, b1, w2) = params();
    let x = Var::constant(batch());
    let infer = Tape::no_grad();
    let y0 = mlp(&infer, &w1, &b1, &w2, &x);
    assert!(!y0.is_tracked());
    assert!(infer.is_empty(), "a no_grad tape records nothing");
    let train = Tape::new();
    let y1 = mlp(&train, &w1, &b1, &w2, &x);
    assert!(y1.is_tracked());
    assert!(train.len() > 5);
    assert_eq!(y0.value().to_vec(), y1.value().to_vec());
    // And the same values as plain tensor code.
    let plain = (&batch().matmul(&w1.value().t()) + b1.value()).relu().matmul(&w2.value().t()).log_softmax(Ax::<1>);
    assert_eq!(plain.to_vec(), y0.value().to_vec());
}

#[test]
fn mlp_gradients_pass_gradcheck() {
    let (w1, b1, w2) = params();
    // With respect to the input: the whole network's Jacobian against central differences.
    let x = batch().cast_shape::<Shape![5, 4]>();
    assert!(gradcheck(
        |x: &Var<f64, Shape![5, 4]>| {
            let tape_free = Tape::no_grad();
            let (w1, b1, w2) =
                (tape_free.watch(&w1).detach(), tape_free.watch(&b1).detach(), tape_free.watch(&w2).detach());
            let h = (&x.matmul(&w1.t()) + &b1).tanh();
            h.matmul(&w2.t()).log_softmax(Ax::<1>)
        },
        &x
    ));
}

#[test]
fn a_parameter_watched_twice_gets_the_sum() {
    let w = Param::new(Tensor::<f64, Shape![2]>::from([1.0, 2.0]));
    let tape = Tape::new();
    let (a, b) = (tape.watch(&w), tape.watch(&w));
    let loss = (&(&a * &a) + &(&b * 3.0)).sum(); // d/dw = 2w + 3
    let grads = loss.backward();
    assert_eq!(grads.param(&w).unwrap().to_vec(), [5.0, 7.0]);
}

#[test]
fn errors_name_what_went_wrong() {
    // Values of two tapes.
    let (t1, t2) = (Tape::<f64>::new(), Tape::<f64>::new());
    let a = t1.var(Tensor::<f64, Shape![2]>::from([1.0, 2.0]));
    let b = t2.var(Tensor::<f64, Shape![2]>::from([3.0, 4.0]));
    let e = a.try_add(&b).unwrap_err().to_string();
    assert!(e.contains("two tapes"), "{e}");

    // A value recorded before backward, used after it.
    let loss = a.sum();
    let _ = loss.backward();
    let e = a.try_mul(&a).unwrap_err().to_string();
    assert!(e.contains("before tape") && e.contains("backward"), "{e}");
    let e = loss.try_backward().unwrap_err().to_string();
    assert!(e.contains("backward"), "{e}");

    // backward of an untracked value.
    let c = Var::constant(Tensor::<f64, Shape![]>::from_vec(&[], vec![1.0]));
    let e = c.try_backward().unwrap_err().to_string();
    assert!(e.contains("untracked"), "{e}");

    // A runtime-shaped loss with more than one element.
    let t3 = Tape::<f64>::new();
    let d = t3.var(Tensor::<f64, DynShape>::from_vec(&[3], vec![1.0, 2.0, 3.0]));
    let e = d.exp().try_backward().unwrap_err().to_string();
    assert!(e.contains("[3]") && e.contains("backward_with"), "{e}");

    // A seed of the wrong sizes.
    let e = d.try_backward_with(&Tensor::<f64, DynShape>::from_vec(&[2], vec![1.0, 1.0])).unwrap_err().to_string();
    assert!(e.contains("[2]") && e.contains("[3]"), "{e}");

    // A gradient asked of an intermediate value, and of an untracked one.
    let t4 = Tape::<f64>::new();
    let x = t4.var(Tensor::<f64, Shape![2]>::from([1.0, 2.0]));
    let y = x.exp();
    let grads = y.sum().backward();
    assert!(grads.wrt(&x).is_some());
    let e = grads.try_wrt(&y).unwrap_err().to_string();
    assert!(e.contains("only leaves"), "{e}");
    let e = grads.try_wrt(&Var::constant(Tensor::<f64, Shape![2]>::from([0.0, 0.0]))).unwrap_err().to_string();
    assert!(e.contains("untracked"), "{e}");

    // Runtime sizes that do not broadcast: the tensor's own error.
    let t5 = Tape::<f64>::new();
    let p = t5.var(Tensor::<f64, Shape![_]>::from_vec(&[3], vec![1.0; 3]));
    let q = t5.var(Tensor::<f64, Shape![_]>::from_vec(&[2], vec![1.0; 2]));
    let e = p.try_add(&q).unwrap_err().to_string();
    assert!(e.contains("[3]") && e.contains("[2]"), "{e}");

    // einsum: the forward's equation errors, when recorded.
    let t6 = Tape::<f64>::new();
    let m = t6.var(Tensor::<f64, DynShape>::from_vec(&[2, 2], vec![1.0, 2.0, 3.0, 4.0]));
    let e = shaped::autograd::try_einsum("ijk->i", &[&m]).unwrap_err().to_string();
    assert!(e.contains("rank 2"), "{e}");

    // lstsq of a rank-deficient matrix, tall or wide, is not differentiable: refused when
    // recorded (a wide one of full rank has its minimum-norm rule: `lstsq_wide_*` against PyTorch).
    let t7 = Tape::<f64>::new();
    let wide = t7.var(Tensor::<f64, Shape![2, 3]>::from([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]));
    let rhs = t7.var(Tensor::<f64, Shape![2]>::from([1.0, 1.0]));
    assert_eq!(wide.lstsq(&rhs).value().to_vec(), [1.0, 1.0, 0.0]);
    let wide_flat = t7.var(Tensor::<f64, Shape![2, 3]>::from([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0]]));
    let e = wide_flat.try_lstsq(&rhs).unwrap_err().to_string();
    assert!(e.contains("[2, 3]") && e.contains("rank below 2"), "{e}");
    let flat = t7.var(Tensor::<f64, Shape![3, 2]>::from([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]]));
    let rhs3 = t7.var(Tensor::<f64, Shape![3]>::from([1.0, 1.0, 1.0]));
    let e = flat.try_lstsq(&rhs3).unwrap_err().to_string();
    assert!(e.contains("rank below 2"), "{e}");

    // A runtime axis the value lacks.
    let e = p.try_sum_axis(1).unwrap_err().to_string();
    assert!(e.contains("axis 1"), "{e}");
    let e = p.try_permute([1, 0]).unwrap_err().to_string();
    assert!(e.contains("[1, 0]"), "{e}");
}

#[test]
fn views_through_t_macro_slices() {
    let tape = Tape::new();
    let x = tape.var(Tensor::<f64, Shape![3, 4]>::from_vec(&[3, 4], (0..12).map(f64::from).collect()));
    // Every other column walking backwards, rows 1..: a strided view with a negative stride.
    let v: Var<f64, Shape![2, 2]> = x.view_with(|v| t!(v[1.., ..;-2]));
    assert_eq!(v.value().to_vec(), [7.0, 5.0, 11.0, 9.0]);
    let grads = (&v * &v).sum().backward();
    let g = grads.wrt(&x).unwrap().to_vec();
    let mut want = [0.0; 12];
    for i in [5, 7, 9, 11] {
        want[i] = 2.0 * i as f64;
    }
    assert_eq!(g, want);
}

#[test]
fn advanced_indexing_through_t_macro_accumulates_repeats() {
    let tape = Tape::new();
    let x = tape.var(Tensor::<f64, Shape![3, 2]>::from([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]));
    let rows = Tensor::<i64, Shape![4]>::from([2, 0, 2, 2]);
    let y = x.index_with(|v| t!(v[&rows, ..])); // [4, 2]: rows 2, 0, 2, 2
    assert_eq!(y.value().to_vec(), [5.0, 6.0, 1.0, 2.0, 5.0, 6.0, 5.0, 6.0]);
    let grads = (&y * &y).sum().backward();
    // d/dx of Σ y² = 2 x times the number of times each row was taken (row 2 three times).
    assert_eq!(grads.wrt(&x).unwrap().to_vec(), [2.0, 4.0, 0.0, 0.0, 30.0, 36.0]);
    // A closure that computes instead of selecting is refused.
    let e = x.try_index_with(|v| v.map(|e| e * 2.0)).unwrap_err().to_string();
    assert!(e.contains("only select"), "{e}");
}

#[test]
fn a_failed_gradcheck_names_the_entry() {
    // A function whose "gradient" is wrong on purpose: detach one branch.
    let x = Tensor::<f64, Shape![2]>::from([0.3, -0.7]);
    let e = try_gradcheck(|x: &Var<f64, Shape![2]>| x * &x.detach(), &x, 1e-6, 1e-5, 1e-3).unwrap_err().to_string();
    assert!(e.contains("output 0") && e.contains("input 0") && e.contains("analytic"), "{e}");
}

fn unary<'t>(op: usize, x: &Var<'t, f64, Shape![2, 3]>) -> Var<'t, f64, Shape![2, 3]> {
    match op {
        0 => x.exp(),
        1 => x.tanh(),
        2 => x.sigmoid(),
        3 => x.gelu(),
        4 => x.gelu_tanh(),
        5 => x.silu(),
        6 => x.softplus(),
        7 => x.sin(),
        8 => x.cos(),
        9 => x.erf(),
        10 => x.log_sigmoid(),
        11 => x.square(),
        12 => x.elu(0.7),
        13 => x.atan(),
        14 => x.softmax(Ax::<1>),
        15 => x.log_softmax(Ax::<0>),
        16 => x.logsumexp_axis(Ax::<1>).unsqueeze(Ax::<1>).expand::<Shape![2, 3]>(),
        17 => x.var_axis(Ax::<1>, 1).unsqueeze(Ax::<1>).expand::<Shape![2, 3]>(),
        18 => (x * x).sqrt(),
        19 => x.matmul(&x.t()).sum_axis(Ax::<1>).unsqueeze(Ax::<1>).expand::<Shape![2, 3]>(),
        _ => x.cosh(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    /// Every smooth rule against central differences at random points (gradcheck's tolerances).
    #[test]
    fn smooth_rules_pass_gradcheck(op in 0usize..21, v in proptest::collection::vec(-2.0f64..2.0, 6)) {
        let x = Tensor::<f64, Shape![2, 3]>::from_vec(&[2, 3], v.iter().map(|&v| if v.abs() < 0.05 { v + 0.1 } else { v }).collect());
        let r = try_gradcheck(|x: &Var<f64, Shape![2, 3]>| unary(op, x), &x, 1e-6, 1e-5, 1e-3);
        prop_assert!(r.is_ok(), "op {op}: {:?}", r.err());
    }

    /// Broadcasting binary ops: the broadcast operand's gradient is summed over the stretched
    /// dims, checked against central differences for both operands.
    #[test]
    fn broadcast_binary_rules_pass_gradcheck(op in 0usize..6, a in proptest::collection::vec(0.5f64..2.0, 6), b in proptest::collection::vec(0.5f64..2.0, 3)) {
        let at = Tensor::<f64, Shape![2, 3]>::from_vec(&[2, 3], a);
        let bt = Tensor::<f64, Shape![3]>::from_vec(&[3], b);
        fn f<'t>(op: usize, x: &Var<'t, f64, Shape![2, 3]>, y: &Var<'t, f64, Shape![3]>) -> Var<'t, f64, Shape![2, 3]> {
            match op {
                0 => x + y,
                1 => x - y,
                2 => x * y,
                3 => x / y,
                4 => x.maximum(y),
                _ => x.minimum(y),
            }
        }
        let bc = bt.clone();
        prop_assert!(gradcheck(|x: &Var<f64, Shape![2, 3]>| f(op, x, &Var::constant(bc.clone())), &at));
        let ac = at.clone();
        prop_assert!(gradcheck(|y: &Var<f64, Shape![3]>| f(op, &Var::constant(ac.clone()), y), &bt));
    }
}

/// The structural rules at a `[3, 3]` point, each as a runtime-shaped value: `t!` on a `Var`
/// (views and index tensors), einsum's diagonals, `...` and broadcast letters, lstsq of a wide
/// matrix, the class losses' options, the unreduced losses.
fn structural<'t>(op: usize, x: &Var<'t, f64, Shape![3, 3]>) -> Var<'t, f64, DynShape> {
    use shaped::autograd::{einsum, nn};
    fn d<'t, S: Shape>(v: Var<'t, f64, S>) -> Var<'t, f64, DynShape> {
        v.try_cast_shape::<DynShape>().unwrap()
    }
    let xd: Var<'t, f64, DynShape> = d(x.clone());
    let k = |sizes: &[usize], v: Vec<f64>| Var::constant(Tensor::<f64, DynShape>::from_vec(sizes, v));
    match op {
        0 => d(t!(x[..;-1, 1..]).tanh()),
        1 => {
            let rows = Tensor::<i64, Shape![4]>::from([2, 0, 2, 1]);
            d(t!(x[&rows, ..;2]).sin())
        }
        2 => einsum("ii->i", &[&xd]).exp(),
        3 => einsum("ii", &[&xd]).square(),
        4 => einsum(
            "...ij,...jk->...ik",
            &[&xd, &k(&[2, 3, 2], vec![0.5, -1.0, 2.0, 0.3, 1.1, -0.7, 0.2, 0.9, -1.3, 0.4, 0.8, 1.5])],
        ),
        5 => {
            let col = d(t!(x[.., 0..1]));
            einsum("ij,ij->ij", &[&col, &k(&[3, 2], vec![1.0, -2.0, 0.5, 3.0, -1.5, 0.25])]).sin()
        }
        6 => {
            let wide: Var<'t, f64, Shape![2, 3]> = t!(x[..2]);
            let shifted = &wide + &Var::constant(Tensor::<f64, Shape![2, 3]>::from([[3.0, 0.0, 0.0], [0.0, 3.0, 0.0]]));
            d(shifted.lstsq(&Var::constant(Tensor::<f64, Shape![2]>::from([1.0, -2.0]))))
        }
        7 => {
            let opts = nn::ClassLossOptions {
                weight: Some(Tensor::<f64, Shape![3]>::from([0.5, 2.0, 1.0])),
                label_smoothing: 0.2,
                ..Default::default()
            };
            d(nn::cross_entropy_with(x, &Tensor::<i64, Shape![3]>::from([0, -100, 2]), nn::Unreduced, &opts))
        }
        // reduction='none': each element's loss against a constant target.
        9 => {
            let t = Var::constant(Tensor::<f64, Shape![3, 3]>::from([
                [0.5, -0.5, 2.0],
                [0.0, 1.0, -1.5],
                [0.25, 0.75, -0.25],
            ]));
            &d(nn::huber_loss(x, &t, nn::Unreduced, 0.7)) + &d(nn::mse_loss(x, &t, nn::Unreduced))
        }
        10 => {
            let p =
                Var::constant(Tensor::<f64, Shape![3, 3]>::from([[0.1, 0.9, 0.5], [0.3, 0.0, 1.0], [0.7, 0.2, 0.4]]));
            d(nn::binary_cross_entropy_with_logits(x, &p, nn::Unreduced))
        }
        // (embedding's padding row has no gradient by design: checked against PyTorch instead.)
        _ => {
            let opts = nn::ClassLossOptions {
                weight: Some(Tensor::<f64, Shape![3]>::from([0.5, 2.0, 1.0])),
                ..Default::default()
            };
            let lp = x.log_softmax(Ax::<1>);
            d(nn::nll_loss_with(&lp, &Tensor::<i64, Shape![3]>::from([1, 2, -100]), nn::Reduction::Mean, &opts))
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]
    /// The structural rules against central differences at random points.
    #[test]
    fn structural_rules_pass_gradcheck(op in 0usize..11, v in proptest::collection::vec(-1.0f64..1.0, 9)) {
        let x = Tensor::<f64, Shape![3, 3]>::from_vec(&[3, 3], v);
        let r = try_gradcheck(|x: &Var<f64, Shape![3, 3]>| structural(op, x), &x, 1e-6, 1e-5, 1e-3);
        prop_assert!(r.is_ok(), "op {op}: {:?}", r.err());
    }
}

/// Issue 46: a closure whose selection depends on the values (`v[argmax(v) + 1]`) was given the
/// gradient of the element that the position probe picked, `[1, 0, 0, 0]`; it is refused now,
/// and the same selection through an index computed first gets PyTorch's `[0, 0, 1, 0]`.
#[test]
fn index_with_refuses_a_selection_that_depends_on_the_values() {
    let tape = Tape::new();
    let x = tape.var(Tensor::<f64, Shape![4]>::from([1.0, 5.0, 1.0, 0.0]));
    let after_max = |v: TensorView<'_, f64, Shape![4]>| {
        let vals = v.to_vec();
        let am = (0..4).fold(0, |b, i| if vals[i] > vals[b] { i } else { b });
        let k = (am + 1) % 4;
        Tensor::<f64, Shape![1]>::from([vals[k]])
    };
    let e = x.try_index_with(after_max).unwrap_err().to_string();
    assert!(e.contains("depends on the values"), "{e}");
    // The index first, then a selection that does not look at the values.
    let am = x.value().argmax();
    let idx = Tensor::<i64, Shape![_]>::from_vec(&[1], vec![am + 1]);
    let y = x.index_select(Ax::<0>, &idx);
    let g = y.sum().backward();
    assert_eq!(g.wrt(&x).unwrap().to_vec(), [0.0, 0.0, 1.0, 0.0]);
    // The closure, `v[argmax(v) + 1]` without a wrap: on the positions probe the index
    // runs past the end, and a panic there refuses the closure instead of escaping.
    let tape = Tape::new();
    let x = tape.var(Tensor::<f64, Shape![4]>::from([1.0, 5.0, 1.0, 0.0]));
    let unwrapped = |v: TensorView<'_, f64, Shape![4]>| {
        let vals = v.to_vec();
        let am = (0..4).fold(0, |b, i| if vals[i] > vals[b] { i } else { b });
        Tensor::<f64, Shape![1]>::from([vals[am + 1]])
    };
    let e = x.try_index_with(unwrapped).unwrap_err().to_string();
    assert!(e.contains("depends on the values"), "{e}");
    // Sorting by value (a topk) is refused too, even with ties.
    let top2 = |v: TensorView<'_, f64, Shape![4]>| {
        let vals = v.to_vec();
        let mut order: Vec<usize> = (0..4).collect();
        order.sort_by(|&a, &b| vals[b].total_cmp(&vals[a]));
        Tensor::<f64, Shape![2]>::from([vals[order[0]], vals[order[1]]])
    };
    assert!(x.try_index_with(top2).is_err());
    // A selection by position passes all three probes, ties in the values or not.
    let tape = Tape::new();
    let x = tape.var(Tensor::<f64, Shape![4]>::from([1.0, 5.0, 1.0, 0.0]));
    let y = x.index_with(|v| t!(v[0..3;2]).to_owned());
    assert_eq!(y.sum().backward().wrt(&x).unwrap().to_vec(), [1.0, 0.0, 1.0, 0.0]);
}

/// Issue 46: `.cholesky().sum().backward()` of a batch `[B, n, n]` solved against an unbatched
/// identity: a panic that escaped `try_backward` for B != n, a wrong gradient for B == n.
/// PyTorch: `[[0.2134, 0.0732, ..]]` for the batch (tests/data/trust_data.rs has all).
#[test]
fn batched_cholesky_gradient_is_per_matrix() {
    let tape = Tape::new();
    let a = tape.var(Tensor::<f64, Shape![2, 2, 2]>::from([[[4.0, 2.0], [2.0, 3.0]], [[9.0, 3.0], [3.0, 5.0]]]));
    let g = a.cholesky().sum().try_backward().unwrap();
    let g = g.wrt(&a).unwrap().to_vec();
    assert!((g[0] - 0.2134).abs() < 1e-4 && (g[1] - 0.0732).abs() < 1e-4, "{g:?}");
    // B = 3, n = 2: no panic, and each matrix's gradient is its own matrix's alone.
    let tape = Tape::new();
    let one = Tensor::<f64, Shape![2, 2]>::from([[4.0, 2.0], [2.0, 3.0]]);
    let b = tape.var(Tensor::<f64, DynShape>::from_vec(&[3, 2, 2], one.to_vec().repeat(3)));
    let gb = b.cholesky().sum().try_backward().unwrap();
    let single = tape_grad_of_one(&one);
    for m in gb.wrt(&b).unwrap().to_vec().chunks(4) {
        for (x, y) in m.iter().zip(&single) {
            assert!((x - y).abs() < 1e-12, "{m:?} against {single:?}");
        }
    }
}

fn tape_grad_of_one(m: &Tensor<f64, Shape![2, 2]>) -> Vec<f64> {
    let tape = Tape::new();
    let a = tape.var(m.clone());
    a.cholesky().sum().backward().wrt(&a).unwrap().to_vec()
}

/// One step of a random graph over runtime-shaped values: `None` when the forward refuses the
/// operands (a runtime shape error is the forward's answer, not the backward's concern).
fn random_step<'t>(
    tape: &'t Tape<f64>,
    vars: &[Var<'t, f64, DynShape>],
    op: usize,
    i: usize,
    j: usize,
    axis: isize,
) -> Option<Var<'t, f64, DynShape>> {
    let a = &vars[i % vars.len()];
    let b = &vars[j % vars.len()];
    let r = a.sizes().len() as isize;
    let ax = if r == 0 { 0 } else { axis.rem_euclid(2 * r) - r };
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| -> Option<Var<'t, f64, DynShape>> {
        Some(match op {
            0 => a.exp(),
            1 => a.tanh(),
            2 => a.relu(),
            3 => a.abs(),
            4 => a.sqrt(),
            5 => a + b,
            6 => a * b,
            7 => a / b,
            8 => a - b,
            9 => a.try_matmul(b).ok()?,
            10 => a.try_transpose(ax, -1).ok()?,
            11 => a.sum_axis(ax),
            12 => a.mean_keepdim(ax),
            13 => a.softmax(ax),
            14 => a.max_axis(ax),
            15 => a.logsumexp_axis(ax),
            16 => a.try_permute(&(0..a.sizes().len() as isize).rev().collect::<Vec<_>>()[..]).ok()?,
            17 => a.clamp(-0.5, 0.5),
            18 => a.maximum(b),
            19 => a.try_inv().ok()?,
            20 => {
                // A symmetric positive-definite batch from `a`: aᵀa + I.
                let s = a.try_transpose(-1, -2).ok()?.try_matmul(a).ok()?;
                let n = *s.sizes().last()?;
                let eye = Tensor::<f64, DynShape>::eye_sized(n, n);
                (&s + &Var::constant(eye)).try_cholesky().ok()?
            }
            21 => a.try_solve(b).ok()?,
            22 => a.try_solve_triangular(b, axis % 2 == 0, false).ok()?,
            23 => a.try_lstsq(b).ok()?,
            _ => tape.var(Tensor::<f64, DynShape>::zeros_sized(a.sizes())),
        })
    }));
    caught.ok().flatten()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 4 } else { 256 }))]
    /// Issue 46, item 7: random graphs over hostile runtime shapes (size 0, size 1, batches of
    /// matrices) through `try_backward_with`: it must return the gradients, never panic, and
    /// never come back with a rule's panic turned into an error.
    #[test]
    fn random_backward_graphs_never_panic(
        leaves in proptest::collection::vec(
            (proptest::collection::vec(0usize..4, 0..4), proptest::collection::vec(-2.0f64..2.0, 64)), 1..4),
        steps in proptest::collection::vec((0usize..25, 0usize..8, 0usize..8, -4isize..4), 1..10),
    ) {
        let tape = Tape::<f64>::new();
        let mut vars: Vec<Var<'_, f64, DynShape>> = Vec::new();
        for (sizes, data) in &leaves {
            let n: usize = sizes.iter().product();
            vars.push(tape.var(Tensor::<f64, DynShape>::from_vec(sizes, data.iter().cycle().take(n).copied().collect())));
        }
        let leaf_count = vars.len();
        for &(op, i, j, axis) in &steps {
            if let Some(v) = random_step(&tape, &vars, op, i, j, axis) {
                vars.push(v);
            }
        }
        let last = vars.last().unwrap();
        let seed = Tensor::<f64, DynShape>::full_sized(last.sizes(), 0.5);
        let grads = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| last.try_backward_with(&seed)));
        let grads = grads.map_err(|_| TestCaseError::fail("a panic escaped try_backward_with"))?;
        let grads = grads.map_err(|e| TestCaseError::fail(format!("try_backward_with failed: {e}")))?;
        for v in &vars[..leaf_count] {
            if let Some(g) = grads.wrt(v) {
                prop_assert_eq!(g.sizes(), v.sizes());
            }
        }
    }
}

/// Issue 47: every runtime size error of these `Var` operations has a `try_` form that returns
/// it (they only panicked), and `permute_dyn` takes negative axes as PyTorch does.
#[test]
fn try_forms_return_runtime_size_errors() {
    let tape = Tape::<f64>::new();
    let a = tape.var(Tensor::<f64, Shape![_, 3]>::zeros_sized(&[2, 3]));
    let b = tape.var(Tensor::<f64, Shape![_, 3]>::zeros_sized(&[4, 3]));
    assert!(a.try_maximum(&b).unwrap_err().to_string().contains("broadcast"));
    assert!(a.try_minimum(&b).is_err());
    let idx = Tensor::<i64, Shape![_]>::from_vec(&[2], vec![0, 7]);
    let e = a.try_index_select(Ax::<1>, &idx).unwrap_err().to_string();
    assert!(e.contains('7'), "{e}");
    let gi = Tensor::<i64, Shape![_, _]>::from_vec(&[1, 1], vec![5]);
    assert!(a.try_gather(Ax::<1>, &gi).is_err());
    let mask = Tensor::<bool, Shape![_, _]>::from_vec(&[3, 3], vec![true; 9]);
    assert!(a.try_masked_fill(&mask, 1.0).is_err());
    let cond = Tensor::<bool, Shape![_, _]>::from_vec(&[5, 3], vec![true; 15]);
    assert!(a.try_where_(&cond, &b).is_err());
    // A reflection wider than the dim.
    let e = a.try_pad((Const::<5>, Const::<0>), Ax::<1>, PadMode::Reflect, 0.0).unwrap_err().to_string();
    assert!(!e.is_empty());
    // A window larger than the runtime input.
    let img = tape.var(Tensor::<f64, Shape![_, _, _, _]>::zeros_sized(&[1, 1, 2, 2]));
    assert!(img.try_max_pool2d(Pool::<3>).is_err());
    assert!(img.try_avg_pool2d(Pool::<3>, true).is_err());
    // Negative axes, as PyTorch's permute (and the deprecated `permute_dyn`, kept for one
    // release, which also takes `usize` axes).
    let x = tape.var(Tensor::<f64, Shape![2, 3, 4]>::zeros());
    assert_eq!(x.permute([-1, 0, 1]).sizes(), [4, 2, 3]);
    assert!(x.try_permute([-4, 0, 1]).is_err());
    assert!(x.try_permute([0, 0, 1]).is_err());
    #[allow(deprecated)]
    {
        assert_eq!(x.permute_dyn(&[-1, 0, 1]).sizes(), [4, 2, 3]);
        assert_eq!(x.permute_dyn(&[2usize, 0, 1]).sizes(), [4, 2, 3]);
        assert!(x.try_permute_dyn(&[-4, 0, 1]).is_err());
        assert!(x.try_permute_dyn(&[0, 0, 1]).is_err());
    }
}

/// Issue 47: `Var::flatten` and `Var::unflatten`, with the gradient reshaped back.
#[test]
fn flatten_and_unflatten_carry_the_gradient_back() {
    let tape = Tape::new();
    let x = tape.var(Tensor::<f64, Shape![2, 3]>::from([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]));
    let f = x.flatten(); // [_]: 6
    assert_eq!(f.sizes(), [6]);
    let u: Var<'_, f64, Shape![3, 2]> = f.unflatten(Ax::<0>, (Const::<3>, Const::<2>));
    let g = (&u * &u).sum().backward();
    assert_eq!(g.wrt(&x).unwrap().to_vec(), [2.0, 4.0, 6.0, 8.0, 10.0, 12.0]);
    // Runtime sizes (PyTorch's `unflatten(0, (3, -1))`): a `DynShape` value, the same gradient.
    let tape = Tape::new();
    let x = tape.var(Tensor::<f64, Shape![2, 3]>::from([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]));
    let u: Var<'_, f64, DynShape> = x.flatten().unflatten(0, [3, -1]);
    assert_eq!(u.sizes(), [3, 2]);
    let g = (&u * &u).sum().backward();
    assert_eq!(g.wrt(&x).unwrap().to_vec(), [2.0, 4.0, 6.0, 8.0, 10.0, 12.0]);
    let tape = Tape::new();
    let x = tape.var(Tensor::<f64, Shape![2, 3]>::zeros());
    let e = x.flatten().try_unflatten(0, [2, 4]).unwrap_err().to_string();
    assert!(e.contains('6') || e.contains('8'), "{e}");
    // The typed reshape with runtime sizes (what `Var::unflatten::<S2>(&sizes)` was).
    let r: Var<'_, f64, Shape![_, 2]> = x.flatten().reshape_sized(&[3, -1]);
    assert_eq!(r.sizes(), [3, 2]);
    let e = x.flatten().try_reshape_sized::<Shape![_, 4]>(&[2, 4]).unwrap_err().to_string();
    assert!(e.contains('6') || e.contains('8'), "{e}");
    assert!(x.flatten().try_reshape_sized::<Shape![3, 3]>(&[2, 3]).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 2 } else { 32 }))]
    /// The fused backward of `softmax` and `log_softmax` along the last axis (contiguous rows of
    /// 1 to 70 elements or 1000, blocks of rows and rayon's split crossed) against the f64
    /// formulas `y (g - Σ g y)` and `g - exp(y) Σ g`, with a random seed; and the same gradient
    /// through the other axis (the tensor form) of the transposed input.
    #[test]
    fn softmax_backward_rows_match_the_formula(
        rows in 1usize..40,
        n in prop_oneof![1usize..70, Just(1000usize)],
        seed in prop::collection::vec(-4.0f64..4.0, 97),
        big in 0usize..4,
        log in any::<bool>(),
    ) {
        // One case in four past the parallel threshold (2^16 elements).
        let rows = if big == 0 && !cfg!(miri) { 70_000 / n + 1 } else { rows };
        let x: Vec<f64> = (0..rows * n).map(|i| seed[(i * 7 + i / 97) % 97]).collect();
        let g: Vec<f64> = (0..rows * n).map(|i| seed[(i * 3 + 11) % 97] * 0.5).collect();
        let mut want = vec![0.0; rows * n];
        let mut scale = vec![0.0f64; rows];
        for r in 0..rows {
            let (xr, gr) = (&x[r * n..(r + 1) * n], &g[r * n..(r + 1) * n]);
            let m = xr.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            let s: f64 = xr.iter().map(|v| (v - m).exp()).sum();
            let y: Vec<f64> = xr.iter().map(|v| (v - m).exp() / s).collect();
            let (dot, total): (f64, f64) = (gr.iter().zip(&y).map(|(g, y)| g * y).sum(), gr.iter().sum());
            for k in 0..n {
                want[r * n + k] = if log { gr[k] - y[k] * total } else { y[k] * (gr[k] - dot) };
            }
            scale[r] = gr.iter().map(|v| v.abs()).sum::<f64>() + 1.0;
        }
        let tape = Tape::new();
        let xv = tape.var(Tensor::<f64, DynShape>::from_vec(&[rows, n], x.clone()));
        let seed_t = Var::constant(Tensor::<f64, DynShape>::from_vec(&[rows, n], g.clone()));
        let y = if log { xv.log_softmax(-1) } else { xv.softmax(-1) };
        let got = (&y * &seed_t).sum().backward().wrt(&xv).unwrap().to_vec();
        for (i, (a, b)) in got.iter().zip(&want).enumerate() {
            prop_assert!((a - b).abs() <= 1e-12 * scale[i / n], "row {} element {}: {} against {}", i / n, i % n, a, b);
        }
        // The tensor form: the same rows as columns of the transpose.
        let tape = Tape::new();
        let xt = tape.var(Tensor::<f64, DynShape>::from_vec(&[rows, n], x.clone()).t().to_owned());
        let gt = Var::constant(Tensor::<f64, DynShape>::from_vec(&[rows, n], g.clone()).t().to_owned());
        let yt = if log { xt.log_softmax(0) } else { xt.softmax(0) };
        let got_t = (&yt * &gt).sum().backward().wrt(&xt).unwrap().t().to_owned().to_vec();
        for (i, (a, b)) in got_t.iter().zip(&want).enumerate() {
            prop_assert!((a - b).abs() <= 1e-12 * scale[i / n], "transposed: row {} element {}: {} against {}", i / n, i % n, a, b);
        }
    }
}
