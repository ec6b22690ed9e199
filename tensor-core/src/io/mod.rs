//! Serialisation: `serde` support (feature `serde`, `alloc` only) and NumPy `.npy`/`.npz` files
//! (feature `npy`, needs `std`).
//!
//! - [`serde`](mod@self::serde): every tensor serialises as `{ "shape": [..], "data": [..] }`,
//!   the data in row-major logical order; owned tensors deserialise from it with their shape
//!   checked.
//! - `npy`: [`write_npy`](crate::TensorBase::write_npy) / [`read_npy`](crate::Tensor::read_npy)
//!   (NumPy `np.save` / `np.load`), [`NpzWriter`] / [`NpzReader`] (NumPy `np.savez` and
//!   `np.load` of an archive), with errors as [`IoError`]; the functions that take a path
//!   wrap theirs in [`IoError::File`], which names the [`FileFormat`] and the file.
#[cfg(feature = "npy")]
mod npy;
#[cfg(feature = "npy")]
mod npz;
#[cfg(feature = "serde")]
pub mod serde;

#[cfg(feature = "npy")]
pub use npy::{FileFormat, IoError, NpyElement};
#[cfg(feature = "npy")]
pub use npz::{load_npz, NpzReader, NpzWriter};
