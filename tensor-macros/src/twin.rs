//! `#[try_twin]` on a fallible function `try_x` (a method or a free function of shaped-core):
//! the function as written, followed by its panicking twin `x`, written from the same signature
//! so that the generics, bounds and arguments are stated once.
//!
//! The twin has the same generics, arguments and `where` clause, returns the `Ok` type of
//! `try_x`'s `Result<_, _>`, is `#[track_caller]`, and calls `try_x` (every type and const
//! parameter passed explicitly) followed by shaped-core's `OrPanic::or_panic`, so that it panics
//! with the error's message at the caller's line. Its docs point at `try_x`; `#[cfg]`,
//! `#[cfg_attr]`, `#[allow]` and `#[inline]` attributes are copied to it, and
//! `#[try_twin(doc = "...", alias = "...")]` adds a paragraph to its docs and a
//! `#[doc(alias)]` (NumPy's or ndarray's name) to it. An argument bound by a pattern (`[kh, kw]:
//! [usize; 2]`) is bound to a name in the twin.
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{
    parse::Parser, punctuated::Punctuated, FnArg, GenericArgument, GenericParam, ItemFn, Pat, PathArguments,
    ReturnType, Token, Type,
};

/// The `Ok` type of `Result<T, E>`.
fn ok_type(ret: &ReturnType) -> syn::Result<Type> {
    let err = || syn::Error::new_spanned(ret, "#[try_twin]: the function must return `Result<T, E>`");
    let ReturnType::Type(_, ty) = ret else { return Err(err()) };
    let Type::Path(p) = &**ty else { return Err(err()) };
    let last = p.path.segments.last().ok_or_else(err)?;
    if last.ident != "Result" {
        return Err(err());
    }
    let PathArguments::AngleBracketed(args) = &last.arguments else { return Err(err()) };
    match args.args.first() {
        Some(GenericArgument::Type(t)) => Ok(t.clone()),
        _ => Err(err()),
    }
}

/// Expands `#[try_twin(args)] fn try_x ...`.
pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let f: ItemFn = syn::parse2(item)?;
    // `doc = "..."`: a paragraph of the twin's docs; `alias = "..."`: a `#[doc(alias)]` of it.
    let mut extra_doc: Option<syn::LitStr> = None;
    let mut aliases: Vec<syn::LitStr> = Vec::new();
    let args = Punctuated::<syn::MetaNameValue, Token![,]>::parse_terminated.parse2(attr)?;
    for a in args {
        match (&a.path, &a.value) {
            (p, syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. })) if p.is_ident("doc") => {
                extra_doc = Some(s.clone())
            }
            (p, syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. })) if p.is_ident("alias") => {
                aliases.push(s.clone())
            }
            _ => return Err(syn::Error::new_spanned(a, "#[try_twin]: expected `doc = \"...\"` or `alias = \"...\"`")),
        }
    }
    let try_name = &f.sig.ident;
    let name =
        try_name.to_string().strip_prefix("try_").map(|n| format_ident!("{}", n, span = try_name.span())).ok_or_else(
            || syn::Error::new_spanned(try_name, "#[try_twin]: the function's name must start with `try_`"),
        )?;
    let ok = ok_type(&f.sig.output)?;

    // The twin's arguments: each pattern that is not a plain name gets one.
    let mut sig = f.sig.clone();
    sig.ident = name;
    sig.output = syn::parse_quote!(-> #ok);
    let mut method = false;
    let mut forwarded = Vec::new();
    for (i, input) in sig.inputs.iter_mut().enumerate() {
        match input {
            FnArg::Receiver(_) => method = true,
            FnArg::Typed(pt) => match &*pt.pat {
                Pat::Ident(id) if id.subpat.is_none() => {
                    let mut id = id.clone();
                    id.mutability = None;
                    id.by_ref = None;
                    forwarded.push(id.ident.clone());
                    *pt.pat = Pat::Ident(id);
                }
                _ => {
                    let n = format_ident!("__arg{}", i);
                    pt.pat = syn::parse_quote!(#n);
                    forwarded.push(n);
                }
            },
        }
    }
    let turbofish: Vec<TokenStream> = f
        .sig
        .generics
        .params
        .iter()
        .filter_map(|p| match p {
            GenericParam::Type(t) => Some(t.ident.clone()),
            GenericParam::Const(c) => Some(c.ident.clone()),
            GenericParam::Lifetime(_) => None,
        })
        .map(|i| quote!(#i))
        .collect();
    let turbofish = if turbofish.is_empty() { quote!() } else { quote!(::<#(#turbofish),*>) };
    let call = if method {
        quote!(self.#try_name #turbofish(#(#forwarded),*))
    } else {
        quote!(#try_name #turbofish(#(#forwarded),*))
    };
    let link = if method { format!("Self::{try_name}") } else { try_name.to_string() };
    let doc = format!("[`{try_name}`]({link}), panicking with the error's message.");
    let copied = f.attrs.iter().filter(|a| {
        let p = a.path();
        p.is_ident("cfg") || p.is_ident("cfg_attr") || p.is_ident("allow") || p.is_ident("inline")
    });
    let extra = extra_doc.map(|d| quote!(#[doc = ""] #[doc = #d]));
    let vis = &f.vis;
    Ok(quote! {
        #f
        #[doc = #doc]
        #extra
        #(#[doc(alias = #aliases)])*
        #(#copied)*
        #[track_caller]
        #vis #sig {
            crate::error::OrPanic::or_panic(#call)
        }
    })
}
