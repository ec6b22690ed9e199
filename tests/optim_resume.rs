//! Checkpoints (issue 47): the state of every optimizer, scheduler and the data loader saved by
//! parameter name and loaded into objects built anew (new `ParamId`s), in memory and through
//! `.safetensors` files; a training run stopped after step k and resumed gives bit for bit the
//! losses and parameters of the uninterrupted run; a state whose keys, dtypes, shapes or values
//! do not fit is refused, naming the key (and both shapes), and changes nothing.
use shaped::autograd::nn::{mse_loss, Reduction};
use shaped::autograd::optim::{
    Adagrad, AdagradConfig, Adam, AdamConfig, AdamW, AdamWConfig, GroupOptions, LinearLr, LrScheduler, OneCycleConfig,
    OneCycleLr, Optimizer, ParamNames, PlateauConfig, ReduceLrOnPlateau, RmsProp, RmsPropConfig, Sgd, SgdConfig,
    StateDtype, StateValue, TrainState,
};
use shaped::autograd::{GradFloat, Param, Tape, Var};
use shaped::nn::data::DataLoader;
use shaped::nn::{Forward, Linear, Module, Relu};
use shaped::prelude::*;
use shaped::rand::rngs::StdRng;
use shaped::rand::SeedableRng;

type Model = (Linear<Const<4>, Const<16>, f32>, Relu, Linear<Const<16>, Const<3>, f32>);
type Loader = DataLoader<f32, f32, Shape![20, 4], Shape![20, 3], StdRng>;
type Data = (Tensor<f32, Shape![20, 4]>, Tensor<f32, Shape![20, 3]>);
type Params<T> = (Param<T, Shape![2, 3]>, Param<T, Shape![3]>);

/// 20 samples of a smooth function, deterministic.
fn dataset() -> Data {
    let x: Vec<f32> = (0..80).map(|i| ((i as f32) * 0.37).sin()).collect();
    let y: Vec<f32> = (0..60).map(|i| ((i as f32) * 0.21).cos() * 0.5).collect();
    (Tensor::from_vec(&[20, 4], x), Tensor::from_vec(&[20, 3], y))
}

/// Everything a training run holds.
struct Run {
    model: Model,
    opt: Adam<f32>,
    sched: LrScheduler<OneCycleLr>,
    loader: Loader,
}

/// A run built from scratch: the model initialised from `init_seed`, Adam with the biases in a
/// group without weight decay, a 10-step one-cycle schedule, a loader of batches of 6 (3 per
/// epoch with drop_last) shuffled by a generator seeded with 42.
fn build(init_seed: u64) -> Run {
    let rng = &mut StdRng::seed_from_u64(init_seed);
    let mut model: Model = (Linear::new(rng), Relu, Linear::new(rng));
    let mut opt = Adam::new(AdamConfig { lr: 0.01, weight_decay: 1e-3, ..Default::default() });
    let names = ParamNames::of(model.named_parameters());
    let biases = names.ids_where(|n| n.ends_with("bias"));
    opt.add_param_group(biases, GroupOptions { weight_decay: Some(0.0), ..Default::default() }).unwrap();
    let sched = LrScheduler::new(OneCycleLr::new(OneCycleConfig::new(0.05, 10)), &mut opt);
    let (x, y) = dataset();
    let loader = DataLoader::new(x, y, 6, StdRng::seed_from_u64(42)).drop_last(true);
    Run { model, opt, sched, loader }
}

/// One step: the next batch, the loss, backward, clipping, Adam, the schedule. Returns the loss.
fn train_step(run: &mut Run) -> f32 {
    let (x, y) = run.loader.next_batch().expect("an epoch has batches");
    let tape = Tape::new();
    let pred = run.model.forward(&tape, &Var::constant(x));
    let loss = mse_loss(&pred, &Var::constant(y), Reduction::Mean);
    let value = loss.item();
    let mut grads = loss.backward();
    grads.clip_norm(1.0);
    run.opt.step(&mut run.model.parameters(), &grads);
    run.sched.step(&mut run.opt);
    value
}

fn params_bits(model: &mut Model) -> Vec<(String, Vec<u32>)> {
    model.named_parameters().into_iter().map(|(n, p)| (n, p.to_vec().iter().map(|v| v.to_bits()).collect())).collect()
}

/// Everything that is saved after step k.
struct Checkpoint {
    model: shaped::nn::StateDict<f32>,
    opt: TrainState,
    sched: TrainState,
    loader: TrainState,
}

fn save(run: &mut Run) -> Checkpoint {
    let names = ParamNames::of(run.model.named_parameters());
    Checkpoint {
        model: run.model.state_dict(),
        opt: run.opt.state_dict(&names).unwrap(),
        sched: run.sched.state_dict(),
        loader: run.loader.state_dict(),
    }
}

/// A run built anew (another initialisation: the loaded state must replace it) and loaded.
fn restore(ck: &Checkpoint) -> Run {
    let mut run = build(99);
    run.model.load_state_dict(&ck.model, true).unwrap();
    let names = ParamNames::of(run.model.named_parameters());
    run.opt.load_state_dict(&ck.opt, &names).unwrap();
    run.sched.load_state_dict(&ck.sched).unwrap();
    run.loader.load_state_dict(&ck.loader).unwrap();
    run
}

#[test]
fn a_resumed_run_is_bitwise_the_uninterrupted_run() {
    let mut full = build(1);
    let want: Vec<f32> = (0..10).map(|_| train_step(&mut full)).collect();
    let want_params = params_bits(&mut full.model);
    // The schedule and the loader did move: distinct rates, several epochs.
    assert_eq!((full.sched.last_epoch(), full.loader.epoch(), full.loader.batches_done()), (10, 4, 1));
    assert!(want.iter().all(|l| l.is_finite() && *l > 0.0), "{want:?}");

    // Stopped after k steps: mid-epoch (4, 7), at an epoch's end (3), after one step (1).
    for k in [1, 3, 4, 7] {
        let mut first = build(1);
        let mut got: Vec<f32> = (0..k).map(|_| train_step(&mut first)).collect();
        let ck = save(&mut first);
        let old_ids: Vec<_> = first.model.parameters().iter().map(|p| p.id()).collect();
        drop(first);

        let mut second = restore(&ck);
        let new_ids: Vec<_> = second.model.parameters().iter().map(|p| p.id()).collect();
        assert!(old_ids.iter().all(|id| !new_ids.contains(id)), "new ParamIds");
        assert_eq!(second.sched.last_epoch(), k);
        got.extend((k..10).map(|_| train_step(&mut second)));
        let bits = |v: &[f32]| v.iter().map(|l| l.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&got), bits(&want), "k = {k}: losses {got:?} against {want:?}");
        assert_eq!(params_bits(&mut second.model), want_params, "k = {k}: parameters");
        assert_eq!(
            second.opt.state_dict(&ParamNames::of(second.model.named_parameters())).unwrap(),
            full.opt.state_dict(&ParamNames::of(full.model.named_parameters())).unwrap()
        );
        println!("k = {k}: {} losses and {} parameters equal bit for bit", got.len(), want_params.len());
    }
}

/// The same resume through `.safetensors` files: the model's state dict, the optimizer's, the
/// scheduler's and the loader's in one file under prefixes.
#[cfg(feature = "safetensors")]
#[test]
fn a_run_resumed_from_files_is_bitwise_the_uninterrupted_run() {
    use shaped::autograd::optim::StateSpec;
    let dir = std::env::temp_dir().join(format!("shaped_optim_resume_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (model_path, state_path) = (dir.join("model.safetensors"), dir.join("train.safetensors"));

    let mut full = build(1);
    let want: Vec<f32> = (0..10).map(|_| train_step(&mut full)).collect();

    let mut first = build(1);
    let mut got: Vec<f32> = (0..4).map(|_| train_step(&mut first)).collect();
    first.model.save_safetensors(&model_path).unwrap();
    let names = ParamNames::of(first.model.named_parameters());
    let mut all = TrainState::new();
    all.merge("optimizer", first.opt.state_dict(&names).unwrap());
    all.merge("scheduler", first.sched.state_dict());
    all.merge("loader", first.loader.state_dict());
    all.save_safetensors(&state_path).unwrap();
    drop(first);

    let mut second = build(99);
    second.model.load_safetensors(&model_path, true).unwrap();
    let names = ParamNames::of(second.model.named_parameters());
    let mut specs = StateSpec::with_prefix(second.opt.state_specs(&names), "optimizer");
    specs.extend(StateSpec::with_prefix(second.sched.state_specs(), "scheduler"));
    specs.extend(StateSpec::with_prefix(second.loader.state_specs(), "loader"));
    let all = TrainState::load_safetensors(&state_path, &specs).unwrap();
    // The learning rates come back as F64 whatever the model's type.
    assert_eq!(all.get("optimizer.param_groups.0.lr").unwrap().dtype(), StateDtype::F64);
    assert_eq!(all.get("optimizer.state.0.weight.exp_avg").unwrap().dtype(), StateDtype::F32);
    second.opt.load_state_dict(&all.section("optimizer"), &names).unwrap();
    second.sched.load_state_dict(&all.section("scheduler")).unwrap();
    second.loader.load_state_dict(&all.section("loader")).unwrap();
    got.extend((4..10).map(|_| train_step(&mut second)));
    assert_eq!(
        got.iter().map(|l| l.to_bits()).collect::<Vec<_>>(),
        want.iter().map(|l| l.to_bits()).collect::<Vec<_>>()
    );
    assert_eq!(params_bits(&mut second.model), params_bits(&mut full.model));

    // A model of another width: the file's buffers do not fit, the error names the key and both
    // shapes, and nothing is read.
    let rng = &mut StdRng::seed_from_u64(5);
    let mut other: (Linear<Const<4>, Const<8>, f32>, Relu, Linear<Const<8>, Const<3>, f32>) =
        (Linear::new(rng), Relu, Linear::new(rng));
    let mut opt = Adam::<f32>::new(AdamConfig::default());
    opt.add_param_group(
        ParamNames::of(other.named_parameters()).ids_where(|n| n.ends_with("bias")),
        GroupOptions::default(),
    )
    .unwrap();
    let specs = StateSpec::with_prefix(opt.state_specs(&ParamNames::of(other.named_parameters())), "optimizer");
    let specs: Vec<StateSpec> = specs
        .into_iter()
        .chain(StateSpec::with_prefix(second.sched.state_specs(), "scheduler"))
        .chain(StateSpec::with_prefix(second.loader.state_specs(), "loader"))
        .collect();
    let e = TrainState::load_safetensors(&state_path, &specs).unwrap_err().to_string();
    assert!(
        e.contains("train.safetensors")
            && e.contains("optimizer.state.0.weight.")
            && e.contains("[16, 4]")
            && e.contains("[8, 4]"),
        "{e}"
    );
    // A key the specs do not name.
    let e = TrainState::load_safetensors(&state_path, &StateSpec::with_prefix(second.loader.state_specs(), "loader"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("unexpected key(s)") && e.contains("optimizer.param_groups.0.lr"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A few steps of `opt` on two parameters of `make_params`'s shapes, from fixed gradients.
fn steps<T: GradFloat, O: Optimizer<T>>(
    opt: &mut O,
    w: &mut Param<T, Shape![2, 3]>,
    b: &mut Param<T, Shape![3]>,
    from: usize,
    to: usize,
) {
    for s in from..to {
        let tape = Tape::new();
        let k = T::from_f64(0.3 + s as f64 * 0.17);
        let loss = &tape.watch(w).square().mul_scalar(k).sum() + &tape.watch(b).square().sum();
        let grads = loss.backward();
        opt.step(&mut [&mut *w, &mut *b], &grads);
    }
}

fn new_params<T: GradFloat>() -> Params<T> {
    let w = Tensor::from_vec(&[2, 3], [0.5, -1.0, 2.0, 0.25, -0.75, 1.5].iter().map(|&v| T::from_f64(v)).collect());
    let b = Tensor::from_vec(&[3], [0.1, -0.2, 0.3].iter().map(|&v| T::from_f64(v)).collect());
    (Param::new(w), Param::new(b))
}

/// For every optimizer: 3 steps, export, import into a new optimizer with new parameters (new
/// ids, the same values), 3 more steps on both: the same values bit for bit. And the refusals.
#[test]
fn every_optimizer_round_trips_its_state() {
    fn check<O: Optimizer<f64> + Clone + PartialEq + std::fmt::Debug>(name: &str, make: impl Fn() -> O) {
        let (mut w, mut b) = new_params::<f64>();
        let mut opt = make();
        opt.set_group_lr(0, opt.lr() * 0.5); // a rate a schedule would have set: saved too
        steps(&mut opt, &mut w, &mut b, 0, 3);
        let names = ParamNames::new().with("w", &w).with("b", &b);
        let state = opt.state_dict(&names).unwrap();
        assert!(
            state
                .keys()
                .all(|k| k.starts_with("state.w.") || k.starts_with("state.b.") || k.starts_with("param_groups.")),
            "{name}: {:?}",
            state.keys().collect::<Vec<_>>()
        );

        let (mut w2, mut b2) = (Param::new(w.value().clone()), Param::new(b.value().clone()));
        let mut opt2 = make();
        let names2 = ParamNames::new().with("w", &w2).with("b", &b2);
        opt2.load_state_dict(&state, &names2).unwrap();
        assert_eq!(opt2.lr(), opt.lr(), "{name}");
        assert_eq!(opt2.state_dict(&names2).unwrap(), state, "{name}: the state comes back as saved");
        steps(&mut opt, &mut w, &mut b, 3, 6);
        steps(&mut opt2, &mut w2, &mut b2, 3, 6);
        let bits = |v: Vec<f64>| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(w2.value().to_vec()), bits(w.value().to_vec()), "{name}: W");
        assert_eq!(bits(b2.value().to_vec()), bits(b.value().to_vec()), "{name}: B");

        // Refusals change nothing.
        let before = opt2.clone();
        let err = |r: Result<(), ShapeError>| match r {
            Err(ShapeError::Invalid(m)) => m,
            other => panic!("{name}: expected an error, got {other:?}"),
        };
        // Another model: W of another shape.
        let w3 = Param::new(Tensor::<f64, Shape![3, 2]>::zeros());
        let names3 = ParamNames::new().with("w", &w3).with("b", &b2);
        if state.keys().any(|k| k.starts_with("state.w.") && !k.ends_with(".step")) {
            let m = err(opt2.load_state_dict(&state, &names3));
            assert!(
                m.contains("size mismatch") && m.contains("state.w.") && m.contains("[2, 3]") && m.contains("[3, 2]"),
                "{name}: {m}"
            );
        }
        // A name the state does not know.
        let names4 = ParamNames::new().with("weight", &w2).with("b", &b2);
        if state.keys().any(|k| k.starts_with("state.w.")) {
            let m = err(opt2.load_state_dict(&state, &names4));
            assert!(m.contains("unexpected key(s)") && m.contains("state.w."), "{name}: {m}");
        }
        // A missing group entry.
        let mut broken = state.clone();
        broken.entries.retain(|(k, _)| k != "param_groups.0.lr");
        let m = err(opt2.load_state_dict(&broken, &names2));
        assert!(m.contains("missing key(s)") && m.contains("param_groups.0.lr"), "{name}: {m}");
        // A second group the optimizer does not have.
        let mut two = state.clone();
        two.insert("param_groups.1.lr", StateValue::f64_scalar(0.1));
        let m = err(opt2.load_state_dict(&two, &names2));
        assert!(m.contains("unexpected key(s)") && m.contains("param_groups.1.lr"), "{name}: {m}");
        // A negative rate.
        let mut neg = state.clone();
        neg.insert("param_groups.0.lr", StateValue::f64_scalar(-1.0));
        assert!(err(opt2.load_state_dict(&neg, &names2)).contains("learning rate"), "{name}");
        // The dtype of the other float type.
        let bufs: Vec<String> =
            state.keys().filter(|k| k.starts_with("state.") && !k.ends_with(".step")).map(String::from).collect();
        if let Some(k) = bufs.first() {
            let mut f32s = state.clone();
            f32s.insert(
                k.clone(),
                StateValue::F32 {
                    sizes: state.get(k).unwrap().sizes().to_vec(),
                    data: vec![0.0; state.get(k).unwrap().len()],
                },
            );
            let m = err(opt2.load_state_dict(&f32s, &names2));
            assert!(m.contains(k.as_str()) && m.contains("float32 in the state, float64 in the"), "{name}: {m}");
            // A parameter's state without one of its buffers (SGD keeps one buffer, no step:
            // without it the parameter just has no state).
            let prefix = &k[..k.rfind('.').unwrap() + 1];
            if state.keys().filter(|key| key.starts_with(prefix)).count() > 1 {
                let mut part = state.clone();
                part.entries.retain(|(key, _)| key != k);
                let m = err(opt2.load_state_dict(&part, &names2));
                assert!(m.contains("incomplete"), "{name}: {m}");
            }
        }
        if state.get("state.w.step").is_some() {
            let mut neg = state.clone();
            neg.insert("state.w.step", StateValue::i64_scalar(-2));
            assert!(err(opt2.load_state_dict(&neg, &names2)).contains("must be >= 0"), "{name}");
        }
        assert_eq!(opt2, before, "{name}: a refused load changed the optimizer");

        // Exporting needs a name for every parameter with state.
        if !bufs.is_empty() {
            let m = err(opt2.state_dict(&ParamNames::new().with("w", &w2)).map(drop));
            assert!(m.contains("names do not name"), "{name}: {m}");
        }
        let m = err(opt2.state_dict(&ParamNames::new().with("w", &w2).with("w", &b2)).map(drop));
        assert!(m.contains("given twice"), "{name}: {m}");
        println!("{name}: {} keys round-trip, 7 kinds of bad state refused", state.len());
    }
    check("SGD", || Sgd::new(SgdConfig { lr: 0.1, momentum: 0.9, nesterov: true, ..Default::default() }));
    check("SGD without momentum", || Sgd::new(SgdConfig { lr: 0.1, ..Default::default() }));
    check("Adam", || Adam::new(AdamConfig { lr: 0.01, amsgrad: true, ..Default::default() }));
    check("AdamW", || AdamW::new(AdamWConfig { lr: 0.01, ..Default::default() }));
    check("RMSprop", || RmsProp::new(RmsPropConfig { momentum: 0.5, centered: true, ..Default::default() }));
    check("Adagrad", || {
        Adagrad::new(AdagradConfig { lr_decay: 0.1, initial_accumulator_value: 0.1, ..Default::default() })
    });
}

/// Groups are saved by parameter name and must be the same on load.
#[test]
fn groups_are_saved_by_name() {
    let (mut w, mut b) = new_params::<f32>();
    let mut opt = RmsProp::new(RmsPropConfig { weight_decay: 0.1, ..Default::default() });
    opt.add_param_group([b.id()], GroupOptions { lr: Some(0.5), weight_decay: Some(0.0) }).unwrap();
    steps(&mut opt, &mut w, &mut b, 0, 2);
    opt.set_group_lr(1, 0.25);
    let names = ParamNames::new().with("w", &w).with("b", &b);
    let state = opt.state_dict(&names).unwrap();
    assert_eq!(state.get("param_group.b").and_then(StateValue::as_i64_scalar), Some(1));
    assert_eq!(state.get("param_group.w"), None);
    assert_eq!(state.get("param_groups.1.lr").and_then(StateValue::as_f64_scalar), Some(0.25));
    assert_eq!(state.get("param_groups.1.initial_lr").and_then(StateValue::as_f64_scalar), Some(0.5));
    assert_eq!(state.get("state.w.square_avg").map(StateValue::dtype), Some(StateDtype::F32));

    let (w2, b2) = new_params::<f32>();
    let names2 = ParamNames::new().with("w", &w2).with("b", &b2);
    // Without the group: refused.
    let mut flat = RmsProp::<f32>::new(RmsPropConfig { weight_decay: 0.1, ..Default::default() });
    let e = flat.load_state_dict(&state, &names2).unwrap_err().to_string();
    assert!(e.contains("unexpected key(s)") && e.contains("param_groups.1.lr"), "{e}");
    // The group on the other parameter: refused.
    let mut wrong = RmsProp::<f32>::new(RmsPropConfig { weight_decay: 0.1, ..Default::default() });
    wrong.add_param_group([w2.id()], GroupOptions::default()).unwrap();
    let e = wrong.load_state_dict(&state, &names2).unwrap_err().to_string();
    assert!(e.contains("parameter \"w\" in parameter group 0, this optimizer in group 1"), "{e}");
    // The same group: the rates come back.
    let mut right = RmsProp::<f32>::new(RmsPropConfig { weight_decay: 0.1, ..Default::default() });
    right.add_param_group([b2.id()], GroupOptions { lr: Some(0.5), weight_decay: Some(0.0) }).unwrap();
    right.load_state_dict(&state, &names2).unwrap();
    assert_eq!((right.group_lr(1), right.group_initial_lr(1), right.step_count(b2.id())), (0.25, 0.5, Some(2)));
}

#[test]
fn schedulers_round_trip_their_state() {
    let mut opt = Sgd::<f64>::new(SgdConfig { lr: 0.1, ..Default::default() });
    let mut sched = LrScheduler::new(LinearLr::new(0.1, 0.25, 1.0, 8), &mut opt);
    for _ in 0..3 {
        sched.step(&mut opt);
    }
    let state = sched.state_dict();
    assert_eq!(state.get("last_epoch").and_then(StateValue::as_i64_scalar), Some(3));
    let mut again = LrScheduler::new(LinearLr::new(0.1, 0.25, 1.0, 8), &mut opt);
    let bad = {
        let mut s = state.clone();
        s.insert("last_epoch", StateValue::f64_scalar(3.0));
        s
    };
    let e = again.load_state_dict(&bad).unwrap_err().to_string();
    assert!(e.contains("\"last_epoch\" is float64 in the state, int64 in the LrScheduler"), "{e}");
    assert_eq!(again.last_epoch(), 0);
    again.load_state_dict(&state).unwrap();
    sched.step(&mut opt);
    let lr = opt.lr();
    again.step(&mut opt);
    assert_eq!((again.last_epoch(), opt.lr()), (4, lr));

    // ReduceLROnPlateau: saved in the middle of a plateau, the resumed one reduces at the same
    // step with the same rate.
    let metrics = [1.0, 0.9, 0.91, 0.92, 0.95, 0.9, 0.93, 0.94, 0.96, 0.97];
    let config = PlateauConfig { patience: 2, cooldown: 1, factor: 0.5, ..Default::default() };
    let mut o1 = Sgd::<f32>::new(SgdConfig { lr: 0.1, ..Default::default() });
    let mut p1 = ReduceLrOnPlateau::new(config);
    let mut rates = Vec::new();
    for &m in &metrics {
        p1.step(m, &mut o1);
        rates.push(o1.lr());
    }
    let mut o2 = Sgd::<f32>::new(SgdConfig { lr: 0.1, ..Default::default() });
    let mut p2 = ReduceLrOnPlateau::new(config);
    let mut resumed = Vec::new();
    for &m in &metrics[..4] {
        p2.step(m, &mut o2);
        resumed.push(o2.lr());
    }
    let (opt_state, plateau_state) = (o2.state_dict(&ParamNames::new()).unwrap(), p2.state_dict());
    assert_eq!(plateau_state.get("num_bad_epochs").and_then(StateValue::as_i64_scalar), Some(2));
    let mut o3 = Sgd::<f32>::new(SgdConfig { lr: 0.1, ..Default::default() });
    let mut p3 = ReduceLrOnPlateau::new(config);
    o3.load_state_dict(&opt_state, &ParamNames::new()).unwrap();
    p3.load_state_dict(&plateau_state).unwrap();
    assert_eq!(p3, p2);
    for &m in &metrics[4..] {
        p3.step(m, &mut o3);
        resumed.push(o3.lr());
    }
    assert_eq!(resumed, rates);
    assert!(rates.windows(2).filter(|w| w[1] < w[0]).count() >= 2, "{rates:?}");
    let mut missing = plateau_state.clone();
    missing.entries.retain(|(k, _)| k != "best");
    assert!(p3.load_state_dict(&missing).unwrap_err().to_string().contains("missing key(s) [\"best\"]"));
}

#[test]
fn the_loader_refuses_a_position_of_another_loader() {
    let (x, y) = dataset();
    let mut loader: Loader = DataLoader::new(x.clone(), y.clone(), 6, StdRng::seed_from_u64(42)).drop_last(true);
    for _ in 0..5 {
        loader.next_batch().unwrap();
    }
    let state = loader.state_dict();
    let fresh = || -> Loader { DataLoader::new(x.clone(), y.clone(), 6, StdRng::seed_from_u64(42)).drop_last(true) };
    let err = |l: &mut Loader, s: &TrainState| l.load_state_dict(s).unwrap_err().to_string();

    // An order that is a permutation but not the one the saved seed draws: the state was changed.
    let mut swapped = state.clone();
    let mut order = state.get("order").and_then(StateValue::as_i64_slice).unwrap().to_vec();
    order.swap(0, 1);
    swapped.insert("order", StateValue::I64 { sizes: vec![20], data: order });
    let mut other_seed: Loader = DataLoader::new(x.clone(), y.clone(), 6, StdRng::seed_from_u64(43)).drop_last(true);
    assert!(err(&mut other_seed, &swapped).contains("not the one the saved seed draws at epoch 2"));
    assert_eq!(other_seed.epoch(), 0);
    let mut bad_seed = state.clone();
    bad_seed.insert("seed", StateValue::I64 { sizes: vec![32], data: vec![256; 32] });
    assert!(err(&mut other_seed, &bad_seed).contains("not a byte"));
    let mut other_batch: Loader = DataLoader::new(x.clone(), y.clone(), 5, StdRng::seed_from_u64(42)).drop_last(true);
    assert!(err(&mut other_batch, &state).contains("batch_size is 6, this loader's 5"));
    let mut keep: Loader = DataLoader::new(x.clone(), y.clone(), 6, StdRng::seed_from_u64(42));
    assert!(err(&mut keep, &state).contains("drop_last is 1, this loader's 0"));
    let (x12, y12) = (
        Tensor::<f32, DynShape>::from_vec(&[12, 4], x.to_vec()[..48].to_vec()),
        Tensor::<f32, DynShape>::from_vec(&[12, 3], y.to_vec()[..36].to_vec()),
    );
    let mut small = DataLoader::new(x12, y12, 6, StdRng::seed_from_u64(42)).drop_last(true);
    let e = small.load_state_dict(&state).unwrap_err().to_string();
    assert!(e.contains("size mismatch for \"order\"") && e.contains("[20]") && e.contains("[12]"), "{e}");
    let mut not_perm = state.clone();
    not_perm.insert("order", StateValue::I64 { sizes: vec![20], data: vec![0; 20] });
    assert!(err(&mut fresh(), &not_perm).contains("not a permutation"));
    let mut past = state.clone();
    past.insert("batch", StateValue::i64_scalar(4));
    assert!(err(&mut fresh(), &past).contains("an epoch has 3"));

    // A loader on the same data continues with the same batches, wherever it was and whatever
    // its own seed: the saved seed replaces its generator.
    let mut resumed = fresh();
    resumed.next_batch().unwrap();
    let mut reseeded: Loader = DataLoader::new(x.clone(), y.clone(), 6, StdRng::seed_from_u64(1234)).drop_last(true);
    for l in [&mut resumed, &mut reseeded] {
        l.load_state_dict(&state).unwrap();
        assert_eq!((l.epoch(), l.batches_done(), l.order()), (2, 2, loader.order()));
        assert_eq!(l.state_dict(), state);
    }
    for _ in 0..7 {
        let a = loader.next_batch().unwrap();
        for l in [&mut resumed, &mut reseeded] {
            let b = l.next_batch().unwrap();
            assert_eq!((a.0.to_vec(), a.1.to_vec()), (b.0.to_vec(), b.1.to_vec()));
        }
    }
}
