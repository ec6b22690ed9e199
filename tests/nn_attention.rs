//! `shaped::nn::MultiheadAttention` and `shaped::nn::TransformerEncoderLayer` (issue 47): the
//! state-dict keys are PyTorch's, in its order; train/eval reach every dropout; wrong sizes are
//! errors naming them; and (with the `safetensors` feature) PyTorch's state dicts
//! (tests/data/attention_data_*.safetensors, written by scripts/attention_data.py) load by their
//! keys and the outputs, attention weights and gradients of every parameter and input match
//! PyTorch's (tests/data/attention_data_{f64,f32}.npz) without a mask, with a key padding mask,
//! causal, with a float mask and with a fully padded sequence: f64 to 1e-10, f32 to 1e-5
//! (relative to 1 + |PyTorch's value|).
use shaped::autograd::{GradFloat, Tape, Var};
use shaped::nn::{
    AttentionOptions, AttnMask, EncoderLayerOptions, Forward, Item, Linear, Module, MultiheadAttention,
    TransformerEncoderLayer,
};
use shaped::prelude::*;
use shaped::rand::{rngs::StdRng, SeedableRng};

type Mha<T> = MultiheadAttention<Const<8>, 2, T>;
type Tel<T> = TransformerEncoderLayer<Const<8>, 2, Const<16>, T>;

const MHA_KEYS: [&str; 4] = ["in_proj_weight", "in_proj_bias", "out_proj.weight", "out_proj.bias"];
const TEL_KEYS: [&str; 12] = [
    "self_attn.in_proj_weight",
    "self_attn.in_proj_bias",
    "self_attn.out_proj.weight",
    "self_attn.out_proj.bias",
    "linear1.weight",
    "linear1.bias",
    "linear2.weight",
    "linear2.bias",
    "norm1.weight",
    "norm1.bias",
    "norm2.weight",
    "norm2.bias",
];

fn rng() -> StdRng {
    StdRng::seed_from_u64(47)
}

#[test]
fn keys_shapes_and_counts_are_pytorchs() {
    let mut mha = Mha::<f32>::new(&mut rng());
    assert_eq!(mha.parameter_names(), MHA_KEYS);
    assert_eq!(mha.state_dict().keys().collect::<Vec<_>>(), MHA_KEYS);
    assert_eq!(mha.in_proj_weight.value().sizes(), [24, 8]);
    assert_eq!(mha.in_proj_bias.as_ref().unwrap().value().sizes(), [24]);
    assert_eq!((mha.embed_dim(), mha.num_heads(), mha.head_dim()), (8, 2, 4));
    // PyTorch: sum(p.numel() for p in nn.MultiheadAttention(8, 2).parameters()) == 288.
    assert_eq!(mha.num_parameters(), 288);
    // PyTorch's init: zero biases, in_proj_weight within Xavier's bound sqrt(6 / 32).
    assert!(mha.in_proj_bias.as_ref().unwrap().value().iter().all(|&v| v == 0.0));
    assert!(mha.out_proj.bias.as_ref().unwrap().value().iter().all(|&v| v == 0.0));
    assert!(mha.in_proj_weight.value().iter().all(|&v| v.abs() <= (6.0f32 / 32.0).sqrt()));

    let mut tel = Tel::<f32>::new(&mut rng());
    assert_eq!(tel.parameter_names(), TEL_KEYS);
    assert_eq!(tel.state_dict().keys().collect::<Vec<_>>(), TEL_KEYS);
    assert_eq!(tel.num_parameters(), 288 + (16 * 8 + 16) + (8 * 16 + 8) + 4 * 8);

    // bias=False: no in_proj_bias, no out_proj.bias, no linear or norm bias (PyTorch's keys).
    let mut no_bias = MultiheadAttention::<Const<8>, 2>::try_new_sized(None, 0.0, false, &mut rng()).unwrap();
    assert_eq!(no_bias.parameter_names(), ["in_proj_weight", "out_proj.weight"]);
    let opts = EncoderLayerOptions { bias: false, ..EncoderLayerOptions::default() };
    let mut tel = Tel::<f32>::try_new_sized(None, None, opts, &mut rng()).unwrap();
    assert_eq!(
        tel.parameter_names(),
        [
            "self_attn.in_proj_weight",
            "self_attn.out_proj.weight",
            "linear1.weight",
            "linear2.weight",
            "norm1.weight",
            "norm2.weight"
        ]
    );

    // In a model, under the field's name (nn.TransformerEncoder's `layers.0. ...`).
    let mut stack = vec![Tel::<f32>::new(&mut rng()), Tel::<f32>::new(&mut rng())];
    let names = stack.parameter_names();
    assert_eq!(names.len(), 24);
    assert_eq!(names[12], "1.self_attn.in_proj_weight");
    assert_eq!(names[23], "1.norm2.bias");
}

/// The training flags below `m`.
fn flags<T: GradFloat>(m: &mut impl Module<T>) -> Vec<bool> {
    let mut out = Vec::new();
    m.visit("", &mut |_, item| {
        if let Item::Training(t) = item {
            out.push(*t)
        }
    });
    out
}

#[test]
fn train_and_eval_reach_every_dropout() {
    let opts = EncoderLayerOptions { dropout: 0.5, ..EncoderLayerOptions::default() };
    let mut tel = Tel::<f64>::try_new_sized(None, None, opts, &mut rng()).unwrap();
    // The attention's flag and the three dropouts'.
    assert_eq!(flags(&mut tel), [true; 4]);
    assert!(tel.is_training());
    tel.eval();
    assert_eq!(flags(&mut tel), [false; 4]);
    assert!(!tel.is_training() && !tel.self_attn.training && !tel.dropout.training);
    assert!(!tel.dropout1.training && !tel.dropout2.training);

    let x = Tensor::<f64, Shape![2, 5, 8]>::randn(&mut rng());
    let run = |tel: &mut Tel<f64>| {
        let tape = Tape::new();
        tel.forward(&tape, &Var::constant(x.clone())).value().to_vec()
    };
    // Evaluation: deterministic.
    let (a, b) = (run(&mut tel), run(&mut tel));
    assert_eq!(a, b);
    // Training: the dropouts draw (a new mask each call).
    tel.train();
    assert_eq!(flags(&mut tel), [true; 4]);
    let (c, d) = (run(&mut tel), run(&mut tel));
    assert_ne!(c, a);
    assert_ne!(c, d);
    // The same again in evaluation mode.
    tel.eval();
    assert_eq!(run(&mut tel), a);
}

#[test]
fn attention_weights_dropout_in_training_only() {
    let mut mha = MultiheadAttention::<Const<8>, 2, f64>::try_new_sized(None, 0.5, true, &mut rng()).unwrap();
    mha.seed_dropout(3);
    let x = Tensor::<f64, Shape![2, 6, 8]>::randn(&mut rng());
    let weights = |mha: &mut MultiheadAttention<Const<8>, 2, f64>| {
        let tape = Tape::new();
        let v = Var::constant(x.clone());
        let (_, w) = mha.forward_qkv(&tape, &v, &v, &v, AttentionOptions::default());
        w.unwrap().value().to_vec()
    };
    // Training: some weights dropped (an average of two heads is 0 only where both dropped) and
    // the rest scaled by 2, so rows no longer sum to 1.
    let w = weights(&mut mha);
    assert!(w.contains(&0.0));
    assert!(w.chunks(6).any(|row| (row.iter().sum::<f64>() - 1.0).abs() > 1e-6));
    // Evaluation: each row of weights sums to 1.
    mha.eval();
    let w = weights(&mut mha);
    assert!(w.chunks(6).all(|row| (row.iter().sum::<f64>() - 1.0).abs() < 1e-12));
}

#[test]
fn self_attention_composes_in_a_tuple_and_matches_forward_qkv() {
    let r = &mut rng();
    let mut model = (Mha::<f64>::new(r), Linear::<Const<8>, Const<3>, f64>::new(r));
    assert_eq!(model.parameter_names()[4], "1.weight");
    let x = Tensor::<f64, Shape![2, 5, 8]>::randn(r);
    let tape = Tape::new();
    let xv = tape.var(x.clone());
    let y = model.forward(&tape, &xv); // Var<f64, Shape![2, 5, 3]>
    assert_eq!(y.sizes(), [2, 5, 3]);
    let g = y.sum().backward();
    assert_eq!(g.wrt(&xv).unwrap().sizes(), [2, 5, 8]);
    assert!(g.param(&model.0.in_proj_weight).unwrap().iter().all(|v| v.is_finite()));

    let tape = Tape::new();
    let xv = Var::constant(x);
    let a = model.0.forward(&tape, &xv);
    let opts = AttentionOptions { need_weights: false, ..AttentionOptions::default() };
    let (b, w) = model.0.forward_qkv(&tape, &xv, &xv, &xv, opts);
    assert!(w.is_none());
    assert_eq!(a.value().to_vec(), b.value().to_vec());
}

#[test]
fn the_causal_flag_is_the_causal_mask() {
    let r = &mut rng();
    let mut mha = Mha::<f64>::new(r);
    let q = Var::constant(Tensor::<f64, Shape![2, 3, 8]>::randn(r));
    let kv = Var::constant(Tensor::<f64, Shape![2, 4, 8]>::randn(r));
    let causal = Tensor::<bool, Shape![3, 4]>::from_fn(|[i, j]| j > i);
    let tape = Tape::new();
    let run = |mha: &mut Mha<f64>, opts| {
        let (o, w) = mha.forward_qkv(&tape, &q, &kv, &kv, opts);
        (o.value().to_vec(), w.unwrap().value().to_vec())
    };
    let flag = run(&mut mha, AttentionOptions { is_causal: true, ..AttentionOptions::default() });
    let mask =
        run(&mut mha, AttentionOptions { attn_mask: Some(AttnMask::Bool(&causal)), ..AttentionOptions::default() });
    // Both, as PyTorch is called (the hint beside the mask).
    let both = run(
        &mut mha,
        AttentionOptions { attn_mask: Some(AttnMask::Bool(&causal)), is_causal: true, ..AttentionOptions::default() },
    );
    assert_eq!(flag, mask);
    assert_eq!(flag, both);
    // Query 0 sees key 0 only; nothing above the diagonal.
    let w = &flag.1;
    assert_eq!(&w[0..4], [1.0, 0.0, 0.0, 0.0]);
    assert_eq!(w[4 + 2..4 + 4], [0.0, 0.0]);
}

#[test]
fn wrong_sizes_are_errors_naming_them() {
    let r = &mut rng();
    // A static E that differs from the size given, a runtime E that the heads do not divide.
    let e = Mha::<f32>::try_new_sized(Some(6), 0.0, true, r).unwrap_err().to_string();
    assert!(e.contains("embed_dim 6 differs from the type's 8"), "{e}");
    let e = MultiheadAttention::<Dyn, 3>::try_new_sized(Some(8), 0.0, true, r).unwrap_err().to_string();
    assert!(e.contains("embed_dim 8 must be divisible by num_heads 3"), "{e}");
    let e = MultiheadAttention::<Dyn, 2>::try_new_sized(None, 0.0, true, r).unwrap_err().to_string();
    assert!(e.contains("runtime size"), "{e}");
    let e = Mha::<f32>::try_new_sized(None, 1.5, true, r).unwrap_err().to_string();
    assert!(e.contains("between 0 and 1"), "{e}");

    // A runtime E: the inputs' last size is checked.
    let mut mha = MultiheadAttention::<Dyn, 2, f64>::try_new_sized(Some(8), 0.0, true, r).unwrap();
    assert_eq!(mha.in_proj_weight.value().sizes(), [24, 8]);
    let tape = Tape::new();
    let x = Var::constant(Tensor::<f64, (Const<2>, Const<3>, Dyn)>::zeros_sized(&[2, 3, 6]));
    let e = mha.try_forward(&tape, &x).unwrap_err().to_string();
    assert!(e.contains("embed_dim 8") && e.contains("[2, 3, 6]"), "{e}");
    let e = mha.try_forward_qkv(&tape, &x, &x, &x, AttentionOptions::default()).unwrap_err().to_string();
    assert!(e.contains("embed_dim 8") && e.contains("[2, 3, 6]"), "{e}");
    let mut tel = TransformerEncoderLayer::<Dyn, 2, Dyn, f64>::try_new_sized(
        Some(8),
        Some(16),
        EncoderLayerOptions::default(),
        r,
    )
    .unwrap();
    let e = tel.try_forward(&tape, &x).unwrap_err().to_string();
    assert!(e.contains("d_model 8") && e.contains("[2, 3, 6]"), "{e}");
    // A runtime batch and key count: the key and value must agree with the query.
    let mut mha = Mha::<f64>::new(r);
    let q = Var::constant(Tensor::<f64, (Dyn, Const<3>, Const<8>)>::zeros_sized(&[2, 3, 8]));
    let k = Var::constant(Tensor::<f64, (Dyn, Const<4>, Const<8>)>::zeros_sized(&[3, 4, 8]));
    let e = mha.try_forward_qkv(&tape, &q, &k, &k, AttentionOptions::default()).unwrap_err().to_string();
    assert!(e.contains("differ in N or S"), "{e}");
    // Masks of runtime sizes that do not fit.
    let q = Var::constant(Tensor::<f64, (Dyn, Dyn, Const<8>)>::zeros_sized(&[2, 3, 8]));
    let pad = Tensor::<bool, (Dyn, Dyn)>::full_sized(&[2, 5], false);
    let opts = AttentionOptions { key_padding_mask: Some(&pad), ..AttentionOptions::default() };
    let e = mha.try_forward_qkv(&tape, &q, &q, &q, opts).unwrap_err().to_string();
    assert!(e.contains("key_padding_mask must be [N, S] = [2, 3]") && e.contains("[2, 5]"), "{e}");
    let m = Tensor::<f64, (Dyn, Dyn)>::zeros_sized(&[3, 4]);
    let opts = AttentionOptions { attn_mask: Some(AttnMask::Float(&m)), ..AttentionOptions::default() };
    let e = mha.try_forward_qkv(&tape, &q, &q, &q, opts).unwrap_err().to_string();
    assert!(e.contains("attn_mask must be [L, S] = [3, 3]") && e.contains("[3, 4]"), "{e}");
}

#[cfg(feature = "safetensors")]
mod pytorch {
    //! Against PyTorch: state dicts loaded through `Module::load_safetensors`, outputs, weights
    //! and gradients compared (NaN where PyTorch has NaN, nowhere else).
    use super::*;
    use shaped::autograd::Grads;
    use shaped::io::{NpyElement, NpzReader};
    use shaped::nn::Activation;

    fn path(name: &str) -> String {
        format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
    }

    struct Refs {
        npz: NpzReader<std::io::BufReader<std::fs::File>>,
        rtol: f64,
        /// The largest error of each case.
        report: Vec<(String, f64)>,
    }

    impl Refs {
        fn open(suffix: &str, rtol: f64) -> Self {
            let npz = NpzReader::open(path(&format!("attention_data_{suffix}.npz"))).unwrap();
            Refs { npz, rtol, report: Vec::new() }
        }
        fn get<T: NpyElement, S: Shape>(&mut self, name: &str) -> Tensor<T, S> {
            self.npz.read(name).unwrap_or_else(|e| panic!("{name}: {e}"))
        }
        /// The keys PyTorch's `state_dict()` gives, in its order.
        fn keys(&mut self, model: &str) -> Vec<String> {
            let bytes: Tensor<u8, DynShape> = self.get(&format!("{model}.keys"));
            String::from_utf8(bytes.to_vec()).unwrap().split('\n').map(String::from).collect()
        }
        /// Compares `got` with the reference `name`: NaN at the same places, elsewhere within
        /// `rtol` of `1 + |want|`.
        fn check<T: GradFloat + NpyElement>(&mut self, name: &str, sizes: &[usize], got: &[T]) {
            let want: Tensor<T, DynShape> = self.get(name);
            assert_eq!(want.sizes(), sizes, "{name}: sizes");
            let mut worst = 0.0f64;
            for (i, (g, w)) in got.iter().zip(want.iter()).enumerate() {
                let (g, w) = (g.as_f64(), w.as_f64());
                assert_eq!(g.is_nan(), w.is_nan(), "{name}[{i}]: shaped {g}, PyTorch {w}");
                if !w.is_nan() {
                    worst = worst.max((g - w).abs() / (1.0 + w.abs()));
                }
            }
            assert!(worst <= self.rtol, "{name}: max relative error {worst:.3e} > {}", self.rtol);
            let case = name.split('.').take(2).collect::<Vec<_>>().join(".");
            match self.report.iter_mut().find(|(c, _)| *c == case) {
                Some((_, e)) => *e = e.max(worst),
                None => self.report.push((case, worst)),
            }
        }
        /// The gradient of every parameter of `model`, by PyTorch's key.
        fn check_params<T: GradFloat + NpyElement>(
            &mut self,
            prefix: &str,
            model: &mut impl Module<T>,
            grads: &Grads<T>,
        ) {
            for (key, p) in model.named_parameters() {
                let g = grads.param_slice(p.id()).unwrap_or_else(|| panic!("{prefix}{key}: no gradient"));
                let sizes = p.sizes().to_vec();
                self.check(&format!("{prefix}{key}"), &sizes, g);
            }
        }
        fn print(&self) {
            // `cargo test -- --nocapture` shows the largest error of each case.
            for (case, e) in &self.report {
                println!("{case}: {e:.2e}");
            }
        }
    }

    fn bools<S: Shape>(t: &Tensor<u8, S>) -> Tensor<bool, S> {
        t.map(|v| v != 0)
    }

    const CASES: [&str; 5] = ["none", "kpm", "causal", "float", "kpm_full"];

    fn mha_against_pytorch<T: GradFloat + NpyElement>(suffix: &str, rtol: f64) {
        let mut refs = Refs::open(suffix, rtol);
        let mut mha = Mha::<T>::new(&mut rng());
        let report = mha.load_safetensors(path(&format!("attention_data_mha_{suffix}.safetensors")), true).unwrap();
        assert!(report.missing_keys.is_empty() && report.unexpected_keys.is_empty());
        assert_eq!(mha.state_dict().keys().collect::<Vec<_>>(), refs.keys("mha"));
        let q: Tensor<T, Shape![2, 3, 8]> = refs.get("mha.query");
        let k: Tensor<T, Shape![2, 4, 8]> = refs.get("mha.key");
        let v: Tensor<T, Shape![2, 4, 8]> = refs.get("mha.value");
        let seed: Tensor<T, Shape![2, 3, 8]> = refs.get("mha.seed");
        let kpm = bools(&refs.get::<u8, Shape![2, 4]>("mask.kpm"));
        let kpm_full = bools(&refs.get::<u8, Shape![2, 4]>("mask.kpm_full"));
        let float: Tensor<T, Shape![3, 4]> = refs.get("mask.float_mha");
        for case in CASES.into_iter().chain(["kpm_full_nw"]) {
            let need_weights = case != "kpm_full_nw";
            let mut opts = AttentionOptions { need_weights, ..AttentionOptions::default() };
            match case {
                "kpm" => opts.key_padding_mask = Some(&kpm),
                "kpm_full" | "kpm_full_nw" => opts.key_padding_mask = Some(&kpm_full),
                "causal" => opts.is_causal = true,
                "float" => opts.attn_mask = Some(AttnMask::Float(&float)),
                _ => {}
            }
            let tape = Tape::new();
            let (qv, kv, vv) = (tape.var(q.clone()), tape.var(k.clone()), tape.var(v.clone()));
            let (out, w) = mha.forward_qkv(&tape, &qv, &kv, &vv, opts);
            refs.check(&format!("mha.{case}.out"), &[2, 3, 8], &out.value().to_vec());
            assert_eq!(w.is_some(), need_weights);
            if let Some(w) = w {
                refs.check(&format!("mha.{case}.weights"), &[2, 3, 4], &w.value().to_vec());
            }
            let grads = out.mul(&Var::constant(seed.clone())).sum().backward();
            refs.check(&format!("mha.{case}.grad.query"), &[2, 3, 8], &grads.wrt(&qv).unwrap().to_vec());
            refs.check(&format!("mha.{case}.grad.key"), &[2, 4, 8], &grads.wrt(&kv).unwrap().to_vec());
            refs.check(&format!("mha.{case}.grad.value"), &[2, 4, 8], &grads.wrt(&vv).unwrap().to_vec());
            refs.check_params(&format!("mha.{case}.grad."), &mut mha, &grads);
        }
        refs.print();
    }

    fn tel_against_pytorch<T: GradFloat + NpyElement>(model: &str, suffix: &str, rtol: f64) {
        let mut refs = Refs::open(suffix, rtol);
        let options = match model {
            "post_relu" => EncoderLayerOptions { dropout: 0.0, ..EncoderLayerOptions::default() },
            _ => EncoderLayerOptions {
                dropout: 0.0,
                activation: Activation::Gelu,
                norm_first: true,
                ..EncoderLayerOptions::default()
            },
        };
        let mut tel = Tel::<T>::try_new_sized(None, None, options, &mut rng()).unwrap();
        tel.load_safetensors(path(&format!("attention_data_{model}_{suffix}.safetensors")), true).unwrap();
        assert_eq!(tel.state_dict().keys().collect::<Vec<_>>(), refs.keys(model));
        let x: Tensor<T, Shape![2, 4, 8]> = refs.get(&format!("{model}.x"));
        let seed: Tensor<T, Shape![2, 4, 8]> = refs.get(&format!("{model}.seed"));
        let kpm = bools(&refs.get::<u8, Shape![2, 4]>("mask.kpm"));
        let kpm_full = bools(&refs.get::<u8, Shape![2, 4]>("mask.kpm_full"));
        let float: Tensor<T, Shape![4, 4]> = refs.get("mask.float_tel");
        for case in CASES {
            let (mask, pad, causal) = match case {
                "kpm" => (None, Some(&kpm), false),
                "kpm_full" => (None, Some(&kpm_full), false),
                "causal" => (None, None, true),
                "float" => (Some(AttnMask::Float(&float)), None, false),
                _ => (None, None, false),
            };
            let tape = Tape::new();
            let xv = tape.var(x.clone());
            let out = tel.forward_masked(&tape, &xv, mask, pad, causal);
            refs.check(&format!("{model}.{case}.out"), &[2, 4, 8], &out.value().to_vec());
            let grads = out.mul(&Var::constant(seed.clone())).sum().backward();
            refs.check(&format!("{model}.{case}.grad.x"), &[2, 4, 8], &grads.wrt(&xv).unwrap().to_vec());
            refs.check_params(&format!("{model}.{case}.grad."), &mut tel, &grads);
        }
        refs.print();
    }

    #[test]
    fn multihead_attention_matches_pytorch_f64() {
        mha_against_pytorch::<f64>("f64", 1e-10);
    }

    #[test]
    fn multihead_attention_matches_pytorch_f32() {
        mha_against_pytorch::<f32>("f32", 1e-5);
    }

    #[test]
    fn post_norm_relu_encoder_layer_matches_pytorch_f64() {
        tel_against_pytorch::<f64>("post_relu", "f64", 1e-10);
    }

    #[test]
    fn post_norm_relu_encoder_layer_matches_pytorch_f32() {
        tel_against_pytorch::<f32>("post_relu", "f32", 1e-5);
    }

    #[test]
    fn pre_norm_gelu_encoder_layer_matches_pytorch_f64() {
        tel_against_pytorch::<f64>("pre_gelu", "f64", 1e-10);
    }

    #[test]
    fn pre_norm_gelu_encoder_layer_matches_pytorch_f32() {
        tel_against_pytorch::<f32>("pre_gelu", "f32", 1e-5);
    }

    #[test]
    fn a_state_dict_of_another_width_is_refused() {
        // PyTorch's E = 8 into a layer of E = 6 (runtime), and into f32 from f64.
        let mut mha = MultiheadAttention::<Dyn, 2, f64>::try_new_sized(Some(6), 0.0, true, &mut rng()).unwrap();
        let before = mha.in_proj_weight.value().to_vec();
        let e = mha.load_safetensors(path("attention_data_mha_f64.safetensors"), true).unwrap_err().to_string();
        assert!(e.contains("in_proj_weight") && e.contains("[24, 8]") && e.contains("18"), "{e}");
        assert_eq!(mha.in_proj_weight.value().to_vec(), before);
        let mut mha = Mha::<f32>::new(&mut rng());
        let e = mha.load_safetensors(path("attention_data_mha_f64.safetensors"), true).unwrap_err().to_string();
        assert!(e.contains("in_proj_weight"), "{e}");
        // An attention layer's state dict is not an encoder layer's.
        let mut tel = Tel::<f64>::new(&mut rng());
        let e = tel.load_safetensors(path("attention_data_mha_f64.safetensors"), true).unwrap_err().to_string();
        assert!(e.contains("self_attn.in_proj_weight"), "{e}");
    }
}
