//! The digits CNN of the gradients issue trained on scikit-learn's handwritten digits
//! (`examples/data/digits.npz`, written by `scripts/digits_data.py`): 1437 training images and
//! 360 test images of 8x8 pixels (a stratified shuffled split, stored in the file), Adam at
//! 1e-2 with a cosine schedule, batches of 64, 30 epochs. The model
//! (`examples/digits/model.rs`, a struct of `shaped::nn` layers with `#[derive(Module)]`) is
//! written once: the same forward evaluates the test
//! set untracked (`predict`). It must reach at least 0.97 test accuracy. Halfway through, the
//! model's and the optimizer's state dicts are taken and the run goes on with a new model and a
//! new optimizer loaded from them (PyTorch's checkpoint of `model.state_dict()` and
//! `optimizer.state_dict()`, then `load_state_dict` of both), which changes no later step.
//!
//! Run with `cargo run --release --example digits_cnn --features npy` (a few seconds; the debug
//! build takes about a minute). The trained weights are written to
//! `target/digits_cnn.safetensors` when the `safetensors` feature is on.
#[path = "digits/model.rs"]
mod model;
use model::DigitsCnn;
use shaped::autograd::nn::{cross_entropy, Reduction};
use shaped::autograd::optim::{Adam, AdamConfig, CosineAnnealingLr, LrSchedule, ParamNames};
use shaped::autograd::{Tape, Var};
use shaped::io::NpzReader;
use shaped::nn::{Forward, Module, Predict};
use shaped::prelude::*;
use shaped::rand::SeedableRng;
use std::error::Error;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/data/digits.npz");
const BATCH: usize = 64;
const EPOCHS: usize = 30;

type Images = Tensor<f32, Shape![_, 1, 8, 8]>;

/// The fraction of `labels` that the model's largest logit names.
fn accuracy(m: &mut DigitsCnn, x: &Images, labels: &Tensor<i64, Shape![_]>) -> f64 {
    let logits = m.predict(x);
    let pred = logits.argmax_axis(Ax::<1>);
    let hits = pred.to_vec().iter().zip(labels.to_vec()).filter(|(p, l)| **p == *l).count();
    hits as f64 / labels.numel() as f64
}

fn main() -> Result<(), Box<dyn Error>> {
    let mut npz = NpzReader::open(DATA)?;
    let images: Tensor<u8, Shape![_, 8, 8]> = npz.read("images")?;
    let labels: Tensor<i64, Shape![_]> = npz.read("labels")?;
    let (train, test): (Tensor<i64, Shape![_]>, Tensor<i64, Shape![_]>) = (npz.read("train")?, npz.read("test")?);
    // Pixels 0..16 to 0..1, with a channel dim.
    let x: Images = images.cast::<f32>().map(|v| v / 16.0).unsqueeze(Ax::<1>).to_owned();
    let (x_train, y_train) = (x.index_select(Ax::<0>, &train), labels.index_select(Ax::<0>, &train));
    let (x_test, y_test) = (x.index_select(Ax::<0>, &test), labels.index_select(Ax::<0>, &test));
    let n_train = train.numel();

    let mut m = DigitsCnn::new(0);
    let lr = 1e-2;
    let mut opt = Adam::new(AdamConfig { lr, ..Default::default() });
    let schedule = CosineAnnealingLr::new(lr, EPOCHS, 0.0);
    let rng = &mut shaped::rand::rngs::StdRng::seed_from_u64(1);
    let start = std::time::Instant::now();
    for epoch in 0..EPOCHS {
        if epoch == EPOCHS / 2 {
            // A checkpoint and a resume: the state dicts (in memory here; `save_safetensors`
            // writes them to files), then a fresh model and optimizer loaded from them.
            let model_state = m.state_dict();
            let opt_state = opt.state_dict(&ParamNames::of(m.named_parameters()))?;
            m = DigitsCnn::new(99);
            m.load_state_dict(&model_state, true)?;
            opt = Adam::new(AdamConfig { lr, ..Default::default() });
            opt.load_state_dict(&opt_state, &ParamNames::of(m.named_parameters()))?;
            println!("checkpoint taken and resumed at epoch {epoch}");
        }
        schedule.apply(&mut opt, epoch);
        let order = Tensor::<i64, Shape![_]>::randperm(n_train, rng);
        let mut total = 0.0;
        for b in (0..n_train).step_by(BATCH) {
            let idx = order.narrow(Ax::<0>, b as isize, BATCH.min(n_train - b));
            let xb = Var::constant(x_train.index_select(Ax::<0>, &idx));
            let yb = y_train.index_select(Ax::<0>, &idx);
            let tape = Tape::new();
            let loss = cross_entropy(&m.forward(&tape, &xb), &yb, Reduction::Mean, 0.0);
            total += loss.item() as f64 * yb.numel() as f64;
            let grads = loss.backward();
            opt.step(&mut m.parameters(), &grads);
        }
        println!(
            "epoch {:2}: train loss {:.4}, test accuracy {:.4}",
            epoch + 1,
            total / n_train as f64,
            accuracy(&mut m, &x_test, &y_test)
        );
    }
    let acc = accuracy(&mut m, &x_test, &y_test);
    println!("{EPOCHS} epochs in {:.2} s; test accuracy {acc:.4}", start.elapsed().as_secs_f64());
    #[cfg(feature = "safetensors")]
    {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/target/digits_cnn.safetensors");
        m.save_safetensors(path)?;
        println!("weights written to {path}");
    }
    println!("{} parameters", m.num_parameters());
    assert!(acc >= 0.97, "test accuracy {acc} below 0.97");
    Ok(())
}
