//! Element type conversion: [`TensorBase::cast`] between every pair of element types (PyTorch
//! `x.to(dtype)`, NumPy `astype`), through the sealed trait [`CastFrom`].
//!
//! The rule for each pair, element by element:
//!
//! | from | to | rule |
//! |---|---|---|
//! | float | integer | **Rust's saturating `as`**: truncates toward zero; NaN gives 0; values below the type's minimum (`-inf` included) give the minimum, values above its maximum (`+inf` included) the maximum |
//! | integer | float | rounds to nearest, ties to even (`i64::MAX as f32` is `2^63`; `100_000` as f16 is `+inf`) |
//! | float | narrower float | rounds to nearest, ties to even; too large gives `±inf`; NaN stays NaN |
//! | float | wider float | exact |
//! | integer | integer | Rust's `as`: wraps modulo `2^bits` (`300` as `u8` is `44`, `-1` as `u32` is `u32::MAX`), as PyTorch and NumPy |
//! | `bool` | number | `false` -> 0, `true` -> 1 |
//! | number | `bool` | `x != 0` (PyTorch `.bool()`): NaN gives `true`, `-0.0` gives `false` |
//!
//! **Float to integer differs from PyTorch on purpose.** PyTorch (and NumPy) cast out-of-range
//! and NaN floats with a C++ `static_cast`, which is undefined behaviour: the result depends on
//! the platform (`torch.tensor([1e10]).int()` is `-2147483648` on x86 and `2147483647` on ARM).
//! Here the result is defined and the same everywhere: Rust's saturating `as`. In-range values
//! agree with PyTorch.
//!
//! `f16` and `bf16` conversions use `half` (`f16::from_f32`, `to_f32`, round to nearest even).
//! Conversions into them from `f64` and from integers first round to `f32` with round-to-odd, so
//! that the result is rounded once (a plain `f64 -> f32 -> f16` chain can round twice and be one
//! unit off at ties).
use crate::error::{OrPanic, ShapeError};
use crate::shape::Shape;
use crate::storage::Data;
use crate::tensor::{OutTensor, TensorBase};

pub use crate::cast::{CastFrom, CastTo};

impl<D: Data, S: Shape> TensorBase<D, S> {
    /// The elements converted to `U`, same shape type (`[2, 3]` of `f32` -> `[2, 3]` of `U`): PyTorch
    /// `x.to(dtype)` (`.float()`, `.double()`, `.long()`, `.bool()`, `.half()`), NumPy
    /// `x.astype(dtype)`. The rules per pair of types are in the [module docs](crate::ops::cast); in
    /// short, float to integer is **Rust's saturating `as`** (NaN -> 0, out of range -> the
    /// type's min or max; PyTorch leaves that undefined), into floats rounds to nearest even,
    /// into `bool` is `x != 0`.
    ///
    /// The result is a new tensor, inline when `self` is (see [`OutTensor`]); a cast to the same
    /// type copies.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{f16, Shape, Tensor};
    /// let x: Tensor<f32, Shape![4]> = Tensor::from([-1.7, 2.5, f32::NAN, 1e10]);
    /// assert_eq!(x.cast::<i32>().to_vec(), [-1, 2, 0, i32::MAX]);
    /// assert_eq!(x.cast::<u8>().to_vec(), [0, 2, 0, 255]);
    /// assert_eq!(x.cast::<bool>().to_vec(), [true, true, true, true]);
    /// let third = Tensor::from([1.0f32 / 3.0]).cast::<f16>();
    /// assert_eq!(third.at([0]), f16::from_bits(0x3555)); // 0.33325195
    /// ```
    ///
    /// # Panics
    /// When the result cannot be allocated (see [`try_cast`](Self::try_cast)).
    #[doc(alias = "to_dtype")]
    #[doc(alias = "astype")]
    #[track_caller]
    pub fn cast<U: CastFrom<D::Elem>>(&self) -> OutTensor<D, U, S> {
        self.try_cast().or_panic()
    }

    /// [`cast`](Self::cast), returning [`ShapeError::Alloc`] instead of panicking when the result
    /// cannot be allocated.
    ///
    /// # Errors
    /// [`ShapeError::Alloc`].
    pub fn try_cast<U: CastFrom<D::Elem>>(&self) -> Result<OutTensor<D, U, S>, ShapeError> {
        self.try_map(U::cast_from)
    }
}
