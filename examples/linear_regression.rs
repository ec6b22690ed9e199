//! The linear-regression example of François Fleuret's lecture "Deep Learning #2 – PyTorch's
//! Tensors" (IfI Summer School 2018): systolic blood pressure against age, with the data in
//! `examples/data/`, line for line:
//!
//! ```python
//! data = torch.tensor(numpy.loadtxt('systolic-blood-pressure-vs-age.dat'))
//! nb = data.size(0)
//! x, y = torch.empty(nb, 2), torch.empty(nb, 1)
//! x[:,0] = data[:,0]
//! x[:,1] = 1
//! y[:,0] = data[:,1]
//! alpha, _ = torch.gels(y, x)
//! a, b = alpha[0, 0].item(), alpha[1, 0].item()
//! ```
//!
//! The number of rows is known only when the file is read, so it is a `Dyn` dim (`_`); the two
//! columns are static. Run with `cargo run --example linear_regression [path]`.
use shaped::prelude::*;
use std::error::Error;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/data/systolic-blood-pressure-vs-age.dat");

/// Reads whitespace-separated rows of two numbers (NumPy `loadtxt`) into an `[n, 2]` tensor.
fn load(path: &str) -> Result<Tensor<f64, Shape![_, 2]>, Box<dyn Error>> {
    let text = std::fs::read_to_string(path)?;
    let values = text.split_whitespace().map(str::parse::<f64>).collect::<Result<Vec<_>, _>>()?;
    Ok(Tensor::try_from_vec(&[values.len() / 2, 2], values)?)
}

fn main() -> Result<(), Box<dyn Error>> {
    let path = std::env::args().nth(1).unwrap_or_else(|| DATA.to_string());
    let data = load(&path)?;
    let nb = data.sizes()[0];

    let mut x = Tensor::<f64, Shape![_, 2]>::zeros_sized(&[nb, 2]);
    let mut y = Tensor::<f64, Shape![_, 1]>::zeros_sized(&[nb, 1]);
    t!(x[.., 0] = t!(data[.., 0]));
    t!(x[.., 1] = 1.0);
    t!(y[.., 0] = t!(data[.., 1]));

    // torch.gels(y, x), today torch.linalg.lstsq(x, y): QR least squares (faer).
    let alpha: Tensor<f64, Shape![2, 1]> = x.lstsq(&y).solution;
    let (a, b) = (alpha.at([0, 0]), alpha.at([1, 0]));
    println!("{nb} rows: systolic blood pressure ~ a * age + b");
    println!("a = {a:.4}");
    println!("b = {b:.4}");

    let residual = &x.matmul(&alpha) - &y;
    println!("mean squared error = {:.2}", (&residual * &residual).mean());

    let ages = Tensor::from([[20.0, 1.0], [40.0, 1.0], [60.0, 1.0]]);
    let predicted = ages.matmul(&alpha);
    for i in 0..3 {
        println!("age {:.0}: predicted pressure {:.1}", ages.at([i, 0]), predicted.at([i, 0]));
    }
    Ok(())
}
