//! Element-wise arithmetic with broadcasting: `+ - * /` between tensors and views (by value or
//! by reference) and with scalars, plus the `try_` forms.
use crate::error::{OrPanic, ShapeError};
use crate::kernels;
use crate::layout::Layout;
use crate::shape::{broadcast_sizes, Broadcast, BroadcastShape, Shape};
use crate::storage::{Data, Element};
use crate::tensor::{Tensor, TensorBase};
use core::ops::{Add, Div, Mul, Sub};

/// Broadcasts `a` with `b` at run time and applies `f` element-wise into a new tensor of shape
/// `SO` (the caller's static rule already computed it).
pub(crate) fn broadcast_zip<T: Element, U: Element, V: Element, SO: Shape>(
    a: &[T],
    la: &Layout,
    b: &[U],
    lb: &Layout,
    f: impl Fn(T, U) -> V + Sync + Send,
) -> Result<Tensor<V, SO>, ShapeError> {
    let (sizes, r) = broadcast_sizes(la.sizes(), lb.sizes())?;
    let sizes = &sizes[..r];
    let (la, lb) = (la.expand(sizes)?, lb.expand(sizes)?);
    let data = kernels::zip(a, &la, b, &lb, f);
    Ok(TensorBase::from_parts(data, Layout::contiguous(sizes)?))
}

macro_rules! binop {
    ($Tr:ident, $m:ident, $try_m:ident, $op:tt, $torch:literal) => {
        impl<D: Data, S: Shape> TensorBase<D, S> {
            #[doc = concat!("Element-wise `", stringify!($op), "` with broadcasting (PyTorch `", $torch, "`): `[2, 3]` with `[3]` gives `[2, 3]`.")]
            #[doc = ""]
            #[doc = "Static shapes that cannot broadcast are a compile error; runtime (`Dyn`) dims are checked here."]
            #[doc = ""]
            #[doc = "# Errors"]
            #[doc = "[`ShapeError::Broadcast`] naming both shapes when runtime sizes do not broadcast."]
            pub fn $try_m<D2: Data<Elem = D::Elem>, S2: Shape>(
                &self,
                rhs: &TensorBase<D2, S2>,
            ) -> Result<Tensor<D::Elem, Broadcast<S, S2>>, ShapeError>
            where
                S: BroadcastShape<S2>,
                D::Elem: $Tr<Output = D::Elem>,
            {
                broadcast_zip(self.data.as_slice(), &self.layout, rhs.data.as_slice(), &rhs.layout, |a, b| a $op b)
            }
        }

        #[doc = concat!("`&a ", stringify!($op), " &b` with broadcasting; panics with the `try_` form's message on runtime mismatch.")]
        impl<'a, 'b, D: Data, S: Shape, D2: Data<Elem = D::Elem>, S2: Shape> $Tr<&'b TensorBase<D2, S2>> for &'a TensorBase<D, S>
        where
            S: BroadcastShape<S2>,
            D::Elem: $Tr<Output = D::Elem>,
        {
            type Output = Tensor<D::Elem, Broadcast<S, S2>>;
            #[track_caller]
            fn $m(self, rhs: &'b TensorBase<D2, S2>) -> Self::Output {
                self.$try_m(rhs).or_panic()
            }
        }
        #[doc = concat!("`a ", stringify!($op), " b` with broadcasting.")]
        impl<D: Data, S: Shape, D2: Data<Elem = D::Elem>, S2: Shape> $Tr<TensorBase<D2, S2>> for TensorBase<D, S>
        where
            S: BroadcastShape<S2>,
            D::Elem: $Tr<Output = D::Elem>,
        {
            type Output = Tensor<D::Elem, Broadcast<S, S2>>;
            #[track_caller]
            fn $m(self, rhs: TensorBase<D2, S2>) -> Self::Output {
                self.$try_m(&rhs).or_panic()
            }
        }
        #[doc = concat!("`a ", stringify!($op), " &b` with broadcasting.")]
        impl<'b, D: Data, S: Shape, D2: Data<Elem = D::Elem>, S2: Shape> $Tr<&'b TensorBase<D2, S2>> for TensorBase<D, S>
        where
            S: BroadcastShape<S2>,
            D::Elem: $Tr<Output = D::Elem>,
        {
            type Output = Tensor<D::Elem, Broadcast<S, S2>>;
            #[track_caller]
            fn $m(self, rhs: &'b TensorBase<D2, S2>) -> Self::Output {
                self.$try_m(rhs).or_panic()
            }
        }
        #[doc = concat!("`&a ", stringify!($op), " b` with broadcasting.")]
        impl<'a, D: Data, S: Shape, D2: Data<Elem = D::Elem>, S2: Shape> $Tr<TensorBase<D2, S2>> for &'a TensorBase<D, S>
        where
            S: BroadcastShape<S2>,
            D::Elem: $Tr<Output = D::Elem>,
        {
            type Output = Tensor<D::Elem, Broadcast<S, S2>>;
            #[track_caller]
            fn $m(self, rhs: TensorBase<D2, S2>) -> Self::Output {
                self.$try_m(&rhs).or_panic()
            }
        }
    };
}
binop!(Add, add, try_add, +, "torch.add");
binop!(Sub, sub, try_sub, -, "torch.sub");
binop!(Mul, mul, try_mul, *, "torch.mul");
binop!(Div, div, try_div, /, "torch.div");

/// Scalar operands: `&x + 1.0`, `2.0 * &x` (same shape as `x`). One impl per element type,
/// since a generic scalar impl would overlap with the tensor operands.
macro_rules! scalar_ops {
    ($($t:ty),*) => {$(
        scalar_ops!(@one $t, Add, add, +);
        scalar_ops!(@one $t, Sub, sub, -);
        scalar_ops!(@one $t, Mul, mul, *);
        scalar_ops!(@one $t, Div, div, /);
    )*};
    (@one $t:ty, $Tr:ident, $m:ident, $op:tt) => {
        #[doc = concat!("`&tensor ", stringify!($op), " scalar`: same shape.")]
        impl<D: Data<Elem = $t>, S: Shape> $Tr<$t> for &TensorBase<D, S> {
            type Output = Tensor<$t, S>;
            fn $m(self, rhs: $t) -> Tensor<$t, S> {
                self.map(|a| a $op rhs)
            }
        }
        #[doc = concat!("`tensor ", stringify!($op), " scalar`: same shape.")]
        impl<D: Data<Elem = $t>, S: Shape> $Tr<$t> for TensorBase<D, S> {
            type Output = Tensor<$t, S>;
            fn $m(self, rhs: $t) -> Tensor<$t, S> {
                self.map(|a| a $op rhs)
            }
        }
        #[doc = concat!("`scalar ", stringify!($op), " &tensor`: same shape.")]
        impl<D: Data<Elem = $t>, S: Shape> $Tr<&TensorBase<D, S>> for $t {
            type Output = Tensor<$t, S>;
            fn $m(self, rhs: &TensorBase<D, S>) -> Tensor<$t, S> {
                rhs.map(|b| self $op b)
            }
        }
        #[doc = concat!("`scalar ", stringify!($op), " tensor`: same shape.")]
        impl<D: Data<Elem = $t>, S: Shape> $Tr<TensorBase<D, S>> for $t {
            type Output = Tensor<$t, S>;
            fn $m(self, rhs: TensorBase<D, S>) -> Tensor<$t, S> {
                rhs.map(|b| self $op b)
            }
        }
    };
}
scalar_ops!(f32, f64, half::f16, half::bf16, i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

impl<D: Data, S: Shape> TensorBase<D, S> {
    /// `f` applied to every element, into a new contiguous tensor of the same shape (NumPy
    /// vectorised function, PyTorch `Tensor.apply_` without the in-place part).
    pub fn map<U: Element>(&self, f: impl Fn(D::Elem) -> U + Sync + Send) -> Tensor<U, S> {
        let data = kernels::map(self.data.as_slice(), &self.layout, f);
        TensorBase::from_parts(data, Layout::contiguous(self.sizes()).expect("sizes of an existing tensor"))
    }
}
