//! Indexing: the typed slice specs that `t!` lowers to, the type-level rules that compute a
//! slice's result shape (and reject literal out-of-bounds indices at compile time), the runtime
//! walk that applies a spec to a [`Layout`](crate::Layout), and the runtime [`SliceArg`] API for dynamic code.
//!
//! Literal indices and bounds become const generics. Each op either consumes one input dim
//! (`..`, an index, a range) or inserts one (`None`). Ops before `...` apply from the front, ops
//! after it (reversed by the macro) from the back. Runtime expressions become [`AtDyn`] and
//! [`RangeDyn`], checked at run time, and give `Dyn` dims.
//!
//! The lower half (no tensor types): [`spec`](self) vocabulary, bound checks, type rules, the
//! post-monomorphisation check and the run-time application of a spec to a layout. The upper
//! half (above the tensor types): the macro's entry points, assignment, index tensors and the
//! runtime [`SliceArg`] methods.

mod adv_rules;
mod advanced;
mod apply;
mod args;
mod assign;
mod checks;
mod entry;
mod mono;
mod rules;
mod spec;

pub use adv_rules::*;
pub use advanced::*;
pub use apply::*;
pub use args::{apply_args, SliceArg};
pub use assign::*;
pub use checks::*;
pub use entry::*;
pub use mono::*;
pub use rules::*;
pub use spec::*;
