//! Serialisation: `serde` support (feature `serde`, `alloc` only).
//!
//! - [`serde`](mod@self::serde): every tensor serialises as `{ "shape": [..], "data": [..] }`,
//!   the data in row-major logical order; owned tensors deserialise from it with their shape
//!   checked.
#[cfg(feature = "serde")]
pub mod serde;
