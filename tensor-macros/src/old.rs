//! The single-file implementation before the split, kept to compare expansions (temporary).
#![allow(missing_docs, clippy::all)]

use proc_macro2::{Delimiter, Spacing, Span, TokenStream as TS, TokenTree as TT};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

fn err<T>(span: Span, msg: impl std::fmt::Display) -> syn::Result<T> {
    Err(syn::Error::new(span, msg))
}

fn is_punct(t: &TT, c: char) -> bool {
    matches!(t, TT::Punct(p) if p.as_char() == c)
}

fn stream_span(ts: &[TT]) -> Span {
    if ts.is_empty() {
        Span::call_site()
    } else {
        ts.iter().cloned().collect::<TS>().span()
    }
}

/// A literal integer or a runtime expression.
enum Bound {
    Lit(i128),
    Expr(TS),
}

fn parse_bound(ts: &[TT]) -> syn::Result<Option<Bound>> {
    if ts.is_empty() {
        return Ok(None);
    }
    let lit_of = |t: &TT| -> Option<i128> {
        if let TT::Literal(l) = t {
            let lit: syn::LitInt = syn::parse_str(&l.to_string()).ok()?;
            lit.base10_parse::<i128>().ok()
        } else {
            None
        }
    };
    // A literal beyond isize is out of bounds for every dim (and would wrap as a const generic).
    let fits = |v: i128| -> syn::Result<Option<Bound>> {
        if v.unsigned_abs() > isize::MAX as u128 {
            return err(
                stream_span(ts),
                format!("index {v} is out of bounds for every dimension (it does not fit isize)"),
            );
        }
        Ok(Some(Bound::Lit(v)))
    };
    if ts.len() == 1 {
        if let Some(v) = lit_of(&ts[0]) {
            return fits(v);
        }
    }
    if ts.len() == 2 && is_punct(&ts[0], '-') {
        if let Some(v) = lit_of(&ts[1]) {
            return fits(-v);
        }
    }
    // `(i - 1)..(i + 1)`: the parentheses only delimit the bound; dropping them keeps the
    // expansion free of `unused_parens` warnings in the user's code.
    if let [TT::Group(g)] = ts {
        if g.delimiter() == Delimiter::Parenthesis {
            let e: syn::Expr = syn::parse2(g.stream())?;
            return Ok(Some(Bound::Expr(quote!(#e))));
        }
    }
    let e: syn::Expr = syn::parse2(ts.iter().cloned().collect())?;
    Ok(Some(Bound::Expr(quote!(#e))))
}

/// Splits at top-level punctuation `c` (groups are single token trees, so nested brackets and
/// parentheses are never split).
fn split_top(ts: Vec<TT>, c: char) -> Vec<Vec<TT>> {
    let mut out = vec![vec![]];
    for t in ts {
        if is_punct(&t, c) {
            out.push(vec![]);
        } else {
            out.last_mut().unwrap().push(t);
        }
    }
    if out.len() > 1 && out.last().is_some_and(|v| v.is_empty()) {
        out.pop(); // trailing separator
    }
    out
}

enum Item {
    Op(TS),
    Ellipsis,
}

fn usize_lit(v: i128) -> TS {
    let v = v as usize;
    quote!(#v)
}

fn lower_item(k: &TS, toks: Vec<TT>) -> syn::Result<Item> {
    let span = stream_span(&toks);
    let ix = quote!(#k::__private::index);
    if toks.is_empty() {
        return err(span, "empty index item");
    }
    if toks.len() == 3 && toks.iter().all(|t| is_punct(t, '.')) {
        return Ok(Item::Ellipsis);
    }
    if let [TT::Ident(i)] = toks.as_slice() {
        if i == "None" {
            return Ok(Item::Op(quote_spanned!(span=> #ix::NewAxis)));
        }
    }
    let parts = split_top(toks, ';');
    if parts.len() > 2 {
        return err(span, "at most one `;step` per index item");
    }
    let mut parts = parts.into_iter();
    let range_part = parts.next().unwrap();
    let step = match parts.next() {
        None => None,
        Some(s) => match parse_bound(&s)? {
            Some(Bound::Lit(0)) => return err(stream_span(&s), "slice step cannot be zero"),
            None => return err(span, "expected a step after `;`"),
            b => b,
        },
    };
    // A top-level `..` or `..=`.
    let dd = (0..range_part.len().saturating_sub(1))
        .find(|&i| is_punct(&range_part[i], '.') && is_punct(&range_part[i + 1], '.'));
    let Some(i) = dd else {
        if step.is_some() {
            return err(span, "a step needs a range (`a..b;step`)");
        }
        return Ok(Item::Op(match parse_bound(&range_part)?.unwrap() {
            Bound::Lit(v) if v >= 0 => {
                let v = usize_lit(v);
                quote_spanned!(span=> #ix::At::<#v>)
            }
            Bound::Lit(v) => {
                let v = usize_lit(-v);
                quote_spanned!(span=> #ix::AtNeg::<#v>)
            }
            // `&rows`: an index tensor (advanced indexing); other expressions are integers. The `&`
            // marks the tensor so that the op type is known before an integer's type is inferred.
            Bound::Expr(e) if matches!(range_part.first(), Some(TT::Punct(p)) if p.as_char() == '&') => {
                quote_spanned!(span=> #ix::IndexItem::index_op(&(#e)))
            }
            Bound::Expr(e) => quote_spanned!(span=> #ix::AtDyn(#ix::ToIndex::to_i128(#e))),
        }));
    };
    let inclusive = range_part.get(i + 2).is_some_and(|t| is_punct(t, '='));
    if range_part.get(i + 2).is_some_and(|t| is_punct(t, '.')) {
        return err(span, "`...` (ellipsis) cannot be combined with other tokens");
    }
    let start = parse_bound(&range_part[..i])?;
    let mut end = parse_bound(&range_part[i + if inclusive { 3 } else { 2 }..])?;
    if inclusive {
        match &end {
            None => return err(span, "`..=` needs an end"),
            Some(Bound::Lit(-1)) => end = None, // `..=-1` runs to the end
            Some(Bound::Lit(v)) => end = Some(Bound::Lit(v + 1)),
            Some(Bound::Expr(e)) => end = Some(Bound::Expr(quote!(#ix::inclusive_end(#ix::ToIndex::to_i128(#e))))),
        }
    }
    let inclusive_expr = inclusive && matches!(end, Some(Bound::Expr(_)));
    let step_lit = match &step {
        None => Some(1i128),
        Some(Bound::Lit(v)) => Some(*v),
        Some(Bound::Expr(_)) => None,
    };
    if let Some(st) = step_lit {
        let rev = st < 0;
        let ast = st.abs();
        let (stl, revl) = (usize_lit(ast), quote!(#rev));
        let len = |span: i128| usize_lit((span + ast - 1) / ast);
        let one = |span: i128| (span + ast - 1) / ast == 1;
        match (&start, &end) {
            (None, None) if st == 1 => return Ok(Item::Op(quote_spanned!(span=> #ix::Full))),
            (None, None) => return Ok(Item::Op(quote_spanned!(span=> #ix::RangeFrom::<0, #stl, #revl>))),
            (Some(Bound::Lit(s)), None) if *s >= 0 => {
                let s = usize_lit(*s);
                return Ok(Item::Op(quote_spanned!(span=> #ix::RangeFrom::<#s, #stl, #revl>)));
            }
            (Some(Bound::Lit(s)), None) => {
                let (ks, l, o) = (usize_lit(-s), len(-s), one(-s));
                return Ok(Item::Op(quote_spanned!(span=> #ix::RangeNeg::<#ks, 0, #stl, #l, #revl, #o>)));
            }
            (s, Some(Bound::Lit(e))) if *e >= 0 && matches!(s, None | Some(Bound::Lit(0..))) => {
                let s = match s {
                    Some(Bound::Lit(s)) => *s,
                    _ => 0,
                };
                if s > *e {
                    return err(span, format!("range start {s} is greater than its end {e}"));
                }
                let (sl, el, l, o) = (usize_lit(s), usize_lit(*e), len(e - s), one(e - s));
                return Ok(Item::Op(quote_spanned!(span=> #ix::Range::<#sl, #el, #stl, #l, #revl, #o>)));
            }
            (Some(Bound::Lit(s)), Some(Bound::Lit(e))) if *s < 0 && *e < 0 => {
                if s > e {
                    return err(span, format!("range start {s} is greater than its end {e}"));
                }
                let (ks, ke, l, o) = (usize_lit(-s), usize_lit(-e), len(e - s), one(e - s));
                return Ok(Item::Op(quote_spanned!(span=> #ix::RangeNeg::<#ks, #ke, #stl, #l, #revl, #o>)));
            }
            _ => {}
        }
    }
    // A range with a runtime part (or mixed-sign literal bounds): a `Dyn` dim.
    let opt = |b: &Option<Bound>, raw: bool| -> TS {
        match b {
            None => quote!(::core::option::Option::None),
            Some(Bound::Lit(v)) => {
                let v = *v;
                quote!(::core::option::Option::Some(#v))
            }
            Some(Bound::Expr(e)) if raw => quote!(#e),
            Some(Bound::Expr(e)) => quote!(::core::option::Option::Some(#ix::ToIndex::to_i128(#e))),
        }
    };
    let s = opt(&start, false);
    let e = opt(&end, inclusive_expr);
    let st = match &step {
        None => quote!(1isize),
        Some(Bound::Lit(v)) => {
            let v = *v as isize;
            quote!(#v)
        }
        Some(Bound::Expr(e)) => quote!(#ix::ToIndex::to_index(#e)),
    };
    Ok(Item::Op(quote_spanned!(span=> #ix::RangeDyn { start: #s, end: #e, step: #st })))
}

fn hlist(k: &TS, ops: &[TS]) -> TS {
    ops.iter().rev().fold(quote!(#k::__private::Nil), |acc, op| quote!(#k::__private::Cons(#op, #acc)))
}

/// A top-level assignment: `=`, or a compound `+= -= *= /= %=` (not `==`, `<=`, `>=`, `!=`,
/// `=>`, `&=`, ...). Returns the index of the first token of the operator, the number of tokens
/// it spans, and for a compound one the name of its operation type.
fn find_assign(toks: &[TT]) -> Option<(usize, usize, Option<&'static str>)> {
    (0..toks.len()).find_map(|i| match &toks[i] {
        TT::Punct(p) if p.as_char() == '=' && p.spacing() == Spacing::Alone => match toks.get(i.wrapping_sub(1)) {
            Some(TT::Punct(q)) if q.spacing() == Spacing::Joint => {
                let op = match q.as_char() {
                    '+' => "OpAdd",
                    '-' => "OpSub",
                    '*' => "OpMul",
                    '/' => "OpDiv",
                    '%' => "OpRem",
                    _ => return None,
                };
                // `x[i] += v`, not `x[i] -= v` inside a longer operator such as `<<=`.
                match toks.get(i.wrapping_sub(2)) {
                    Some(TT::Punct(r)) if r.spacing() == Spacing::Joint => None,
                    _ => Some((i - 1, 2, Some(op))),
                }
            }
            _ => Some((i, 1, None)),
        },
        _ => None,
    })
}

pub(crate) fn expand(input: TS) -> syn::Result<TS> {
    let toks: Vec<TT> = input.into_iter().collect();
    let semi = toks
        .iter()
        .position(|t| is_punct(t, ';'))
        .ok_or_else(|| syn::Error::new(Span::call_site(), "internal: missing crate path"))?;
    let k: TS = toks[..semi].iter().cloned().collect();
    let mut rest = &toks[semi + 1..];
    // `t!(try x[...])`: the `Result` form, for runtime indices that may be out of range.
    let fallible = matches!(rest.first(), Some(TT::Ident(i)) if i == "try");
    if fallible {
        rest = &rest[1..];
    }
    // `t!(mut x[...])`: a mutable view.
    let mutable = matches!(rest.first(), Some(TT::Ident(i)) if i == "mut");
    if mutable {
        rest = &rest[1..];
    }
    let (target, value, op) = match find_assign(rest) {
        Some((i, n, op)) => {
            if i + n == rest.len() {
                return err(rest[i].span(), "expected a value after the assignment operator");
            }
            (&rest[..i], Some(rest[i + n..].iter().cloned().collect::<TS>()), op)
        }
        None => (rest, None, None),
    };
    if mutable && value.is_some() {
        return err(rest[0].span(), "`t!(mut x[...])` makes a mutable view; write `t!(x[...] = value)` to assign");
    }
    let Some((last, expr_toks)) = target.split_last() else {
        return err(Span::call_site(), "expected `t!(tensor[indices])`");
    };
    let group = match last {
        TT::Group(g) if g.delimiter() == Delimiter::Bracket => g.clone(),
        other => return err(other.span(), "expected `[indices]` after the tensor: `t!(tensor[indices])`"),
    };
    if expr_toks.is_empty() {
        return err(group.span(), "expected a tensor expression before `[...]`");
    }
    let expr: TS = expr_toks.iter().cloned().collect();
    let inner: Vec<TT> = group.stream().into_iter().collect();
    let items = if inner.is_empty() { vec![] } else { split_top(inner, ',') };

    let (mut pre, mut post) = (Vec::new(), Vec::new());
    let mut seen_ellipsis = false;
    for it in items {
        let sp = stream_span(&it);
        match lower_item(&k, it)? {
            Item::Ellipsis if seen_ellipsis => return err(sp, "an index can only have a single ellipsis (`...`)"),
            Item::Ellipsis => seen_ellipsis = true,
            Item::Op(op) if seen_ellipsis => post.push(op),
            Item::Op(op) => pre.push(op),
        }
    }
    post.reverse(); // applied from the back
    let (pre, post) = (hlist(&k, &pre), hlist(&k, &post));
    let ix = quote!(#k::__private::index);
    let gs = group.span();
    let spec = quote!(#ix::Spec { pre: #pre, post: #post });
    if let Some(v) = &value {
        // The value is evaluated before the target is borrowed, so an owned value computed from
        // the target works: `t!(x[.., 0] = &t!(x[.., 0]) * 2.0)`. One span for the bindings and
        // their uses (hygiene).
        let write = match op {
            None => quote_spanned!(gs=> #ix::TAssign::t_try_assign(__shaped_target, __shaped_value)),
            Some(op) => {
                let op = syn::Ident::new(op, gs);
                quote_spanned!(gs=> <_ as #ix::TCompound<#ix::#op, _>>::t_try_compound(__shaped_target, __shaped_value))
            }
        };
        let write_or_panic = match op {
            None => quote_spanned!(gs=> #ix::TAssign::t_assign(__shaped_target, __shaped_value)),
            Some(op) => {
                let op = syn::Ident::new(op, gs);
                quote_spanned!(gs=> <_ as #ix::TCompound<#ix::#op, _>>::t_compound(__shaped_target, __shaped_value))
            }
        };
        return Ok(if fallible {
            quote_spanned! {gs=>
                {
                    #[allow(unused_imports)]
                    use #ix::{TSliceMutChecked as _, TSliceMutLoose as _};
                    let __shaped_value = #v;
                    // One expression: the spec may borrow temporaries (index tensors).
                    match (&mut #ix::probe_mut(&mut (#expr), #spec)).t_try_slice_mut() {
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
                    let __shaped_value = #v;
                    // One expression: the spec may borrow temporaries (index tensors).
                    match (&mut #ix::probe_mut(&mut (#expr), #spec)).t_slice_mut() {
                        __shaped_target => #write_or_panic,
                    }
                }
            }
        });
    }
    // The operand is taken through `TSource`/`TSourceMut` by method call: a view by value (it is
    // `Copy`; a mutable view is moved), keeping its lifetime; anything else by reference. The
    // probe then picks the checked or the loose rules (see `index::Probe`).
    Ok(match (fallible, mutable) {
        (false, false) => quote_spanned! {gs=>
            {
                #[allow(unused_imports)]
                use #ix::{TSource as _, TSliceChecked as _, TSliceLoose as _};
                (&#ix::probe((#expr).t_source(), #spec)).t_slice()
            }
        },
        (true, false) => quote_spanned! {gs=>
            {
                #[allow(unused_imports)]
                use #ix::{TSource as _, TSliceChecked as _, TSliceLoose as _};
                (&#ix::probe((#expr).t_source(), #spec)).t_try_slice()
            }
        },
        (false, true) => quote_spanned! {gs=>
            {
                #[allow(unused_imports)]
                use #ix::{TSourceMut as _, TSliceMutChecked as _, TSliceMutLoose as _};
                (&mut #ix::probe_mut((#expr).t_source_mut(), #spec)).t_slice_mut()
            }
        },
        (true, true) => quote_spanned! {gs=>
            {
                #[allow(unused_imports)]
                use #ix::{TSourceMut as _, TSliceMutChecked as _, TSliceMutLoose as _};
                (&mut #ix::probe_mut((#expr).t_source_mut(), #spec)).t_try_slice_mut()
            }
        },
    })
}
