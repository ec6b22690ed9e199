//! Attention layers (PyTorch's `nn.MultiheadAttention` and `nn.TransformerEncoderLayer`, both
//! with `batch_first=True`): the parameters under PyTorch's names, so that a state dict saved by
//! PyTorch loads by its own keys, and a forward made of the differentiable operations of
//! [`Var`] (linear, reshapes, matmul, softmax, dropout), so the gradients come from the tape.
//! Without attention weights to return or dropout to draw (a `TransformerEncoderLayer` in
//! evaluation mode or with dropout 0), the attention between the projections is one node that
//! reads the heads in place (`autograd::nn::try_attention_blocks`), and self-attention's three
//! projections are one product into `[n, l, 3E]`, as PyTorch's `in_proj`.
use super::layers::{size_of, watch_weight_bias};
use super::{Dropout, Forward, Item, LayerNorm, Linear, Module};
use crate::autograd::nn as f;
use crate::autograd::{GradFloat, Param, Tape, Var};
use crate::dim::{ConstDim, Dim, Dyn};
use crate::error::{OrPanic, ShapeError};
use crate::shape::{Ax, DynShape};
use crate::tensor::Tensor;
use alloc::format;
use alloc::vec::Vec;
use shaped_macros::try_twin;

/// The build-time check of [`MultiheadAttention::new`]: a static `embed_dim` divisible by a
/// positive `num_heads`.
struct HeadsDivide<E, const HEADS: usize>(core::marker::PhantomData<E>);

impl<E: Dim, const HEADS: usize> HeadsDivide<E, HEADS> {
    const OK: () = assert!(
        HEADS > 0
            && match E::STATIC {
                Some(e) => e % HEADS == 0,
                None => true,
            },
        "MultiheadAttention: embed_dim must be divisible by num_heads (HEADS), and HEADS positive"
    );
}

/// A mask of the attention scores (PyTorch's `attn_mask` of shape `[L, S]`, `L` queries by `S`
/// keys): the same for every batch element and head.
#[derive(Debug)]
pub enum AttnMask<'a, T: GradFloat, L: Dim, S: Dim> {
    /// `true` where query `i` may **not** attend to key `j` (PyTorch's boolean mask: its score is
    /// set to `-inf` before the softmax).
    Bool(&'a Tensor<bool, (L, S)>),
    /// Added to the scores before the softmax (PyTorch's float mask; `-inf` masks an entry).
    Float(&'a Tensor<T, (L, S)>),
}

impl<T: GradFloat, L: Dim, S: Dim> Clone for AttnMask<'_, T, L, S> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T: GradFloat, L: Dim, S: Dim> Copy for AttnMask<'_, T, L, S> {}

/// The optional arguments of [`MultiheadAttention::try_forward_qkv`] (those of PyTorch's
/// `MultiheadAttention.forward` after `query, key, value`), for a batch of `N` sequences of `L`
/// queries and `S` keys. [`Default`] is PyTorch's: no masks, not causal, `need_weights=True`.
#[derive(Debug)]
pub struct AttentionOptions<'a, T: GradFloat, N: Dim, L: Dim, S: Dim> {
    /// `[N, S]`, `true` at the keys to ignore (padding): PyTorch's boolean `key_padding_mask`.
    pub key_padding_mask: Option<&'a Tensor<bool, (N, S)>>,
    /// `[L, S]`: PyTorch's `attn_mask`, boolean or float ([`AttnMask`]).
    pub attn_mask: Option<AttnMask<'a, T, L, S>>,
    /// Query `i` attends to keys `0..=i` only (the keys `ones(L, S).triu(1)` masked, as PyTorch's
    /// `Transformer.generate_square_subsequent_mask`, top-left aligned), combined with the other
    /// masks. PyTorch takes `is_causal` as a hint beside that mask in `attn_mask` and requires
    /// the mask; here the flag alone builds it (with the mask as well, the results are the same).
    pub is_causal: bool,
    /// Return the attention weights averaged over the heads (PyTorch's `need_weights` with
    /// `average_attn_weights=True`). It also chooses PyTorch's path for a query whose keys are
    /// all masked: `true` gives NaN (a softmax of `-inf`s, as PyTorch's explicit path), `false`
    /// gives zero weights, so the attention output is 0 there (as the
    /// `scaled_dot_product_attention` path PyTorch takes then).
    pub need_weights: bool,
}

impl<T: GradFloat, N: Dim, L: Dim, S: Dim> Default for AttentionOptions<'_, T, N, L, S> {
    fn default() -> Self {
        AttentionOptions { key_padding_mask: None, attn_mask: None, is_causal: false, need_weights: true }
    }
}

impl<T: GradFloat, N: Dim, L: Dim, S: Dim> Clone for AttentionOptions<'_, T, N, L, S> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T: GradFloat, N: Dim, L: Dim, S: Dim> Copy for AttentionOptions<'_, T, N, L, S> {}

/// The additive mask `[n, 1, l, s]` of the attention scores (0 or the float mask's value, `-inf`
/// where masked), and whether a query has every key masked (`[n, 1, l, 1]`), or `None` without
/// masks.
#[allow(clippy::type_complexity)]
fn score_mask<T: GradFloat, N: Dim, L: Dim, S: Dim>(
    layer: &str,
    (n, l, s): (usize, usize, usize),
    opts: &AttentionOptions<'_, T, N, L, S>,
) -> Result<Option<(Tensor<T, DynShape>, Vec<bool>)>, ShapeError> {
    if opts.key_padding_mask.is_none() && opts.attn_mask.is_none() && !opts.is_causal {
        return Ok(None);
    }
    let ninf = T::neg_infinity();
    let mut m = alloc::vec![T::zero(); n * l * s];
    if let Some(a) = opts.attn_mask {
        let (sizes, vals): (&[usize], Vec<T>) = match a {
            AttnMask::Bool(b) => (b.sizes(), b.iter().map(|&x| if x { ninf } else { T::zero() }).collect()),
            AttnMask::Float(v) => (v.sizes(), v.to_vec()),
        };
        if sizes != [l, s] {
            return Err(ShapeError::Invalid(format!(
                "{layer}: the attn_mask must be [L, S] = [{l}, {s}] (queries by keys), got {sizes:?}"
            )));
        }
        for row in m.chunks_mut((l * s).max(1)) {
            row.copy_from_slice(&vals);
        }
    }
    if let Some(kpm) = opts.key_padding_mask {
        if kpm.sizes() != [n, s] {
            return Err(ShapeError::Invalid(format!(
                "{layer}: the key_padding_mask must be [N, S] = [{n}, {s}] (batch by keys), got {:?}",
                kpm.sizes()
            )));
        }
        let pad: Vec<bool> = kpm.to_vec();
        for (b, block) in m.chunks_mut((l * s).max(1)).enumerate() {
            for row in block.chunks_mut(s.max(1)) {
                for (v, &p) in row.iter_mut().zip(&pad[b * s..(b + 1) * s]) {
                    if p {
                        *v += ninf;
                    }
                }
            }
        }
    }
    if opts.is_causal {
        for block in m.chunks_mut((l * s).max(1)) {
            for (i, row) in block.chunks_mut(s.max(1)).enumerate() {
                for v in row.iter_mut().skip(i + 1) {
                    *v += ninf;
                }
            }
        }
    }
    let full: Vec<bool> = m.chunks(s.max(1)).map(|row| s > 0 && row.iter().all(|&v| v == ninf)).collect();
    Ok(Some((Tensor::from_vec(&[n, 1, l, s], m), full)))
}

/// Multi-head attention (PyTorch `nn.MultiheadAttention(embed_dim, num_heads, dropout=0.0,
/// bias=True, batch_first=True)`): `HEADS` heads of `head_dim = E / HEADS` features each attend
/// from the queries to the keys, `softmax(q kᵀ / √head_dim + mask) v` per head, and the heads'
/// outputs are joined and projected. Inputs are `[N, L, E]` (queries) and `[N, S, E]` (keys and
/// values), the output `[N, L, E]`.
///
/// The parameters have PyTorch's names and shapes, so a PyTorch state dict loads by its keys
/// (`in_proj_weight`, `in_proj_bias`, `out_proj.weight`, `out_proj.bias`):
/// * `in_proj_weight` `[3E, E]`: the query, key and value projections stacked (rows `0..E`,
///   `E..2E`, `2E..3E`); `3E` has no type on stable Rust, so that dim is [`Dyn`], its size set
///   at construction and checked by state-dict loads;
/// * `in_proj_bias` `[3E]` (`None` for PyTorch's `bias=False`, which also drops `out_proj`'s);
/// * `out_proj`, a [`Linear<E, E>`](Linear).
///
/// In training mode ([`Module::train`], the mode of a new layer) the attention weights go through
/// dropout of probability [`dropout`](Self::dropout) (PyTorch's default 0), drawn from the
/// layer's own seeded generator; evaluation mode ([`Module::eval`]) has no dropout.
///
/// [`try_forward_qkv`](Self::try_forward_qkv) is PyTorch's `forward(query, key, value, ...)`
/// with the masks and the attention weights; as a [`Forward`] layer (in a tuple model) it is
/// self-attention without masks, `x -> attn(x, x, x)`. Not offered: PyTorch's `kdim`/`vdim`
/// (keys and values of other widths), `add_bias_kv`, `add_zero_attn`, 3-D masks and unbatched
/// inputs.
///
/// An input whose static embedding size is not `E` is a compile error (the forward takes
/// `[N, L, E]`); a `Dyn` size is checked at run time. A static `E` not divisible by `HEADS` is a
/// build error of [`new`](Self::new) and an error of [`try_new_sized`](Self::try_new_sized).
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::nn::{AttentionOptions, Module, MultiheadAttention};
/// use shaped::rand::{rngs::StdRng, SeedableRng};
/// use shaped::{Const, Shape, Tensor};
/// use shaped::autograd::Tape;
///
/// let rng = &mut StdRng::seed_from_u64(0);
/// // nn.MultiheadAttention(8, 2, batch_first=True)
/// let mut mha = MultiheadAttention::<Const<8>, 2, f64>::new(rng);
/// assert_eq!(mha.parameter_names(), ["in_proj_weight", "in_proj_bias", "out_proj.weight", "out_proj.bias"]);
///
/// let tape = Tape::new();
/// let q = tape.var(Tensor::<f64, Shape![2, 3, 8]>::randn(rng));
/// let kv = tape.var(Tensor::<f64, Shape![2, 5, 8]>::randn(rng));
/// let pad = Tensor::<bool, Shape![2, 5]>::from([[false; 5], [false, false, false, true, true]]);
/// let opts = AttentionOptions { key_padding_mask: Some(&pad), ..AttentionOptions::default() };
/// let (out, weights) = mha.forward_qkv(&tape, &q, &kv, &kv, opts);
/// assert_eq!(out.sizes(), [2, 3, 8]);
/// let w = weights.unwrap(); // [2, 3, 5]: the weights averaged over the heads
/// assert_eq!(w.value().to_vec()[15..20].iter().filter(|&&p| p == 0.0).count(), 2);
/// let grads = out.sum().backward();
/// assert_eq!(grads.param(&mha.in_proj_weight).unwrap().sizes(), [24, 8]);
/// ```
///
/// A query of another width does not compile:
///
/// ```compile_fail
/// # extern crate shaped_core as shaped;
/// use shaped::nn::{Forward, MultiheadAttention};
/// use shaped::rand::{rngs::StdRng, SeedableRng};
/// use shaped::{Const, Shape, Tensor};
/// use shaped::autograd::{Tape, Var};
/// let mut mha = MultiheadAttention::<Const<8>, 2>::new(&mut StdRng::seed_from_u64(0));
/// let tape = Tape::new();
/// let x = Var::constant(Tensor::<f32, Shape![2, 3, 6]>::zeros());
/// let y = mha.forward(&tape, &x); // expected `[.., 8]`
/// ```
#[derive(Debug)]
pub struct MultiheadAttention<E: Dim, const HEADS: usize, T: GradFloat = f32> {
    /// `[3E, E]`: the query, key and value projections' weights stacked.
    pub in_proj_weight: Param<T, (Dyn, E)>,
    /// `[3E]`, or `None` for `bias=False`.
    pub in_proj_bias: Option<Param<T, (Dyn,)>>,
    /// The output projection `[E, E]` (PyTorch's `out_proj`).
    pub out_proj: Linear<E, E, T>,
    /// The dropout probability of the attention weights in training mode (PyTorch's `dropout`).
    pub dropout: f64,
    /// Training mode (PyTorch's `self.training`).
    pub training: bool,
    rng: rand::rngs::StdRng,
}

impl<E: Dim, const HEADS: usize, T: GradFloat> MultiheadAttention<E, HEADS, T> {
    /// A layer with PyTorch's defaults (`dropout=0.0`, `bias=True`) and initialisation:
    /// `in_proj_weight` Xavier-uniform (U(±√(6 / 4E))), `out_proj.weight` U(±1/√E), the biases
    /// zero; drawn from `rng`, which also seeds the dropout's generator. Static `E`; an `E` not
    /// divisible by `HEADS` (or `HEADS = 0`) fails to build:
    ///
    /// ```compile_fail
    /// # extern crate shaped_core as shaped;
    /// use shaped::nn::MultiheadAttention;
    /// use shaped::rand::{rngs::StdRng, SeedableRng};
    /// use shaped::Const;
    /// // 8 features do not split into 3 heads.
    /// let mha = MultiheadAttention::<Const<8>, 3>::new(&mut StdRng::seed_from_u64(0));
    /// ```
    pub fn new(rng: &mut (impl rand::Rng + ?Sized)) -> Self
    where
        E: ConstDim,
    {
        #[allow(clippy::let_unit_value)]
        let () = HeadsDivide::<E, HEADS>::OK;
        Self::try_new_sized(None, 0.0, true, rng).or_panic()
    }

    /// A layer of `embed_dim` features (`None`: the type's static size), dropout probability
    /// `dropout` on the attention weights, with or without the biases (PyTorch's `bias`),
    /// initialised as [`new`](Self::new).
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when `embed_dim` differs from the type's static size or a `Dyn`
    /// size is not given, when it is not divisible by `HEADS` (or `HEADS` is 0), or `dropout` is
    /// outside `[0, 1]`.
    pub fn try_new_sized(
        embed_dim: Option<usize>,
        dropout: f64,
        bias: bool,
        rng: &mut (impl rand::Rng + ?Sized),
    ) -> Result<Self, ShapeError> {
        use rand::SeedableRng;
        let e = size_of::<E>(embed_dim, "MultiheadAttention", "embed_dim")?;
        if HEADS == 0 || e % HEADS != 0 {
            return Err(ShapeError::Invalid(format!(
                "MultiheadAttention: embed_dim {e} must be divisible by num_heads {HEADS}"
            )));
        }
        if !(0.0..=1.0).contains(&dropout) {
            return Err(ShapeError::Invalid(format!(
                "MultiheadAttention: dropout probability has to be between 0 and 1, but got {dropout}"
            )));
        }
        // Xavier-uniform over [3E, E]: fan_in E, fan_out 3E.
        let bound = (6.0 / (4 * e) as f64).sqrt();
        let w = Tensor::<f64, DynShape>::uniform_sized(&[3 * e, e], -bound, bound, rng);
        let in_proj_weight = Param::new(cast::<T, (Dyn, E)>(&w)?);
        let mut out_proj = Linear::<E, E, T>::try_new_sized(Some(e), Some(e), bias, rng)?;
        if let Some(b) = &mut out_proj.bias {
            *b = Param::new(Tensor::zeros_sized(&[e]));
        }
        Ok(MultiheadAttention {
            in_proj_weight,
            in_proj_bias: bias.then(|| Param::new(Tensor::zeros_sized(&[3 * e]))),
            out_proj,
            dropout,
            training: true,
            rng: rand::rngs::StdRng::seed_from_u64(rng.next_u64()),
        })
    }

    /// Seeds the generator of the attention weights' dropout.
    pub fn seed_dropout(&mut self, seed: u64) {
        use rand::SeedableRng;
        self.rng = rand::rngs::StdRng::seed_from_u64(seed);
    }

    /// The embedding size `E` (PyTorch's `embed_dim`).
    pub fn embed_dim(&self) -> usize {
        self.out_proj.weight.value().sizes()[0]
    }

    /// The number of heads (PyTorch's `num_heads`).
    pub fn num_heads(&self) -> usize {
        HEADS
    }

    /// The size of a head, `E / HEADS` (PyTorch's `head_dim`).
    pub fn head_dim(&self) -> usize {
        self.embed_dim() / HEADS
    }

    /// The attention of `query` `[N, L, E]` to `key` and `value` `[N, S, E]` (PyTorch
    /// `mha(query, key, value, key_padding_mask=..., need_weights=..., attn_mask=...,
    /// is_causal=...)` with `batch_first=True`): the output `[N, L, E]` and, when
    /// `opts.need_weights`, the attention weights `[N, L, S]` averaged over the heads (after the
    /// dropout, as PyTorch's), both recorded on `tape` (the parameters are watched there).
    ///
    /// PyTorch's math, step by step: `q, k, v` are the inputs through the three rows of
    /// `in_proj_weight` and `in_proj_bias`; each is split into `HEADS` heads of `head_dim`; the
    /// scores are `(q · √(1/head_dim)) kᵀ` plus the masks (`attn_mask`, `-inf` at the padded
    /// keys and above the diagonal when causal); the softmax over the keys (a query with every
    /// key masked: see [`AttentionOptions::need_weights`]), the dropout in training mode, the
    /// product with `v`, the heads joined and `out_proj`.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when runtime sizes do not fit (the embedding size of an input is
    /// not `E`, the batch or key counts of the inputs differ, a mask's sizes are not `[N, S]` or
    /// `[L, S]`), naming them; [`ShapeError::Autograd`] when the inputs are tracked by another
    /// tape.
    #[allow(clippy::type_complexity)]
    #[try_twin]
    pub fn try_forward_qkv<'t, N: Dim, L: Dim, S: Dim>(
        &mut self,
        tape: &'t Tape<T>,
        query: &Var<'t, T, (N, L, E)>,
        key: &Var<'t, T, (N, S, E)>,
        value: &Var<'t, T, (N, S, E)>,
        opts: AttentionOptions<'_, T, N, L, S>,
    ) -> Result<(Var<'t, T, (N, L, E)>, Option<Var<'t, T, (N, L, S)>>), ShapeError> {
        let e = self.embed_dim();
        let (qs, ks, vs) = (query.sizes(), key.sizes(), value.sizes());
        if qs[2] != e || ks[2] != e || vs[2] != e {
            return Err(ShapeError::Invalid(format!(
                "MultiheadAttention: the query, key and value must be [.., {e}] (embed_dim {e}), got {qs:?}, {ks:?} and {vs:?}"
            )));
        }
        if ks[0] != qs[0] || vs[0] != qs[0] || vs[1] != ks[1] {
            return Err(ShapeError::Invalid(format!(
                "MultiheadAttention: the query [N, L, E], key and value [N, S, E] differ in N or S: {qs:?}, {ks:?} and {vs:?}"
            )));
        }
        let (n, l, s) = (qs[0], qs[1], ks[1]);
        let mask = score_mask("MultiheadAttention", (n, l, s), &opts)?;
        let (qd, kd, vd) = (dyn_of(query)?, dyn_of(key)?, dyn_of(value)?);
        let (out, w) = self.attend(tape, &qd, &kd, &vd, mask, opts.need_weights)?;
        let out = out.try_cast_shape::<(N, L, E)>()?;
        let w = w.map(|w| w.try_cast_shape::<(N, L, S)>()).transpose()?;
        Ok((out, w))
    }

    /// The attention on runtime-shaped `[n, l, E]`, `[n, s, E]` inputs whose sizes were checked,
    /// with the additive score mask `[n, 1, l, s]` and the queries whose keys are all masked:
    /// the output `[n, l, E]` and the averaged weights `[n, l, s]`.
    #[allow(clippy::type_complexity)]
    fn attend<'t>(
        &mut self,
        tape: &'t Tape<T>,
        q: &Var<'t, T, DynShape>,
        k: &Var<'t, T, DynShape>,
        v: &Var<'t, T, DynShape>,
        mask: Option<(Tensor<T, DynShape>, Vec<bool>)>,
        need_weights: bool,
    ) -> Result<(Var<'t, T, DynShape>, Option<Var<'t, T, DynShape>>), ShapeError> {
        let e = self.embed_dim();
        let hd = e / HEADS;
        let (n, l, s) = (q.sizes()[0], q.sizes()[1], k.sizes()[1]);
        let (w, b) = watch_weight_bias(tape, &self.in_proj_weight, self.in_proj_bias.as_ref());
        // The rows `i E..(i + 1) E` of the packed projection (PyTorch's `_in_projection_packed`),
        // then `[n, len, E] -> [n, HEADS, len, head_dim]`.
        let project = |x: &Var<'t, T, DynShape>, i: usize, len: usize| -> Result<Var<'t, T, DynShape>, ShapeError> {
            let wi = w.narrow(Ax::<0>, (i * e) as isize, e);
            let bi = b.as_ref().map(|b| b.narrow(Ax::<0>, (i * e) as isize, e));
            let y = f::try_linear(x, &wi, bi.as_ref())?;
            y.try_reshape_sized::<DynShape>(&[n as isize, len as isize, HEADS as isize, hd as isize])?
                .try_transpose(1, 2)
        };
        let (wo, bo) = watch_weight_bias(tape, &self.out_proj.weight, self.out_proj.bias.as_ref());
        let dropping = self.training && self.dropout > 0.0;
        if !need_weights && !dropping {
            // No weights to return and no dropout: the heads read in place from the projections
            // and the attention one node (`try_attention_blocks`), with self-attention's three
            // projections one product into `[n, l, 3E]`. The per-head steps below copied each
            // head split and join (6% of a transformer block's forward).
            let mut rows = None;
            let mask = match mask {
                Some((m, full)) if full.iter().any(|&f| f) => {
                    // As below: such a query's scores unmasked, its weights zeroed.
                    let r = Tensor::<bool, DynShape>::from_vec(&[n, 1, l, 1], full);
                    let m = m.masked_fill(&r, T::zero());
                    rows = Some(r);
                    Some(m)
                }
                Some((m, _)) => Some(m),
                None => None,
            };
            let same = |a: &Var<'t, T, DynShape>, b: &Var<'t, T, DynShape>| {
                alloc::sync::Arc::ptr_eq(a.arc(), b.arc()) && a.node().map(|n| n.index) == b.node().map(|n| n.index)
            };
            let joined = if same(q, k) && same(k, v) {
                let qkv = f::try_linear(q, &w, b.as_ref())?;
                f::try_attention_blocks([(&qkv, 0), (&qkv, e), (&qkv, 2 * e)], e, HEADS, mask.as_ref(), rows.as_ref())?
            } else {
                let project = |x: &Var<'t, T, DynShape>, i: usize| {
                    let wi = w.narrow(Ax::<0>, (i * e) as isize, e);
                    let bi = b.as_ref().map(|b| b.narrow(Ax::<0>, (i * e) as isize, e));
                    f::try_linear(x, &wi, bi.as_ref())
                };
                let (qp, kp, vp) = (project(q, 0)?, project(k, 1)?, project(v, 2)?);
                f::try_attention_blocks([(&qp, 0), (&kp, 0), (&vp, 0)], e, HEADS, mask.as_ref(), rows.as_ref())?
            };
            return Ok((f::try_linear(&joined, &wo, bo.as_ref())?, None));
        }
        let qh = project(q, 0, l)?.mul_scalar(T::from_f64((1.0 / hd as f64).sqrt()));
        let kh = project(k, 1, s)?;
        let vh = project(v, 2, s)?;
        let mut scores = qh.try_matmul(&kh.try_transpose(-2, -1)?)?; // [n, H, l, s]
        let mut full_rows = None;
        if let Some((mut m, full)) = mask {
            if !need_weights && full.iter().any(|&f| f) {
                // PyTorch's scaled_dot_product_attention path: a query with no key to attend to
                // gets zero weights. Its scores are left unmasked (finite) and its weights
                // zeroed after the softmax, which sends it no gradient.
                let sizes = [n, 1, l, 1];
                let rows = Tensor::<bool, DynShape>::from_vec(&sizes, full);
                m = m.masked_fill(&rows, T::zero());
                full_rows = Some(rows);
            }
            scores = scores.try_add(&Var::constant(m))?;
        }
        let mut p = scores.try_softmax(-1)?;
        if let Some(rows) = &full_rows {
            p = p.masked_fill(rows, T::zero());
        }
        let p = f::try_dropout(&p, self.dropout, self.training, &mut self.rng)?;
        let heads = p.try_matmul(&vh)?; // [n, H, l, hd]
        let joined = heads.try_transpose(1, 2)?.try_reshape_sized::<DynShape>(&[n as isize, l as isize, e as isize])?;
        let out = f::try_linear(&joined, &wo, bo.as_ref())?;
        let weights = if need_weights { Some(p.try_mean_axis(1)?) } else { None };
        Ok((out, weights))
    }
}

/// A value as runtime-shaped (a copy, recorded).
fn dyn_of<'t, T: GradFloat, S: crate::shape::Shape>(x: &Var<'t, T, S>) -> Result<Var<'t, T, DynShape>, ShapeError> {
    x.try_cast_shape::<DynShape>()
}

/// An f64 tensor rounded to `T`, typed as `S`.
fn cast<T: GradFloat, S: crate::shape::Shape>(t: &Tensor<f64, DynShape>) -> Result<Tensor<T, S>, ShapeError> {
    Tensor::<T, DynShape>::from_vec(t.sizes(), t.iter().map(|&v| T::from_f64(v)).collect()).try_into_static::<S>()
}

impl<E: Dim, const HEADS: usize, T: GradFloat> Module<T> for MultiheadAttention<E, HEADS, T> {
    fn visit<'a>(&'a mut self, prefix: &str, f: &mut dyn FnMut(&str, Item<'a, T>)) {
        self.in_proj_weight.visit(&super::join(prefix, "in_proj_weight"), f);
        self.in_proj_bias.visit(&super::join(prefix, "in_proj_bias"), f);
        self.out_proj.visit(&super::join(prefix, "out_proj"), f);
        f(prefix, Item::Training(&mut self.training));
    }
}

/// Self-attention without masks (`x -> mha(x, x, x, need_weights=False)[0]`): `[N, L, E]` in
/// and out, so the layer composes in a tuple model.
impl<'t, E: Dim, const HEADS: usize, T: GradFloat, N: Dim, L: Dim> Forward<'t, T, (N, L, E)>
    for MultiheadAttention<E, HEADS, T>
{
    type Out = (N, L, E);
    fn try_forward(
        &mut self,
        tape: &'t Tape<T>,
        x: &Var<'t, T, (N, L, E)>,
    ) -> Result<Var<'t, T, (N, L, E)>, ShapeError> {
        let e = self.embed_dim();
        if x.sizes()[2] != e {
            return Err(ShapeError::Invalid(format!(
                "MultiheadAttention: the input must be [N, L, {e}] (embed_dim {e}), got {:?}",
                x.sizes()
            )));
        }
        let xd = dyn_of(x)?;
        let (out, _) = self.attend(tape, &xd, &xd, &xd, None, false)?;
        out.try_cast_shape::<(N, L, E)>()
    }
}

// ---------------------------------------------------------------------------------------------

/// The activation of a [`TransformerEncoderLayer`]'s feed-forward block (PyTorch's `activation`
/// argument, `"relu"` by default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Activation {
    /// `relu` (PyTorch's default).
    #[default]
    Relu,
    /// The exact `gelu`, `x Φ(x)` (PyTorch `"gelu"`).
    Gelu,
}

/// The options of [`TransformerEncoderLayer::try_new_sized`] (PyTorch's keyword arguments of
/// `nn.TransformerEncoderLayer`); [`Default`] is PyTorch's: `dropout=0.1`, `activation="relu"`,
/// `layer_norm_eps=1e-5`, `norm_first=False`, `bias=True` (`batch_first` is always true here).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EncoderLayerOptions {
    /// The probability of the four dropouts (the attention weights, the feed-forward block's
    /// hidden layer, and the two residual branches).
    pub dropout: f64,
    /// The feed-forward block's activation.
    pub activation: Activation,
    /// The `eps` of both layer norms.
    pub layer_norm_eps: f64,
    /// Pre-norm (`x + sa(norm1(x))`, then `x + ff(norm2(x))`) instead of post-norm
    /// (`norm1(x + sa(x))`, then `norm2(x + ff(x))`).
    pub norm_first: bool,
    /// Biases in the linear layers and the layer norms.
    pub bias: bool,
}

impl Default for EncoderLayerOptions {
    fn default() -> Self {
        EncoderLayerOptions {
            dropout: 0.1,
            activation: Activation::Relu,
            layer_norm_eps: 1e-5,
            norm_first: false,
            bias: true,
        }
    }
}

/// One layer of a transformer encoder (PyTorch `nn.TransformerEncoderLayer(d_model=E,
/// nhead=HEADS, dim_feedforward=F, batch_first=True)`): self-attention and a feed-forward block
/// (`linear2(dropout(activation(linear1(x))))`), each with a residual connection and a layer
/// norm, after it (post-norm, PyTorch's default) or before it (`norm_first`). `[N, L, E]` in and
/// out.
///
/// The fields are PyTorch's attributes, in its order, so the state-dict keys are its own:
/// `self_attn.in_proj_weight`, `self_attn.in_proj_bias`, `self_attn.out_proj.weight`,
/// `self_attn.out_proj.bias`, `linear1.weight`, `linear1.bias`, `linear2.weight`,
/// `linear2.bias`, `norm1.weight`, `norm1.bias`, `norm2.weight`, `norm2.bias`. The dropouts
/// (the attention's, `dropout`, `dropout1`, `dropout2`) drop in training mode ([`Module::train`],
/// the mode of a new layer) and not in evaluation mode ([`Module::eval`]), each from its own
/// seeded generator.
///
/// [`try_forward_masked`](Self::try_forward_masked) takes PyTorch's `src_mask`,
/// `src_key_padding_mask` and `is_causal`; the [`Forward`] impl runs without masks, so the layer
/// composes in a tuple model: `(layer1, layer2)` runs as a two-layer `nn.TransformerEncoder`
/// (without its optional final norm; its keys are `0.`, `1.`, .., where a derived model's field
/// `layers: Vec<_>` gives PyTorch's `layers.0.`, ..). An input whose static last size is not `E`
/// is a compile error.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::nn::{Forward, Module, TransformerEncoderLayer};
/// use shaped::rand::{rngs::StdRng, SeedableRng};
/// use shaped::{Const, Shape, Tensor};
/// use shaped::autograd::{Tape, Var};
///
/// let rng = &mut StdRng::seed_from_u64(0);
/// // nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, batch_first=True)
/// type Layer = TransformerEncoderLayer<Const<8>, 2, Const<16>>;
/// let mut encoder = (Layer::new(rng), Layer::new(rng));
/// assert_eq!(encoder.parameter_names()[12], "1.self_attn.in_proj_weight");
/// encoder.eval();
///
/// let x = Tensor::<f32, Shape![2, 5, 8]>::randn(rng);
/// let tape = Tape::new();
/// let y = encoder.forward(&tape, &Var::constant(x)); // Var<f32, Shape![2, 5, 8]>
/// let grads = y.square().sum().backward();
/// assert_eq!(grads.param(&encoder.0.linear1.weight).unwrap().sizes(), [16, 8]);
/// ```
#[derive(Debug)]
pub struct TransformerEncoderLayer<E: Dim, const HEADS: usize, F: Dim, T: GradFloat = f32> {
    /// The self-attention.
    pub self_attn: MultiheadAttention<E, HEADS, T>,
    /// `[F, E]`: the feed-forward block's first layer.
    pub linear1: Linear<E, F, T>,
    /// The dropout after the activation.
    pub dropout: Dropout,
    /// `[E, F]`: the feed-forward block's second layer.
    pub linear2: Linear<F, E, T>,
    /// The norm of the self-attention block.
    pub norm1: LayerNorm<E, T>,
    /// The norm of the feed-forward block.
    pub norm2: LayerNorm<E, T>,
    /// The dropout of the self-attention block's output.
    pub dropout1: Dropout,
    /// The dropout of the feed-forward block's output.
    pub dropout2: Dropout,
    /// Pre-norm (PyTorch's `norm_first`).
    pub norm_first: bool,
    /// The feed-forward block's activation.
    pub activation: Activation,
}

impl<E: Dim, const HEADS: usize, F: Dim, T: GradFloat> TransformerEncoderLayer<E, HEADS, F, T> {
    /// A layer with PyTorch's defaults ([`EncoderLayerOptions::default`]: dropout 0.1, relu,
    /// post-norm) and initialisation (the attention's as [`MultiheadAttention::new`], the linear
    /// layers' U(±1/√fan_in), the norms' ones and zeros), drawn from `rng`, which also seeds the
    /// dropouts. Static sizes; an `E` not divisible by `HEADS` fails to build.
    pub fn new(rng: &mut (impl rand::Rng + ?Sized)) -> Self
    where
        E: ConstDim,
        F: ConstDim,
    {
        Self::new_with(EncoderLayerOptions::default(), rng)
    }

    /// [`new`](Self::new) with other options (`EncoderLayerOptions { norm_first: true,
    /// activation: Activation::Gelu, ..Default::default() }`).
    pub fn new_with(options: EncoderLayerOptions, rng: &mut (impl rand::Rng + ?Sized)) -> Self
    where
        E: ConstDim,
        F: ConstDim,
    {
        #[allow(clippy::let_unit_value)]
        let () = HeadsDivide::<E, HEADS>::OK;
        Self::try_new_sized(None, None, options, rng).or_panic()
    }

    /// A layer of `d_model` features and `dim_feedforward` hidden units (each `None`: the type's
    /// static size), initialised as [`new`](Self::new).
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when a size differs from the type's static one or a `Dyn` size is
    /// not given, when `d_model` is not divisible by `HEADS`, or the dropout probability is
    /// outside `[0, 1]`.
    pub fn try_new_sized(
        d_model: Option<usize>,
        dim_feedforward: Option<usize>,
        options: EncoderLayerOptions,
        rng: &mut (impl rand::Rng + ?Sized),
    ) -> Result<Self, ShapeError> {
        let e = size_of::<E>(d_model, "TransformerEncoderLayer", "d_model")?;
        let ff = size_of::<F>(dim_feedforward, "TransformerEncoderLayer", "dim_feedforward")?;
        let EncoderLayerOptions { dropout, activation, layer_norm_eps, norm_first, bias } = options;
        let self_attn = MultiheadAttention::try_new_sized(Some(e), dropout, bias, rng)?;
        let linear1 = Linear::try_new_sized(Some(e), Some(ff), bias, rng)?;
        let linear2 = Linear::try_new_sized(Some(ff), Some(e), bias, rng)?;
        let norm = || -> Result<LayerNorm<E, T>, ShapeError> {
            let mut n = LayerNorm::try_new_sized(Some(e), layer_norm_eps, true)?;
            if !bias {
                n.bias = None;
            }
            Ok(n)
        };
        Ok(TransformerEncoderLayer {
            self_attn,
            linear1,
            dropout: Dropout::new(dropout, rng.next_u64()),
            linear2,
            norm1: norm()?,
            norm2: norm()?,
            dropout1: Dropout::new(dropout, rng.next_u64()),
            dropout2: Dropout::new(dropout, rng.next_u64()),
            norm_first,
            activation,
        })
    }

    /// The layer on `src` `[N, L, E]` (PyTorch `layer(src, src_mask, src_key_padding_mask,
    /// is_causal)`): `src_mask` `[L, L]` (boolean, `true` = masked, or float, added),
    /// `src_key_padding_mask` `[N, L]` (`true` at the padding) and `is_causal` as in
    /// [`AttentionOptions`]. The self-attention runs as PyTorch's does here
    /// (`need_weights=False`): a position whose keys are all masked gets a zero attention output.
    /// Recorded on `tape`.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when a runtime size does not fit (the input's last size is not
    /// `E`, a mask's sizes), naming it; [`ShapeError::Autograd`] when `src` is tracked by another
    /// tape.
    #[try_twin]
    pub fn try_forward_masked<'t, N: Dim, L: Dim>(
        &mut self,
        tape: &'t Tape<T>,
        src: &Var<'t, T, (N, L, E)>,
        src_mask: Option<AttnMask<'_, T, L, L>>,
        src_key_padding_mask: Option<&Tensor<bool, (N, L)>>,
        is_causal: bool,
    ) -> Result<Var<'t, T, (N, L, E)>, ShapeError> {
        let e = self.self_attn.embed_dim();
        let sizes = src.sizes();
        if sizes[2] != e {
            return Err(ShapeError::Invalid(format!(
                "TransformerEncoderLayer: the input must be [N, L, {e}] (d_model {e}), got {sizes:?}"
            )));
        }
        let opts = AttentionOptions {
            key_padding_mask: src_key_padding_mask,
            attn_mask: src_mask,
            is_causal,
            need_weights: false,
        };
        let mask = score_mask("TransformerEncoderLayer", (sizes[0], sizes[1], sizes[1]), &opts)?;
        let x = dyn_of(src)?;
        let y = if self.norm_first {
            let h = self.norm1.try_forward_dyn(tape, &x)?;
            let x = x.try_add(&self.sa_block(tape, &h, mask)?)?;
            let h = self.norm2.try_forward_dyn(tape, &x)?;
            x.try_add(&self.ff_block(tape, &h)?)?
        } else {
            let sa = self.sa_block(tape, &x, mask)?;
            let x = self.norm1.try_forward_dyn(tape, &x.try_add(&sa)?)?;
            let ff = self.ff_block(tape, &x)?;
            self.norm2.try_forward_dyn(tape, &x.try_add(&ff)?)?
        };
        y.try_cast_shape::<(N, L, E)>()
    }

    /// `dropout1(self_attn(x, x, x, need_weights=False))`.
    fn sa_block<'t>(
        &mut self,
        tape: &'t Tape<T>,
        x: &Var<'t, T, DynShape>,
        mask: Option<(Tensor<T, DynShape>, Vec<bool>)>,
    ) -> Result<Var<'t, T, DynShape>, ShapeError> {
        let (y, _) = self.self_attn.attend(tape, x, x, x, mask, false)?;
        self.dropout1.try_forward(tape, &y)
    }

    /// `dropout2(linear2(dropout(activation(linear1(x)))))`.
    fn ff_block<'t>(
        &mut self,
        tape: &'t Tape<T>,
        x: &Var<'t, T, DynShape>,
    ) -> Result<Var<'t, T, DynShape>, ShapeError> {
        let (w1, b1) = watch_weight_bias(tape, &self.linear1.weight, self.linear1.bias.as_ref());
        let h = f::try_linear(x, &w1, b1.as_ref())?;
        let h = match self.activation {
            Activation::Relu => h.relu(),
            Activation::Gelu => h.gelu(),
        };
        let h = self.dropout.try_forward(tape, &h)?;
        let (w2, b2) = watch_weight_bias(tape, &self.linear2.weight, self.linear2.bias.as_ref());
        let y = f::try_linear(&h, &w2, b2.as_ref())?;
        self.dropout2.try_forward(tape, &y)
    }
}

impl<E: Dim, const HEADS: usize, F: Dim, T: GradFloat> Module<T> for TransformerEncoderLayer<E, HEADS, F, T> {
    fn visit<'a>(&'a mut self, prefix: &str, f: &mut dyn FnMut(&str, Item<'a, T>)) {
        use super::join;
        self.self_attn.visit(&join(prefix, "self_attn"), f);
        self.linear1.visit(&join(prefix, "linear1"), f);
        Module::<T>::visit(&mut self.dropout, &join(prefix, "dropout"), f);
        self.linear2.visit(&join(prefix, "linear2"), f);
        self.norm1.visit(&join(prefix, "norm1"), f);
        self.norm2.visit(&join(prefix, "norm2"), f);
        Module::<T>::visit(&mut self.dropout1, &join(prefix, "dropout1"), f);
        Module::<T>::visit(&mut self.dropout2, &join(prefix, "dropout2"), f);
    }
}

/// The layer without masks (PyTorch `layer(src)`): `[N, L, E]` in and out.
impl<'t, E: Dim, const HEADS: usize, F: Dim, T: GradFloat, N: Dim, L: Dim> Forward<'t, T, (N, L, E)>
    for TransformerEncoderLayer<E, HEADS, F, T>
{
    type Out = (N, L, E);
    fn try_forward(
        &mut self,
        tape: &'t Tape<T>,
        x: &Var<'t, T, (N, L, E)>,
    ) -> Result<Var<'t, T, (N, L, E)>, ShapeError> {
        self.try_forward_masked(tape, x, None, None, false)
    }
}
