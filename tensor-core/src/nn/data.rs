//! Seeded, shuffled mini-batches of a dataset held in two tensors (PyTorch's
//! `torch.utils.data.DataLoader(TensorDataset(inputs, targets), batch_size, shuffle=True,
//! drop_last)`), whose position is saved and restored with the rest of a training run.
//!
//! [`DataLoader`] owns the inputs `[N, ..]` and the targets `[N, ..]` (any element types, any
//! shapes whose first dim is the sample), and a generator forked from the seeded one the caller
//! gives (`R::from_seed` of a seed drawn from it, as `SeedableRng::fork`). Each epoch draws a
//! new permutation of `0..N` with `rand`'s `SliceRandom::shuffle` from that generator, and yields
//! its batches in order as typed tensors: the batch dim is [`Dyn`] (the last batch may be
//! shorter), every other dim is kept as it is in the dataset's type.
//!
//! A position is (the fork's seed, epochs started, batches given in the current one, the current
//! permutation): the generator's position is its seed and the number of permutations drawn from
//! it, so it is saved without serialising the generator. [`DataLoader::state_dict`] exports it;
//! [`DataLoader::load_state_dict`] draws the permutations again from the saved seed up to the
//! saved epoch, checks that the last one is the saved one, and continues from there.
use crate::autograd::optim::{check_specs, count_at, StateDtype, StateSpec, StateValue, TrainState};
use crate::dim::Dyn;
use crate::error::ShapeError;
use crate::shape::{Ax, SetAxis, Shape};
use crate::storage::Element;
use crate::tensor::Tensor;
use alloc::format;
use alloc::vec::Vec;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use shaped_macros::try_twin;

/// A batch of a dataset tensor of shape `S`: `S` with its first dim made [`Dyn`] (`Shape![_, 3,
/// 28, 28]` for inputs of `Shape![60000, 3, 28, 28]`).
pub type Batch<T, S> = Tensor<T, <S as SetAxis<0, Dyn>>::Out>;

const WHAT: &str = "DataLoader";

/// Mini-batches of `(inputs, targets)` in a seeded random order, epoch after epoch (PyTorch
/// `DataLoader(TensorDataset(inputs, targets), batch_size=.., shuffle=True, drop_last=..)`).
///
/// * [`iter`](Self::iter) gives the batches of one epoch (`for (x, y) in loader.iter()`, as
///   PyTorch's `for x, y in loader`): a new permutation when the last epoch is done, or the rest
///   of the current one when it is not (a loop that stopped early, a resumed run).
/// * [`next_batch`](Self::next_batch) gives the next batch whatever the epoch (a loop counted in
///   steps).
/// * Every epoch has [`len`](Self::len) batches of `batch_size` samples, the last one shorter
///   unless `drop_last` (then the `N % batch_size` samples left are not used in that epoch).
/// * [`shuffle(false)`](Self::shuffle) keeps the dataset's order (PyTorch's `shuffle=False`).
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::nn::data::DataLoader;
/// use shaped::rand::{rngs::StdRng, SeedableRng};
/// use shaped::{Shape, Tensor};
///
/// let x = Tensor::<f32, Shape![10, 3]>::from_vec(&[10, 3], (0..30).map(|v| v as f32).collect());
/// let y = Tensor::<i64, Shape![10]>::from_vec(&[10], (0..10).collect());
/// let mut loader = DataLoader::new(x, y, 4, StdRng::seed_from_u64(7));
/// assert_eq!(loader.len(), 3); // 4 + 4 + 2
/// let mut seen = Vec::new();
/// for (xb, yb) in loader.iter() {
///     let _: &Tensor<f32, Shape![_, 3]> = &xb; // the batch dim is Dyn, the 3 stays static
///     assert_eq!(xb.sizes()[0], yb.sizes()[0]);
///     // Row i of x is [3i, 3i + 1, 3i + 2]: the inputs follow their targets.
///     assert_eq!(xb.to_vec()[0], 3.0 * yb.to_vec()[0] as f32);
///     seen.extend(yb.to_vec());
/// }
/// seen.sort();
/// assert_eq!(seen, (0..10).collect::<Vec<i64>>()); // every sample once per epoch
///
/// let mut loader = loader.drop_last(true);
/// assert_eq!(loader.iter().map(|(_, y)| y.sizes()[0]).collect::<Vec<_>>(), [4, 4]);
/// ```
#[derive(Clone, Debug)]
pub struct DataLoader<T: Element, U: Element, SX: Shape, SY: Shape, R> {
    inputs: Tensor<T, SX>,
    targets: Tensor<U, SY>,
    batch_size: usize,
    drop_last: bool,
    shuffle: bool,
    /// The seed of `rng` (`R::Seed`'s bytes): what `load_state_dict` replays from.
    seed: Vec<u8>,
    /// Draws the orders.
    rng: R,
    /// The number of epochs started (permutations drawn).
    epoch: u64,
    /// The number of batches given in the current epoch.
    batch: usize,
    /// The current epoch's order of the samples (the identity before the first).
    order: Vec<usize>,
}

impl<T, U, SX, SY, R> DataLoader<T, U, SX, SY, R>
where
    T: Element,
    U: Element,
    SX: SetAxis<0, Dyn>,
    SY: SetAxis<0, Dyn>,
    R: Rng + SeedableRng,
{
    /// A loader of `inputs` `[N, ..]` and `targets` `[N, ..]` in batches of `batch_size`,
    /// shuffled by a generator forked from `rng` (seed it, `StdRng::seed_from_u64(seed)`: the
    /// same seed gives the same batches), keeping the last short batch (`drop_last(true)` drops
    /// it). The fork's seed is drawn from `rng` now; no permutation is drawn before the first
    /// epoch starts.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when `batch_size` is 0, a tensor has no dims (a [`DynShape`]
    /// of rank 0; a tuple shape's rank is checked at compile time), or the inputs and the
    /// targets hold different numbers of samples (PyTorch's "Size mismatch between tensors").
    ///
    /// [`DynShape`]: crate::DynShape
    #[try_twin(
        doc = "A loader of `inputs` `[N, ..]` and `targets` `[N, ..]` in batches of `batch_size`, shuffled by a generator forked from `rng` (seed it, `StdRng::seed_from_u64(seed)`."
    )]
    pub fn try_new(
        inputs: Tensor<T, SX>,
        targets: Tensor<U, SY>,
        batch_size: usize,
        mut rng: R,
    ) -> Result<Self, ShapeError> {
        if batch_size == 0 {
            return Err(ShapeError::Invalid(format!("{WHAT}: batch_size must be at least 1")));
        }
        let (Some(&n), Some(&m)) = (inputs.sizes().first(), targets.sizes().first()) else {
            return Err(ShapeError::Invalid(format!(
                "{WHAT}: the inputs {:?} and the targets {:?} need a first (sample) dim",
                inputs.sizes(),
                targets.sizes()
            )));
        };
        if n != m {
            return Err(ShapeError::Invalid(format!(
                "{WHAT}: size mismatch between tensors: {n} inputs {:?} but {m} targets {:?}",
                inputs.sizes(),
                targets.sizes()
            )));
        }
        let mut seed = R::Seed::default();
        rng.fill_bytes(seed.as_mut());
        Ok(DataLoader {
            inputs,
            targets,
            batch_size,
            drop_last: false,
            shuffle: true,
            seed: seed.as_ref().to_vec(),
            rng: R::from_seed(seed),
            epoch: 0,
            batch: 0,
            order: (0..n).collect(),
        })
    }

    /// Whether the last batch of an epoch is dropped when it is short (PyTorch's `drop_last`).
    /// Changes the length of the epochs: set it before the first one.
    pub fn drop_last(mut self, drop_last: bool) -> Self {
        self.drop_last = drop_last;
        self
    }

    /// Whether each epoch draws a new order (PyTorch's `shuffle`, `true` here); `false` keeps the
    /// dataset's order and draws nothing. Set it before the first epoch.
    pub fn shuffle(mut self, shuffle: bool) -> Self {
        self.shuffle = shuffle;
        self
    }

    /// The number of samples `N`.
    pub fn num_samples(&self) -> usize {
        self.order.len()
    }

    /// The batch size.
    pub fn batch_size(&self) -> usize {
        self.batch_size
    }

    /// The number of batches of an epoch (PyTorch `len(loader)`): `N / batch_size` with
    /// `drop_last`, rounded up without.
    pub fn len(&self) -> usize {
        let n = self.num_samples();
        if self.drop_last {
            n / self.batch_size
        } else {
            n.div_ceil(self.batch_size)
        }
    }

    /// Whether an epoch has no batch.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The number of epochs started (0 before the first batch).
    pub fn epoch(&self) -> u64 {
        self.epoch
    }

    /// The number of batches given in the current epoch.
    pub fn batches_done(&self) -> usize {
        self.batch
    }

    /// The current epoch's order of the samples (the dataset's order before the first epoch).
    pub fn order(&self) -> &[usize] {
        &self.order
    }

    /// The inputs and the targets.
    pub fn dataset(&self) -> (&Tensor<T, SX>, &Tensor<U, SY>) {
        (&self.inputs, &self.targets)
    }

    fn epoch_done(&self) -> bool {
        self.epoch == 0 || self.batch >= self.len()
    }

    /// The order of a new epoch drawn from `rng` (the identity without shuffling).
    fn draw(shuffle: bool, n: usize, rng: &mut R) -> Vec<usize> {
        let mut order: Vec<usize> = (0..n).collect();
        if shuffle {
            order.shuffle(rng);
        }
        order
    }

    /// Starts a new epoch now, with a new order, even when the current one has batches left.
    pub fn start_epoch(&mut self) {
        self.order = Self::draw(self.shuffle, self.num_samples(), &mut self.rng);
        self.epoch += 1;
        self.batch = 0;
    }

    /// The batch `b` of the current order.
    fn take(&self, b: usize) -> (Batch<T, SX>, Batch<U, SY>) {
        let n = self.num_samples();
        let lo = b * self.batch_size;
        let hi = (lo + self.batch_size).min(n);
        let idx: Vec<i64> = self.order[lo..hi].iter().map(|&i| i as i64).collect();
        let idx = Tensor::<i64, (Dyn,)>::from_vec(&[hi - lo], idx);
        (self.inputs.index_select(Ax::<0>, &idx), self.targets.index_select(Ax::<0>, &idx))
    }

    /// The next batch, `(inputs, targets)` of shapes `[b, ..]` (`b = batch_size`, or fewer for
    /// the last batch of an epoch without `drop_last`), starting a new epoch when the current
    /// one is done; `None` only when an epoch has no batch at all (no sample, or fewer than
    /// `batch_size` with `drop_last`).
    ///
    /// # Panics
    /// When the batch cannot be allocated.
    pub fn next_batch(&mut self) -> Option<(Batch<T, SX>, Batch<U, SY>)> {
        if self.epoch_done() {
            self.start_epoch();
        }
        if self.batch >= self.len() {
            return None;
        }
        let out = self.take(self.batch);
        self.batch += 1;
        Some(out)
    }

    /// The batches of one epoch (PyTorch's `for x, y in loader`): the rest of the current epoch
    /// if it has batches left, else a new epoch with a new order (drawn now).
    pub fn iter(&mut self) -> Batches<'_, T, U, SX, SY, R> {
        if self.epoch_done() {
            self.start_epoch();
        }
        Batches { loader: self }
    }

    /// The position (PyTorch saves its generator's state by hand, `generator.get_state()`):
    /// `seed` (`I64 [S]`: the bytes of the generator's seed, `S = size_of::<R::Seed>()`),
    /// `epoch`, `batch` (`I64 []`: epochs started, batches given in the current one), `order`
    /// (`I64 [N]`: the current permutation), and `batch_size`, `drop_last`, `shuffle` (`I64 []`)
    /// to check the loader it is loaded into.
    pub fn state_dict(&self) -> TrainState {
        let mut out = TrainState::new();
        out.insert(
            "seed",
            StateValue::I64 {
                sizes: alloc::vec![self.seed.len()],
                data: self.seed.iter().map(|&b| i64::from(b)).collect(),
            },
        );
        out.insert("epoch", StateValue::i64_scalar(self.epoch as i64));
        out.insert("batch", StateValue::i64_scalar(self.batch as i64));
        out.insert(
            "order",
            StateValue::I64 {
                sizes: alloc::vec![self.num_samples()],
                data: self.order.iter().map(|&i| i as i64).collect(),
            },
        );
        out.insert("batch_size", StateValue::i64_scalar(self.batch_size as i64));
        out.insert("drop_last", StateValue::i64_scalar(self.drop_last as i64));
        out.insert("shuffle", StateValue::i64_scalar(self.shuffle as i64));
        out
    }

    /// The keys of [`state_dict`](Self::state_dict), all required (`order` of length `N`).
    pub fn state_specs(&self) -> Vec<StateSpec> {
        let mut out = alloc::vec![StateSpec::required("seed", StateDtype::I64, &[self.seed.len()])];
        for k in ["epoch", "batch"] {
            out.push(StateSpec::required(k, StateDtype::I64, &[]));
        }
        out.push(StateSpec::required("order", StateDtype::I64, &[self.num_samples()]));
        for k in ["batch_size", "drop_last", "shuffle"] {
            out.push(StateSpec::required(k, StateDtype::I64, &[]));
        }
        out
    }

    /// Moves to a position saved by [`state_dict`](Self::state_dict), from any position: the
    /// generator is made again from the saved seed and its permutations are drawn again up to
    /// the saved epoch (`O(epoch * N)`), the last one checked against the saved order. Build
    /// the loader on the same data (same `N`, batch size and flags; the generator it was given
    /// does not matter, the saved seed replaces its fork's); its next batch is then the saved
    /// run's next batch.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] for an unexpected or a missing key, a dtype or shape other than
    /// the spec's (naming the key and both: `order` of another `N`), a batch size or flag other
    /// than this loader's, a batch count past the epoch's length, a seed byte outside `0..256`,
    /// an order that is not a permutation or not the one the seed draws at that epoch. Nothing
    /// changes then.
    pub fn load_state_dict(&mut self, state: &TrainState) -> Result<(), ShapeError> {
        check_specs(WHAT, state, &self.state_specs())?;
        let get = |k: &str| count_at(WHAT, state, k).map(|v| v.expect("checked by the specs"));
        let (epoch, batch) = (get("epoch")?, get("batch")?);
        for (k, mine) in [
            ("batch_size", self.batch_size as u64),
            ("drop_last", self.drop_last as u64),
            ("shuffle", self.shuffle as u64),
        ] {
            let saved = get(k)?;
            if saved != mine {
                return Err(ShapeError::Invalid(format!("{WHAT}: the state's {k} is {saved}, this loader's {mine}")));
            }
        }
        let len = self.len();
        let batch = usize::try_from(batch).ok().filter(|&b| b <= len && (epoch > 0 || b == 0)).ok_or_else(|| {
            ShapeError::Invalid(format!(
                "{WHAT}: the state has given {batch} batches of epoch {epoch}, an epoch has {len}"
            ))
        })?;
        let n = self.num_samples();
        let saved = state.get("order").and_then(StateValue::as_i64_slice).expect("checked by the specs");
        let mut seen = alloc::vec![false; n];
        let mut order = Vec::with_capacity(n);
        for &i in saved {
            let ok = usize::try_from(i).ok().filter(|&i| i < n && !seen[i]);
            let Some(i) = ok else {
                return Err(ShapeError::Invalid(format!(
                    "{WHAT}: the state's order is not a permutation of 0..{n} ({i})"
                )));
            };
            seen[i] = true;
            order.push(i);
        }
        let bytes = state.get("seed").and_then(StateValue::as_i64_slice).expect("checked by the specs");
        let mut seed = R::Seed::default();
        for (b, &v) in seed.as_mut().iter_mut().zip(bytes) {
            *b = u8::try_from(v)
                .map_err(|_| ShapeError::Invalid(format!("{WHAT}: the state's seed holds {v}, not a byte")))?;
        }
        let mut rng = R::from_seed(seed.clone());
        let mut drawn: Vec<usize> = (0..n).collect();
        for _ in 0..epoch {
            drawn = Self::draw(self.shuffle, n, &mut rng);
        }
        if drawn != order {
            return Err(ShapeError::Invalid(format!(
                "{WHAT}: the saved order is not the one the saved seed draws at epoch {epoch}: the state was changed"
            )));
        }
        self.seed = seed.as_ref().to_vec();
        self.rng = rng;
        self.epoch = epoch;
        self.batch = batch;
        self.order = order;
        Ok(())
    }
}

/// The batches of one epoch of a [`DataLoader`] ([`DataLoader::iter`]): `(inputs, targets)`
/// of shapes `[b, ..]`, each taken from the loader's current order as it is consumed, so that
/// the loader's position follows the iteration.
#[derive(Debug)]
pub struct Batches<'a, T: Element, U: Element, SX: Shape, SY: Shape, R> {
    loader: &'a mut DataLoader<T, U, SX, SY, R>,
}

impl<T, U, SX, SY, R> Iterator for Batches<'_, T, U, SX, SY, R>
where
    T: Element,
    U: Element,
    SX: SetAxis<0, Dyn>,
    SY: SetAxis<0, Dyn>,
    R: Rng + SeedableRng,
{
    type Item = (Batch<T, SX>, Batch<U, SY>);

    fn next(&mut self) -> Option<Self::Item> {
        let l = &mut *self.loader;
        if l.batch >= l.len() {
            return None;
        }
        let out = l.take(l.batch);
        l.batch += 1;
        Some(out)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.loader.len().saturating_sub(self.loader.batch);
        (left, Some(left))
    }
}

/// Exact wherever the batches iterate: [`size_hint`](Iterator::size_hint) counts the batches left.
impl<T: Element, U: Element, SX: Shape, SY: Shape, R> ExactSizeIterator for Batches<'_, T, U, SX, SY, R> where
    Self: Iterator
{
}
