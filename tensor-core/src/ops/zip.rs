//! The broadcasting zip that every element-wise method of two operands ends in, and
//! [`Operand`], the right side such a method takes (a tensor by reference, or a scalar). One home
//! below the operators (`arith.rs`) and the named element-wise functions (`binary.rs`), which both
//! use them.
use crate::error::ShapeError;
use crate::kernels;
use crate::kernels::small;
use crate::layout::{Layout, LayoutRepr};
use crate::shape::{broadcast_sizes, Broadcast, BroadcastShape, Shape};
use crate::storage::{Data, Element, OutData};
use crate::tensor::{OutTensor, OutTensor2, TensorBase};

/// `f` element-wise over `a` and `b` broadcast together, into a new tensor of shape `SO` (the
/// caller's static rule computed it) in the storage `O`. Inline operands of static shapes take
/// [`small::zip`] (constant strides, no layout work); everything else broadcasts the layouts at
/// run time.
#[inline(always)]
pub(crate) fn broadcast_zip<DA: Data, SA: Shape, DB: Data, SB: Shape, C: Element, SO: Shape, O: OutData<C>>(
    a: &TensorBase<DA, SA>,
    b: &TensorBase<DB, SB>,
    f: impl Fn(DA::Elem, DB::Elem) -> C + Sync + Send,
) -> Result<TensorBase<O, SO>, ShapeError> {
    if const { DA::INLINE && DB::INLINE && O::INLINE && small::is_static::<SA>() && small::is_static::<SB>() } {
        let mut out = O::zeroed(const { small::numel::<SO>() })?;
        small::zip::<SA, SB, SO, _, _, _>(out.as_mut_slice(), a.data.as_slice(), b.data.as_slice(), f);
        return Ok(TensorBase::from_lay(out, LayoutRepr::row_major::<SO>(|| Ok(SO::ROW_MAJOR))?));
    }
    broadcast_zip_general(a, b, f)
}

/// [`broadcast_zip`] with the layouts broadcast at run time.
fn broadcast_zip_general<DA: Data, SA: Shape, DB: Data, SB: Shape, C: Element, SO: Shape, O: OutData<C>>(
    a: &TensorBase<DA, SA>,
    b: &TensorBase<DB, SB>,
    f: impl Fn(DA::Elem, DB::Elem) -> C + Sync + Send,
) -> Result<TensorBase<O, SO>, ShapeError> {
    let (la, lb) = (a.layout(), b.layout());
    let () = crate::shape::ProductCheck::<SA, SB, 0>::OK;
    crate::shape::check_names::<SA, SB>(la.sizes(), lb.sizes(), 0)?;
    let (sizes, r) = broadcast_sizes(la.sizes(), lb.sizes())?;
    let sizes = &sizes[..r];
    let (ea, eb) = (la.expand(sizes)?, lb.expand(sizes)?);
    let lay = LayoutRepr::try_from_layout::<SO>(Layout::contiguous(sizes)?)?;
    let data = kernels::zip_out(a.data.as_slice(), &ea, b.data.as_slice(), &eb, f)?;
    Ok(TensorBase::from_lay(data, lay))
}

/// The right operand of a broadcasting element-wise method on `TensorBase<D, S>`: a tensor or
/// view by reference (`&b`, broadcast with `S`; the result has the broadcast shape) or a scalar
/// of the element type (the result has shape `S`).
pub trait Operand<D: Data, S: Shape> {
    /// The result tensor with elements `U`.
    type Output<U: Element>;
    /// `f(lhs, rhs)` element-wise.
    #[doc(hidden)]
    fn zip_from<U: Element>(
        self,
        lhs: &TensorBase<D, S>,
        f: impl Fn(D::Elem, D::Elem) -> U + Sync + Send,
    ) -> Result<Self::Output<U>, ShapeError>;
    /// Whether any element of the operand is zero (integer division's check).
    #[doc(hidden)]
    fn has_zero(&self) -> bool;
}

impl<D: Data, S: Shape + BroadcastShape<S2>, D2: Data<Elem = D::Elem>, S2: Shape> Operand<D, S>
    for &TensorBase<D2, S2>
{
    type Output<U: Element> = OutTensor2<D, D2, U, Broadcast<S, S2>>;
    #[inline(always)]
    fn zip_from<U: Element>(
        self,
        lhs: &TensorBase<D, S>,
        f: impl Fn(D::Elem, D::Elem) -> U + Sync + Send,
    ) -> Result<Self::Output<U>, ShapeError> {
        broadcast_zip(lhs, self, f)
    }
    fn has_zero(&self) -> bool {
        self.any_zero()
    }
}

impl<D: Data, S: Shape> TensorBase<D, S> {
    /// Whether any element is zero: integer division's check of a divisor, shared by the
    /// broadcasting (`Operand`) and `_out` (`OutOperand`) forms.
    pub(crate) fn any_zero(&self) -> bool {
        let (b, lb) = (self.storage(), self.layout());
        kernels::any(lb.sizes(), [b], [lb], |[x]| x == D::Elem::ZERO)
    }
}

macro_rules! scalar_operand {
    ($($t:ty),*) => {$(
        /// A scalar right operand: the result has the left side's shape.
        impl<D: Data<Elem = $t>, S: Shape> Operand<D, S> for $t {
            type Output<U: Element> = OutTensor<D, U, S>;
            #[inline(always)]
            fn zip_from<U: Element>(self, lhs: &TensorBase<D, S>, f: impl Fn($t, $t) -> U + Sync + Send) -> Result<Self::Output<U>, ShapeError> {
                lhs.try_par_map(move |x| f(x, self))
            }
            fn has_zero(&self) -> bool {
                *self == <$t as Element>::ZERO
            }
        }
    )*};
}
scalar_operand!(f32, f64, half::f16, half::bf16, i8, i16, i32, i64, isize, u8, u16, u32, u64, usize, bool);
