//! The digits CNN of the gradients issue as a model of `shaped::nn` modules:
//! conv(1->8, 3x3, padding 1)-relu-maxpool-conv(8->16)-relu-maxpool-linear(64->32)-gelu-
//! linear(32->10). Every size but the batch is in the types; the parameters' keys are
//! PyTorch's (`conv1.weight`, ..., `fc2.bias`). Shared by `examples/digits_cnn.rs`,
//! `tests/digits_torch.rs` and `benches/autograd.rs` (`#[path]`).
#![allow(dead_code)]
use shaped::autograd::{Tape, Var};
use shaped::nn::{Conv2d, Flatten, Forward, Linear, MaxPool2d, Module};
use shaped::prelude::*;

/// PyTorch's `nn.Module` of scripts/digits_torch.py, field for field.
#[derive(Module)]
pub struct DigitsCnn {
    pub conv1: Conv2d<One, Const<8>, Const<3>, f32, 1, 1>,
    pub conv2: Conv2d<Const<8>, Const<16>, Const<3>, f32, 1, 1>,
    pub fc1: Linear<Const<64>, Const<32>>,
    pub fc2: Linear<Const<32>, Const<10>>,
}

impl DigitsCnn {
    /// A freshly initialised network (PyTorch's default initialisation), from `seed`.
    #[cfg(feature = "rand")]
    pub fn new(seed: u64) -> Self {
        use shaped::rand::SeedableRng;
        let rng = &mut shaped::rand::rngs::StdRng::seed_from_u64(seed);
        DigitsCnn { conv1: Conv2d::new(rng), conv2: Conv2d::new(rng), fc1: Linear::new(rng), fc2: Linear::new(rng) }
    }
}

/// The logits of a batch of any size, static or not: `[N, 1, 8, 8] -> [N, 10]`.
impl<'t, N: Dim> Forward<'t, f32, (N, One, Const<8>, Const<8>)> for DigitsCnn {
    type Out = (N, Const<10>);
    fn try_forward(
        &mut self,
        tape: &'t Tape<f32>,
        x: &Var<'t, f32, (N, One, Const<8>, Const<8>)>,
    ) -> Result<Var<'t, f32, (N, Const<10>)>, ShapeError> {
        let h = MaxPool2d::<2>.try_forward(tape, &self.conv1.try_forward(tape, x)?.relu())?; // [N, 8, 4, 4]
        let h = MaxPool2d::<2>.try_forward(tape, &self.conv2.try_forward(tape, &h)?.relu())?; // [N, 16, 2, 2]
        let h = Flatten::<Const<64>>::new().try_forward(tape, &h)?;
        let h = self.fc1.try_forward(tape, &h)?.gelu();
        self.fc2.try_forward(tape, &h)
    }
}
