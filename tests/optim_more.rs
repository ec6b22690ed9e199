//! RMSprop, Adagrad, parameter groups, clip_grad_value_ and the LinearLR, ExponentialLR,
//! OneCycleLR and ReduceLROnPlateau schedules against PyTorch (tests/data/optim_more_data.rs,
//! written by scripts/optim_more_data.py with torch.optim, foreach=False).
//!
//! The gradients are made by a real backward pass, as in tests/optim_torch.rs: the loss
//! sum(W * GW) plus sum(B * GB) has gradients exactly GW and GB. Trajectories of 6 steps agree to
//! 1e-12 relative in f64 and 1e-5 in f32 (with the 1e-3 floor of `close`); the schedules' rates
//! to 1e-12 against PyTorch's chained `get_last_lr()` (1e-13 for OneCycleLR, which has no chained
//! form) and 1e-15 against its closed form; ReduceLROnPlateau's rates, best and counters and
//! clip_grad_value_'s results are equal.
use shaped::autograd::optim::{
    Adagrad, AdagradConfig, Adam, AdamConfig, AdamW, AdamWConfig, Anneal, ExponentialLr, GroupOptions, LinearLr,
    LrSchedule, LrScheduler, OneCycleConfig, OneCycleLr, Optimizer, PlateauConfig, PlateauMode, ReduceLrOnPlateau,
    RmsProp, RmsPropConfig, Sgd, SgdConfig, StepLr, ThresholdMode,
};
use shaped::autograd::{GradFloat, Grads, Param, ParamId, Tape, Var};
use shaped::prelude::*;

// The generated file stays as the script writes it (one line per array).
#[rustfmt::skip]
#[path = "data/optim_more_data.rs"]
mod optim_more_data;
use optim_more_data::{
    OptimCase, B0, CLIP_GRAD, CLIP_VALUE_CASES, EXPONENTIAL_CASES, GRADS, LINEAR_CASES, ONECYCLE_CASES, OPTIM_CASES,
    PLATEAU_CASES, PLATEAU_METRICS, W0,
};

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
    loss.backward()
}

/// The optimizer of case `c`, with B in a second group when the case has one.
fn make<T: GradFloat>(c: &OptimCase, b: ParamId) -> Box<dyn Optimizer<T>> {
    let group = c.group1.map(|(lr, wd)| GroupOptions { lr: Some(lr), weight_decay: Some(wd) });
    macro_rules! with_group {
        ($opt:expr) => {{
            let mut o = $opt;
            if let Some(g) = group {
                assert_eq!(o.add_param_group([b], g).unwrap(), 1);
            }
            Box::new(o)
        }};
    }
    match c.optimizer {
        "sgd" => with_group!(Sgd::new(SgdConfig {
            lr: c.lr,
            momentum: c.momentum,
            dampening: c.dampening,
            weight_decay: c.weight_decay,
            nesterov: c.nesterov,
            maximize: c.maximize,
        })),
        "adam" => with_group!(Adam::new(AdamConfig {
            lr: c.lr,
            betas: c.betas,
            eps: c.eps,
            weight_decay: c.weight_decay,
            amsgrad: c.amsgrad,
            maximize: c.maximize,
        })),
        "adamw" => with_group!(AdamW::new(AdamWConfig {
            lr: c.lr,
            betas: c.betas,
            eps: c.eps,
            weight_decay: c.weight_decay,
            amsgrad: c.amsgrad,
            maximize: c.maximize,
        })),
        "rmsprop" => with_group!(RmsProp::new(rmsprop_config(c))),
        "adagrad" => with_group!(Adagrad::new(adagrad_config(c))),
        other => panic!("no optimizer {other}"),
    }
}

fn rmsprop_config(c: &OptimCase) -> RmsPropConfig {
    RmsPropConfig {
        lr: c.lr,
        alpha: c.alpha,
        eps: c.eps,
        weight_decay: c.weight_decay,
        momentum: c.momentum,
        centered: c.centered,
        maximize: c.maximize,
    }
}

fn adagrad_config(c: &OptimCase) -> AdagradConfig {
    AdagradConfig {
        lr: c.lr,
        lr_decay: c.lr_decay,
        weight_decay: c.weight_decay,
        initial_accumulator_value: c.initial_accumulator_value,
        eps: c.eps,
        maximize: c.maximize,
    }
}

/// Asserts |got - want| <= rtol * max(|want|, 1e-3) element by element and returns the largest
/// relative error |got - want| / max(|want|, 1e-3) seen.
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
    let mut opt = make::<T>(c, b.id());
    let mut sched = c.step_lr.map(|(n, gamma)| LrScheduler::new(StepLr::new(opt.lr(), n, gamma), &mut *opt));
    let mut worst = 0.0f64;
    for (s, ((gw, gb), (want_w, want_b))) in GRADS.iter().zip(c.after).enumerate() {
        let grads = grads_for(&w, &b, gw, *gb);
        opt.step(&mut [&mut w, &mut b], &grads);
        if let Some(sched) = &mut sched {
            sched.step(&mut *opt);
        }
        worst = worst.max(close(&to64(&w.value().to_vec()), want_w, rtol, &format!("{} step {s} W", c.name)));
        worst = worst.max(close(&to64(&b.value().to_vec()), want_b, rtol, &format!("{} step {s} B", c.name)));
    }
    assert_eq!(opt.num_groups(), if c.group1.is_some() { 2 } else { 1 }, "{}", c.name);
    worst
}

#[test]
fn rmsprop_adagrad_and_groups_match_pytorch_in_f64() {
    let mut worst = 0.0f64;
    for c in OPTIM_CASES {
        let e = run_case::<f64>(c, 1e-12);
        println!("{:30} f64: max relative error {e:.2e}", c.name);
        worst = worst.max(e);
    }
    println!("all {} cases, f64: max relative error {worst:.2e}", OPTIM_CASES.len());
}

#[test]
fn rmsprop_adagrad_and_groups_match_pytorch_in_f32() {
    let mut worst = 0.0f64;
    for c in OPTIM_CASES {
        let e = run_case::<f32>(c, 1e-5);
        println!("{:30} f32: max relative error {e:.2e}", c.name);
        worst = worst.max(e);
    }
    println!("all {} cases, f32: max relative error {worst:.2e}", OPTIM_CASES.len());
}

/// `Default` configs hold PyTorch's defaults: the `_default` cases give PyTorch no
/// hyper-parameter and record what its optimizer holds.
#[test]
fn default_configs_are_pytorchs() {
    let rms = OPTIM_CASES.iter().find(|c| c.name == "rmsprop_default").unwrap();
    assert_eq!(RmsPropConfig::default(), rmsprop_config(rms));
    let ada = OPTIM_CASES.iter().find(|c| c.name == "adagrad_default").unwrap();
    assert_eq!(AdagradConfig::default(), adagrad_config(ada));
}

/// The RMSprop and Adagrad state the trajectories leave: PyTorch's step counts, buffers of the
/// parameter's length, B's step count one lower (it had no gradient at one step).
#[test]
fn rmsprop_and_adagrad_keep_pytorchs_state() {
    let mut w = Param::new(tensor::<f64, WShape>(&[2, 3], W0));
    let mut b = Param::new(tensor::<f64, BShape>(&[3], B0));
    let mut rms = RmsProp::new(RmsPropConfig { momentum: 0.5, centered: true, ..Default::default() });
    let mut rms_plain = RmsProp::new(RmsPropConfig::default());
    let mut ada = Adagrad::new(AdagradConfig { initial_accumulator_value: 0.25, ..Default::default() });
    for (gw, gb) in GRADS {
        let grads = grads_for(&w, &b, gw, *gb);
        rms.step(&mut [&mut w, &mut b], &grads);
        rms_plain.step(&mut [&mut w, &mut b], &grads);
        ada.step(&mut [&mut w, &mut b], &grads);
    }
    assert_eq!((rms.step_count(w.id()), rms.step_count(b.id())), (Some(6), Some(5)));
    assert_eq!(rms.square_avg(w.id()).map(<[f64]>::len), Some(6));
    assert_eq!(rms.momentum_buffer(b.id()).map(<[f64]>::len), Some(3));
    assert_eq!(rms.grad_avg(b.id()).map(<[f64]>::len), Some(3));
    assert_eq!((rms_plain.momentum_buffer(w.id()), rms_plain.grad_avg(w.id())), (None, None));
    assert_eq!((ada.step_count(w.id()), ada.step_count(b.id())), (Some(6), Some(5)));
    // sum = 0.25 + the squares of B's five gradients.
    let want: Vec<f64> =
        (0..3).map(|i| GRADS.iter().filter_map(|(_, gb)| gb.map(|g| g[i] * g[i])).fold(0.25, |s, v| s + v)).collect();
    close(ada.sum(b.id()).unwrap(), &want, 1e-15, "Adagrad sum of B");
}

/// The group API: membership, per-group rates, refusals that change nothing.
#[test]
fn parameter_groups() {
    let w = Param::new(Tensor::<f64, Shape![2]>::from([1.0, 2.0]));
    let b = Param::new(Tensor::<f64, Shape![1]>::from([3.0]));
    let c = Param::new(Tensor::<f64, Shape![1]>::from([4.0]));
    let mut opt = AdamW::new(AdamWConfig { lr: 0.01, ..Default::default() });
    assert_eq!(opt.num_groups(), 1);
    assert_eq!(opt.add_param_group([b.id()], GroupOptions { lr: Some(0.1), ..Default::default() }).unwrap(), 1);
    assert_eq!(opt.add_param_group([c.id()], GroupOptions::default()).unwrap(), 2);
    assert_eq!((opt.group_of(w.id()), opt.group_of(b.id()), opt.group_of(c.id())), (0, 1, 2));
    // A field left None is the config's.
    assert_eq!((opt.group_lr(1), opt.group_weight_decay(1)), (0.1, 1e-2));
    assert_eq!((opt.group_lr(2), opt.group_initial_lr(2)), (0.01, 0.01));
    opt.set_group_lr(2, 0.5);
    opt.set_group_weight_decay(1, 0.0);
    assert_eq!((opt.group_lr(2), opt.group_initial_lr(2), opt.group_weight_decay(1)), (0.5, 0.01, 0.0));
    opt.set_group_lr(0, 0.02);
    assert_eq!(opt.lr(), 0.02);

    let before = opt.clone();
    let invalid = |r: Result<usize, ShapeError>, needle: &str| match r {
        Err(ShapeError::Invalid(m)) => assert!(m.contains(needle), "{m}"),
        other => panic!("expected Invalid containing {needle:?}, got {other:?}"),
    };
    invalid(opt.add_param_group([w.id(), b.id()], GroupOptions::default()), "more than one parameter group");
    invalid(opt.add_param_group([w.id(), w.id()], GroupOptions::default()), "given twice");
    invalid(opt.add_param_group([w.id()], GroupOptions { lr: Some(-1.0), ..Default::default() }), "learning rate");
    invalid(
        opt.add_param_group([w.id()], GroupOptions { weight_decay: Some(f64::NAN), ..Default::default() }),
        "weight_decay",
    );
    assert_eq!(opt, before);

    // A bad group rate set between steps is refused by the step.
    let mut w = w;
    opt.set_group_lr(1, -0.1);
    let tape = Tape::new();
    let grads = tape.watch(&w).sum().backward();
    match opt.try_step(&mut [&mut w], &grads) {
        Err(ShapeError::Invalid(m)) => assert!(m.contains("group 1"), "{m}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(w.value().to_vec(), [1.0, 2.0]);
    let caught = std::panic::catch_unwind(|| Sgd::<f64>::new(SgdConfig::default()).group_lr(1));
    assert!(caught.is_err());
}

#[test]
fn clip_value_matches_clip_grad_value() {
    fn run<T: GradFloat>(bits: u32) -> usize {
        let mut n = 0;
        for c in CLIP_VALUE_CASES.iter().filter(|c| c.bits == bits) {
            let p = Param::new(tensor::<T, DynShape>(&[CLIP_GRAD.len()], &vec![0.0; CLIP_GRAD.len()]));
            let tape = Tape::new();
            let g = Var::constant(tensor::<T, DynShape>(&[CLIP_GRAD.len()], CLIP_GRAD));
            let mut grads = (&tape.watch(&p) * &g).sum().backward();
            grads.clip_value(T::from_f64(c.clip));
            let got = to64(grads.param_slice(p.id()).unwrap());
            for (i, (g, w)) in got.iter().zip(c.clipped).enumerate() {
                // Equal, NaN for NaN, and the same sign of zero.
                let same = (g.is_nan() && w.is_nan()) || (g == w && g.is_sign_negative() == w.is_sign_negative());
                assert!(same, "f{bits} clip {}: element {i} ({}) clipped to {g}, PyTorch {w}", c.clip, CLIP_GRAD[i]);
            }
            n += 1;
        }
        n
    }
    assert_eq!(run::<f64>(64) + run::<f32>(32), CLIP_VALUE_CASES.len());
}

/// Runs `sched` on an SGD with one or two groups for `n` epochs; returns the rates of every
/// group at each epoch (epoch 0 from the constructor), as get_last_lr() lists them.
fn sched_rows<S: LrSchedule>(schedule: S, base_lr: f64, base_lr1: Option<f64>, n: usize) -> Vec<Vec<f64>> {
    let p = Param::new(Tensor::<f64, Shape![1]>::zeros());
    let mut opt = Sgd::<f64>::new(SgdConfig { lr: base_lr, ..Default::default() });
    if let Some(lr) = base_lr1 {
        opt.add_param_group([p.id()], GroupOptions { lr: Some(lr), ..Default::default() }).unwrap();
    }
    let mut sched = LrScheduler::new(schedule, &mut opt);
    let mut rows = Vec::new();
    for e in 0..n {
        assert_eq!(sched.last_epoch(), e);
        rows.push((0..opt.num_groups()).map(|g| opt.group_lr(g)).collect());
        assert_eq!(sched.last_lr(), opt.group_lr(0));
        if e + 1 < n {
            sched.step(&mut opt);
        }
    }
    rows
}

/// Compares rows of rates with PyTorch's get_last_lr(); returns the largest relative error.
fn close_rows(got: &[Vec<f64>], want: &[&[f64]], rtol: f64, what: &str) -> f64 {
    assert_eq!(got.len(), want.len(), "{what}: epochs");
    let mut worst = 0.0f64;
    for (e, (g, w)) in got.iter().zip(want).enumerate() {
        worst = worst.max(close(g, w, rtol, &format!("{what} epoch {e}")));
    }
    worst
}

#[test]
fn linear_lr_matches_pytorch() {
    let (mut chained, mut closed) = (0.0f64, 0.0f64);
    for c in LINEAR_CASES {
        let s = LinearLr::new(c.base_lr, c.start_factor, c.end_factor, c.total_iters);
        let what = format!("LinearLR({}, {}, {})", c.start_factor, c.end_factor, c.total_iters);
        let rows = sched_rows(s, c.base_lr, c.base_lr1, c.last_lr.len());
        chained = chained.max(close_rows(&rows, c.last_lr, 1e-12, &what));
        let got: Vec<f64> = (0..c.closed.len()).map(|e| s.lr_at(e)).collect();
        closed = closed.max(close(&got, c.closed, 1e-15, &format!("{what} closed form")));
    }
    println!("LinearLR: max relative error {chained:.2e} against get_last_lr(), {closed:.2e} against the closed form");
}

#[test]
fn exponential_lr_matches_pytorch() {
    let (mut chained, mut closed) = (0.0f64, 0.0f64);
    for c in EXPONENTIAL_CASES {
        let s = ExponentialLr::new(c.base_lr, c.gamma);
        let what = format!("ExponentialLR({})", c.gamma);
        let rows = sched_rows(s, c.base_lr, c.base_lr1, c.last_lr.len());
        chained = chained.max(close_rows(&rows, c.last_lr, 1e-12, &what));
        let got: Vec<f64> = (0..c.closed.len()).map(|e| s.lr_at(e)).collect();
        closed = closed.max(close(&got, c.closed, 1e-15, &format!("{what} closed form")));
    }
    println!(
        "ExponentialLR: max relative error {chained:.2e} against get_last_lr(), {closed:.2e} against the closed form"
    );
}

#[test]
fn one_cycle_lr_matches_pytorch() {
    let mut worst = 0.0f64;
    for c in ONECYCLE_CASES {
        let config = OneCycleConfig {
            pct_start: c.pct_start,
            anneal: if c.anneal == "cos" { Anneal::Cos } else { Anneal::Linear },
            div_factor: c.div_factor,
            final_div_factor: c.final_div_factor,
            three_phase: c.three_phase,
            ..OneCycleConfig::new(c.max_lr, c.total_steps)
        };
        let s = OneCycleLr::new(config);
        let what = format!("OneCycleLR({}, {}, {}, {})", c.max_lr, c.total_steps, c.pct_start, c.anneal);
        // Every step up to total_steps, the last one PyTorch allows; both groups follow max_lr.
        let rows = sched_rows(s.clone(), 0.123, c.two_groups.then_some(0.456), c.total_steps + 1);
        worst = worst.max(close_rows(&rows, c.last_lr, 1e-13, &what));
        assert_eq!(s.initial_lr(), c.max_lr / c.div_factor);
        // Past the cycle: PyTorch's "Tried to step" error.
        match s.try_lr_at(c.total_steps + 1) {
            Err(ShapeError::Invalid(m)) => assert!(m.contains("tried to step"), "{m}"),
            other => panic!("{other:?}"),
        }
        assert!(std::panic::catch_unwind(|| s.lr_at(c.total_steps + 1)).is_err());
    }
    println!("OneCycleLR: max relative error {worst:.2e} against get_last_lr()");
}

#[test]
fn reduce_lr_on_plateau_matches_pytorch() {
    for (i, c) in PLATEAU_CASES.iter().enumerate() {
        let config = PlateauConfig {
            mode: if c.mode == "min" { PlateauMode::Min } else { PlateauMode::Max },
            factor: c.factor,
            patience: c.patience,
            threshold: c.threshold,
            threshold_mode: if c.threshold_mode == "rel" { ThresholdMode::Rel } else { ThresholdMode::Abs },
            cooldown: c.cooldown,
            min_lr: c.min_lr,
            eps: c.eps,
        };
        let p = Param::new(Tensor::<f32, Shape![1]>::zeros());
        let mut opt = Adam::<f32>::new(AdamConfig { lr: c.base_lr, ..Default::default() });
        opt.add_param_group([p.id()], GroupOptions { lr: Some(c.base_lr1), ..Default::default() }).unwrap();
        let mut plateau = ReduceLrOnPlateau::new(config);
        let mut reductions = 0;
        for (s, (&m, (lrs, best, bad, cooldown))) in PLATEAU_METRICS.iter().zip(c.after).enumerate() {
            let before = opt.lr();
            plateau.step(if c.negate { -m } else { m }, &mut opt);
            reductions += (opt.lr() != before) as usize;
            let what = format!("plateau case {i} step {s}");
            assert_eq!([opt.group_lr(0), opt.group_lr(1)], **lrs, "{what}: rates");
            assert_eq!(plateau.best(), *best, "{what}: best");
            assert_eq!((plateau.num_bad_epochs(), plateau.cooldown_counter()), (*bad, *cooldown), "{what}: counters");
            assert_eq!(plateau.last_epoch(), s + 1);
        }
        println!(
            "ReduceLROnPlateau case {i}: {} steps equal to PyTorch's, {reductions} reductions of group 0",
            c.after.len()
        );
    }
    assert_eq!(
        PlateauConfig::default(),
        PlateauConfig {
            mode: PlateauMode::Min,
            factor: 0.1,
            patience: 10,
            threshold: 1e-4,
            threshold_mode: ThresholdMode::Rel,
            cooldown: 0,
            min_lr: 0.0,
            eps: 1e-8,
        }
    );
}

#[test]
fn invalid_settings_are_refused() {
    let invalid = |r: Result<(), ShapeError>, needle: &str| match r {
        Err(ShapeError::Invalid(m)) => assert!(m.contains(needle), "{needle:?} not in {m:?}"),
        other => panic!("expected Invalid containing {needle:?}, got {other:?}"),
    };
    invalid(RmsProp::<f64>::try_new(RmsPropConfig { alpha: -0.5, ..Default::default() }).map(drop), "alpha");
    invalid(RmsProp::<f64>::try_new(RmsPropConfig { momentum: f64::NAN, ..Default::default() }).map(drop), "momentum");
    invalid(RmsProp::<f32>::try_new(RmsPropConfig { eps: -1.0, ..Default::default() }).map(drop), "epsilon");
    invalid(Adagrad::<f64>::try_new(AdagradConfig { lr_decay: -0.1, ..Default::default() }).map(drop), "lr_decay");
    invalid(
        Adagrad::<f64>::try_new(AdagradConfig { initial_accumulator_value: -1.0, ..Default::default() }).map(drop),
        "initial_accumulator_value",
    );
    invalid(LinearLr::try_new(0.1, 0.0, 1.0, 5).map(drop), "starting multiplicative factor");
    invalid(LinearLr::try_new(0.1, 0.5, 1.5, 5).map(drop), "ending multiplicative factor");
    invalid(LinearLr::try_new(0.1, 0.5, 1.0, 0).map(drop), "total_iters");
    invalid(ExponentialLr::try_new(0.1, -0.9).map(drop), "gamma");
    invalid(OneCycleLr::try_new(OneCycleConfig::new(0.1, 0)).map(drop), "total_steps");
    invalid(
        OneCycleLr::try_new(OneCycleConfig { pct_start: 1.5, ..OneCycleConfig::new(0.1, 10) }).map(drop),
        "pct_start",
    );
    invalid(
        OneCycleLr::try_new(OneCycleConfig { pct_start: 0.1, ..OneCycleConfig::new(0.1, 10) }).map(drop),
        "first phase",
    );
    invalid(
        OneCycleLr::try_new(OneCycleConfig { pct_start: 1.0, ..OneCycleConfig::new(0.1, 10) }).map(drop),
        "last phase",
    );
    invalid(
        OneCycleLr::try_new(OneCycleConfig { div_factor: 0.0, ..OneCycleConfig::new(0.1, 10) }).map(drop),
        "div_factor",
    );
    invalid(ReduceLrOnPlateau::try_new(PlateauConfig { factor: 1.0, ..Default::default() }).map(drop), "factor");
    invalid(ReduceLrOnPlateau::try_new(PlateauConfig { factor: f64::NAN, ..Default::default() }).map(drop), "factor");
    invalid(ReduceLrOnPlateau::try_new(PlateauConfig { min_lr: -1.0, ..Default::default() }).map(drop), "min_lr");
}
