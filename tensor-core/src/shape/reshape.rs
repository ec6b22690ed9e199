//! Element-count rule of `reshape`/`view` between static shapes.
use super::{NumelShape, Shape};

/// `Self` can be reshaped into `Dst`: both are fully static and hold the same number of elements.
#[diagnostic::on_unimplemented(
    message = "cannot reshape `{Self}` into `{Dst}`",
    label = "element counts differ, or a shape is not fully static",
    note = "a static reshape keeps the element count; for runtime shapes use `into_dyn()` and `reshape_dyn`"
)]
pub trait ReshapeTo<Dst: Shape>: Shape {}
#[diagnostic::do_not_recommend]
impl<S: NumelShape, Dst: NumelShape> ReshapeTo<Dst> for S where (S::Numel, Dst::Numel): SameNumel<S, Dst> {}

/// Equal element counts (type equality of the two typenum products).
#[diagnostic::on_unimplemented(
    message = "cannot reshape `{S}` into `{D}`: element counts differ",
    label = "element counts differ",
    note = "a reshape must keep the number of elements"
)]
pub trait SameNumel<S, D> {}
impl<N, S, D> SameNumel<S, D> for (N, N) {}
