//! `Grads::accumulate` (PyTorch's `.grad` accumulation over backward passes without `zero_grad`)
//! against simple references: the per-pass gradients summed in order, and the gradient of the
//! summed loss; the gradient of a parameter in one pass only, refusals that change nothing, and
//! the non-parameter leaves. (`Grads::clip_value` is checked against PyTorch in
//! tests/optim_more.rs.)
use shaped::autograd::optim::{Adam, AdamConfig};
use shaped::autograd::{Grads, Param, Tape, Var};
use shaped::prelude::*;

/// The gradients of loss = sum(tanh(W x) * c) + sum(b * x0) for one batch.
fn pass(w: &Param<f64, Shape![2, 3]>, b: &Param<f64, Shape![3]>, x: &[f64; 3], c: f64) -> Grads<f64> {
    let tape = Tape::new();
    let (wv, bv) = (tape.watch(w), tape.watch(b));
    let xv = Var::constant(Tensor::<f64, Shape![3, 1]>::from([[x[0]], [x[1]], [x[2]]]));
    let h = wv.matmul(&xv).tanh().mul_scalar(c).sum();
    let loss = &h + &bv.mul_scalar(x[0]).sum();
    loss.backward()
}

type Params = (Param<f64, Shape![2, 3]>, Param<f64, Shape![3]>);

fn params() -> Params {
    (Param::new(Tensor::from([[0.5, -0.25, 1.0], [0.75, 0.1, -0.6]])), Param::new(Tensor::from([0.1, 0.2, 0.3])))
}

const BATCHES: [([f64; 3], f64); 3] = [([1.0, 2.0, -1.0], 0.5), ([0.3, -0.7, 0.2], 1.5), ([-2.0, 0.5, 0.25], -1.0)];

#[test]
fn accumulate_sums_the_passes_in_order() {
    let (w, b) = params();
    let passes: Vec<Grads<f64>> = BATCHES.iter().map(|(x, c)| pass(&w, &b, x, *c)).collect();
    let mut total = pass(&w, &b, &BATCHES[0].0, BATCHES[0].1);
    for g in &passes[1..] {
        total.accumulate(g);
    }
    // The reference: ((g1 + g2) + g3), element by element, as PyTorch's `.grad +=`.
    for id in [w.id(), b.id()] {
        let want: Vec<f64> = (0..passes[0].param_slice(id).unwrap().len())
            .map(|i| passes.iter().map(|g| g.param_slice(id).unwrap()[i]).fold(0.0, |s, v| s + v))
            .collect();
        let got = total.param_slice(id).unwrap();
        // 0.0 + g1 == g1 exactly, so the fold is the same sum.
        assert_eq!(got, want.as_slice());
    }
    // Typed access still works.
    let gw: &Tensor<f64, Shape![2, 3]> = total.param(&w).unwrap();
    assert_eq!(gw.to_vec(), total.param_slice(w.id()).unwrap());

    // Against the gradient of the summed loss (one backward pass): equal to round-off.
    let tape = Tape::new();
    let (wv, bv) = (tape.watch(&w), tape.watch(&b));
    let mut loss = None;
    for (x, c) in &BATCHES {
        let xv = Var::constant(Tensor::<f64, Shape![3, 1]>::from([[x[0]], [x[1]], [x[2]]]));
        let l = &wv.matmul(&xv).tanh().mul_scalar(*c).sum() + &bv.mul_scalar(x[0]).sum();
        loss = Some(match loss {
            None => l,
            Some(acc) => &acc + &l,
        });
    }
    let one = loss.unwrap().backward();
    for id in [w.id(), b.id()] {
        for (g, r) in total.param_slice(id).unwrap().iter().zip(one.param_slice(id).unwrap()) {
            assert!((g - r).abs() <= 1e-15 * r.abs().max(1.0), "{g} {r}");
        }
    }
}

/// A parameter with a gradient in the second pass only gets a copy, typed, and an optimizer
/// steps it; one in neither stays without gradient.
#[test]
fn a_parameter_of_one_pass_only_is_copied() {
    let (w, b) = params();
    let c = Param::new(Tensor::<f64, Shape![2]>::from([1.0, -1.0]));
    let unused = Param::new(Tensor::<f64, Shape![1]>::from([5.0]));
    let tape = Tape::new();
    let first = tape.watch(&w).sum().backward(); // w only
    let tape2 = Tape::new();
    let second = (&tape2.watch(&c).square().sum() + &tape2.watch(&b).sum()).backward();
    let mut total = first;
    total.accumulate(&second);
    assert_eq!(total.param(&c).unwrap().to_vec(), [2.0, -2.0]);
    assert_eq!(total.param(&b).unwrap().to_vec(), [1.0; 3]);
    assert_eq!(total.param(&w).unwrap().to_vec(), [1.0; 6]);
    assert!(total.param(&unused).is_none());
    let (mut w, mut b, mut c, mut unused) = (w, b, c, unused);
    let mut opt = Adam::new(AdamConfig { lr: 0.1, ..Default::default() });
    opt.step(&mut [&mut w, &mut b, &mut c, &mut unused], &total);
    assert_eq!(opt.step_count(c.id()), Some(1));
    assert_eq!(opt.step_count(unused.id()), None);
    assert!((c.value().to_vec()[0] - 0.9).abs() < 1e-6);
}

/// A runtime-shaped parameter resized between the passes: refused, nothing added.
#[test]
fn gradients_of_two_shapes_are_refused() {
    let mut p = Param::new(Tensor::<f64, DynShape>::from_vec(&[3], vec![1.0, 2.0, 3.0]));
    let w = Param::new(Tensor::<f64, Shape![2]>::from([1.0, 1.0]));
    let tape = Tape::new();
    let mut first = (&tape.watch(&p).sum() + &tape.watch(&w).sum()).backward();
    *p.value_mut() = Tensor::from_vec(&[2, 2], vec![1.0; 4]);
    let tape2 = Tape::new();
    let second = (&tape2.watch(&p).sum() + &tape2.watch(&w).square().sum()).backward();
    match first.try_accumulate(&second) {
        Err(ShapeError::Autograd(m)) => {
            assert!(m.contains(&format!("{:?}", p.id())) && m.contains("[3]") && m.contains("[2, 2]"), "{m}")
        }
        other => panic!("{other:?}"),
    }
    // w's gradient was not added either.
    assert_eq!(first.param(&w).unwrap().to_vec(), [1.0, 1.0]);
    assert!(std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| first.accumulate(&second))).is_err());
}

/// Only parameters accumulate: a `Tape::var` input keeps its own gradient, and a value recorded
/// after the loss is not given an accumulated parameter's gradient.
#[test]
fn input_gradients_are_left_alone() {
    let w = Param::new(Tensor::<f64, Shape![2]>::from([1.0, 2.0]));
    let tape = Tape::new();
    let x = tape.var(Tensor::<f64, Shape![2]>::from([3.0, 4.0]));
    let loss = (&x * &x).sum();
    let late = tape.var(Tensor::<f64, Shape![2]>::from([0.0, 0.0]));
    let mut grads = loss.backward();
    let tape2 = Tape::new();
    let other = tape2.watch(&w).square().sum().backward();
    grads.accumulate(&other);
    assert_eq!(grads.wrt(&x).unwrap().to_vec(), [6.0, 8.0]);
    assert!(grads.wrt(&late).is_none());
    assert_eq!(grads.param(&w).unwrap().to_vec(), [2.0, 4.0]);
    // Clipping by value reaches every gradient, the inputs' too.
    grads.clip_value(3.0);
    assert_eq!(grads.wrt(&x).unwrap().to_vec(), [3.0, 3.0]);
    assert_eq!(grads.param(&w).unwrap().to_vec(), [2.0, 3.0]);
}
