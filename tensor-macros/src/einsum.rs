//! `einsum!`: the equation parsed and checked at expansion time (errors spanned on the string
//! literal), then a call of the typed front end `shaped_core::ops::einsum::typed` with the parsed
//! subscripts, inside a local generic function whose return type is the result's shape type
//! computed from the operands' shape types:
//!
//! * each output letter takes the dim of an operand axis it labels (`EinsumRank<R>::Dk` of that
//!   operand), unified over all the axes it labels by `EinsumDim` (static wins over `Dyn`, and a
//!   size 1 broadcasts: `One` with `Const<N>` is `Const<N>`, `One` with `Dyn` is `Dyn`);
//! * each operand without `...` must have exactly as many axes as its term has letters
//!   (`EinsumRank<R>`, a trait bound: a `cargo check` error);
//! * letters bound to two different static sizes, neither of them 1, fail the build through the
//!   post-monomorphisation constant `EinsumCheck::OK`, naming the letter and both sizes;
//! * with `...` anywhere, the result is a `DynShape` tensor (its rank depends on the operands').
//!
//! The input is `$crate; [try] "equation", operand, ...` (the facade passes its own path).
use proc_macro2::{Span, TokenStream, TokenTree};
use quote::{format_ident, quote, quote_spanned};
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Error, Expr, LitStr, Result, Token};

/// The most operands `einsum!` takes (the runtime `einsum` takes any number).
const MAX_OPERANDS: usize = 8;
/// The most dims a shape has (`shaped_core::MAX_RANK`).
const MAX_RANK: usize = 6;

/// `$crate; [try] "eq", a, b, ...`.
pub(crate) struct EinsumInput {
    krate: TokenStream,
    try_: bool,
    eq: LitStr,
    operands: Vec<Expr>,
}

impl Parse for EinsumInput {
    fn parse(input: ParseStream) -> Result<Self> {
        let mut krate = TokenStream::new();
        while !input.peek(Token![;]) {
            if input.is_empty() {
                return Err(Error::new(Span::call_site(), "internal: missing crate path"));
            }
            krate.extend([input.parse::<TokenTree>()?]);
        }
        input.parse::<Token![;]>()?;
        let try_ = input.parse::<Option<Token![try]>>()?.is_some();
        let eq: LitStr = input.parse().map_err(|e| {
            Error::new(
                e.span(),
                "einsum!: expected the equation as a string literal first, as in `einsum!(\"ij,jk->ik\", a, b)`",
            )
        })?;
        let operands = if input.is_empty() {
            Vec::new()
        } else {
            input.parse::<Token![,]>()?;
            Punctuated::<Expr, Token![,]>::parse_terminated(input)?.into_iter().collect()
        };
        Ok(EinsumInput { krate, try_, eq, operands })
    }
}

/// A parsed equation: each operand's subscripts (ASCII letters, `.` for `...`) and the output's
/// (the implicit output resolved).
#[derive(Debug, PartialEq)]
pub(crate) struct Equation {
    pub ops: Vec<Vec<u8>>,
    pub out: Vec<u8>,
}

const ELLIPSIS: u8 = b'.';

fn term(t: &str, what: &str) -> std::result::Result<Vec<u8>, String> {
    let t: String = t.chars().filter(|c| !c.is_whitespace()).collect();
    let mut out = Vec::new();
    let mut rest = t.as_str();
    while let Some(c) = rest.chars().next() {
        if c.is_ascii_alphabetic() {
            out.push(c as u8);
            rest = &rest[1..];
        } else if let Some(r) = rest.strip_prefix("...") {
            if out.contains(&ELLIPSIS) {
                return Err(format!("einsum: more than one `...` in {what} \"{t}\""));
            }
            out.push(ELLIPSIS);
            rest = r;
        } else {
            return Err(format!("einsum: '{c}' in {what} \"{t}\" is neither a letter nor `...`"));
        }
    }
    Ok(out)
}

/// Parses `eq` for `n` operands (the runtime parser's rules, see `shaped_core::ops::einsum`).
pub(crate) fn parse_equation(eq: &str, n: usize) -> std::result::Result<Equation, String> {
    let (lhs, rhs) = match eq.split_once("->") {
        Some((_, r)) if r.contains("->") => return Err("einsum: more than one `->`".into()),
        Some((l, r)) => (l, Some(r)),
        None => (eq, None),
    };
    let ops = lhs
        .split(',')
        .enumerate()
        .map(|(i, t)| term(t, &format!("the term of operand {i}")))
        .collect::<std::result::Result<Vec<_>, _>>()?;
    if ops.len() != n {
        return Err(format!("einsum: the equation has {} operand terms but {n} operands follow it", ops.len()));
    }
    for (i, t) in ops.iter().enumerate() {
        let letters = t.iter().filter(|&&c| c != ELLIPSIS).count();
        if letters > MAX_RANK {
            return Err(format!(
                "einsum: the term of operand {i} names {letters} axes; tensors have at most {MAX_RANK}"
            ));
        }
    }
    let mut count = [0usize; 128];
    for &c in ops.iter().flatten().filter(|&&c| c != ELLIPSIS) {
        count[c as usize] += 1;
    }
    let any_ell = ops.iter().any(|t| t.contains(&ELLIPSIS));
    let out = match rhs {
        Some(r) => {
            let out = term(r, "the output")?;
            for (i, &c) in out.iter().enumerate() {
                if out[..i].contains(&c) {
                    return Err(format!("einsum: the output names '{}' twice", c as char));
                }
                if c != ELLIPSIS && count[c as usize] == 0 {
                    return Err(format!("einsum: the output letter '{}' names no axis of an operand", c as char));
                }
            }
            out
        }
        None => {
            let mut out: Vec<u8> = if any_ell { vec![ELLIPSIS] } else { Vec::new() };
            out.extend((0..128u8).filter(|&c| count[c as usize] == 1));
            out
        }
    };
    let letters = out.iter().filter(|&&c| c != ELLIPSIS).count();
    if letters > MAX_RANK {
        return Err(format!("einsum: the output names {letters} axes; tensors have at most {MAX_RANK}"));
    }
    Ok(Equation { ops, out })
}

/// Parse, check, emit.
pub(crate) fn expand(input: TokenStream) -> Result<TokenStream> {
    let EinsumInput { krate: k, try_, eq, operands } = syn::parse2(input)?;
    let text = eq.value();
    let span = eq.span();
    if operands.is_empty() {
        return Err(Error::new(
            span,
            "einsum: no operands: write them after the equation, as in `einsum!(\"ij,jk->ik\", a, b)`",
        ));
    }
    if operands.len() > MAX_OPERANDS {
        return Err(Error::new(
            span,
            format!("einsum!: at most {MAX_OPERANDS} operands; use the runtime `einsum` for more"),
        ));
    }
    let e = parse_equation(&text, operands.len()).map_err(|m| Error::new(span, m))?;
    let n = operands.len();
    let ell = e.ops.iter().any(|t| t.contains(&ELLIPSIS));
    let e_ = quote!(#k::__private::einsum);
    let (ds, ss, xs) = (
        (0..n).map(|i| format_ident!("__D{}", i)).collect::<Vec<_>>(),
        (0..n).map(|i| format_ident!("__S{}", i)).collect::<Vec<_>>(),
        (0..n).map(|i| format_ident!("__x{}", i)).collect::<Vec<_>>(),
    );
    // Bounds of the shape parameters, the where clauses of the unified dims, the output type.
    let mut bounds = Vec::new();
    let mut wheres = Vec::new();
    let out_ty = if ell {
        for s in &ss {
            bounds.push(quote!(#s: #k::Shape));
        }
        quote!(#k::DynShape)
    } else {
        for (s, t) in ss.iter().zip(&e.ops) {
            let r = t.len();
            bounds.push(quote!(#s: #e_::EinsumRank<#r>));
        }
        let mut dims = Vec::new();
        for &c in &e.out {
            let mut occ = Vec::new();
            for (i, t) in e.ops.iter().enumerate() {
                let (s, r) = (&ss[i], t.len());
                for (p, _) in t.iter().enumerate().filter(|(_, &x)| x == c) {
                    let d = format_ident!("D{}", p);
                    occ.push(quote!(<#s as #e_::EinsumRank<#r>>::#d));
                }
            }
            let mut occ = occ.into_iter();
            let mut acc = occ.next().expect("the parser checked that every output letter names an axis");
            for o in occ {
                wheres.push(quote!(#acc: #e_::EinsumDim<#o>));
                acc = quote!(<#acc as #e_::EinsumDim<#o>>::Out);
            }
            dims.push(acc);
        }
        quote!((#(#dims,)*))
    };
    let lit = |t: &[u8]| syn::LitByteStr::new(t, span);
    let op_lits: Vec<_> = e.ops.iter().map(|t| lit(t)).collect();
    let out_lit = lit(&e.out);
    // Each operand borrowed in the call itself: a `let` per operand (or any form that fixes the
    // operand's type before the call) makes rustc report a wrong rank twice, once for the bound
    // and once for the return type. The cost: an operand that is a call of a generic identity
    // such as `black_box(&a)` is inferred from the parameter type and fails; bind it first.
    let call = quote_spanned!(span=> __einsum(#(&(#operands)),*));
    let result = if try_ {
        call
    } else {
        quote_spanned!(span=> match #call {
            ::core::result::Result::Ok(v) => v,
            ::core::result::Result::Err(e) => ::core::panic!("{}", e),
        })
    };
    Ok(quote_spanned! {span=> {
        struct __Eq;
        impl #e_::EinsumEquation for __Eq {
            const TEXT: &'static str = #eq;
            const OPS: &'static [&'static [u8]] = &[#(#op_lits),*];
        }
        #[inline(always)]
        #[allow(clippy::type_complexity, non_snake_case)]
        fn __einsum<__T: #k::__private::Gemm, #(#ds: #k::Data<Elem = __T>,)* #(#bounds,)*>(
            #(#xs: &#k::TensorBase<#ds, #ss>),*
        ) -> ::core::result::Result<#k::Tensor<__T, #out_ty>, #k::ShapeError>
        where
            #(#wheres,)*
        {
            let () = #e_::EinsumCheck::<__Eq, (#(#ss,)*)>::OK;
            #e_::typed::<__T, #out_ty>(
                <__Eq as #e_::EinsumEquation>::TEXT,
                <__Eq as #e_::EinsumEquation>::OPS,
                #out_lit,
                &[#(#e_::operand(#xs)),*],
            )
        }
        #result
    }})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equations() {
        let e = parse_equation("bij,bjk->bik", 2).unwrap();
        assert_eq!(e.ops, [b"bij".to_vec(), b"bjk".to_vec()]);
        assert_eq!(e.out, b"bik");
        assert_eq!(parse_equation("ij,jk", 2).unwrap().out, b"ik");
        assert_eq!(parse_equation("ji", 1).unwrap().out, b"ij");
        assert_eq!(parse_equation("ii", 1).unwrap().out, b"");
        assert_eq!(parse_equation(" ...ij , ...jk ", 2).unwrap().out, b".ik");
        assert_eq!(parse_equation("Ba,aC", 2).unwrap().out, b"BC");
        assert!(parse_equation("ij,jk->ik", 1).unwrap_err().contains("2 operand terms but 1"));
        assert!(parse_equation("ij->k", 1).unwrap_err().contains("'k' names no axis"));
        assert!(parse_equation("ij->ii", 1).unwrap_err().contains("'i' twice"));
        assert!(parse_equation("i1->i", 1).unwrap_err().contains("'1'"));
        assert!(parse_equation("i->i->i", 1).unwrap_err().contains("more than one `->`"));
        assert!(parse_equation("...i...->i", 1).unwrap_err().contains("more than one `...`"));
        assert!(parse_equation("abcdefg->a", 1).unwrap_err().contains("7 axes"));
    }
}
