//! Proc macros of `shaped`. `t!` is parse -> lower -> emit, one module each:
//!
//! * `parse.rs`: `syn::parse::Parse` impls for the grammar below, into a syntax tree that keeps
//!   the spans of its tokens (`TInput`: the tensor, the index items, an optional assignment).
//!   Only the grammar is checked there;
//! * `lower.rs`: each item becomes an index op type of `shaped_core::index`, with literal indices
//!   and bounds as const generics so the compiler computes the result shape and rejects literal
//!   out-of-bounds indices; the const arithmetic (`LEN`, `REV`, negative indices, `..=`) and the
//!   checks of literal values are there; runtime expressions become `AtDyn`/`RangeDyn` values;
//! * `emit.rs`: a probe (`index::probe`, `index::probe_mut`) holding a view of the operand and
//!   the spec, and a call of `t_slice`/`t_slice_mut` on it, which method resolution sends to the
//!   checked rules (compile-time size arithmetic and bounds checks) when they apply and to the
//!   loose ones (run-time checks) otherwise; then `TAssign::t_assign` (`t!(x[..] = v)`) or
//!   `TCompound::t_compound` (`t!(x[..] += v)`, also `-= *= /= %=`). With `try`, the `Result`
//!   forms of each. An assigned value is evaluated before the target is borrowed.
//!
//! The input is `[try] [mut] tensor[item, ...]` or `[try] tensor[item, ...] op value` with `op`
//! one of `= += -= *= /= %=`; the items:
//!
//! ```text
//!   ..                 Full
//!   ...                the remaining dims (at most one)
//!   None               NewAxis (a size-1 dim)
//!   3 / -1             At<3> / AtNeg<1>                 (checked at compile time)
//!   a..b  a..=b  ..b   Range<S, E, STEP, LEN, REV, ONE>      (LEN computed in lower.rs)
//!   a..   ..;k         RangeFrom<S, STEP, REV>          (LEN computed by typenum)
//!   -k..  -k..-j       RangeNeg<KS, KE, STEP, LEN, REV, ONE>
//!   <range>;step       literal step (negative: REV, a reversed view) or an expression
//!   &expr              an index tensor: IndexItem::index_op gives AdvIdx for integers and
//!                      MaskIdx for bools (advanced indexing: a copy, as in PyTorch)
//!   another expression AtDyn(expr): an integer index checked at run time
//!   a range with an expression bound (or literal bounds of mixed signs)
//!                      RangeDyn { .. }  (checked at run time, `Dyn` dim)
//! ```
#![warn(missing_docs)]

mod einsum;
mod emit;
mod lower;
mod module;
mod parse;
mod twin;

use proc_macro::TokenStream;

/// Implementation of `shaped::t!`; the facade passes its own path first: `$crate; x[..]`.
#[proc_macro]
pub fn t_impl(input: TokenStream) -> TokenStream {
    match expand(input.into()) {
        Ok(ts) => ts.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

/// parse -> lower -> emit.
fn expand(input: proc_macro2::TokenStream) -> syn::Result<proc_macro2::TokenStream> {
    let input: parse::TInput = syn::parse2(input)?;
    Ok(emit::emit(lower::lower(input)?))
}

/// Implementation of `shaped::einsum!`/`shaped::try_einsum!`; the facade passes its own path
/// first: `$crate; [try] "ij,jk->ik", a, b` (see `einsum.rs`).
#[proc_macro]
pub fn einsum_impl(input: TokenStream) -> TokenStream {
    match einsum::expand(input.into()) {
        Ok(ts) => ts.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

/// `#[derive(Module)]` (re-exported as `shaped::nn::Module`): implements `shaped::nn::Module`
/// for a struct of layers, parameters, buffers and containers of them, each field visited under
/// its name (`fc1.weight`), in declaration order. `#[module(skip)]` on a field leaves it out;
/// `#[module(rename = "name")]` gives its key another name; `#[module(crate = "path")]` on the
/// struct names the crate (`::shaped` by default).
#[proc_macro_derive(Module, attributes(module))]
pub fn derive_module(input: TokenStream) -> TokenStream {
    match module::expand(input.into()) {
        Ok(ts) => ts.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

/// `#[try_twin]` on a fallible function `try_x` of shaped-core: the function, and after it its
/// panicking twin `x` with the same generics, arguments and bounds (see `twin.rs`). For
/// shaped-core's own use: the twin calls `crate::error::OrPanic::or_panic`.
#[doc(hidden)]
#[proc_macro_attribute]
pub fn try_twin(attr: TokenStream, item: TokenStream) -> TokenStream {
    match twin::expand(attr.into(), item.into()) {
        Ok(ts) => ts.into(),
        Err(e) => e.to_compile_error().into(),
    }
}
