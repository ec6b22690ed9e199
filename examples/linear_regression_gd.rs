//! The lecture's linear regression (systolic blood pressure against age, `examples/data/`), fit
//! by gradient descent with autograd and SGD instead of a least-squares solve, as the lecture's
//! PyTorch version does:
//!
//! ```python
//! a, b = torch.zeros(1, requires_grad=True), torch.zeros(1, requires_grad=True)
//! optimizer = torch.optim.SGD([a, b], lr=0.1, momentum=0.5)
//! for k in range(200):
//!     loss = ((a * x + b - y) ** 2).mean()
//!     optimizer.zero_grad(); loss.backward(); optimizer.step()
//! ```
//!
//! Ages run from 17 to 80, so the raw problem is badly conditioned for gradient descent; the age
//! is standardised first (mean 0, variance 1), and the slope and intercept mapped back after. The
//! result must equal the least-squares answer (`a = 0.9709`, `b = 98.71`) to 1e-3.
//! Run with `cargo run --example linear_regression_gd`.
use shaped::autograd::optim::{Sgd, SgdConfig};
use shaped::autograd::{Param, Tape, Var};
use shaped::prelude::*;
use std::error::Error;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/data/systolic-blood-pressure-vs-age.dat");

fn main() -> Result<(), Box<dyn Error>> {
    let text = std::fs::read_to_string(DATA)?;
    let values = text.split_whitespace().map(str::parse::<f64>).collect::<Result<Vec<_>, _>>()?;
    let data: Tensor<f64, Shape![_, 2]> = Tensor::try_from_vec(&[values.len() / 2, 2], values)?;
    let (age, pressure) = (t!(data[.., 0]).to_owned(), t!(data[.., 1]).to_owned());

    // Standardised ages: mean 0, (population) variance 1.
    let (mean, std) = (age.mean(), age.std(0));
    let x = Var::constant(age.map(|v| (v - mean) / std));
    let y = Var::constant(pressure);

    let mut w = Param::new(Tensor::<f64, Shape![1]>::zeros());
    let mut c = Param::new(Tensor::<f64, Shape![1]>::zeros());
    let mut opt = Sgd::new(SgdConfig { lr: 0.1, momentum: 0.5, ..Default::default() });
    let mut loss = f64::NAN;
    for step in 0..200 {
        let tape = Tape::new();
        let (wv, cv) = (tape.watch(&w), tape.watch(&c));
        let l = (&(&(&x * &wv) + &cv) - &y).square().mean(); // Shape![]
        loss = l.item();
        let grads = l.backward();
        opt.step(&mut [&mut w, &mut c], &grads);
        if step % 50 == 0 {
            println!("step {step:3}: mean squared error {loss:.4}");
        }
    }
    // Back to raw ages: y = w (age - mean) / std + c.
    let (wv, cv) = (w.value().to_vec()[0], c.value().to_vec()[0]);
    let (a, b) = (wv / std, cv - wv * mean / std);
    println!("after 200 steps: mean squared error {loss:.4}");
    println!("a = {a:.4}, b = {b:.2}");

    // The least-squares answer of examples/linear_regression.rs.
    let mut xm = Tensor::<f64, Shape![_, 2]>::full_sized(&[age.numel(), 2], 1.0);
    t!(xm[.., 0] = age);
    let ym = y.value().clone().cast_shape::<Shape![_]>().unsqueeze(Ax::<1>).to_owned();
    let alpha = xm.lstsq(&ym).solution;
    let (a_ls, b_ls) = (alpha.at([0, 0]), alpha.at([1, 0]));
    println!("least squares: a = {a_ls:.4}, b = {b_ls:.2}");
    assert!((a - a_ls).abs() < 1e-3 && (b - b_ls).abs() < 1e-3, "gradient descent did not converge");
    assert!((a - 0.9709).abs() < 1e-3 && (b - 98.71).abs() < 1e-2);
    Ok(())
}
