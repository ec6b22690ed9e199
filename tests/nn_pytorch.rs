//! A network trained in PyTorch (scripts/modules_data.py) whose state dict loads into the same
//! network written with shaped's modules by PyTorch's own keys: the outputs in evaluation mode
//! equal PyTorch's, and five Adam steps from there give PyTorch's losses (issue 47). Also the
//! state dict's contract: strict and non-strict loads, errors naming the key and both shapes, a
//! failed load leaving the model unchanged, a round trip through a file.
#![cfg(feature = "safetensors")]
use shaped::autograd::optim::{Adam, AdamConfig};
use shaped::autograd::{Tape, Var};
use shaped::io::IoError;
use shaped::nn::functional::{cross_entropy, Reduction};
use shaped::nn::{BatchNorm2d, Conv2d, Flatten, Forward, LayerNorm, Linear, MaxPool2d, Module, Predict, StateTensor};
use shaped::prelude::*;
use shaped::rand::{rngs::StdRng, SeedableRng};

#[path = "data/modules_data.rs"]
mod data;

const NET: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/modules_net.safetensors");

/// PyTorch's `Net` of scripts/modules_data.py, field for field.
#[derive(Module)]
struct Net {
    conv: Conv2d<Const<1>, Const<4>, Const<3>, f32, 1, 1>,
    bn: BatchNorm2d<Const<4>>,
    fc1: Linear<Const<64>, Const<16>>,
    norm: LayerNorm<Const<16>>,
    fc2: Linear<Const<16>, Const<3>>,
}

impl Net {
    fn new(rng: &mut StdRng) -> Self {
        Net {
            conv: Conv2d::new(rng),
            bn: BatchNorm2d::new(),
            fc1: Linear::new(rng),
            norm: LayerNorm::new(),
            fc2: Linear::new(rng),
        }
    }
}

impl<'t, N: Dim> Forward<'t, f32, (N, One, Const<8>, Const<8>)> for Net {
    type Out = (N, Const<3>);
    fn try_forward(
        &mut self,
        tape: &'t Tape<f32>,
        x: &Var<'t, f32, (N, One, Const<8>, Const<8>)>,
    ) -> Result<Var<'t, f32, (N, Const<3>)>, ShapeError> {
        let h = self.bn.try_forward(tape, &self.conv.try_forward(tape, x)?)?.relu(); // [N, 4, 8, 8]
        let h = MaxPool2d::<2>.try_forward(tape, &h)?; // [N, 4, 4, 4]
        let h = Flatten::<Const<64>>::new().try_forward(tape, &h)?; // [N, 64]
        let h = self.fc1.try_forward(tape, &h)?.gelu();
        self.fc2.try_forward(tape, &self.norm.try_forward(tape, &h)?)
    }
}

fn input() -> Tensor<f32, Shape![8, 1, 8, 8]> {
    Tensor::from_vec(&[8, 1, 8, 8], data::X.to_vec())
}

#[test]
fn a_pytorch_checkpoint_loads_by_its_own_keys_and_runs_as_pytorch() {
    let mut net = Net::new(&mut StdRng::seed_from_u64(0));
    let names: Vec<String> = net.state_dict().keys().map(String::from).collect();
    assert_eq!(names, data::KEYS);
    let report = net.load_safetensors(NET, true).unwrap();
    assert!(report.missing_keys.is_empty() && report.unexpected_keys.is_empty());
    assert_eq!(net.bn.num_batches_tracked.0, data::BATCHES);

    net.eval();
    let out: Tensor<f32, Shape![8, 3]> = net.predict(&input());
    for (i, (a, b)) in out.to_vec().iter().zip(data::OUT_EVAL).enumerate() {
        assert!((a - b).abs() <= 1e-5 * (1.0 + b.abs()), "output {i}: shaped {a}, PyTorch {b}");
    }

    // Five Adam steps in training mode, from the loaded state: PyTorch's losses.
    net.train();
    let y = Tensor::<i64, Shape![8]>::from_vec(&[8], data::Y.to_vec());
    let mut opt = Adam::new(AdamConfig { lr: 1e-2, ..Default::default() });
    for (step, want) in data::LOSSES.iter().enumerate() {
        let tape = Tape::new();
        let logits = net.forward(&tape, &Var::constant(input()));
        let loss = cross_entropy(&logits, &y, Reduction::Mean, 0.0);
        let got = loss.item() as f64;
        assert!((got - want).abs() <= 1e-5 * want.abs(), "step {step}: shaped loss {got}, PyTorch {want}");
        let grads = loss.backward();
        opt.step(&mut net.parameters(), &grads);
    }
    assert_eq!(net.bn.num_batches_tracked.0, data::BATCHES + 5);
}

#[test]
fn a_state_dict_round_trips_through_a_file_and_memory() {
    let dir = std::env::temp_dir().join(format!("shaped-nn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("net.safetensors");
    let mut a = Net::new(&mut StdRng::seed_from_u64(1));
    a.bn.num_batches_tracked.0 = 42;
    a.save_safetensors(&path).unwrap();
    let mut b = Net::new(&mut StdRng::seed_from_u64(2));
    assert_ne!(a.state_dict(), b.state_dict());
    b.load_safetensors(&path, true).unwrap();
    assert_eq!(a.state_dict(), b.state_dict());
    // In memory, as PyTorch's `b.load_state_dict(a.state_dict())`.
    let mut c = Net::new(&mut StdRng::seed_from_u64(3));
    c.load_state_dict(&a.state_dict(), true).unwrap();
    assert_eq!(c.state_dict(), a.state_dict());
    assert_eq!(c.state_dict().get("bn.num_batches_tracked"), Some(&StateTensor::Int(42)));
    std::fs::remove_dir_all(&dir).ok();
}

/// A model with one more layer than the file and one fewer.
#[derive(Module)]
struct Partial {
    conv: Conv2d<Const<1>, Const<4>, Const<3>, f32, 1, 1>,
    head: Linear<Const<16>, Const<3>>,
}

#[test]
fn strict_loads_name_the_keys_and_lenient_ones_report_them() {
    let rng = &mut StdRng::seed_from_u64(4);
    let mut m = Partial { conv: Conv2d::new(rng), head: Linear::new(rng) };
    let before = m.state_dict();
    let e = m.load_safetensors(NET, true).unwrap_err();
    let msg = e.to_string();
    assert!(msg.starts_with("safetensors file"), "{msg}");
    assert!(msg.contains(r#"missing key(s) ["head.weight", "head.bias"]"#), "{msg}");
    assert!(msg.contains("unexpected key(s) [") && msg.contains(r#""bn.running_var""#), "{msg}");
    assert!(matches!(e.inner(), IoError::Keys { .. }));
    assert_eq!(m.state_dict(), before, "a failed load changes nothing");
    // Not strict: the conv loads, the rest is reported.
    let report = m.load_safetensors(NET, false).unwrap();
    assert_eq!(report.missing_keys, ["head.weight", "head.bias"]);
    assert_eq!(report.unexpected_keys.len(), 11);
    assert_ne!(m.state_dict().get("conv.weight"), before.get("conv.weight"));
    assert_eq!(m.state_dict().get("head.weight"), before.get("head.weight"));
}

/// The file's `fc1` is `[16, 64]`; this model's is `[16, 32]`.
#[derive(Module)]
struct Wrong {
    conv: Conv2d<Const<1>, Const<4>, Const<3>, f32, 1, 1>,
    fc1: Linear<Const<32>, Const<16>>,
}

#[test]
fn a_shape_mismatch_names_the_key_and_both_shapes_even_when_not_strict() {
    let rng = &mut StdRng::seed_from_u64(5);
    let mut m = Wrong { conv: Conv2d::new(rng), fc1: Linear::new(rng) };
    let before = m.state_dict();
    let e = m.load_safetensors(NET, false).unwrap_err().to_string();
    assert!(e.contains(r#"tensor "fc1.weight": shape [16, 64] in the file, the parameter is [16, 32]"#), "{e}");
    assert_eq!(m.state_dict(), before);
    // In memory the same.
    let mut net = Net::new(rng);
    net.load_safetensors(NET, true).unwrap();
    let e = m.load_state_dict(&net.state_dict(), false).unwrap_err().to_string();
    assert!(e.contains("fc1.weight") && e.contains("[16, 64]") && e.contains("[16, 32]"), "{e}");
    // An f64 model refuses the f32 file, naming both dtypes.
    #[derive(Module)]
    struct Net64 {
        conv: Conv2d<Const<1>, Const<4>, Const<3>, f64, 1, 1>,
    }
    let mut m64 = Net64 { conv: Conv2d::new(rng) };
    let e = m64.load_safetensors(NET, false).unwrap_err().to_string();
    assert!(e.contains(r#"tensor "conv.weight": dtype F32 in the file, the parameter is F64"#), "{e}");
}

#[path = "data/conv_layers_data.rs"]
mod conv_data;

/// PyTorch's `nn.Conv1d(3, 5, 3, stride=2, padding=1)` and `nn.ConvTranspose2d(4, 2, 3, stride=2,
/// padding=1, output_padding=1)` (scripts/conv_layers_data.py): their state dict loads by its own
/// keys, and the outputs equal PyTorch's to 1e-5.
#[derive(Module)]
struct Convs {
    c1: shaped::nn::Conv1d<Const<3>, Const<5>, Const<3>, f32, 2, 1>,
    ct: shaped::nn::ConvTranspose2d<Const<4>, Const<2>, Const<3>, f32, 2, 1, 1>,
}

#[test]
fn conv1d_and_conv_transpose2d_load_pytorchs_weights_and_match_its_outputs() {
    let rng = &mut StdRng::seed_from_u64(6);
    let mut m = Convs { c1: shaped::nn::Conv1d::new(rng), ct: shaped::nn::ConvTranspose2d::new(rng) };
    m.load_safetensors(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/conv_layers.safetensors"), true).unwrap();
    let x1 = Tensor::<f32, Shape![2, 3, 10]>::from_vec(&[2, 3, 10], conv_data::X1.to_vec());
    let y1: Tensor<f32, Shape![2, 5, 5]> = m.c1.predict(&x1);
    let x2 = Tensor::<f32, Shape![2, 4, 5, 5]>::from_vec(&[2, 4, 5, 5], conv_data::X2.to_vec());
    let y2 = m.ct.predict(&x2);
    assert_eq!(y1.sizes(), conv_data::Y1_SIZES);
    assert_eq!(y2.sizes(), conv_data::Y2_SIZES);
    for (got, want) in [(y1.to_vec(), conv_data::Y1), (y2.to_vec(), conv_data::Y2)] {
        for (i, (a, b)) in got.iter().zip(want).enumerate() {
            assert!((a - b).abs() <= 1e-5 * (1.0 + b.abs()), "{i}: shaped {a}, PyTorch {b}");
        }
    }
}
