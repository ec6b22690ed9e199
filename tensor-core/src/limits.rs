//! The crate's size limits, at the bottom of the layers: every other module may use them.

/// The largest rank a tensor can have, static or dynamic.
pub const MAX_RANK: usize = 6;

/// The size of the largest inline tensor: 64 KiB, so that no `STensor` can blow a thread's stack
/// by itself. Larger static shapes belong in [`Tensor`](crate::Tensor).
pub const MAX_INLINE_BYTES: usize = 1 << 16;
