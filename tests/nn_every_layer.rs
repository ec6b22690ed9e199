//! One model with a layer of every family (a convolution, batch norm, max pooling, flatten, an
//! embedding, a transformer encoder layer with a key padding mask, multi-head attention with a
//! key padding mask and a float attention mask, layer norm, linear), trained in PyTorch
//! (scripts/every_layer_data.py): its state dict loads by PyTorch's keys, its outputs in
//! evaluation mode equal PyTorch's to 1e-5 and five Adam steps in training mode give PyTorch's
//! losses to 1e-5 relative (issue 47).
#![cfg(all(feature = "safetensors", feature = "rand"))]
use shaped::autograd::optim::{Adam, AdamConfig};
use shaped::autograd::{Tape, Var};
use shaped::nn::functional::{cross_entropy, Reduction};
use shaped::nn::{
    AttentionOptions, AttnMask, BatchNorm2d, Conv2d, Embedding, EncoderLayerOptions, Flatten, Forward, LayerNorm,
    Linear, MaxPool2d, Module, MultiheadAttention, TransformerEncoderLayer,
};
use shaped::prelude::*;
use shaped::rand::{rngs::StdRng, SeedableRng};

#[path = "data/every_layer_data.rs"]
mod data;

const NET: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/every_layer.safetensors");

/// PyTorch's `Net` of scripts/every_layer_data.py, field for field.
#[derive(Module)]
struct Net {
    conv: Conv2d<Const<1>, Const<4>, Const<3>, f32, 1, 1>,
    bn: BatchNorm2d<Const<4>>,
    embed: Embedding<Const<11>, Const<8>>,
    encoder: TransformerEncoderLayer<Const<8>, 2, Const<16>>,
    attn: MultiheadAttention<Const<8>, 2>,
    norm: LayerNorm<Const<72>>,
    head: Linear<Const<72>, Const<3>>,
}

type Img = Shape![6, 1, 8, 8];

/// The inputs besides the image: tokens `[N, L]`, the padding `[N, L]` and the attention mask
/// `[L, L]`.
struct Inputs {
    tokens: Tensor<i64, Shape![6, 5]>,
    pad: Tensor<bool, Shape![6, 5]>,
    mask: Tensor<f32, Shape![5, 5]>,
}

impl Net {
    fn new(rng: &mut StdRng) -> Self {
        let no_dropout = EncoderLayerOptions { dropout: 0.0, ..Default::default() };
        Net {
            conv: Conv2d::new(rng),
            bn: BatchNorm2d::new(),
            embed: Embedding::new(rng),
            encoder: TransformerEncoderLayer::new_with(no_dropout, rng),
            attn: MultiheadAttention::new(rng),
            norm: LayerNorm::new(),
            head: Linear::new(rng),
        }
    }

    fn run<'t>(&mut self, tape: &'t Tape<f32>, img: &Var<'t, f32, Img>, x: &Inputs) -> Var<'t, f32, Shape![6, 3]> {
        let h = self.bn.forward(tape, &self.conv.forward(tape, img)).relu(); // [6, 4, 8, 8]
        let h = MaxPool2d::<2>.forward(tape, &h); // [6, 4, 4, 4]
        let h = Flatten::<Const<64>>::new().forward(tape, &h); // [6, 64]
        let t = self.embed.forward(tape, &x.tokens); // [6, 5, 8]
        let t = self.encoder.forward_masked(tape, &t, None, Some(&x.pad), false);
        let opts = AttentionOptions {
            key_padding_mask: Some(&x.pad),
            attn_mask: Some(AttnMask::Float(&x.mask)),
            need_weights: false,
            ..Default::default()
        };
        let (t, _) = self.attn.forward_qkv(tape, &t, &t, &t, opts);
        // The mean over the tokens that are not padding.
        let keep: Tensor<f32, Shape![6, 5, 1]> = x.pad.map(|p| if p { 0.0 } else { 1.0 }).reshape().into_owned();
        let count = keep.sum_axis(Ax::<1>); // [6, 1]
        let t = (&t * &Var::constant(keep)).sum_axis(Ax::<1>) / Var::constant(count); // [6, 8]
        self.head.forward(tape, &self.norm.forward(tape, &h.cat(&t, Ax::<1>)))
    }
}

#[test]
fn every_layer_family_loads_pytorch_weights_and_trains_as_pytorch() {
    let mut net = Net::new(&mut StdRng::seed_from_u64(0));
    let names: Vec<String> = net.state_dict().keys().map(String::from).collect();
    assert_eq!(names, data::KEYS);
    let report = net.load_safetensors(NET, true).unwrap();
    assert!(report.missing_keys.is_empty() && report.unexpected_keys.is_empty());
    assert_eq!(net.bn.num_batches_tracked.0, data::BATCHES);

    let img: Tensor<f32, Img> = Tensor::from_vec(&[6, 1, 8, 8], data::IMG.to_vec());
    let inputs = Inputs {
        tokens: Tensor::from_vec(&[6, 5], data::TOKENS.to_vec()),
        pad: Tensor::from_vec(&[6, 5], data::PAD.to_vec()),
        mask: Tensor::from_vec(&[5, 5], data::ATTN_MASK.to_vec()),
    };

    net.eval();
    let tape = Tape::new();
    let out = net.run(&tape, &Var::constant(img.clone()), &inputs);
    for (i, (a, b)) in out.value().to_vec().iter().zip(data::OUT_EVAL).enumerate() {
        assert!((a - b).abs() <= 1e-5 * (1.0 + b.abs()), "output {i}: shaped {a}, PyTorch {b}");
    }

    // Five Adam steps in training mode, from the loaded state: PyTorch's losses.
    net.train();
    let y = Tensor::<i64, Shape![6]>::from_vec(&[6], data::Y.to_vec());
    let mut opt = Adam::new(AdamConfig { lr: 3e-3, ..Default::default() });
    for (step, want) in data::LOSSES.iter().enumerate() {
        let tape = Tape::new();
        let logits = net.run(&tape, &Var::constant(img.clone()), &inputs);
        let loss = cross_entropy(&logits, &y, Reduction::Mean, 0.0);
        let got = loss.item() as f64;
        assert!((got - want).abs() <= 1e-5 * want.abs(), "step {step}: shaped loss {got}, PyTorch {want}");
        let grads = loss.backward();
        opt.step(&mut net.parameters(), &grads);
    }
    assert_eq!(net.bn.num_batches_tracked.0, data::BATCHES + 5);
}
