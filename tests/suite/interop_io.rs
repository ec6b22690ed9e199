//! Topic `interop_io` of the test binary `numerics`: interop with ndarray, nalgebra, faer and approx, serde and .npy/.npz
//! files with a NumPy round trip, the digits CNN's step against PyTorch, PyTorch's state dicts
//! loaded into nn modules (each module needs the features its file names).
//!
//! Each module is one file of tests/, included unchanged (a test is named `interop_io::<file>::<test>`).
// Each file keeps its own `mod common;` (tests/common/mod.rs), as when it was a binary alone.
#![allow(clippy::duplicate_mod)]

#[cfg(all(feature = "npy", feature = "rand"))]
#[path = "../digits_torch.rs"]
mod digits_torch;
#[path = "../interop.rs"]
mod interop;
#[cfg(all(feature = "serde", feature = "npy"))]
#[path = "../io.rs"]
mod io;
#[cfg(feature = "safetensors")]
#[path = "../nn_every_layer.rs"]
mod nn_every_layer;
#[path = "../nn_pytorch.rs"]
mod nn_pytorch;
