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
//! `#[doc(alias)]` (NumPy's or ndarray's name) to it. A function without `self` is taken to be
//! an associated function (`Self::try_x`); `#[try_twin(free)]` marks a free function. An
//! argument bound by a pattern (`[kh, kw]: [usize; 2]`) is bound to a name in the twin.
//! `#[try_twin(copy = "...", copy_alias = "...")]` on an in-place `try_x_` also writes the copying
//! form `try_x` and its twin `x` (see `copy_form`).
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
    let mut free = false;
    // `copy = "..."` on an in-place `try_x_`: also the copying form `try_x` (and its twin `x`),
    // with this paragraph in its docs; `copy_alias = "..."`: a `#[doc(alias)]` of `x`.
    let mut copy: Option<syn::LitStr> = None;
    let mut copy_aliases: Vec<syn::LitStr> = Vec::new();
    let args = Punctuated::<syn::Meta, Token![,]>::parse_terminated.parse2(attr)?;
    for a in args {
        let a = match a {
            syn::Meta::Path(p) if p.is_ident("free") => {
                free = true;
                continue;
            }
            syn::Meta::NameValue(a) => a,
            other => {
                return Err(syn::Error::new_spanned(
                    other,
                    "#[try_twin]: expected `free`, `doc = \"...\"`, `alias = \"...\"`, `copy = \"...\"` or `copy_alias = \"...\"`",
                ))
            }
        };
        match (&a.path, &a.value) {
            (p, syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. })) if p.is_ident("doc") => {
                extra_doc = Some(s.clone())
            }
            (p, syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. })) if p.is_ident("alias") => {
                aliases.push(s.clone())
            }
            (p, syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. })) if p.is_ident("copy") => {
                copy = Some(s.clone())
            }
            (p, syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. })) if p.is_ident("copy_alias") => {
                copy_aliases.push(s.clone())
            }
            _ => {
                return Err(syn::Error::new_spanned(
                    a,
                    "#[try_twin]: expected `free`, `doc = \"...\"`, `alias = \"...\"`, `copy = \"...\"` or `copy_alias = \"...\"`",
                ))
            }
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
    } else if free {
        quote!(#try_name #turbofish(#(#forwarded),*))
    } else {
        quote!(Self::#try_name #turbofish(#(#forwarded),*))
    };
    let link = if free { try_name.to_string() } else { format!("Self::{try_name}") };
    let doc = format!("[`{try_name}`]({link}), panicking with the error's message.");
    let copied = f.attrs.iter().filter(|a| {
        let p = a.path();
        p.is_ident("cfg")
            || p.is_ident("cfg_attr")
            || p.is_ident("allow")
            || p.is_ident("inline")
            || p.is_ident("deprecated")
    });
    let extra = extra_doc.map(|d| quote!(#[doc = ""] #[doc = #d]));
    let vis = &f.vis;
    let copying = match copy {
        Some(d) => copy_form(&f, &turbofish, &forwarded, &d, &copy_aliases)?,
        None => quote!(),
    };
    Ok(quote! {
        #copying
        #f
        #[doc = #doc]
        #extra
        #(#[doc(alias = #aliases)])*
        #(#copied)*
        #[track_caller]
        #[allow(deprecated)] // (the call of a deprecated `try_` form by its deprecated twin)
        #vis #sig {
            crate::error::OrPanic::or_panic(#call)
        }
    })
}

/// The copying form `try_x` of an in-place `try_x_(&mut self, ..) -> Result<(), E>`: `&self`,
/// the result a new `Tensor<D::Elem, S>` (the callers' impl blocks name their element `D::Elem`
/// and their shape `S`), without `try_x_`'s `D: DataMut` bound; it copies `self`
/// (`try_to_owned`, so that a failed allocation is an error) and calls `try_x_` on the copy.
/// Written with `#[try_twin]`, so that its panicking twin `x` follows it.
fn copy_form(
    f: &ItemFn,
    turbofish: &TokenStream,
    forwarded: &[syn::Ident],
    doc: &syn::LitStr,
    aliases: &[syn::LitStr],
) -> syn::Result<TokenStream> {
    let try_name = &f.sig.ident;
    let stem = try_name.to_string();
    let copy_name =
        stem.strip_suffix('_').map(|n| format_ident!("{}", n, span = try_name.span())).ok_or_else(|| {
            syn::Error::new_spanned(try_name, "#[try_twin(copy)]: the in-place function's name must end with `_`")
        })?;
    let mut sig = f.sig.clone();
    sig.ident = copy_name;
    match sig.inputs.first_mut() {
        Some(FnArg::Receiver(r)) if r.mutability.is_some() => {
            *r = syn::parse_quote!(&self);
        }
        _ => return Err(syn::Error::new_spanned(&f.sig, "#[try_twin(copy)]: the function must take `&mut self`")),
    }
    for input in sig.inputs.iter_mut().skip(1) {
        match input {
            FnArg::Typed(pt) => match &mut *pt.pat {
                Pat::Ident(id) if id.subpat.is_none() => id.mutability = None,
                other => {
                    return Err(syn::Error::new_spanned(other, "#[try_twin(copy)]: arguments must be plain names"))
                }
            },
            FnArg::Receiver(r) => return Err(syn::Error::new_spanned(r, "#[try_twin(copy)]: a second receiver")),
        }
    }
    sig.output = syn::parse_quote!(-> Result<Tensor<D::Elem, S>, ShapeError>);
    if let Some(w) = &mut sig.generics.where_clause {
        let data_mut = |p: &syn::WherePredicate| {
            matches!(p, syn::WherePredicate::Type(t)
                if quote!(#t).to_string().replace(' ', "") == "D:DataMut")
        };
        w.predicates = w.predicates.iter().filter(|p| !data_mut(p)).cloned().collect();
    }
    let link = format!("[`{stem}`](Self::{stem})");
    let head = format!("A copy of `self` with {link} applied: the same shape as `self`.");
    let errors = format!("As {link}, and [`ShapeError::Alloc`](crate::ShapeError::Alloc).");
    let copied = f.attrs.iter().filter(|a| {
        let p = a.path();
        p.is_ident("cfg")
            || p.is_ident("cfg_attr")
            || p.is_ident("allow")
            || p.is_ident("inline")
            || p.is_ident("deprecated")
    });
    let alias_args = aliases.iter().map(|a| quote!(, alias = #a));
    let vis = &f.vis;
    let twin_doc = doc.clone();
    let copy_fn: TokenStream = quote! {
        #[doc = #head]
        #[doc = ""]
        #[doc = #doc]
        #[doc = ""]
        #[doc = "# Errors"]
        #[doc = #errors]
        #(#copied)*
        #[allow(deprecated)]
        #vis #sig {
            let mut out = self.try_to_owned()?;
            out.#try_name #turbofish(#(#forwarded),*)?;
            Ok(out)
        }
    };
    expand(quote!(doc = #twin_doc #(#alias_args)*), copy_fn)
}
