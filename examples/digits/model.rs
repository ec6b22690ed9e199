//! The digits CNN of the gradients issue, written once over `Var` for training and inference:
//! conv(1->8, 3x3, padding 1)-relu-maxpool-conv(8->16)-relu-maxpool-linear(64->32)-gelu-
//! linear(32->10). Every size but the batch is in the types. Shared by
//! `examples/digits_cnn.rs`, `tests/digits_torch.rs` and `benches/autograd.rs` (`#[path]`).
#![allow(dead_code)]
use shaped::autograd::nn::linear;
use shaped::autograd::{AnyParam, Param, Parameters, Tape, Var};
use shaped::prelude::*;

pub struct DigitsCnn {
    pub c1: Param<f32, Shape![8, 1, 3, 3]>,
    pub b1: Param<f32, Shape![8]>,
    pub c2: Param<f32, Shape![16, 8, 3, 3]>,
    pub b2: Param<f32, Shape![16]>,
    pub fc1: Param<f32, Shape![32, 64]>,
    pub fb1: Param<f32, Shape![32]>,
    pub fc2: Param<f32, Shape![10, 32]>,
    pub fb2: Param<f32, Shape![10]>,
}

impl Parameters<f32> for DigitsCnn {
    fn visit(&mut self, f: &mut dyn FnMut(&str, &mut dyn AnyParam<f32>)) {
        f("conv1.weight", &mut self.c1);
        f("conv1.bias", &mut self.b1);
        f("conv2.weight", &mut self.c2);
        f("conv2.bias", &mut self.b2);
        f("fc1.weight", &mut self.fc1);
        f("fc1.bias", &mut self.fb1);
        f("fc2.weight", &mut self.fc2);
        f("fc2.bias", &mut self.fb2);
    }
}

/// PyTorch's default initialisation of a layer with `fan_in` inputs: U(-1/√fan_in, 1/√fan_in)
/// for weights and biases alike.
#[cfg(feature = "rand")]
fn init<S: shaped::shape::AllStatic>(fan_in: usize, rng: &mut shaped::rand::rngs::StdRng) -> Param<f32, S> {
    let k = 1.0 / (fan_in as f32).sqrt();
    Param::new(Tensor::uniform(-k, k, rng))
}

impl DigitsCnn {
    /// A freshly initialised network (PyTorch's default initialisation), from `seed`.
    #[cfg(feature = "rand")]
    pub fn new(seed: u64) -> Self {
        use shaped::rand::SeedableRng;
        let rng = &mut shaped::rand::rngs::StdRng::seed_from_u64(seed);
        DigitsCnn {
            c1: init(9, rng),
            b1: init(9, rng),
            c2: init(72, rng),
            b2: init(72, rng),
            fc1: init(64, rng),
            fb1: init(64, rng),
            fc2: init(32, rng),
            fb2: init(32, rng),
        }
    }

    /// The logits of a batch of any size, static or not: `[N, 1, 8, 8] -> [N, 10]`.
    pub fn forward<'t, N: Dim>(
        &self,
        tape: &'t Tape<f32>,
        x: &Var<'t, f32, (N, One, Const<8>, Const<8>)>,
    ) -> Var<'t, f32, (N, Const<10>)> {
        let (c1, b1, c2, b2) = (tape.watch(&self.c1), tape.watch(&self.b1), tape.watch(&self.c2), tape.watch(&self.b2));
        let h = x.conv2d(&c1, &b1, Conv::<1, 1>).relu().max_pool2d(Pool::<2>); // [N, 8, 4, 4]
        let h = h.conv2d(&c2, &b2, Conv::<1, 1>).relu().max_pool2d(Pool::<2>); // [N, 16, 2, 2]
        let h = h.reshape::<(N, Const<64>)>();
        let h = linear(&h, &tape.watch(&self.fc1), Some(&tape.watch(&self.fb1))).gelu();
        linear(&h, &tape.watch(&self.fc2), Some(&tape.watch(&self.fb2)))
    }
}
