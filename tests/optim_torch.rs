//! shaped's optimizers, gradient clipping and learning-rate schedules against PyTorch
//! (tests/data/optim_data.rs, written by scripts/optim_data.py with torch.optim, foreach=False).
//!
//! The gradients are made by a real backward pass: loss = sum(W * GW) + sum(B * GB) with GW, GB
//! constants has gradients exactly GW and GB. Trajectories of 5 steps agree to 1e-12 relative in
//! f64 and 1e-5 in f32; a failed step changes neither the parameters nor the optimizer's state.
use shaped::autograd::optim::{
    Adam, AdamConfig, AdamW, AdamWConfig, CosineAnnealingLr, LrSchedule, Optimizer, Sgd, SgdConfig, StepLr,
};
use shaped::autograd::{GradFloat, Grads, Param, Tape, Var};
use shaped::prelude::*;

// The generated file stays as the script writes it (one line per array).
#[rustfmt::skip]
#[path = "data/optim_data.rs"]
mod optim_data;
use optim_data::{OptimCase, B0, CLIP_CASES, GRADS, OPTIM_CASES, SCHEDULE_CASES, W0};

type WShape = Shape![2, 3];
type BShape = Shape![3];

fn tensor<T: GradFloat, S: Shape>(sizes: &[usize], data: &[f64]) -> Tensor<T, S> {
    Tensor::from_vec(sizes, data.iter().map(|&v| T::from_f64(v)).collect())
}

fn to64<T: GradFloat>(v: &[T]) -> Vec<f64> {
    v.iter().map(|x| x.as_f64()).collect()
}

/// Grads in which W's gradient is `gw` and B's is `gb` (none when `None`), by a backward pass
/// through loss = sum(W * GW) + sum(B * GB).
fn grads_for<T: GradFloat>(w: &Param<T, WShape>, b: &Param<T, BShape>, gw: &[f64], gb: Option<&[f64]>) -> Grads<T> {
    let tape = Tape::new();
    let (wv, bv) = (tape.watch(w), tape.watch(b));
    let mut loss = (&wv * &Var::constant(tensor::<T, WShape>(&[2, 3], gw))).sum();
    if let Some(gb) = gb {
        loss = &loss + &(&bv * &Var::constant(tensor::<T, BShape>(&[3], gb))).sum();
    }
    let grads = loss.backward();
    // The gradients are exactly the constants.
    assert_eq!(to64(grads.param_slice(w.id()).unwrap()), to64(&tensor::<T, WShape>(&[2, 3], gw).to_vec()));
    match gb {
        Some(gb) => {
            assert_eq!(to64(grads.param(b).unwrap().to_vec().as_slice()), to64(&tensor::<T, BShape>(&[3], gb).to_vec()))
        }
        None => assert!(grads.param_slice(b.id()).is_none()),
    }
    grads
}

fn make<T: GradFloat>(c: &OptimCase) -> Box<dyn Optimizer<T>> {
    match c.optimizer {
        "sgd" => Box::new(Sgd::new(SgdConfig {
            lr: c.lr,
            momentum: c.momentum,
            dampening: c.dampening,
            weight_decay: c.weight_decay,
            nesterov: c.nesterov,
            maximize: c.maximize,
        })),
        "adam" => Box::new(Adam::new(AdamConfig {
            lr: c.lr,
            betas: c.betas,
            eps: c.eps,
            weight_decay: c.weight_decay,
            amsgrad: c.amsgrad,
            maximize: c.maximize,
        })),
        "adamw" => Box::new(AdamW::new(AdamWConfig {
            lr: c.lr,
            betas: c.betas,
            eps: c.eps,
            weight_decay: c.weight_decay,
            amsgrad: c.amsgrad,
            maximize: c.maximize,
        })),
        other => panic!("no optimizer {other}"),
    }
}

/// Asserts |got - want| <= rtol * max(|want|, 1e-3) element by element and returns the largest
/// relative error |got - want| / |want| seen.
fn close(got: &[f64], want: &[f64], rtol: f64, what: &str) -> f64 {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    let mut worst = 0.0f64;
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let scale = w.abs().max(1e-3);
        let err = (g - w).abs() / scale;
        assert!(err <= rtol, "{what}[{i}]: shaped {g}, PyTorch {w} (relative error {err:e} > {rtol:e})");
        worst = worst.max(err);
    }
    worst
}

/// Replays one PyTorch trajectory; returns the largest relative error.
fn run_case<T: GradFloat>(c: &OptimCase, rtol: f64) -> f64 {
    let mut w = Param::new(tensor::<T, WShape>(&[2, 3], W0));
    let mut b = Param::new(tensor::<T, BShape>(&[3], B0));
    let mut opt = make::<T>(c);
    let mut worst = 0.0f64;
    for (s, ((gw, gb), (want_w, want_b))) in GRADS.iter().zip(c.after).enumerate() {
        let grads = grads_for(&w, &b, gw, *gb);
        opt.step(&mut [&mut w, &mut b], &grads);
        worst = worst.max(close(&to64(&w.value().to_vec()), want_w, rtol, &format!("{} step {s} W", c.name)));
        worst = worst.max(close(&to64(&b.value().to_vec()), want_b, rtol, &format!("{} step {s} B", c.name)));
    }
    worst
}

#[test]
fn every_trajectory_matches_pytorch_in_f64() {
    for c in OPTIM_CASES {
        let worst = run_case::<f64>(c, 1e-12);
        println!("{:28} f64: max relative error {worst:.2e}", c.name);
    }
}

#[test]
fn every_trajectory_matches_pytorch_in_f32() {
    for c in OPTIM_CASES {
        let worst = run_case::<f32>(c, 1e-5);
        println!("{:28} f32: max relative error {worst:.2e}", c.name);
    }
}

/// `Default` configs hold PyTorch's defaults: the `_default` cases give PyTorch no
/// hyper-parameter and record what its optimizer holds.
#[test]
fn default_configs_are_pytorchs() {
    let mut seen = 0;
    for c in OPTIM_CASES.iter().filter(|c| c.name.ends_with("_default")) {
        seen += 1;
        match c.optimizer {
            "sgd" => {
                let d = SgdConfig::default();
                let want = SgdConfig {
                    lr: c.lr,
                    momentum: c.momentum,
                    dampening: c.dampening,
                    weight_decay: c.weight_decay,
                    nesterov: c.nesterov,
                    maximize: c.maximize,
                };
                assert_eq!(d, want);
            }
            "adam" => {
                let want = AdamConfig {
                    lr: c.lr,
                    betas: c.betas,
                    eps: c.eps,
                    weight_decay: c.weight_decay,
                    amsgrad: c.amsgrad,
                    maximize: c.maximize,
                };
                assert_eq!(AdamConfig::default(), want);
            }
            "adamw" => {
                let want = AdamWConfig {
                    lr: c.lr,
                    betas: c.betas,
                    eps: c.eps,
                    weight_decay: c.weight_decay,
                    amsgrad: c.amsgrad,
                    maximize: c.maximize,
                };
                assert_eq!(AdamWConfig::default(), want);
            }
            other => panic!("no optimizer {other}"),
        }
    }
    assert_eq!(seen, 3);
}

/// The fixture's B has no gradient at step 3: it must not move then, and Adam's bias correction
/// counts that parameter's own steps (4 for B after 5 steps, 5 for W).
#[test]
fn a_parameter_without_a_gradient_is_skipped() {
    let mut w = Param::new(tensor::<f64, WShape>(&[2, 3], W0));
    let mut b = Param::new(tensor::<f64, BShape>(&[3], B0));
    let mut c = Param::new(Tensor::<f64, Shape![4]>::from([1.0, 2.0, 3.0, 4.0]));
    let mut opt = Adam::new(AdamConfig { lr: 0.1, ..Default::default() });
    for (s, (gw, gb)) in GRADS.iter().enumerate() {
        let before_b = b.value().to_vec();
        let grads = grads_for(&w, &b, gw, *gb);
        opt.step(&mut [&mut w, &mut b, &mut c], &grads);
        if gb.is_none() {
            assert_eq!(b.value().to_vec(), before_b, "step {s}");
        } else {
            assert_ne!(b.value().to_vec(), before_b, "step {s}");
        }
    }
    assert_eq!(opt.step_count(w.id()), Some(5));
    assert_eq!(opt.step_count(b.id()), Some(4));
    assert_eq!(opt.step_count(c.id()), None);
    assert_eq!(c.value().to_vec(), [1.0, 2.0, 3.0, 4.0]);
}

/// `opt.step(&mut [&mut w, &mut b], &grads)` with the inherent methods and concrete types: the
/// array literal coerces each `&mut Param<f32, S>` to `&mut dyn AnyParam<f32>`.
#[test]
fn one_call_updates_parameters_of_two_shapes() {
    let mut w = Param::new(Tensor::<f32, Shape![2, 3]>::ones());
    let mut b = Param::new(Tensor::<f32, Shape![3]>::ones());
    let tape = Tape::new();
    let (wv, bv) = (tape.watch(&w), tape.watch(&b));
    let loss = (&wv * &bv).sum(); // d/dw = b broadcast = 1, d/db = column sums of w = 2
    let grads = loss.backward();

    let mut sgd = Sgd::new(SgdConfig { lr: 0.25, momentum: 0.9, dampening: 0.5, ..Default::default() });
    sgd.step(&mut [&mut w, &mut b], &grads);
    assert_eq!(w.value().to_vec(), [0.75; 6]);
    assert_eq!(b.value().to_vec(), [0.5; 3]);
    // The first momentum buffer is the gradient itself, not dampened.
    assert_eq!(sgd.momentum_buffer(w.id()).unwrap(), [1.0; 6]);
    assert_eq!(sgd.momentum_buffer(b.id()).unwrap(), [2.0; 3]);

    let mut adam = Adam::new(AdamConfig::default());
    adam.step(&mut [&mut w, &mut b], &grads);
    let mut adamw = AdamW::new(AdamWConfig { amsgrad: true, ..Default::default() });
    adamw.step(&mut [&mut b, &mut w], &grads);
    assert_eq!(adamw.max_exp_avg_sq(w.id()).map(<[f32]>::len), Some(6));
    assert_eq!(adam.max_exp_avg_sq(w.id()), None);
    // Through the trait, as generic code sees it.
    fn generic<O: Optimizer<f32>>(
        o: &mut O,
        w: &mut Param<f32, Shape![2, 3]>,
        b: &mut Param<f32, Shape![3]>,
        g: &Grads<f32>,
    ) {
        o.step(&mut [w, b], g);
    }
    generic(&mut adam, &mut w, &mut b, &grads);
    assert_eq!(adam.step_count(b.id()), Some(2));
}

#[test]
fn clip_norm_matches_clip_grad_norm() {
    fn run<T: GradFloat>(rtol: f64) -> f64 {
        let mut worst = 0.0f64;
        for (i, c) in CLIP_CASES.iter().enumerate() {
            let w = Param::new(tensor::<T, WShape>(&[2, 3], W0));
            let b = Param::new(tensor::<T, BShape>(&[3], B0));
            let mut grads = grads_for(&w, &b, c.gw, Some(c.gb));
            let norm = grads.clip_norm(T::from_f64(c.max_norm));
            worst = worst.max(close(&[norm.as_f64()], &[c.total_norm], rtol, &format!("clip case {i} norm")));
            worst = worst.max(close(
                &to64(grads.param_slice(w.id()).unwrap()),
                c.clipped_w,
                rtol,
                &format!("clip case {i} W"),
            ));
            worst = worst.max(close(
                &to64(grads.param_slice(b.id()).unwrap()),
                c.clipped_b,
                rtol,
                &format!("clip case {i} B"),
            ));
        }
        worst
    }
    println!("clip_norm f64: max relative error {:.2e}", run::<f64>(1e-12));
    println!("clip_norm f32: max relative error {:.2e}", run::<f32>(1e-5));
}

#[test]
fn schedules_match_pytorch() {
    let mut worst_chained = 0.0f64;
    let mut worst_closed = 0.0f64;
    for c in SCHEDULE_CASES {
        let schedule: Box<dyn Fn(usize) -> f64> = match c.kind {
            "step" => {
                let s = StepLr::new(c.base_lr, c.n, c.x);
                Box::new(move |e| s.lr_at(e))
            }
            "cosine" => {
                let s = CosineAnnealingLr::new(c.base_lr, c.n, c.x);
                Box::new(move |e| s.lr_at(e))
            }
            other => panic!("no schedule {other}"),
        };
        let got: Vec<f64> = (0..c.chained.len()).map(&schedule).collect();
        worst_closed = worst_closed.max(close(&got, c.closed, 1e-15, &format!("{} closed form", c.kind)));
        worst_chained = worst_chained.max(close(&got, c.chained, 1e-12, &format!("{} chained", c.kind)));
    }
    println!("schedules: max relative error {worst_closed:.2e} against the closed form, {worst_chained:.2e} against the chained form");

    // Applied to an optimizer, through the trait.
    let mut opt = Adam::<f32>::new(AdamConfig { lr: 0.1, ..Default::default() });
    let s = StepLr::new(opt.lr(), 2, 0.5);
    s.apply(&mut opt, 5);
    assert_eq!(opt.lr(), 0.025);
    let s = CosineAnnealingLr::new(0.1, 4, 0.0);
    s.apply(&mut opt, 4);
    assert_eq!(opt.lr(), 0.0);
}

#[test]
fn invalid_hyper_parameters_are_refused() {
    let invalid = |r: Result<(), ShapeError>, needle: &str| match r {
        Err(ShapeError::Invalid(m)) => assert!(m.contains(needle), "{m}"),
        other => panic!("expected Invalid containing {needle:?}, got {other:?}"),
    };
    invalid(Sgd::<f64>::try_new(SgdConfig { lr: -1.0, ..Default::default() }).map(drop), "learning rate");
    invalid(Sgd::<f64>::try_new(SgdConfig { lr: f64::NAN, ..Default::default() }).map(drop), "learning rate");
    invalid(Sgd::<f64>::try_new(SgdConfig { nesterov: true, ..Default::default() }).map(drop), "Nesterov");
    invalid(
        Sgd::<f64>::try_new(SgdConfig { nesterov: true, momentum: 0.9, dampening: 0.1, ..Default::default() })
            .map(drop),
        "Nesterov",
    );
    invalid(Adam::<f64>::try_new(AdamConfig { betas: (1.0, 0.999), ..Default::default() }).map(drop), "index 0");
    invalid(AdamW::<f64>::try_new(AdamWConfig { betas: (0.9, -0.1), ..Default::default() }).map(drop), "index 1");
    invalid(AdamW::<f64>::try_new(AdamWConfig { eps: -1e-8, ..Default::default() }).map(drop), "epsilon");
    invalid(Adam::<f32>::try_new(AdamConfig { weight_decay: -0.1, ..Default::default() }).map(drop), "weight_decay");
    invalid(StepLr::try_new(0.1, 0, 0.1).map(drop), "step_size");
    invalid(CosineAnnealingLr::try_new(0.1, 0, 0.0).map(drop), "t_max");

    // A bad rate set between steps is refused by the step, which changes nothing.
    let mut w = Param::new(tensor::<f64, WShape>(&[2, 3], W0));
    let mut b = Param::new(tensor::<f64, BShape>(&[3], B0));
    let grads = grads_for(&w, &b, GRADS[0].0, GRADS[0].1);
    let mut opt = Sgd::new(SgdConfig { lr: 0.1, momentum: 0.9, ..Default::default() });
    opt.step(&mut [&mut w, &mut b], &grads);
    opt.set_lr(-0.5);
    let (before, w0) = (opt.clone(), w.value().to_vec());
    invalid(opt.try_step(&mut [&mut w, &mut b], &grads), "learning rate");
    assert_eq!(opt, before);
    assert_eq!(w.value().to_vec(), w0);
}

fn autograd_err(r: Result<(), ShapeError>) -> String {
    match r {
        Err(ShapeError::Autograd(m)) => m,
        other => panic!("expected ShapeError::Autograd, got {other:?}"),
    }
}

/// A runtime-shaped parameter resized after it was watched has a gradient of the old length:
/// every optimizer refuses the step, and neither parameter nor state changes, also for a
/// parameter listed before it.
#[test]
fn a_wrong_length_gradient_changes_nothing() {
    fn check<O: Optimizer<f64> + Clone + PartialEq + core::fmt::Debug>(mut opt: O) {
        let mut w = Param::new(tensor::<f64, WShape>(&[2, 3], W0));
        let mut p = Param::new(Tensor::<f64, DynShape>::from_vec(&[3], vec![1.0, 2.0, 3.0]));
        // A first step, so that there is state to keep.
        let step = |w: &Param<f64, WShape>, p: &Param<f64, DynShape>| {
            let tape = Tape::new();
            let loss = &tape.watch(w).square().sum() + &tape.watch(p).square().sum();
            loss.backward()
        };
        let grads = step(&w, &p);
        opt.step(&mut [&mut w, &mut p], &grads);

        let grads = step(&w, &p);
        *p.value_mut() = Tensor::from_vec(&[4], vec![1.0, 2.0, 3.0, 4.0]);
        let (before, w_before) = (opt.clone(), w.value().to_vec());
        let m = autograd_err(opt.try_step(&mut [&mut w, &mut p], &grads));
        assert!(m.contains(&format!("{:?}", p.id())) && m.contains("has 3 elements") && m.contains("has 4"), "{m}");
        assert_eq!(opt, before);
        assert_eq!(w.value().to_vec(), w_before);
        assert_eq!(p.value().to_vec(), [1.0, 2.0, 3.0, 4.0]);
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| opt.step(&mut [&mut w, &mut p], &grads)));
        assert!(caught.is_err());

        // Gradients of the new length, but a state of the old one: refused too.
        let grads = step(&w, &p);
        let m = autograd_err(opt.try_step(&mut [&mut w, &mut p], &grads));
        assert!(m.contains("state") && m.contains("has 3 elements") && m.contains("has 4"), "{m}");
        assert_eq!(opt, before);
        assert_eq!(w.value().to_vec(), w_before);

        // The same parameter twice (a clone keeps the id): refused.
        let mut w2 = w.clone();
        let m = autograd_err(opt.try_step(&mut [&mut w, &mut w2], &grads));
        assert!(m.contains("twice"), "{m}");
        assert_eq!(opt, before);
    }
    check(Sgd::<f64>::new(SgdConfig { lr: 0.1, momentum: 0.9, ..Default::default() }));
    check(Adam::<f64>::new(AdamConfig { amsgrad: true, ..Default::default() }));
    check(AdamW::<f64>::new(AdamWConfig::default()));
}

/// After clear_state, a resized parameter steps again (as a first step).
#[test]
fn clear_state_restarts_a_parameter() {
    let mut p = Param::new(Tensor::<f64, DynShape>::from_vec(&[2], vec![1.0, 2.0]));
    let mut opt = Adam::new(AdamConfig { lr: 0.1, ..Default::default() });
    let grads_of = |p: &Param<f64, DynShape>| {
        let tape = Tape::new();
        let grads = tape.watch(p).sum().backward();
        grads
    };
    let g = grads_of(&p);
    opt.step(&mut [&mut p], &g);
    *p.value_mut() = Tensor::from_vec(&[3], vec![1.0, 2.0, 3.0]);
    let g = grads_of(&p);
    assert!(opt.try_step(&mut [&mut p], &g).is_err());
    opt.clear_state(p.id());
    opt.step(&mut [&mut p], &g);
    assert_eq!(opt.step_count(p.id()), Some(1));
    // A first Adam step with gradient 1 moves each element by lr (to within eps).
    for (got, want) in p.value().to_vec().iter().zip([0.9, 1.9, 2.9]) {
        assert!((got - want).abs() < 1e-6, "{got} {want}");
    }
}
