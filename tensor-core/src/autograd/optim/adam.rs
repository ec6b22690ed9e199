//! Adam and AdamW (PyTorch `torch.optim.Adam`, `torch.optim.AdamW`).
use super::slots::{Core, Slot, SlotLayout};
use super::{c, check_step, nonneg, optimizer_common, GroupOptions, Optimizer, ParamNames, StateSpec, TrainState};
use crate::autograd::{AnyParam, GradFloat, Grads, ParamId};
use crate::error::{OrPanic, ShapeError};
use alloc::format;
use alloc::vec::Vec;

/// Declares the config of Adam or AdamW: PyTorch's `Adam` and `AdamW` take the same arguments
/// with the same defaults but for the weight decay, whose meaning (its field's doc) and default
/// each gives.
macro_rules! adam_config {
    ($(#[$doc:meta])* pub struct $Config:ident; $(#[$wd_doc:meta])* weight_decay = $wd:literal;) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub struct $Config {
            /// The learning rate (`>= 0`).
            pub lr: f64,
            /// The decay rates of the first and second moment estimates (each in `[0, 1)`).
            pub betas: (f64, f64),
            /// Added to the square root of the bias-corrected second moment (`>= 0`).
            pub eps: f64,
            $(#[$wd_doc])*
            pub weight_decay: f64,
            /// AMSGrad: normalise by the running maximum of the second moment estimates.
            pub amsgrad: bool,
            /// Maximise the objective instead of minimising it.
            pub maximize: bool,
        }

        impl Default for $Config {
            fn default() -> Self {
                $Config { lr: 1e-3, betas: (0.9, 0.999), eps: 1e-8, weight_decay: $wd, amsgrad: false, maximize: false }
            }
        }
    };
}

adam_config! {
    /// The hyper-parameters of [`Adam`], with PyTorch's defaults (`torch.optim.Adam`): `lr = 1e-3`,
    /// `betas = (0.9, 0.999)`, `eps = 1e-8`, no weight decay, no AMSGrad, minimising.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::autograd::optim::AdamConfig;
    /// let c = AdamConfig { lr: 3e-4, amsgrad: true, ..Default::default() };
    /// assert_eq!(c.betas, (0.9, 0.999));
    /// ```
    pub struct AdamConfig;
    /// The L2 penalty (`>= 0`): `weight_decay * p` is added to the gradient (coupled, unlike
    /// [`AdamW`]).
    weight_decay = 0.0;
}

adam_config! {
    /// The hyper-parameters of [`AdamW`], with PyTorch's defaults (`torch.optim.AdamW`): as
    /// [`AdamConfig`] but `weight_decay = 1e-2`, decoupled from the gradient.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::autograd::optim::AdamWConfig;
    /// assert_eq!(AdamWConfig::default().weight_decay, 1e-2);
    /// ```
    pub struct AdamWConfig;
    /// The decoupled weight decay (`>= 0`): `p *= 1 - lr * weight_decay` before each update.
    weight_decay = 1e-2;
}

/// The fields Adam and AdamW share, and whether the decay is decoupled.
#[derive(Clone, Copy)]
struct AdamHyper {
    lr: f64,
    betas: (f64, f64),
    eps: f64,
    weight_decay: f64,
    amsgrad: bool,
    maximize: bool,
    decoupled: bool,
}

impl AdamHyper {
    fn name(&self) -> &'static str {
        if self.decoupled {
            "AdamW"
        } else {
            "Adam"
        }
    }

    /// The checks of PyTorch's `Adam.__init__`.
    fn check(&self) -> Result<(), ShapeError> {
        let opt = self.name();
        nonneg("learning rate", opt, self.lr)?;
        nonneg("epsilon value", opt, self.eps)?;
        for (i, b) in [self.betas.0, self.betas.1].into_iter().enumerate() {
            if !(0.0..1.0).contains(&b) {
                return Err(ShapeError::Invalid(format!(
                    "{opt}: invalid beta parameter at index {i}: {b} (must be in [0, 1))"
                )));
            }
        }
        nonneg("weight_decay", opt, self.weight_decay)
    }
}

/// `torch.maximum` of two elements: NaN when either is.
#[inline(always)]
fn nan_max<T: GradFloat>(a: T, b: T) -> T {
    if a.is_nan() {
        a
    } else if b > a || b.is_nan() {
        b
    } else {
        a
    }
}

/// The scalars of one Adam step of one parameter, rounded to `T`.
struct AdamScalars<T> {
    sign: T,
    one_minus_b1: T,
    /// Whether `1 - beta1 < 0.5`: which side ATen's `lerp` computes from.
    small_weight: bool,
    beta2: T,
    one_minus_b2: T,
    eps: T,
    coupled: bool,
    wd: T,
    decoupled: bool,
    decay_factor: T,
    neg_step_size: T,
    bc2_sqrt: T,
}

impl<T: GradFloat> AdamScalars<T> {
    /// One element of PyTorch's `_single_tensor_adam`, in its order of operations.
    #[inline(always)]
    fn update(&self, w: &mut T, g: T, m: &mut T, v: &mut T, v_max: Option<&mut T>) {
        let mut p = *w;
        if self.decoupled {
            // param.mul_(1 - lr * weight_decay).
            p *= self.decay_factor;
        }
        let mut d = self.sign * g;
        if self.coupled {
            // grad = grad.add(param, alpha=weight_decay).
            d += self.wd * p;
        }
        // exp_avg.lerp_(grad, 1 - beta1), ATen's two-sided lerp.
        let w1 = self.one_minus_b1;
        *m = if self.small_weight { *m + w1 * (d - *m) } else { d - (d - *m) * (T::one() - w1) };
        // exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2).
        *v = *v * self.beta2 + self.one_minus_b2 * d * d;
        let second = match v_max {
            // torch.maximum(max_exp_avg_sq, exp_avg_sq, out=max_exp_avg_sq).
            Some(vm) => {
                *vm = nan_max(*vm, *v);
                *vm
            }
            None => *v,
        };
        // denom = (second.sqrt() / bias_correction2_sqrt).add_(eps);
        // param.addcdiv_(exp_avg, denom, value=-step_size).
        let denom = second.sqrt() / self.bc2_sqrt + self.eps;
        *w = p + self.neg_step_size * *m / denom;
    }
}

impl<T: GradFloat> AdamScalars<T> {
    /// [`update`](Self::update) of every element (no AMSGrad), with the options fixed outside
    /// the loop and the slices cut to one length, so that the loop compiles to vector operations
    /// (with the options tested per element it stayed scalar: 1.9 of the 3.4 ms of the MLP's
    /// training step, 85,000 parameters, on an AVX-512 machine).
    ///
    /// Split across rayon's pool in one piece per thread from [`PAR_ADAM`] elements (the same
    /// operations on each element, so the same bits).
    fn update_all(&self, w: &mut [T], g: &[T], m: &mut [T], v: &mut [T]) {
        #[cfg(feature = "rayon")]
        if crate::kernels::parallel_from(w.len(), PAR_ADAM) {
            use rayon::prelude::*;
            let n = w.len().min(g.len()).min(m.len()).min(v.len());
            let piece = n.div_ceil(rayon::current_num_threads()).max(1);
            let wg = w[..n].par_chunks_mut(piece).zip(g[..n].par_chunks(piece));
            let mv = m[..n].par_chunks_mut(piece).zip(v[..n].par_chunks_mut(piece));
            wg.zip(mv).for_each(|((w, g), (m, v))| self.update_serial(w, g, m, v));
            return;
        }
        self.update_serial(w, g, m, v)
    }
    /// [`update_all`](Self::update_all) on the calling thread.
    #[inline(always)]
    fn update_serial(&self, w: &mut [T], g: &[T], m: &mut [T], v: &mut [T]) {
        match (self.decoupled, self.coupled, self.small_weight) {
            (false, false, true) => self.update_each::<false, false, true>(w, g, m, v),
            (false, false, false) => self.update_each::<false, false, false>(w, g, m, v),
            (true, false, true) => self.update_each::<true, false, true>(w, g, m, v),
            (true, false, false) => self.update_each::<true, false, false>(w, g, m, v),
            (false, true, true) => self.update_each::<false, true, true>(w, g, m, v),
            (false, true, false) => self.update_each::<false, true, false>(w, g, m, v),
            (true, true, true) => self.update_each::<true, true, true>(w, g, m, v),
            (true, true, false) => self.update_each::<true, true, false>(w, g, m, v),
        }
    }
    /// The loop of [`update_all`](Self::update_all) for one choice of the options (`DEC`:
    /// decoupled weight decay, `COUP`: coupled, `SMALL`: the lerp's small-weight form), the same
    /// operations in the same order as [`update`](Self::update).
    #[inline(always)]
    fn update_each<const DEC: bool, const COUP: bool, const SMALL: bool>(
        &self,
        w: &mut [T],
        g: &[T],
        m: &mut [T],
        v: &mut [T],
    ) {
        let n = w.len().min(g.len()).min(m.len()).min(v.len());
        let (w, g, m, v) = (&mut w[..n], &g[..n], &mut m[..n], &mut v[..n]);
        let w1 = self.one_minus_b1;
        for i in 0..n {
            let mut p = w[i];
            if DEC {
                p *= self.decay_factor;
            }
            let mut d = self.sign * g[i];
            if COUP {
                d += self.wd * p;
            }
            let mi = m[i];
            let mi = if SMALL { mi + w1 * (d - mi) } else { d - (d - mi) * (T::one() - w1) };
            m[i] = mi;
            let vi = v[i] * self.beta2 + self.one_minus_b2 * d * d;
            v[i] = vi;
            let denom = vi.sqrt() / self.bc2_sqrt + self.eps;
            w[i] = p + self.neg_step_size * mi / denom;
        }
    }
}

/// Elements of one parameter from which its Adam or AdamW update splits across rayon's pool
/// (`AdamScalars::update_all`): the cheap element-wise kernels' threshold
/// ([`PAR_THRESHOLD`](crate::kernels::PAR_THRESHOLD), 2^18). Measured on two threads (2-core
/// AVX-512 Xeon, 2026-12-02, old and new builds alternated): from the float functions' 2^14 the
/// MLP's training step of `benches/autograd.rs` (its 16,384- and 65,536-element weights split)
/// went from 768-770 to 773-836 µs, a few microseconds of work each not paying for the hand-off
/// to a sleeping worker (the digits CNN's step, none of whose parameters reaches 2^14, moved by
/// up to 8% between the builds: the noise of that host); from 2^18 the MiniLM fine-tuning step
/// went from 341-344 to 319-330 ms (its 384 x 1536 weights and its embeddings split, its 384 x
/// 384 weights not).
#[cfg(feature = "rayon")]
const PAR_ADAM: usize = crate::kernels::PAR_THRESHOLD;

/// One Adam or AdamW step over `params`, everything checked: each parameter with its group's
/// learning rate and weight decay.
fn adam_step<T: GradFloat>(core: &mut Core<T>, h: AdamHyper, params: &mut [&mut dyn AnyParam<T>], grads: &Grads<T>) {
    let (b1, b2) = h.betas;
    let mut k = AdamScalars {
        sign: if h.maximize { -T::one() } else { T::one() },
        one_minus_b1: c(1.0 - b1),
        small_weight: (1.0 - b1).abs() < 0.5,
        beta2: c(b2),
        one_minus_b2: c(1.0 - b2),
        eps: c(h.eps),
        coupled: false,
        wd: T::zero(),
        decoupled: false,
        decay_factor: T::one(),
        neg_step_size: T::zero(),
        bc2_sqrt: T::one(),
    };
    for p in params.iter_mut() {
        let id = p.id();
        let Some(g) = grads.param_slice(id) else { continue };
        let (lr, weight_decay) = core.groups.hyper(id, h.lr, h.weight_decay);
        k.coupled = !h.decoupled && weight_decay != 0.0;
        k.wd = c(weight_decay);
        k.decoupled = h.decoupled && weight_decay != 0.0;
        k.decay_factor = c(1.0 - lr * weight_decay);
        let n = g.len();
        let slot = core.slots.entry(id).or_insert_with(|| Slot {
            step: 0,
            // exp_avg, exp_avg_sq (and max_exp_avg_sq: PyTorch creates it, zeros, with the rest).
            bufs: alloc::vec![alloc::vec![T::zero(); n]; if h.amsgrad { 3 } else { 2 }],
        });
        slot.step += 1;
        // As PyTorch: the scalars in f64 (Python floats), then rounded to T.
        let t = slot.step as f64;
        let bias_correction1 = 1.0 - libm::pow(b1, t);
        let bias_correction2 = 1.0 - libm::pow(b2, t);
        k.neg_step_size = c(-(lr / bias_correction1));
        k.bc2_sqrt = c(libm::pow(bias_correction2, 0.5));
        let k = &k;
        match &mut slot.bufs[..] {
            [exp_avg, exp_avg_sq, max_exp_avg_sq] => p.update(&mut |w: &mut [T]| {
                let wgmv = w.iter_mut().zip(g).zip(exp_avg.iter_mut()).zip(exp_avg_sq.iter_mut());
                for ((((w, &g), m), v), vm) in wgmv.zip(max_exp_avg_sq.iter_mut()) {
                    k.update(w, g, m, v, Some(vm));
                }
            }),
            [exp_avg, exp_avg_sq] => p.update(&mut |w: &mut [T]| k.update_all(w, g, exp_avg, exp_avg_sq)),
            _ => unreachable!("an Adam slot holds 2 or 3 buffers"),
        }
    }
}

/// Adam (Kingma and Ba, 2015): PyTorch `torch.optim.Adam`, the same update to round-off.
///
/// For each parameter `p` with gradient `g` (element by element; `t` counts this parameter's
/// steps from 1; `m`, `v` and `v_max` start at zero; `lr` and `weight_decay` are those of `p`'s
/// parameter group):
///
/// ```text
/// g = -g                              if maximize
/// g = g + weight_decay * p            if weight_decay != 0
/// m = lerp(m, g, 1 - beta1)           (= beta1 m + (1 - beta1) g)
/// v = beta2 v + (1 - beta2) g²
/// v_max = max(v_max, v); v = v_max    if amsgrad
/// p = p - lr / (1 - beta1^t) * m / (sqrt(v) / sqrt(1 - beta2^t) + eps)
/// ```
///
/// `eps` is added after the square root of the bias-corrected second moment, as PyTorch does.
/// The state per [`ParamId`] is the step count and `m`, `v` (and `v_max` with AMSGrad), saved as
/// PyTorch's `state.<name>.step`, `exp_avg`, `exp_avg_sq` and `max_exp_avg_sq`.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{Shape, Tensor};
/// use shaped::autograd::optim::{Adam, AdamConfig};
/// use shaped::autograd::{Param, Tape};
///
/// let mut w = Param::new(Tensor::<f64, Shape![2]>::from([1.0, -2.0]));
/// let mut opt = Adam::new(AdamConfig { lr: 0.1, ..Default::default() });
/// let tape = Tape::new();
/// let loss = tape.watch(&w).square().sum();
/// let grads = loss.backward();
/// opt.step(&mut [&mut w], &grads);
/// // The first Adam step moves each element by about lr against its gradient's sign.
/// let v = w.value().to_vec();
/// assert!((v[0] - 0.9).abs() < 1e-6 && (v[1] + 1.9).abs() < 1e-6);
/// assert_eq!(opt.step_count(w.id()), Some(1));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Adam<T> {
    config: AdamConfig,
    core: Core<T>,
}

/// AdamW (Loshchilov and Hutter, 2019): Adam with decoupled weight decay, PyTorch
/// `torch.optim.AdamW`, the same update to round-off.
///
/// As [`Adam`], except that the weight decay does not enter the gradient: before the update,
/// `p = p * (1 - lr * weight_decay)` (the factor computed in `f64`, then rounded to `T`).
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{Shape, Tensor};
/// use shaped::autograd::optim::{AdamW, AdamWConfig};
/// use shaped::autograd::{Param, Tape};
///
/// let mut w = Param::new(Tensor::<f32, Shape![3]>::from([1.0, 2.0, 3.0]));
/// let mut b = Param::new(Tensor::<f32, Shape![2, 2]>::zeros());
/// let mut opt = AdamW::new(AdamWConfig { lr: 1e-2, ..Default::default() });
/// let tape = Tape::new();
/// let loss = tape.watch(&w).sum(); // b is not watched: no gradient, skipped
/// let grads = loss.backward();
/// opt.step(&mut [&mut w, &mut b], &grads);
/// assert_eq!(b.value().to_vec(), [0.0; 4]);
/// assert_eq!(opt.step_count(b.id()), None);
/// assert!((w.value().to_vec()[0] - (1.0 * (1.0 - 1e-4) - 1e-2)).abs() < 1e-6);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct AdamW<T> {
    config: AdamWConfig,
    core: Core<T>,
}

macro_rules! adam_like {
    ($Opt:ident, $Config:ident, $decoupled:expr, $name:literal) => {
        impl<T: GradFloat> $Opt<T> {
            #[doc = concat!("[`new`](Self::new), with the checks of PyTorch's `", $name, ".__init__` as an error.")]
            ///
            /// # Errors
            /// [`ShapeError::Invalid`] when `lr`, `eps` or `weight_decay` is negative or NaN, or
            /// a beta is outside `[0, 1)` (PyTorch's `ValueError`s).
            pub fn try_new(config: $Config) -> Result<Self, ShapeError> {
                let s = $Opt { config, core: Core::new(config.lr) };
                s.hyper().check()?;
                Ok(s)
            }

            fn hyper(&self) -> AdamHyper {
                let c = &self.config;
                AdamHyper {
                    lr: c.lr,
                    betas: c.betas,
                    eps: c.eps,
                    weight_decay: c.weight_decay,
                    amsgrad: c.amsgrad,
                    maximize: c.maximize,
                    decoupled: $decoupled,
                }
            }

            fn check(&self) -> Result<(), ShapeError> {
                self.hyper().check()
            }

            fn layout(&self) -> SlotLayout {
                let mut bufs = alloc::vec!["exp_avg", "exp_avg_sq"];
                if self.config.amsgrad {
                    bufs.push("max_exp_avg_sq");
                }
                SlotLayout { name: $name, step: true, bufs }
            }

            fn step_impl(&mut self, params: &mut [&mut dyn AnyParam<T>], grads: &Grads<T>) {
                let h = self.hyper();
                adam_step(&mut self.core, h, params, grads)
            }

            /// The number of steps parameter `id` has taken (PyTorch `optimizer.state[p]["step"]`),
            /// or `None` before its first.
            pub fn step_count(&self, id: ParamId) -> Option<u64> {
                self.core.slots.get(&id).map(|s| s.step)
            }

            /// The first moment estimate of parameter `id`, row-major (PyTorch
            /// `optimizer.state[p]["exp_avg"]`), or `None` before its first step.
            pub fn exp_avg(&self, id: ParamId) -> Option<&[T]> {
                self.core.slots.get(&id).map(|s| s.bufs[0].as_slice())
            }

            /// The second moment estimate of parameter `id`, row-major (PyTorch
            /// `optimizer.state[p]["exp_avg_sq"]`), or `None` before its first step.
            pub fn exp_avg_sq(&self, id: ParamId) -> Option<&[T]> {
                self.core.slots.get(&id).map(|s| s.bufs[1].as_slice())
            }

            /// The running maximum of the second moment estimates of parameter `id`, row-major
            /// (PyTorch `optimizer.state[p]["max_exp_avg_sq"]`), or `None` before its first step
            /// or without AMSGrad.
            pub fn max_exp_avg_sq(&self, id: ParamId) -> Option<&[T]> {
                self.core.slots.get(&id).and_then(|s| s.bufs.get(2)).map(Vec::as_slice)
            }
        }

        optimizer_common!($Opt, $Config, $name);
    };
}

adam_like!(Adam, AdamConfig, false, "Adam");
adam_like!(AdamW, AdamWConfig, true, "AdamW");

#[cfg(all(test, feature = "rayon"))]
mod tests {
    use super::*;

    /// The update split across a pool of three threads (a parameter past [`PAR_ADAM`]) gives the
    /// bits of the update on the calling thread, for each choice of the options.
    #[test]
    fn split_update_equals_the_serial_one() {
        if cfg!(miri) {
            return;
        }
        let n = PAR_ADAM + 37;
        let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
        for (decoupled, coupled, small_weight) in [(false, false, true), (true, false, false), (false, true, true)] {
            let k = AdamScalars::<f32> {
                sign: 1.0,
                one_minus_b1: if small_weight { 0.1 } else { 0.7 },
                small_weight,
                beta2: 0.999,
                one_minus_b2: 0.001,
                eps: 1e-8,
                coupled,
                wd: if coupled { 0.01 } else { 0.0 },
                decoupled,
                decay_factor: if decoupled { 0.9999 } else { 1.0 },
                neg_step_size: -1e-3,
                bc2_sqrt: 0.03,
            };
            let start = |s: usize| -> Vec<f32> { (0..n).map(|i| (((i * s) % 97) as f32 - 48.0) / 16.0).collect() };
            let g = start(7);
            let (mut w1, mut m1, mut v1) = (start(3), start(5), start(11).iter().map(|x| x * x).collect::<Vec<_>>());
            let (mut w2, mut m2, mut v2) = (w1.clone(), m1.clone(), v1.clone());
            k.update_serial(&mut w1, &g, &mut m1, &mut v1);
            pool.install(|| k.update_all(&mut w2, &g, &mut m2, &mut v2));
            let bits = |x: &[f32]| x.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&w1), bits(&w2), "weights, {decoupled} {coupled} {small_weight}");
            assert_eq!(bits(&m1), bits(&m2));
            assert_eq!(bits(&v1), bits(&v2));
        }
    }
}
