//! The digits CNN's first training step against PyTorch's (tests/data/digits_step.npz, written by
//! scripts/digits_torch.py): the same weights and batch give the same loss, and every
//! parameter's gradient agrees to 1e-5 relative (in the 2-norm of its difference).
#[path = "../examples/digits/model.rs"]
mod model;
use model::DigitsCnn;
use shaped::autograd::nn::{cross_entropy, Reduction};
use shaped::autograd::{load_params_npz, Tape, Var};
use shaped::io::NpzReader;
use shaped::nn::{Forward, Module};
use shaped::prelude::*;

const STEP: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/digits_step.npz");

fn zeros() -> DigitsCnn {
    // Every parameter is overwritten by the load.
    DigitsCnn::new(0)
}

#[test]
fn first_step_gradients_equal_pytorchs() {
    let mut m = zeros();
    load_params_npz(&mut m, STEP).unwrap();
    let mut npz = NpzReader::open(STEP).unwrap();
    let x: Tensor<f32, Shape![64, 1, 8, 8]> = npz.read("x").unwrap();
    let y: Tensor<i64, Shape![64]> = npz.read("y").unwrap();
    let torch_loss: Tensor<f32, Shape![]> = npz.read("loss").unwrap();

    let tape = Tape::new();
    let logits = m.forward(&tape, &Var::constant(x));
    let loss = cross_entropy(&logits, &y, Reduction::Mean, 0.0);
    assert!((loss.item() - torch_loss.item()).abs() < 1e-5, "loss {} vs PyTorch {}", loss.item(), torch_loss.item());
    let grads = loss.backward();

    let mut checked = 0;
    for (name, p) in m.named_parameters() {
        let want: Tensor<f32, DynShape> = npz.read(&format!("grad.{name}")).unwrap();
        let got = grads.param_slice(p.id()).unwrap_or_else(|| panic!("no gradient for {name}"));
        assert_eq!(want.sizes(), p.sizes(), "{name}");
        let want = want.to_vec();
        let diff: f64 = got.iter().zip(&want).map(|(a, b)| ((a - b) as f64).powi(2)).sum::<f64>().sqrt();
        let norm: f64 = want.iter().map(|&b| (b as f64).powi(2)).sum::<f64>().sqrt();
        assert!(diff <= 1e-5 * norm, "{name}: |shaped - PyTorch| = {diff:e}, |PyTorch| = {norm:e}");
        checked += 1;
    }
    assert_eq!(checked, 8);
}
