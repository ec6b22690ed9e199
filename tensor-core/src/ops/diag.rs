//! Matrices built around diagonals and blocks, as PyTorch: `diag_embed`, `diag` of a vector,
//! `block_diag`, and `meshgrid`'s coordinate grids. Each writes (or views) through the
//! layout arithmetic of `layout/` (a diagonal of the new matrix is a strided layout): no element
//! loop here.
use crate::error::{OrPanic, ShapeError};
use crate::kernels;
use crate::layout::Layout;
use crate::shape::{DynShape, InsertDim, RemoveAxis, Shape};
use crate::storage::{Data, Element};
use crate::tensor::{Tensor, TensorBase, TensorView};
use alloc::format;
use alloc::vec::Vec;
use shaped_macros::try_twin;

/// `src` (layout `l`, last dim `n`) written on diagonal `offset` of new zero matrices of size
/// `n + |offset|` in the last two dims.
fn embed<T: Element>(src: &[T], l: &Layout, offset: isize) -> Result<(Vec<T>, Layout), ShapeError> {
    let r = l.rank();
    if r == 0 {
        return Err(ShapeError::Invalid("diag_embed: a 0-d tensor has no last dim to put on a diagonal".into()));
    }
    let n = l.sizes()[r - 1];
    let m = n.checked_add(offset.unsigned_abs()).ok_or_else(|| ShapeError::Overflow { sizes: l.sizes().into() })?;
    let mut sizes = l.sizes().to_vec();
    sizes[r - 1] = m;
    sizes.push(m);
    let ol = Layout::contiguous(&sizes)?;
    let mut data = kernels::try_vec(ol.numel(), T::ZERO)?;
    let dl = ol.diagonal(r - 1, r, offset)?;
    kernels::zip_assign(&mut data, &dl, src, l, |d, s| *d = s);
    Ok((data, ol))
}

/// Diagonal embedding (element types of every kind).
impl<D: Data, S: Shape> TensorBase<D, S> {
    /// Matrices with the last dim of `self` on their diagonal and zeros elsewhere (PyTorch
    /// `torch.diag_embed(self)`): `[.., N]` gives `[.., N, N]`, typed (the new dim is a copy of
    /// the last). For a vector this is PyTorch's `torch.diag(v)` and NumPy's `np.diag(v)`.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Shape, Tensor};
    /// let v: Tensor<i32, Shape![3]> = Tensor::from([1, 2, 3]);
    /// let m: Tensor<i32, Shape![3, 3]> = v.diag_embed();
    /// assert_eq!(m.to_vec(), [1, 0, 0, 0, 2, 0, 0, 0, 3]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] for a 0-d [`DynShape`] tensor; [`ShapeError::Alloc`].
    #[doc(alias = "diag")]
    #[try_twin(alias = "diag")]
    pub fn try_diag_embed(
        &self,
    ) -> Result<Tensor<D::Elem, <S as InsertDim<-1, <S as RemoveAxis<-1>>::Removed>>::Out>, ShapeError>
    where
        S: RemoveAxis<-1> + InsertDim<-1, <S as RemoveAxis<-1>>::Removed>,
    {
        let (data, l) = embed(self.data.as_slice(), self.layout(), 0)?;
        Ok(TensorBase::from_parts(data, l))
    }
    /// [`try_diag_embed`](Self::try_diag_embed) on diagonal `offset` (above the main one for
    /// `offset > 0`, below for `offset < 0`; PyTorch `diag_embed(self, offset)`, and for a
    /// vector `torch.diag(v, offset)`): `[.., N]` gives `[.., M, M]` with `M = N + |offset|`, a
    /// [`DynShape`] result.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::Tensor;
    /// let m = Tensor::from([7, 8]).diag_embed_dyn(1);
    /// assert_eq!((m.sizes(), m.to_vec()), (&[3, 3][..], vec![0, 7, 0, 0, 0, 8, 0, 0, 0]));
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] for a 0-d tensor; [`ShapeError::RankTooLarge`] for a rank-6
    /// input; [`ShapeError::Overflow`]; [`ShapeError::Alloc`].
    #[doc(alias = "diag")]
    #[try_twin(alias = "diag")]
    pub fn try_diag_embed_dyn(&self, offset: isize) -> Result<Tensor<D::Elem, DynShape>, ShapeError> {
        let (data, l) = embed(self.data.as_slice(), self.layout(), offset)?;
        Ok(TensorBase::from_parts(data, l))
    }
}

impl<T: Element> Tensor<T, DynShape> {
    /// The matrices `xs` along the diagonal of one block matrix, zeros elsewhere (PyTorch
    /// `torch.block_diag`, SciPy `block_diag`): `[R_i, C_i]` blocks give `[ΣR_i, ΣC_i]`; a 1-D
    /// block `[N]` counts as `[1, N]` and a 0-d one as `[1, 1]`, as PyTorch.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{DynShape, Tensor};
    /// let a = Tensor::from([[1, 2], [3, 4]]).into_dyn();
    /// let b = Tensor::from([[5]]).into_dyn();
    /// let m = Tensor::<i32, DynShape>::block_diag(&[&a, &b]);
    /// assert_eq!(m.to_vec(), [1, 2, 0, 3, 4, 0, 0, 0, 5]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] for a block of rank above 2; [`ShapeError::Overflow`];
    /// [`ShapeError::Alloc`].
    #[try_twin]
    pub fn try_block_diag<S: Shape>(xs: &[&TensorBase<impl Data<Elem = T>, S>]) -> Result<Self, ShapeError> {
        let mut blocks = Vec::new();
        let (mut rows, mut cols) = (0usize, 0usize);
        for x in xs {
            let mut l = *x.layout();
            while l.rank() < 2 {
                l = l.unsqueeze(0)?;
            }
            if l.rank() > 2 {
                return Err(ShapeError::Invalid(format!(
                    "block_diag: a block of shape {:?} is not a matrix",
                    x.sizes()
                )));
            }
            let overflow = || ShapeError::Overflow { sizes: x.sizes().into() };
            rows = rows.checked_add(l.sizes()[0]).ok_or_else(overflow)?;
            cols = cols.checked_add(l.sizes()[1]).ok_or_else(overflow)?;
            blocks.push((x.data.as_slice(), l));
        }
        let ol = Layout::contiguous(&[rows, cols])?;
        let mut data = kernels::try_vec(ol.numel(), T::ZERO)?;
        let (mut r, mut c) = (0usize, 0usize);
        for (src, l) in blocks {
            let (h, w) = (l.sizes()[0], l.sizes()[1]);
            let at = ol.narrow(0, r as isize, h)?.narrow(1, c as isize, w)?;
            kernels::zip_assign(&mut data, &at, src, &l, |d, s| *d = s);
            (r, c) = (r + h, c + w);
        }
        Ok(TensorBase::from_parts(data, ol))
    }
}

/// Whether [`meshgrid`] indexes its grids matrix-style or Cartesian-style (PyTorch's and NumPy's
/// `indexing` argument).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Indexing {
    /// `"ij"`: grid `k` varies along dim `k` (PyTorch's default).
    Ij,
    /// `"xy"`: as `Ij` with the first two dims swapped (NumPy's default).
    Xy,
}

/// Coordinate grids from 1-D tensors, given as [`DynShape`] views (`x.as_dyn()`, so that
/// lengths of different static types mix) (PyTorch `torch.meshgrid(*xs, indexing)`, NumPy
/// `np.meshgrid(..., sparse=False, copy=False)`): with `ij` indexing and `xs` of lengths
/// `n_0, n_1, ...`, grid `k` has sizes `[n_0, n_1, ...]` and holds `xs[k][i_k]` at every
/// coordinate; `xy` swaps the first two dims. Each grid is a broadcast view of its input
/// (stride 0 along the other dims): no copy.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{meshgrid, Indexing, Tensor};
/// let (x, y) = (Tensor::from([1, 2, 3]), Tensor::from([10, 20]));
/// let g = meshgrid(&[x.as_dyn(), y.as_dyn()], Indexing::Ij);
/// assert_eq!(g[0].sizes(), &[3, 2]);
/// assert_eq!(g[0].to_vec(), [1, 1, 2, 2, 3, 3]);
/// assert_eq!(g[1].to_vec(), [10, 20, 10, 20, 10, 20]);
/// assert_eq!(meshgrid(&[x.as_dyn(), y.as_dyn()], Indexing::Xy)[0].sizes(), &[2, 3]);
/// ```
///
/// # Errors
/// [`ShapeError::Invalid`] for an input that is not 1-D (0-d counts as `[1]`) or more than 6
/// inputs.
pub fn try_meshgrid<'a, T: Element>(
    xs: &[TensorView<'a, T, DynShape>],
    indexing: Indexing,
) -> Result<Vec<TensorView<'a, T, DynShape>>, ShapeError> {
    let k = xs.len();
    if k > crate::shape::MAX_RANK {
        return Err(ShapeError::RankTooLarge { rank: k });
    }
    let mut sizes = Vec::with_capacity(k);
    for x in xs {
        if x.rank() > 1 {
            return Err(ShapeError::Invalid(format!("meshgrid: an input of shape {:?} is not 1-D", x.sizes())));
        }
        sizes.push(x.numel());
    }
    // The dim each input runs along.
    let dim = |i: usize| if indexing == Indexing::Xy && k >= 2 && i < 2 { 1 - i } else { i };
    let mut out_sizes = sizes.clone();
    if indexing == Indexing::Xy && k >= 2 {
        out_sizes.swap(0, 1);
    }
    let mut out = Vec::with_capacity(k);
    for (i, x) in xs.iter().enumerate() {
        let mut l = *x.layout();
        if l.rank() == 0 {
            l = l.unsqueeze(0)?;
        }
        for _ in 0..dim(i) {
            l = l.unsqueeze(0)?;
        }
        while l.rank() < k {
            l = l.unsqueeze(l.rank())?;
        }
        out.push(TensorBase::from_parts(x.data, l.expand(&out_sizes)?));
    }
    Ok(out)
}
/// [`try_meshgrid`], panicking with the error's message.
#[track_caller]
pub fn meshgrid<'a, T: Element>(
    xs: &[TensorView<'a, T, DynShape>],
    indexing: Indexing,
) -> Vec<TensorView<'a, T, DynShape>> {
    try_meshgrid(xs, indexing).or_panic()
}

/// `diag`: PyTorch's one call for both directions between a vector and a diagonal.
impl<D: Data, S: Shape> TensorBase<D, S> {
    /// PyTorch `torch.diag(x, diagonal)` (NumPy `np.diag(x, k)`): for a 1-D `[N]`, the square
    /// matrix `[M, M]`, `M = N + |diagonal|`, with `x` on diagonal `diagonal` and zeros
    /// elsewhere (as [`diag_embed_dyn`](Self::diag_embed_dyn)); for a 2-D `[R, C]`, a copy of
    /// its diagonal `diagonal` as a 1-D tensor (as [`diagonal_dyn`](Self::diagonal_dyn), empty
    /// past the edge). Positive `diagonal` is above the main one, negative below. A
    /// [`DynShape`] result: the direction depends on the runtime rank.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{DynShape, Tensor};
    /// let v: Tensor<i32, DynShape> = Tensor::from([1, 2]).into_dyn();
    /// let m = v.diag_dyn(-1);
    /// assert_eq!((m.sizes(), m.to_vec()), (&[3, 3][..], vec![0, 0, 0, 1, 0, 0, 0, 2, 0]));
    /// assert_eq!(m.diag_dyn(-1).to_vec(), [1, 2]);
    /// assert_eq!(m.diag_dyn(0).to_vec(), [0, 0, 0]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] naming the shape for a tensor of rank other than 1 or 2 (PyTorch's
    /// "Supports 1D or 2D tensors"); [`ShapeError::Overflow`]; [`ShapeError::Alloc`].
    #[try_twin]
    pub fn try_diag_dyn(&self, diagonal: isize) -> Result<Tensor<D::Elem, DynShape>, ShapeError> {
        match self.rank() {
            1 => self.try_diag_embed_dyn(diagonal),
            2 => {
                let l = self.layout().diagonal(0, 1, diagonal)?;
                Ok(TensorBase::from_parts(kernels::to_vec(self.data.as_slice(), &l)?, Layout::contiguous(l.sizes())?))
            }
            r => Err(ShapeError::Invalid(format!(
                "diag: expects a 1-D tensor (to build a matrix) or a 2-D one (to read a diagonal), got rank {r} (shape {:?})",
                self.sizes()
            ))),
        }
    }
}
