//! BERT encoders (Hugging Face `transformers`' `BertModel`) built from this module's layers, with
//! the checkpoint's own state-dict keys, and sentence embeddings as sentence-transformers makes
//! them (mean pooling over the attention mask, L2 normalisation).
//!
//! The sizes of a family of checkpoints are a [`BertSizes`] type (hidden size, heads,
//! feed-forward size, vocabulary, positions, token types, the layer norms' `eps`), so that the
//! layers' shapes are in the types and a checkpoint of other sizes fails to load naming the key
//! and both shapes; [`MiniLmL6`] is sentence-transformers' `all-MiniLM-L6-v2` (and every BERT of
//! hidden size 384 with 12 heads). The number of layers, the batch size and the sequence length
//! are run-time sizes.
//!
//! `BertModel::<MiniLmL6>::from_safetensors("all-MiniLM-L6-v2/model.safetensors")` (feature
//! `safetensors`) loads that checkpoint; the token ids come from the model's `tokenizer.json`
//! (the `tokenizers` crate, as `examples/sentence_embeddings.rs` does). A model of other sizes
//! is a type of its own:
//!
//! ```
//! # extern crate shaped_core as shaped;
//! use shaped::nn::bert::{BertModel, BertSizes};
//! use shaped::nn::Module;
//! use shaped::{Const, Dyn, Tensor};
//!
//! #[derive(Clone, Copy, Debug, Default)]
//! struct Small; // hidden 8 in 2 heads, feed-forward 16, 30 words, 16 positions
//! impl BertSizes for Small {
//!     type Hidden = Const<8>;
//!     type Intermediate = Const<16>;
//!     type Vocab = Const<30>;
//!     type Positions = Const<16>;
//!     type TypeVocab = Const<2>;
//!     const HEADS: usize = 2;
//!     const LAYER_NORM_EPS: f64 = 1e-12;
//! }
//! let mut model = BertModel::<Small>::zeros(2, false); // 2 layers, no pooler
//! let names = model.parameter_names();
//! assert_eq!(names[3], "embeddings.LayerNorm.weight");
//! assert_eq!(names[5], "encoder.layer.0.attention.self.query.weight");
//! // [CLS] a b [SEP] and [CLS] c [SEP] padded, as a tokenizer gives them.
//! let ids = Tensor::<u32, (Dyn, Dyn)>::from_vec(&[2, 4], vec![1, 5, 6, 2, 1, 7, 2, 0]);
//! let mask = Tensor::<u32, (Dyn, Dyn)>::from_vec(&[2, 4], vec![1, 1, 1, 1, 1, 1, 1, 0]);
//! let emb = model.try_embed(&ids, &mask).unwrap(); // Tensor<f32, (Dyn, Const<8>)>
//! assert_eq!(emb.sizes(), [2, 8]);
//! ```
//!
//! The same forward runs under a recording [`Tape`] for fine-tuning
//! ([`BertModel::try_sentence_embeddings`]); it has no dropout (Hugging Face's model in
//! evaluation mode, or with `hidden_dropout_prob = attention_probs_dropout_prob = 0`).
use super::{Forward, LayerNorm, Linear};
use crate::autograd::{GradFloat, Param, Tape, Var};
use crate::dim::{Const, Dim, Dyn};
use crate::element::{IndexElem, ToIndex};
use crate::error::{OrPanic, ShapeError};
use crate::shape::DynShape;
use crate::storage::Data;
use crate::tensor::{Tensor, TensorBase};
use alloc::format;
use alloc::vec::Vec;
use core::fmt::Debug;
use shaped_macros::try_twin;
use shaped_macros::Module;

/// The static sizes of a BERT checkpoint (Hugging Face's `BertConfig` without the layer count,
/// which is a run-time size): each is a [`Dim`], `Const<N>` for a size in the type.
pub trait BertSizes: Copy + Debug + Default + Send + Sync + 'static {
    /// `hidden_size`: the width of the hidden states.
    type Hidden: Dim;
    /// `intermediate_size`: the width of the feed-forward block's hidden layer.
    type Intermediate: Dim;
    /// `vocab_size`: the rows of the word embeddings.
    type Vocab: Dim;
    /// `max_position_embeddings`: the longest sequence.
    type Positions: Dim;
    /// `type_vocab_size`: the rows of the token type (segment) embeddings.
    type TypeVocab: Dim;
    /// `num_attention_heads`; `hidden_size` must be a multiple of it.
    const HEADS: usize;
    /// `layer_norm_eps` of every layer norm.
    const LAYER_NORM_EPS: f64;
}

/// The sizes of sentence-transformers' `all-MiniLM-L6-v2` (`nreimers/MiniLM-L6-H384-uncased`):
/// hidden 384, 12 heads of 32, feed-forward 1536, vocabulary 30522 (uncased WordPiece), 512
/// positions, 2 token types, `eps = 1e-12` (6 layers in that checkpoint).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MiniLmL6;

impl BertSizes for MiniLmL6 {
    type Hidden = Const<384>;
    type Intermediate = Const<1536>;
    type Vocab = Const<30522>;
    type Positions = Const<512>;
    type TypeVocab = Const<2>;
    const HEADS: usize = 12;
    const LAYER_NORM_EPS: f64 = 1e-12;
}

/// The shape of a BERT's hidden states for `C`: `[N, L, hidden]`.
pub type Hidden<C, N = Dyn, L = Dyn> = (N, L, <C as BertSizes>::Hidden);

/// A `Linear` of zeros (weights to be loaded).
fn zero_linear<I: Dim, O: Dim, T: GradFloat>(i: usize, o: usize) -> Linear<I, O, T> {
    Linear::from_parts(Tensor::zeros_sized(&[o, i]), Some(Tensor::zeros_sized(&[o])))
}

/// An `Embedding` of zeros.
fn zero_embedding<N: Dim, E: Dim, T: GradFloat>(n: usize, e: usize) -> super::Embedding<N, E, T> {
    super::Embedding { weight: Param::new(Tensor::zeros_sized(&[n, e])) }
}

/// A size of the type `D` (which must be static here).
fn size<D: Dim>(what: &str) -> usize {
    D::STATIC.unwrap_or_else(|| panic!("BertSizes: the {what} must be a static size (Const<N>)"))
}

/// A layer norm of `C`'s hidden size and `eps`, weight ones and bias zeros.
fn layer_norm<C: BertSizes, T: GradFloat>() -> LayerNorm<C::Hidden, T> {
    LayerNorm::try_new_sized(Some(size::<C::Hidden>("hidden size")), C::LAYER_NORM_EPS, true).or_panic()
}

/// The embeddings of a BERT (Hugging Face `BertEmbeddings`): the sum of the word, position and
/// token type embeddings, layer-normalised. Keys `word_embeddings.weight`,
/// `position_embeddings.weight`, `token_type_embeddings.weight`, `LayerNorm.weight`,
/// `LayerNorm.bias` (the checkpoint's `position_ids` buffer is `arange` and is not kept).
#[derive(Clone, Debug, Module)]
#[module(crate = "crate")]
pub struct BertEmbeddings<C: BertSizes, T: GradFloat = f32> {
    /// `[vocab, hidden]`.
    pub word_embeddings: super::Embedding<C::Vocab, C::Hidden, T>,
    /// `[positions, hidden]`: position `i` of every sequence.
    pub position_embeddings: super::Embedding<C::Positions, C::Hidden, T>,
    /// `[type vocab, hidden]`: the segment of each token (0 for one sentence).
    pub token_type_embeddings: super::Embedding<C::TypeVocab, C::Hidden, T>,
    /// Hugging Face's `LayerNorm` (`eps` of `C`).
    #[module(rename = "LayerNorm")]
    pub layer_norm: LayerNorm<C::Hidden, T>,
}

/// The query, key and value projections of a BERT layer's self-attention (Hugging Face
/// `BertSelfAttention`: three `Linear(hidden, hidden)`, keys `query`, `key`, `value`).
#[derive(Clone, Debug, Module)]
#[module(crate = "crate")]
pub struct BertSelfAttention<C: BertSizes, T: GradFloat = f32> {
    /// The queries' projection.
    pub query: Linear<C::Hidden, C::Hidden, T>,
    /// The keys' projection.
    pub key: Linear<C::Hidden, C::Hidden, T>,
    /// The values' projection.
    pub value: Linear<C::Hidden, C::Hidden, T>,
}

/// The output of a sub-block with its residual (Hugging Face `BertSelfOutput` and
/// `BertOutput`): `LayerNorm(dense(h) + input)`. Keys `dense.weight`, `dense.bias`,
/// `LayerNorm.weight`, `LayerNorm.bias`.
#[derive(Clone, Debug, Module)]
#[module(crate = "crate")]
pub struct BertResidualOutput<C: BertSizes, I: Dim, T: GradFloat = f32> {
    /// `Linear(I, hidden)`.
    pub dense: Linear<I, C::Hidden, T>,
    /// Hugging Face's `LayerNorm` (`eps` of `C`).
    #[module(rename = "LayerNorm")]
    pub layer_norm: LayerNorm<C::Hidden, T>,
}

/// A BERT layer's attention block (Hugging Face `BertAttention`): keys `self.*` and `output.*`.
#[derive(Clone, Debug, Module)]
#[module(crate = "crate")]
pub struct BertAttention<C: BertSizes, T: GradFloat = f32> {
    /// The projections (Hugging Face's `self`, a Rust keyword).
    #[module(rename = "self")]
    pub self_attention: BertSelfAttention<C, T>,
    /// The output projection, residual and layer norm (Hugging Face `BertSelfOutput`).
    pub output: BertResidualOutput<C, C::Hidden, T>,
}

/// The feed-forward block's first half (Hugging Face `BertIntermediate`): `gelu(dense(h))`, the
/// exact (erf) GELU. Key `dense`.
#[derive(Clone, Debug, Module)]
#[module(crate = "crate")]
pub struct BertIntermediate<C: BertSizes, T: GradFloat = f32> {
    /// `Linear(hidden, intermediate)`.
    pub dense: Linear<C::Hidden, C::Intermediate, T>,
}

/// One encoder layer (Hugging Face `BertLayer`): attention, then the feed-forward block, each
/// with its residual and layer norm (post-norm). Keys `attention.*`, `intermediate.*`,
/// `output.*`.
#[derive(Clone, Debug, Module)]
#[module(crate = "crate")]
pub struct BertLayer<C: BertSizes, T: GradFloat = f32> {
    /// The self-attention block.
    pub attention: BertAttention<C, T>,
    /// The feed-forward block's first half.
    pub intermediate: BertIntermediate<C, T>,
    /// The feed-forward block's second half (Hugging Face `BertOutput`).
    pub output: BertResidualOutput<C, C::Intermediate, T>,
}

/// The encoder (Hugging Face `BertEncoder`): the layers in order, keys `layer.0.*`, `layer.1.*`.
#[derive(Clone, Debug, Module)]
#[module(crate = "crate")]
pub struct BertEncoder<C: BertSizes, T: GradFloat = f32> {
    /// The layers (Hugging Face's `nn.ModuleList` `layer`).
    pub layer: Vec<BertLayer<C, T>>,
}

/// The pooler (Hugging Face `BertPooler`): `tanh(dense(h[:, 0]))`, the `[CLS]` token's state
/// through a `Linear(hidden, hidden)`. Sentence-transformers' mean pooling does not use it; it
/// is kept so that a checkpoint's `pooler.*` keys load and save.
#[derive(Clone, Debug, Module)]
#[module(crate = "crate")]
pub struct BertPooler<C: BertSizes, T: GradFloat = f32> {
    /// `Linear(hidden, hidden)`.
    pub dense: Linear<C::Hidden, C::Hidden, T>,
}

/// A BERT encoder (Hugging Face `transformers.BertModel`, absolute positions): token ids
/// `[N, L]` and an attention mask `[N, L]` give the last hidden state `[N, L, hidden]`. Its
/// [`Module`](super::Module) keys are the Hugging Face checkpoint's (`embeddings.word_embeddings.weight`,
/// `encoder.layer.0.attention.self.query.weight`, `encoder.layer.0.output.LayerNorm.bias`,
/// `pooler.dense.weight`, ...), so [`state_dict`](super::Module::state_dict) and
/// [`load_state_dict`](super::Module::load_state_dict) carry
/// a checkpoint over as it is, and `from_safetensors` (feature `safetensors`) loads
/// `model.safetensors` with its layer count.
///
/// The math, as `BertModel.forward` in evaluation mode (no dropout): the embeddings' sum
/// layer-normalised; per layer, `q, k, v` by the three projections, split into
/// [`BertSizes::HEADS`] heads, `softmax(q kᵀ / √head_dim + mask) v` with the padded keys masked
/// (the attention mask's zeros, as Hugging Face's `finfo.min`), the heads joined, `dense`, the
/// residual and `LayerNorm`; then `LayerNorm(x + dense₂(gelu(dense₁(x))))` with the exact GELU.
#[derive(Clone, Debug, Module)]
#[module(crate = "crate")]
pub struct BertModel<C: BertSizes, T: GradFloat = f32> {
    /// The embeddings.
    pub embeddings: BertEmbeddings<C, T>,
    /// The layers.
    pub encoder: BertEncoder<C, T>,
    /// The pooler, when the checkpoint has one.
    pub pooler: Option<BertPooler<C, T>>,
}

/// sentence-transformers' `all-MiniLM-L6-v2`: [`BertModel`] of [`MiniLmL6`]'s sizes.
pub type MiniLm<T = f32> = BertModel<MiniLmL6, T>;

impl<C: BertSizes, T: GradFloat> BertModel<C, T> {
    /// A model of `num_layers` layers, with or without a pooler, every weight zero and every
    /// layer norm's weight one: the frame a checkpoint is loaded into
    /// ([`Module::load_state_dict`](super::Module::load_state_dict), or `Module::load_safetensors` with the feature
    /// `safetensors`).
    ///
    /// # Panics
    /// When a size of `C` is not static, or the hidden size is not a multiple of
    /// [`BertSizes::HEADS`].
    pub fn zeros(num_layers: usize, pooler: bool) -> Self {
        let h = size::<C::Hidden>("hidden size");
        let i = size::<C::Intermediate>("intermediate size");
        assert!(
            C::HEADS > 0 && h % C::HEADS == 0,
            "BertSizes: the hidden size {h} must be a multiple of the {} heads",
            C::HEADS
        );
        let layer = || BertLayer {
            attention: BertAttention {
                self_attention: BertSelfAttention {
                    query: zero_linear(h, h),
                    key: zero_linear(h, h),
                    value: zero_linear(h, h),
                },
                output: BertResidualOutput { dense: zero_linear(h, h), layer_norm: layer_norm::<C, T>() },
            },
            intermediate: BertIntermediate { dense: zero_linear(h, i) },
            output: BertResidualOutput { dense: zero_linear(i, h), layer_norm: layer_norm::<C, T>() },
        };
        BertModel {
            embeddings: BertEmbeddings {
                word_embeddings: zero_embedding(size::<C::Vocab>("vocabulary"), h),
                position_embeddings: zero_embedding(size::<C::Positions>("position count"), h),
                token_type_embeddings: zero_embedding(size::<C::TypeVocab>("token type count"), h),
                layer_norm: layer_norm::<C, T>(),
            },
            encoder: BertEncoder { layer: (0..num_layers).map(|_| layer()).collect() },
            pooler: pooler.then(|| BertPooler { dense: zero_linear(h, h) }),
        }
    }

    /// The number of encoder layers (Hugging Face's `num_hidden_layers`).
    pub fn num_layers(&self) -> usize {
        self.encoder.layer.len()
    }

    /// The last hidden state (Hugging Face `model(input_ids, attention_mask).last_hidden_state`)
    /// of `input_ids` `[N, L]` with `attention_mask` `[N, L]` (1 at the tokens, 0 at the
    /// padding: the padded keys are masked in every layer), all token types 0: `[N, L, hidden]`,
    /// recorded on `tape` (the parameters are watched there; a
    /// [`Tape::no_grad`](crate::autograd::Tape::no_grad) records nothing).
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when the mask's sizes are not the ids', when `L` exceeds the
    /// position count, or for an empty sequence (`L = 0`); [`ShapeError::IndexEntry`] for an id
    /// outside the vocabulary, naming it and its position.
    #[try_twin]
    pub fn try_forward<'t, N: Dim, L: Dim>(
        &mut self,
        tape: &'t Tape<T>,
        input_ids: &TensorBase<impl Data<Elem: IndexElem>, (N, L)>,
        attention_mask: &TensorBase<impl Data<Elem: IndexElem>, (N, L)>,
    ) -> Result<Var<'t, T, Hidden<C, N, L>>, ShapeError> {
        self.try_forward_with_types(tape, input_ids, attention_mask, None)
    }

    /// [`try_forward`](Self::try_forward) with token type (segment) ids `[N, L]`, Hugging Face's
    /// `token_type_ids` (`None`: all 0).
    ///
    /// # Errors
    /// As [`try_forward`](Self::try_forward), and a token type outside the type vocabulary.
    pub fn try_forward_with_types<'t, N: Dim, L: Dim>(
        &mut self,
        tape: &'t Tape<T>,
        input_ids: &TensorBase<impl Data<Elem: IndexElem>, (N, L)>,
        attention_mask: &TensorBase<impl Data<Elem: IndexElem>, (N, L)>,
        token_type_ids: Option<&Tensor<i64, (N, L)>>,
    ) -> Result<Var<'t, T, Hidden<C, N, L>>, ShapeError> {
        let (n, l) = (input_ids.sizes()[0], input_ids.sizes()[1]);
        let p = size::<C::Positions>("position count");
        if attention_mask.sizes() != input_ids.sizes() {
            return Err(ShapeError::Invalid(format!(
                "BertModel: the attention mask {:?} must have the input ids' sizes {:?}",
                attention_mask.sizes(),
                input_ids.sizes()
            )));
        }
        if let Some(t) = token_type_ids {
            if t.sizes() != input_ids.sizes() {
                return Err(ShapeError::Invalid(format!(
                    "BertModel: the token type ids {:?} must have the input ids' sizes {:?}",
                    t.sizes(),
                    input_ids.sizes()
                )));
            }
        }
        if l == 0 || l > p {
            return Err(ShapeError::Invalid(format!(
                "BertModel: sequences of {l} tokens; the model takes 1 to {p} (max_position_embeddings)"
            )));
        }
        let positions =
            Tensor::<i64, (N, L)>::try_from_vec(input_ids.sizes(), (0..n * l).map(|k| (k % l) as i64).collect())?;
        let zeros;
        let types = match token_type_ids {
            Some(t) => t,
            None => {
                zeros = Tensor::<i64, (N, L)>::try_from_vec(input_ids.sizes(), alloc::vec![0; n * l])?;
                &zeros
            }
        };
        let e = &mut self.embeddings;
        let x = e.word_embeddings.try_forward(tape, input_ids)?;
        let x = x.try_add(&e.position_embeddings.try_forward(tape, &positions)?)?;
        let x = x.try_add(&e.token_type_embeddings.try_forward(tape, types)?)?;
        let x = e.layer_norm.try_forward(tape, &x)?;
        // The additive mask of the scores, [n, 1, 1, l]: Hugging Face's `finfo(dtype).min` at the
        // padded keys (a query whose keys are all padded averages them, it does not give NaN).
        let masked = T::from_f64(if core::mem::size_of::<T>() == 4 { f32::MIN as f64 } else { f64::MIN });
        let mask: Vec<T> = attention_mask.iter().map(|&m| if m.to_index() == 0 { masked } else { T::zero() }).collect();
        let mask = Var::constant(Tensor::<T, DynShape>::try_from_vec(&[n, 1, 1, l], mask)?);
        if self.encoder.layer.is_empty() {
            return Ok(x);
        }
        let mut xd = x.try_cast_shape::<DynShape>()?;
        for layer in &mut self.encoder.layer {
            xd = layer.forward_dyn(tape, &xd, &mask)?;
        }
        xd.try_cast_shape()
    }

    /// Sentence embeddings as sentence-transformers computes them (`Pooling(mean)` then
    /// `Normalize()`): [`try_forward`](Self::try_forward), [`mean_pool`] over the attention
    /// mask and [`l2_normalize`]: `[N, hidden]`, recorded on `tape` (for fine-tuning).
    ///
    /// # Errors
    /// As [`try_forward`](Self::try_forward).
    pub fn try_sentence_embeddings<'t, N: Dim, L: Dim>(
        &mut self,
        tape: &'t Tape<T>,
        input_ids: &TensorBase<impl Data<Elem: IndexElem>, (N, L)>,
        attention_mask: &TensorBase<impl Data<Elem: IndexElem>, (N, L)>,
    ) -> Result<Var<'t, T, (N, C::Hidden)>, ShapeError> {
        let h = self.try_forward(tape, input_ids, attention_mask)?;
        l2_normalize(&mean_pool(&h, attention_mask)?)
    }

    /// [`try_sentence_embeddings`](Self::try_sentence_embeddings) untracked (sentence-transformers'
    /// `model.encode(sentences)` on tokenised, padded input): `[N, hidden]`, each row of unit
    /// length.
    ///
    /// # Errors
    /// As [`try_forward`](Self::try_forward).
    pub fn try_embed<N: Dim, L: Dim>(
        &mut self,
        input_ids: &TensorBase<impl Data<Elem: IndexElem>, (N, L)>,
        attention_mask: &TensorBase<impl Data<Elem: IndexElem>, (N, L)>,
    ) -> Result<Tensor<T, (N, C::Hidden)>, ShapeError> {
        let tape = Tape::no_grad();
        Ok(self.try_sentence_embeddings(&tape, input_ids, attention_mask)?.into_value())
    }
}

#[cfg(feature = "safetensors")]
impl<C: BertSizes, T: GradFloat> BertModel<C, T> {
    /// Loads a Hugging Face BERT checkpoint (`model.safetensors`, as `BertModel.save_pretrained`
    /// or sentence-transformers write it) of `C`'s sizes: the number of layers is counted from
    /// the `encoder.layer.<i>.` keys, the pooler is loaded when the file has one, and every
    /// tensor is checked against its field (dtype `F32` for `f32`, `F64` for `f64`, and shape)
    /// before any data is read. The file's `embeddings.position_ids` buffer (`arange`) is
    /// skipped; any other key the model lacks, or a key of the model the file lacks, is an error.
    ///
    /// # Errors
    /// An [`IoError::File`](crate::io::IoError::File) naming the format and `path`, around:
    /// [`IoError::Parameter`](crate::io::IoError::Parameter) naming the key and both shapes
    /// (`tensor "embeddings.word_embeddings.weight": shape [30522, 768] in the file, the
    /// parameter is [30522, 384]`) or dtypes; [`IoError::Keys`](crate::io::IoError::Keys)
    /// listing the missing and the unexpected keys (a file without `encoder.layer.0.*` keys
    /// is not a BERT checkpoint: every key is missing); the file's own errors (not a
    /// `.safetensors` file, a broken header, I/O).
    pub fn from_safetensors(path: impl AsRef<std::path::Path>) -> Result<Self, crate::io::IoError> {
        use crate::io::{FileFormat, IoError};
        let path = path.as_ref();
        let (_, names) = crate::autograd::read_tensors(path, &[], crate::autograd::Keys::Lenient)
            .map_err(|e| e.in_file(FileFormat::Safetensors, path))?;
        let layers = names
            .iter()
            .filter_map(|k| k.strip_prefix("encoder.layer.")?.split('.').next()?.parse::<usize>().ok())
            .max()
            .map_or(1, |m| m + 1);
        let pooler = names.iter().any(|k| k.starts_with("pooler."));
        let mut model = Self::zeros(layers, pooler);
        // Nothing changes on error, so the checks below can come after the load.
        let report = super::Module::load_safetensors(&mut model, path, false)?;
        let unexpected: Vec<_> =
            report.unexpected_keys.into_iter().filter(|k| k != "embeddings.position_ids").collect();
        if !report.missing_keys.is_empty() || !unexpected.is_empty() {
            return Err(
                IoError::Keys { missing: report.missing_keys, unexpected }.in_file(FileFormat::Safetensors, path)
            );
        }
        Ok(model)
    }
}

impl<C: BertSizes, T: GradFloat> BertLayer<C, T> {
    /// The layer on hidden states `[N, L, hidden]` with the additive score mask `[N, 1, 1, L]`
    /// (0 at the tokens, a large negative number at the padding): Hugging Face
    /// `BertLayer.forward(hidden_states, attention_mask)` in evaluation mode, same shape out.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] or [`ShapeError::Broadcast`] when the mask's sizes do not fit
    /// the states'; [`ShapeError::Autograd`] when the inputs belong to another tape.
    pub fn try_forward_masked<'t, N: Dim, L: Dim>(
        &mut self,
        tape: &'t Tape<T>,
        x: &Var<'t, T, Hidden<C, N, L>>,
        mask: &Var<'t, T, DynShape>,
    ) -> Result<Var<'t, T, Hidden<C, N, L>>, ShapeError> {
        self.forward_dyn(tape, &x.try_cast_shape::<DynShape>()?, mask)?.try_cast_shape()
    }

    /// [`try_forward_masked`](Self::try_forward_masked) on runtime-shaped states `[n, l, h]`
    /// (checked by the typed callers), so that a stack of layers runs without a copy between
    /// the typed and the runtime shapes at each linear layer (the typed product's rule needs
    /// the sizes known, and `C`'s are generic here).
    fn forward_dyn<'t>(
        &mut self,
        tape: &'t Tape<T>,
        x: &Var<'t, T, DynShape>,
        mask: &Var<'t, T, DynShape>,
    ) -> Result<Var<'t, T, DynShape>, ShapeError> {
        let sa = &mut self.attention.self_attention;
        // The heads are read in place from the projections `[n, l, h]` (one node, no copies).
        let (q, k, v) = (sa.query.try_forward(tape, x)?, sa.key.try_forward(tape, x)?, sa.value.try_forward(tape, x)?);
        let ctx = crate::autograd::nn::try_packed_attention(&q, &k, &v, C::HEADS, Some(mask.value()))?;
        let out = &mut self.attention.output;
        let a = out.layer_norm.try_forward_dyn(tape, &out.dense.try_forward(tape, &ctx)?.try_add(x)?)?;
        let mid = self.intermediate.dense.try_forward(tape, &a)?.gelu();
        let out = &mut self.output;
        out.layer_norm.try_forward_dyn(tape, &out.dense.try_forward(tape, &mid)?.try_add(&a)?)
    }
}

/// Mean pooling over the attention mask (sentence-transformers' `Pooling` with
/// `pooling_mode_mean_tokens`): `hidden` `[N, L, H]` and `mask` `[N, L]` (nonzero at the tokens)
/// give `[N, H]`, each sequence's states summed over its tokens and divided by their count
/// (clamped below at 1e-9, as sentence-transformers). Differentiable in `hidden`.
///
/// # Errors
/// [`ShapeError::Invalid`] when the mask's sizes are not `hidden`'s first two.
pub fn mean_pool<'t, T: GradFloat, N: Dim, L: Dim, H: Dim>(
    hidden: &Var<'t, T, (N, L, H)>,
    mask: &TensorBase<impl Data<Elem: IndexElem>, (N, L)>,
) -> Result<Var<'t, T, (N, H)>, ShapeError> {
    let s = hidden.sizes();
    let (n, l) = (s[0], s[1]);
    if mask.sizes() != [n, l] {
        return Err(ShapeError::Invalid(format!(
            "mean_pool: the mask {:?} must be [N, L] of the hidden states {s:?}",
            mask.sizes()
        )));
    }
    let m: Vec<T> = mask.iter().map(|&v| if v.to_index() == 0 { T::zero() } else { T::one() }).collect();
    let counts: Vec<T> = m.chunks(l.max(1)).map(|r| r.iter().fold(T::zero(), |a, &b| a + b)).collect();
    let counts: Vec<T> =
        counts.into_iter().map(|c| if c < T::from_f64(1e-9) { T::from_f64(1e-9) } else { c }).collect();
    let m = Var::constant(Tensor::<T, DynShape>::try_from_vec(&[n, l, 1], m)?);
    let counts = Var::constant(Tensor::<T, DynShape>::try_from_vec(&[n, 1], counts)?);
    let hd = hidden.try_cast_shape::<DynShape>()?;
    let sum = hd.try_mul(&m)?.try_sum_axis(1)?;
    sum.try_div(&counts)?.try_cast_shape::<(N, H)>()
}

/// Each row divided by its L2 norm (PyTorch `torch.nn.functional.normalize(x, p=2, dim=1)`,
/// sentence-transformers' `Normalize`): `[N, H]` in and out, the norm clamped below at 1e-12.
/// Differentiable.
///
/// # Errors
/// [`ShapeError::Alloc`] when the intermediate values cannot be allocated; the shapes always
/// fit.
pub fn l2_normalize<'t, T: GradFloat, N: Dim, H: Dim>(
    x: &Var<'t, T, (N, H)>,
) -> Result<Var<'t, T, (N, H)>, ShapeError> {
    let xd = x.try_cast_shape::<DynShape>()?;
    let norm = xd.try_mul(&xd)?.try_sum_keepdim(1)?.sqrt().clamp(T::from_f64(1e-12), T::infinity());
    xd.try_div(&norm)?.try_cast_shape::<(N, H)>()
}
