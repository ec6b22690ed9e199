//! Emitting: the lowered input as Rust code.
//!
//! A probe (`index::probe`, `index::probe_mut`) holds a view of the operand and the spec (the
//! ops before and after the `...` as two heterogeneous lists), and a call of `t_slice` /
//! `t_slice_mut` on it, which method resolution sends to the checked rules (compile-time size
//! arithmetic and bounds checks) when they apply and to the loose ones (run-time checks)
//! otherwise; then `TAssign::t_assign` or `TCompound::t_compound` for a write. With `try`, the
//! `Result` forms of each. An assigned value is evaluated before the target is borrowed.
//!
//! Spans: the code has the span of the brackets, each op the span of its item (so that the
//! compiler's errors about an op point at its item); the const generics have the call site's.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};

use crate::lower::{DynBound, DynStep, Lowered, Op, OpKind, Write};

/// The code of a lowered `t!`.
pub(crate) fn emit(input: Lowered) -> TokenStream {
    let Lowered { krate: k, fallible, mutable, target, span: gs, pre, post, write } = input;
    let ix = quote!(#k::__private::index);
    let (pre, post) = (hlist(&k, &ix, &pre), hlist(&k, &ix, &post));
    let spec = quote!(#ix::Spec { pre: #pre, post: #post });
    if let Some((op, value)) = write {
        // The value is evaluated before the target is borrowed, so an owned value computed from
        // the target works: `t!(x[.., 0] = &t!(x[.., 0]) * 2.0)`. One span for the bindings and
        // their uses (hygiene).
        let write = match op {
            Write::Assign if fallible => {
                quote_spanned!(gs=> #ix::TAssign::t_try_assign(__shaped_target, __shaped_value))
            }
            Write::Assign => quote_spanned!(gs=> #ix::TAssign::t_assign(__shaped_target, __shaped_value)),
            Write::Compound(op) => {
                let op = syn::Ident::new(op, gs);
                let method = syn::Ident::new(if fallible { "t_try_compound" } else { "t_compound" }, gs);
                quote_spanned!(gs=> <_ as #ix::TCompound<#ix::#op, _>>::#method(__shaped_target, __shaped_value))
            }
        };
        return if fallible {
            quote_spanned! {gs=>
                {
                    #[allow(unused_imports)]
                    use #ix::{TSliceMutChecked as _, TSliceMutLoose as _};
                    let __shaped_value = #value;
                    // One expression: the spec may borrow temporaries (index tensors).
                    match (&mut #ix::probe_mut(&mut (#target), #spec)).t_try_slice_mut() {
                        ::core::result::Result::Ok(__shaped_target) => #write,
                        ::core::result::Result::Err(__shaped_error) => ::core::result::Result::Err(__shaped_error),
                    }
                }
            }
        } else {
            quote_spanned! {gs=>
                {
                    #[allow(unused_imports)]
                    use #ix::{TSliceMutChecked as _, TSliceMutLoose as _};
                    let __shaped_value = #value;
                    // One expression: the spec may borrow temporaries (index tensors).
                    match (&mut #ix::probe_mut(&mut (#target), #spec)).t_slice_mut() {
                        __shaped_target => #write,
                    }
                }
            }
        };
    }
    // The operand is taken through `TSource`/`TSourceMut` by method call: a view by value (it is
    // `Copy`; a mutable view is moved), keeping its lifetime; anything else by reference. The
    // probe then picks the checked or the loose rules (see `index::Probe`).
    match (fallible, mutable) {
        (false, false) => quote_spanned! {gs=>
            {
                #[allow(unused_imports)]
                use #ix::{TSource as _, TSliceChecked as _, TSliceLoose as _, TSliceLooseOwned as _};
                (&#ix::probe((#target).t_source(), #spec)).t_slice()
            }
        },
        (true, false) => quote_spanned! {gs=>
            {
                #[allow(unused_imports)]
                use #ix::{TSource as _, TSliceChecked as _, TSliceLoose as _, TSliceLooseOwned as _};
                (&#ix::probe((#target).t_source(), #spec)).t_try_slice()
            }
        },
        (false, true) => quote_spanned! {gs=>
            {
                #[allow(unused_imports)]
                use #ix::{TSourceMut as _, TSliceMutChecked as _, TSliceMutLoose as _};
                (&mut #ix::probe_mut((#target).t_source_mut(), #spec)).t_slice_mut()
            }
        },
        (true, true) => quote_spanned! {gs=>
            {
                #[allow(unused_imports)]
                use #ix::{TSourceMut as _, TSliceMutChecked as _, TSliceMutLoose as _};
                (&mut #ix::probe_mut((#target).t_source_mut(), #spec)).t_try_slice_mut()
            }
        },
    }
}

/// The ops as a heterogeneous list: `Cons(op0, Cons(op1, Nil))`.
fn hlist(k: &TokenStream, ix: &TokenStream, ops: &[Op]) -> TokenStream {
    ops.iter().rev().fold(quote!(#k::__private::Nil), |acc, op| {
        let op = op_value(ix, op);
        quote!(#k::__private::Cons(#op, #acc))
    })
}

/// The value of one op (`ix` is the path of `shaped_core::index`).
fn op_value(ix: &TokenStream, op: &Op) -> TokenStream {
    let span = op.span;
    match &op.kind {
        OpKind::Full => quote_spanned!(span=> #ix::Full),
        OpKind::NewAxis => quote_spanned!(span=> #ix::NewAxis),
        OpKind::At(n) => quote_spanned!(span=> #ix::At::<#n>),
        OpKind::AtNeg(k) => quote_spanned!(span=> #ix::AtNeg::<#k>),
        OpKind::Range { start, end, step, len, rev, one } => {
            quote_spanned!(span=> #ix::Range::<#start, #end, #step, #len, #rev, #one>)
        }
        OpKind::RangeFrom { start, step, rev } => {
            let start = const_or_zero(*start, span);
            quote_spanned!(span=> #ix::RangeFrom::<#start, #step, #rev>)
        }
        OpKind::RangeNeg { from_end_start: ks, from_end_end, step, len, rev, one } => {
            let ke = const_or_zero(*from_end_end, span);
            quote_spanned!(span=> #ix::RangeNeg::<#ks, #ke, #step, #len, #rev, #one>)
        }
        OpKind::AtDyn(e) => quote_spanned!(span=> #ix::ExprItem::expr_op(#e)),
        OpKind::Index(e) => quote_spanned!(span=> #ix::IndexItem::index_op(&(#e))),
        OpKind::RangeDyn { start, end, step } => {
            let (start, end) = (dyn_bound(ix, start), dyn_bound(ix, end));
            let step = match step {
                DynStep::One => quote!(1isize),
                DynStep::Lit(v) => quote!(#v),
                DynStep::Expr(e) => quote!(#ix::ToIndex::to_index(#e)),
            };
            quote_spanned!(span=> #ix::RangeDyn { start: #start, end: #end, step: #step })
        }
    }
}

/// A const generic that a missing bound makes `0` (an unsuffixed literal with the item's span).
fn const_or_zero(value: Option<usize>, span: Span) -> TokenStream {
    match value {
        Some(v) => quote!(#v),
        None => quote_spanned!(span=> 0),
    }
}

/// A `RangeDyn` bound, an `Option<i128>`.
fn dyn_bound(ix: &TokenStream, bound: &DynBound) -> TokenStream {
    match bound {
        DynBound::Open => quote!(::core::option::Option::None),
        DynBound::Lit(v) => quote!(::core::option::Option::Some(#v)),
        DynBound::Expr(e) => quote!(::core::option::Option::Some(#ix::ToIndex::to_i128(#e))),
        DynBound::InclusiveEnd(e) => quote!(#ix::inclusive_end(#ix::ToIndex::to_i128(#e))),
    }
}

#[cfg(test)]
mod tests {
    /// The expansion of `s` as a string, the paths of the facade shortened: `ix::` for
    /// `::shaped::__private::index::`, `p::` for `::shaped::__private::`.
    fn expand(s: &str) -> String {
        let ts = crate::expand(format!("::shaped; {s}").parse().unwrap()).unwrap();
        ts.to_string()
            .replace(":: shaped :: __private :: index :: ", "ix::")
            .replace(":: shaped :: __private :: ", "p::")
    }

    /// Expansions of representative inputs, as the single-file implementation before the split
    /// into parse, lower and emit gave them.
    #[test]
    fn golden_expansions() {
        assert_eq!(
            expand("x[.., 1, 0..2]"),
            "{ # [allow (unused_imports)] use ix::{ TSource as _ , TSliceChecked as _ , TSliceLoose as _ , TSliceLooseOwned as _ } ; \
            (& ix::probe ((x) . t_source () , ix::Spec { pre : p::Cons (ix::Full , p::Cons (ix::At :: < \
            1usize > , p::Cons (ix::Range :: < 0usize , 2usize , 1usize , 2usize , false , false > , \
            p::Nil))) , post : p::Nil })) . t_slice () }"
        );
        assert_eq!(
            expand("x[None, ..., -1..;2]"),
            "{ # [allow (unused_imports)] use ix::{ TSource as _ , TSliceChecked as _ , TSliceLoose as _ , TSliceLooseOwned as _ } ; \
            (& ix::probe ((x) . t_source () , ix::Spec { pre : p::Cons (ix::NewAxis , p::Nil) , post : \
            p::Cons (ix::RangeNeg :: < 1usize , 0 , 2usize , 1usize , false , true > , p::Nil) })) . t_slice \
            () }"
        );
        assert_eq!(
            expand("try x[i, a..=b;k, &rows]"),
            "{ # [allow (unused_imports)] use ix::{ TSource as _ , TSliceChecked as _ , TSliceLoose as _ , TSliceLooseOwned as _ } ; \
            (& ix::probe ((x) . t_source () , ix::Spec { pre : p::Cons (ix::ExprItem :: expr_op (i) , \
            p::Cons (ix::RangeDyn { start : :: core :: option :: Option :: Some (ix::ToIndex :: \
            to_i128 (a)) , end : ix::inclusive_end (ix::ToIndex :: to_i128 (b)) , step : ix::ToIndex :: \
            to_index (k) } , p::Cons (ix::IndexItem :: index_op (& (& rows)) , p::Nil))) , post : p::Nil })) \
            . t_try_slice () }"
        );
        assert_eq!(
            expand("mut x[1..=-1;-1, -3..-1]"),
            "{ # [allow (unused_imports)] use ix::{ TSourceMut as _ , TSliceMutChecked as _ , TSliceMutLoose \
            as _ } ; (& mut ix::probe_mut ((x) . t_source_mut () , ix::Spec { pre : p::Cons (ix::RangeFrom \
            :: < 1usize , 1usize , true > , p::Cons (ix::RangeNeg :: < 3usize , 1usize , 1usize , 2usize , \
            false , false > , p::Nil)) , post : p::Nil })) . t_slice_mut () }"
        );
        assert_eq!(
            expand("x[.., 0] += v"),
            "{ # [allow (unused_imports)] use ix::{ TSliceMutChecked as _ , TSliceMutLoose as _ } ; let \
            __shaped_value = v ; match (& mut ix::probe_mut (& mut (x) , ix::Spec { pre : p::Cons (ix::Full \
            , p::Cons (ix::At :: < 0usize > , p::Nil)) , post : p::Nil })) . t_slice_mut () { \
            __shaped_target => < _ as ix::TCompound < ix::OpAdd , _ >> :: t_compound (__shaped_target , \
            __shaped_value) , } }"
        );
        assert_eq!(
            expand("try x[..] = 1.0"),
            "{ # [allow (unused_imports)] use ix::{ TSliceMutChecked as _ , TSliceMutLoose as _ } ; let \
            __shaped_value = 1.0 ; match (& mut ix::probe_mut (& mut (x) , ix::Spec { pre : p::Cons \
            (ix::Full , p::Nil) , post : p::Nil })) . t_try_slice_mut () { :: core :: result :: Result :: Ok \
            (__shaped_target) => ix::TAssign :: t_try_assign (__shaped_target , __shaped_value) , :: core :: \
            result :: Result :: Err (__shaped_error) => :: core :: result :: Result :: Err (__shaped_error) \
            , } }"
        );
        assert_eq!(
            expand("try x[&mask] *= 2"),
            "{ # [allow (unused_imports)] use ix::{ TSliceMutChecked as _ , TSliceMutLoose as _ } ; let \
            __shaped_value = 2 ; match (& mut ix::probe_mut (& mut (x) , ix::Spec { pre : p::Cons \
            (ix::IndexItem :: index_op (& (& mask)) , p::Nil) , post : p::Nil })) . t_try_slice_mut () { :: \
            core :: result :: Result :: Ok (__shaped_target) => < _ as ix::TCompound < ix::OpMul , _ >> :: \
            t_try_compound (__shaped_target , __shaped_value) , :: core :: result :: Result :: Err \
            (__shaped_error) => :: core :: result :: Result :: Err (__shaped_error) , } }"
        );
        assert_eq!(
            expand("try mut x[...]"),
            "{ # [allow (unused_imports)] use ix::{ TSourceMut as _ , TSliceMutChecked as _ , TSliceMutLoose \
            as _ } ; (& mut ix::probe_mut ((x) . t_source_mut () , ix::Spec { pre : p::Nil , post : p::Nil \
            })) . t_try_slice_mut () }"
        );
    }
}
