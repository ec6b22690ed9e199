//! Differentiable joins, padding and indexing: `cat`, `stack`, `pad`, `index_select`, `gather`,
//! `masked_fill`, `where_`. Their backward rules are views of the output gradient (joins,
//! padding) or the accumulating writes that undo a read (`index_add` for `index_select`,
//! `scatter_add` for `gather`: repeated indices add up, as PyTorch's).
use super::ops::{sum_to, typed};
use super::tape::Sink;
use super::var::{back, Var};
use super::GradFloat;
use crate::dim::{Const, Dyn};
use crate::error::{OrPanic, ShapeError};
use crate::index::IndexElem;
use crate::layout::{normalize_axis, normalize_insert_axis};
use crate::ops::pad::{source as pad_source, PadMode};
use crate::shape::{
    Broadcast, BroadcastShape, CatAxis, DynShape, ExpandsTo, HasAxis, PadAxis, ReplaceAxis, SameRank, Shape, StackAxis,
    VectorShape,
};
use crate::storage::Data;
use crate::tensor::join::{Cat, Stack};
use crate::tensor::{Tensor, TensorBase, TensorView};
use alloc::vec::Vec;
use shaped_macros::try_twin;

impl<'t, T: GradFloat, S: Shape> Var<'t, T, S> {
    /// `self` and `rhs` joined along `axis` (PyTorch `torch.cat([a, b], dim=axis)`),
    /// differentiable: the other dims must agree (a compile error where static); the joined dim
    /// is their sum where both are static, `Dyn` otherwise. Each operand's gradient is its slice
    /// of the output's.
    ///
    /// # Errors
    /// The errors of [`Tensor::try_cat`](crate::tensor::join::Cat::try_cat)
    /// for runtime sizes that differ; [`ShapeError::Autograd`] for two tapes.
    #[allow(clippy::type_complexity)]
    #[try_twin]
    pub fn try_cat<S2: Shape, X, M, Y: Shape>(&self, rhs: &Var<'t, T, S2>, axis: X) -> Result<Var<'t, T, Y>, ShapeError>
    where
        S: CatAxis<X, M, S2, Out = Y>,
    {
        let a = normalize_axis(<S as CatAxis<X, M, S2>>::axis_index(&axis), self.value().rank())?;
        let out = self.value().try_cat::<X, M, Y>(rhs.value(), axis)?;
        let (la, lb) = (*self.value().layout(), *rhs.value().layout());
        Self::record([self.node(), rhs.node()], out, move |[ia, ib], _| {
            back(move |g: Tensor<T, Y>, s: &mut Sink<T>| {
                let n = la.sizes()[a];
                let gd = g.as_dyn();
                s.add_with(ia, || typed::<T, S>(gd.narrow(a as isize, 0, n).to_owned()));
                s.add_with(ib, || typed::<T, S2>(gd.narrow(a as isize, n as isize, lb.sizes()[a]).to_owned()));
            })
        })
    }

    /// Any number of values of one shape type joined along `axis` (PyTorch `torch.cat`),
    /// differentiable; the joined dim becomes `Dyn` (every dim, for an `isize` axis).
    ///
    /// # Errors
    /// As [`Tensor::try_cat_all`](crate::TensorBase::try_cat_all) (no operands, runtime sizes
    /// that differ); [`ShapeError::Autograd`] for two tapes.
    #[try_twin]
    pub fn try_cat_all<X, M, Y: Shape>(xs: &[&Var<'t, T, S>], axis: X) -> Result<Var<'t, T, Y>, ShapeError>
    where
        S: ReplaceAxis<X, M, Dyn, Out = Y>,
    {
        let vals: Vec<&Tensor<T, S>> = xs.iter().map(|x| x.value()).collect();
        let ax = <S as ReplaceAxis<X, M, Dyn>>::axis_index(&axis);
        let out = Tensor::<T, S>::try_cat_all::<X, M, Y>(&vals, axis)?;
        let a = normalize_axis(ax, vals[0].rank())?;
        let lens: Vec<usize> = vals.iter().map(|v| v.sizes()[a]).collect();
        Self::record_many(xs, out, move |idx, g: Tensor<T, Y>, s| {
            let gd = g.as_dyn();
            let mut start = 0;
            for (i, &n) in idx.iter().zip(&lens) {
                s.add_with(*i, || typed::<T, S>(gd.narrow(a as isize, start as isize, n).to_owned()));
                start += n;
            }
        })
    }

    /// `K` values of one shape stacked along a new axis at `axis` (PyTorch `torch.stack`),
    /// differentiable: the new dim is `Const<K>` (every dim `Dyn` for an `isize` axis). Each
    /// operand's gradient is its slice.
    ///
    /// # Errors
    /// As [`Tensor::try_stack`](crate::tensor::join::Stack::try_stack) (runtime sizes that
    /// differ); [`ShapeError::Autograd`] for two tapes.
    #[allow(clippy::type_complexity)]
    #[try_twin]
    pub fn try_stack<X, M, Y: Shape, const K: usize>(
        xs: [&Var<'t, T, S>; K],
        axis: X,
    ) -> Result<Var<'t, T, Y>, ShapeError>
    where
        S: StackAxis<X, M, Const<K>, Out = Y>,
    {
        let vals: [&Tensor<T, S>; K] = xs.map(|x| x.value());
        let ax = <S as StackAxis<X, M, Const<K>>>::axis_index(&axis);
        let out = <Tensor<T, S> as Stack<[&Tensor<T, S>; K]>>::try_stack::<X, M, Y>(vals, axis)?;
        let a = normalize_insert_axis(ax, vals.first().map_or(0, |v| v.rank()))?;
        Self::record_many(&xs, out, move |idx, g: Tensor<T, Y>, s| {
            let gd = g.as_dyn();
            for (k, i) in idx.iter().enumerate() {
                s.add_with(*i, || typed::<T, S>(gd.select(a as isize, k as isize).to_owned()));
            }
        })
    }

    /// Records an operation of any number of inputs of one shape type.
    fn record_many<S2: Shape>(
        xs: &[&Var<'t, T, S>],
        out: Tensor<T, S2>,
        rule: impl FnOnce(&[Option<usize>], Tensor<T, S2>, &mut Sink<T>) + 'static,
    ) -> Result<Var<'t, T, S2>, ShapeError> {
        let nodes: Vec<_> = xs.iter().map(|x| x.node()).collect();
        Self::record_nodes(&nodes, out, move |idx, _| back(move |g: Tensor<T, S2>, s| rule(&idx, g, s)))
    }

    /// `axis` padded by `L` elements before and `R` after (`pads = (Const::<L>, Const::<R>)`;
    /// PyTorch `nn.functional.pad(x, (L, R), mode, value)` on that dim), differentiable: the dim
    /// grows by `L + R` in the type where static. For [`PadMode::Constant`] the gradient is the output's middle; for the other
    /// modes each output element's gradient goes back to the input element it copies
    /// (`index_add` over the same table of source positions as the forward).
    ///
    /// # Errors
    /// As [`Tensor::try_pad`](crate::TensorBase::try_pad) (a reflection wider than the dim,
    /// ...); [`ShapeError::Autograd`] for a value of a finished tape.
    #[try_twin]
    pub fn try_pad<const L: usize, const R: usize, X, M, Y: Shape>(
        &self,
        pads: (Const<L>, Const<R>),
        axis: X,
        mode: PadMode,
        value: T,
    ) -> Result<Var<'t, T, Y>, ShapeError>
    where
        S: PadAxis<X, M, L, R, Out = Y>,
    {
        let a = normalize_axis(<S as PadAxis<X, M, L, R>>::axis_index(&axis), self.value().rank())?;
        let out = self.value().try_pad::<L, R, X, M, Y>(pads, axis, mode, value)?;
        let xl = *self.value().layout();
        self.try_record1(out, move |i, _| {
            back(move |g: Tensor<T, Y>, s| {
                s.add_with(i, || {
                    let n = xl.sizes()[a];
                    if mode == PadMode::Constant {
                        return typed::<T, S>(g.as_dyn().narrow(a as isize, L as isize, n).to_owned());
                    }
                    let table: Vec<i64> = (0..n + L + R).map(|k| pad_source(k, n, L, mode)).collect();
                    let table = Tensor::<i64, DynShape>::from_vec(&[n + L + R], table);
                    let mut gx = Tensor::<T, S>::zeros_sized(xl.sizes());
                    gx.index_add_at(a as isize, &table, &g, T::one()).or_panic();
                    gx
                })
            })
        })
    }

    /// The entries `index` along `axis` (PyTorch `index_select(axis, index)`), differentiable:
    /// `axis` becomes `K`, the index's length (the index `(K,)`, `()` or a `DynShape` of rank 1).
    /// Repeated entries add their gradients up.
    ///
    /// # Errors
    /// As [`Tensor::try_index_select`](crate::TensorBase::try_index_select) (an entry out of
    /// range, naming it); [`ShapeError::Autograd`] for a value of a finished tape.
    #[try_twin]
    pub fn try_index_select<X, M, Y: Shape, SI: VectorShape, I: IndexElem>(
        &self,
        axis: X,
        index: &TensorBase<impl Data<Elem = I>, SI>,
    ) -> Result<Var<'t, T, Y>, ShapeError>
    where
        S: ReplaceAxis<X, M, SI::Len, Out = Y>,
    {
        let a = normalize_axis(<S as ReplaceAxis<X, M, SI::Len>>::axis_index(&axis), self.value().rank())?;
        let out = self.value().try_index_select::<X, M, Y, SI>(axis, index)?;
        let idx = index.to_owned();
        self.try_record_scattered(out, move |gx, g| gx.index_add_at(a as isize, &idx, g, T::one()))
    }

    /// The elements at `index` along `axis` (PyTorch `gather(axis, index)`), differentiable: the
    /// result has the index's shape. Repeated entries add their gradients up (`scatter_add`).
    ///
    /// # Errors
    /// As [`Tensor::try_gather`](crate::TensorBase::try_gather) (an entry out of range, sizes
    /// that do not fit); [`ShapeError::Autograd`] for a value of a finished tape.
    #[try_twin]
    pub fn try_gather<X, M, SI: SameRank<S>, I: IndexElem>(
        &self,
        axis: X,
        index: &TensorBase<impl Data<Elem = I>, SI>,
    ) -> Result<Var<'t, T, SI>, ShapeError>
    where
        S: HasAxis<X, M>,
    {
        let a = normalize_axis(<S as HasAxis<X, M>>::axis_index(&axis), self.value().rank())?;
        let out = self.value().try_gather::<X, M, SI>(axis, index)?;
        let idx = index.to_owned();
        self.try_record_scattered(out, move |gx, g| gx.scatter_add_at(a as isize, &idx, g))
    }

    /// Records `out`, computed from this value by a selection, whose backward adds the output's
    /// gradient `g` into zeros of this value's sizes by `put(&mut gx, &g)` (`index_add`,
    /// `scatter_add`).
    fn try_record_scattered<Y: Shape>(
        &self,
        out: Tensor<T, Y>,
        put: impl FnOnce(&mut Tensor<T, S>, &Tensor<T, Y>) -> Result<(), ShapeError> + 'static,
    ) -> Result<Var<'t, T, Y>, ShapeError> {
        let xl = *self.value().layout();
        self.try_record1(out, move |i, _| {
            back(move |g: Tensor<T, Y>, s| {
                s.add_with(i, || {
                    let mut gx = Tensor::<T, S>::zeros_sized(xl.sizes());
                    put(&mut gx, &g).or_panic();
                    gx
                })
            })
        })
    }

    /// `value` where `mask` is true (PyTorch `masked_fill(mask, value)`), differentiable: same
    /// shape; `mask` broadcasts to it. No gradient flows through the filled elements.
    ///
    /// # Errors
    /// [`ShapeError::Broadcast`] when a runtime size of `mask` does not expand to the value's;
    /// [`ShapeError::Autograd`] for a value of a finished tape.
    #[try_twin]
    pub fn try_masked_fill<SM: ExpandsTo<S>>(
        &self,
        mask: &TensorBase<impl Data<Elem = bool>, SM>,
        value: T,
    ) -> Result<Var<'t, T, S>, ShapeError> {
        let out = self.value().try_masked_fill(mask, value)?;
        let m = mask.to_owned();
        self.try_record1(out, move |i, _| {
            back(move |g: Tensor<T, S>, s| s.add_with(i, || g.masked_fill(&m, T::zero())))
        })
    }

    /// `self` where `cond` holds, `other` elsewhere (PyTorch `torch.where(cond, self, other)`),
    /// with broadcasting, differentiable: each operand gets the output's gradient where it was
    /// chosen, summed over its broadcast dims.
    ///
    /// # Errors
    /// [`ShapeError::Broadcast`] when runtime sizes do not broadcast; [`ShapeError::Autograd`]
    /// when the operands are tracked by two tapes.
    #[allow(clippy::type_complexity)]
    #[try_twin]
    pub fn try_where_<SC, SO: Shape>(
        &self,
        cond: &TensorBase<impl Data<Elem = bool>, SC>,
        other: &Var<'t, T, SO>,
    ) -> Result<Var<'t, T, Broadcast<Broadcast<SC, S>, SO>>, ShapeError>
    where
        SC: Shape + BroadcastShape<S>,
        Broadcast<SC, S>: BroadcastShape<SO>,
    {
        let out = self.value().try_where_::<SC, SO>(cond, other.value())?;
        let cnd = cond.to_owned().into_dyn();
        let (la, lb) = (*self.value().layout(), *other.value().layout());
        Self::record([self.node(), other.node()], out, move |[ia, ib], _| {
            back(move |g: Tensor<T, Broadcast<Broadcast<SC, S>, SO>>, s: &mut Sink<T>| {
                let gd = g.as_dyn();
                let zeros = Tensor::<T, DynShape>::zeros_sized(&[]);
                s.add_with(ia, || sum_to::<T, S>(gd.where_(&cnd, &zeros).as_dyn(), la.sizes()));
                s.add_with(ib, || sum_to::<T, SO>(zeros.where_(&cnd, &gd).as_dyn(), lb.sizes()));
            })
        })
    }

    /// The elements where `mask` holds, as a 1-D value in row-major order of the broadcast shape
    /// of `self` and `mask` (PyTorch `masked_select`), differentiable: each selected element's
    /// gradient goes back to its position (summed over the dims `self` was broadcast along).
    ///
    /// # Errors
    /// [`ShapeError::Broadcast`] when runtime sizes do not broadcast; [`ShapeError::Autograd`]
    /// for a value of a finished tape.
    #[try_twin]
    pub fn try_masked_select<SM: Shape>(
        &self,
        mask: &TensorBase<impl Data<Elem = bool>, SM>,
    ) -> Result<Var<'t, T, (Dyn,)>, ShapeError>
    where
        S: BroadcastShape<SM>,
    {
        let out = self.value().try_masked_select(mask)?;
        let (bs, r) = crate::layout::broadcast_sizes(self.sizes(), mask.sizes())?;
        let bsizes: Vec<usize> = bs[..r].to_vec();
        let picked: Vec<i64> = mask
            .as_dyn()
            .try_expand_dyn(&bsizes)?
            .to_vec()
            .iter()
            .enumerate()
            .filter(|(_, &m)| m)
            .map(|(k, _)| k as i64)
            .collect();
        let xl = *self.value().layout();
        Self::record([self.node()], out, move |[i], _| {
            back(move |g: Tensor<T, (Dyn,)>, s: &mut Sink<T>| {
                s.add_with(i, || {
                    let n: usize = bsizes.iter().product();
                    let mut flat = Tensor::<T, DynShape>::zeros_sized(&[n]);
                    let idx = Tensor::<i64, DynShape>::from_vec(&[picked.len()], picked);
                    flat.index_add_at(0, &idx, &g, T::one()).or_panic();
                    let isizes: Vec<isize> = bsizes.iter().map(|&v| v as isize).collect();
                    sum_to::<T, S>(flat.reshape_dyn(&isizes).as_dyn(), xl.sizes())
                })
            })
        })
    }

    /// Any selection of the value's elements, differentiable: `f` receives a view of the value
    /// and returns a tensor of some of its elements, in any order, repeats allowed (advanced
    /// indexing: `x.index_with(|v| t!(v[&rows, ..]))`, PyTorch `x[idx]`; `take`, ...). Each
    /// output element's gradient goes back to the element it copies, summed over repeats.
    ///
    /// The selection must not depend on the values. To learn which element each output copies,
    /// `f` is run again on three probes of the value's shape: the element positions
    /// `0, 1, .., n - 1`, the same reversed, and the positions ordered as the values are (the
    /// rank of each element, ties by position, so a selection by `argmax`, `sort` or `topk`
    /// picks on it what it picks on the value). The three must select the same elements, and
    /// the first run's output must equal those elements of the value. A closure that computes
    /// (arithmetic, a constant) or whose choice moves with the values is refused. What no probe
    /// can show is a choice that differs only among equal values (a test `v[0] == 1.0`); for a
    /// selection computed from the values, compute the index first and use
    /// [`index_select`](Self::index_select) or [`gather`](Self::gather), as PyTorch's
    /// `x[x.argmax() + 1]` does (its index carries no gradient).
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when `f` does not only select elements of the value, or when its
    /// selection differs between the probes or it panics on one (with `std`: a closure that
    /// selects by position runs on a probe as it ran on the value); when an `f32` value has more
    /// than 2²⁴ elements (positions must be exact in the element type).
    #[try_twin]
    pub fn try_index_with<S2: Shape>(
        &self,
        f: impl for<'v> Fn(TensorView<'v, T, S>) -> Tensor<T, S2>,
    ) -> Result<Var<'t, T, S2>, ShapeError> {
        let x = self.value();
        let n = x.numel();
        let exact = if core::mem::size_of::<T>() == 4 { 1u64 << 24 } else { 1u64 << 53 };
        if n as u64 > exact {
            return Err(ShapeError::Invalid(alloc::format!(
                "index_with: {n} elements are too many to number exactly in this element type"
            )));
        }
        let out = f(x.as_view());
        let refuse = || {
            ShapeError::Invalid("index_with: the closure must only select elements of the view it receives (index, slice, gather), not compute new ones".into())
        };
        let moved = || {
            ShapeError::Invalid("index_with: the closure's selection depends on the values (it differs between probes of the value's shape): compute the index first (argmax, topk, ...) and use index_select or gather".into())
        };
        let xs = x.to_vec();
        // Rank of each element in the values' order (total order, NaN last, ties by position).
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| xs[a].as_f64().total_cmp(&xs[b].as_f64()).then(a.cmp(&b)));
        let mut rank = alloc::vec![0usize; n];
        for (r, &k) in order.iter().enumerate() {
            rank[k] = r;
        }
        // The positions each probe's run selects; `to_pos` maps a probe's value to a position.
        let probe = |values: Vec<T>, to_pos: &dyn Fn(usize) -> usize| -> Result<Vec<usize>, ShapeError> {
            let probe_value = Tensor::<T, S>::from_vec(x.sizes(), values);
            // A closure that selects by position alone runs on a probe of the value's shape as
            // it ran on the value; one that panics there (an index computed from the values
            // past the end) depends on the values, and is refused (with `std`).
            #[cfg(feature = "std")]
            let picked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(probe_value.as_view())))
                .map_err(|_| moved())?;
            #[cfg(not(feature = "std"))]
            let picked = f(probe_value.as_view());
            if picked.sizes() != out.sizes() {
                return Err(refuse());
            }
            picked
                .to_vec()
                .into_iter()
                .map(|p| {
                    let k = p.as_f64();
                    // A whole number in 0..n (no `fract` in no_std: compare with its truncation).
                    if k >= 0.0 && k < n as f64 && (k as i64) as f64 == k {
                        Ok(to_pos(k as usize))
                    } else {
                        Err(refuse())
                    }
                })
                .collect()
        };
        let idx = probe((0..n).map(|k| T::from_f64(k as f64)).collect(), &|k| k)?;
        let rev = probe((0..n).map(|k| T::from_f64((n - 1 - k) as f64)).collect(), &|k| n - 1 - k)?;
        let by_value = probe(rank.iter().map(|&r| T::from_f64(r as f64)).collect(), &|r| order[r])?;
        if idx != rev || idx != by_value {
            return Err(moved());
        }
        for (&k, o) in idx.iter().zip(out.to_vec()) {
            let v = xs[k];
            if !(v == o || (v.is_nan() && o.is_nan())) {
                return Err(refuse());
            }
        }
        let idx: Vec<i64> = idx.into_iter().map(|k| k as i64).collect();
        let xl = *x.layout();
        Self::record([self.node()], out, move |[i], _| {
            back(move |g: Tensor<T, S2>, s: &mut Sink<T>| {
                s.add_with(i, || {
                    let mut flat = Tensor::<T, DynShape>::zeros_sized(&[n]);
                    let table = Tensor::<i64, DynShape>::from_vec(&[idx.len()], idx);
                    let gv = g.as_dyn();
                    let gflat = gv.reshape_dyn(&[-1]);
                    flat.index_add_at(0, &table, &gflat, T::one()).or_panic();
                    let sizes: Vec<isize> = xl.sizes().iter().map(|&v| v as isize).collect();
                    typed::<T, S>(flat.reshape_dyn(&sizes).into_owned())
                })
            })
        })
    }
}
