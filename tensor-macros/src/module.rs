//! `#[derive(Module)]`: a `shaped::nn::Module` impl that visits each field under its name, in
//! declaration order (PyTorch's `named_parameters()` order for attributes assigned in
//! `__init__` in that order). Attributes on a field: `#[module(skip)]` leaves it out (a
//! hyper-parameter, a generator), `#[module(rename = "name")]` gives its key another name. On
//! the struct: `#[module(crate = "path")]` names the crate (default `::shaped`; `shaped_core`
//! from inside the core crate's own tests).
use proc_macro2::TokenStream;
use quote::quote;
use syn::{parse_quote, Data, DeriveInput, Fields, LitStr};

/// What the attributes of one field say.
struct FieldOpts {
    skip: bool,
    rename: Option<String>,
}

fn field_opts(attrs: &[syn::Attribute]) -> syn::Result<FieldOpts> {
    let mut opts = FieldOpts { skip: false, rename: None };
    for attr in attrs.iter().filter(|a| a.path().is_ident("module")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("skip") {
                opts.skip = true;
                Ok(())
            } else if meta.path.is_ident("rename") {
                opts.rename = Some(meta.value()?.parse::<LitStr>()?.value());
                Ok(())
            } else {
                Err(meta.error("unknown `module` attribute on a field: expected `skip` or `rename = \"..\"`"))
            }
        })?;
    }
    Ok(opts)
}

/// The crate path from `#[module(crate = "..")]` on the struct, `::shaped` by default.
fn crate_path(attrs: &[syn::Attribute]) -> syn::Result<syn::Path> {
    let mut path: syn::Path = parse_quote!(::shaped);
    for attr in attrs.iter().filter(|a| a.path().is_ident("module")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("crate") {
                path = meta.value()?.parse::<LitStr>()?.parse()?;
                Ok(())
            } else {
                Err(meta.error("unknown `module` attribute on a struct: expected `crate = \"..\"`"))
            }
        })?;
    }
    Ok(path)
}

/// The impl of `Module<__T>` for the struct.
pub fn expand(input: TokenStream) -> syn::Result<TokenStream> {
    let input: DeriveInput = syn::parse2(input)?;
    let krate = crate_path(&input.attrs)?;
    let fields = match &input.data {
        Data::Struct(s) => &s.fields,
        Data::Enum(e) => {
            return Err(syn::Error::new(
                e.enum_token.span,
                "`#[derive(Module)]` takes a struct; an enum has no fixed set of parameters",
            ))
        }
        Data::Union(u) => {
            return Err(syn::Error::new(u.union_token.span, "`#[derive(Module)]` takes a struct, not a union"))
        }
    };
    let mut visits = Vec::new();
    let mut bounds = Vec::new();
    let members: Vec<(syn::Member, &syn::Field)> = match fields {
        Fields::Named(n) => n.named.iter().map(|f| (syn::Member::Named(f.ident.clone().expect("named")), f)).collect(),
        Fields::Unnamed(u) => u.unnamed.iter().enumerate().map(|(i, f)| (syn::Member::Unnamed(i.into()), f)).collect(),
        Fields::Unit => Vec::new(),
    };
    for (member, field) in members {
        let opts = field_opts(&field.attrs)?;
        if opts.skip {
            continue;
        }
        let name = opts.rename.unwrap_or_else(|| match &member {
            syn::Member::Named(id) => id.to_string().trim_start_matches("r#").to_string(),
            syn::Member::Unnamed(i) => i.index.to_string(),
        });
        let ty = &field.ty;
        bounds.push(quote!(#ty: #krate::nn::Module<__T>));
        visits.push(quote! {
            #krate::nn::Module::<__T>::visit(&mut self.#member, &#krate::nn::join(prefix, #name), f);
        });
    }
    let name = &input.ident;
    let (_, ty_generics, _) = input.generics.split_for_impl();
    let mut generics = input.generics.clone();
    generics.params.push(parse_quote!(__T: #krate::autograd::GradFloat));
    let where_clause = generics.make_where_clause();
    for b in bounds {
        where_clause.predicates.push(syn::parse2(b)?);
    }
    let (impl_generics, _, where_clause) = generics.split_for_impl();
    Ok(quote! {
        #[automatically_derived]
        impl #impl_generics #krate::nn::Module<__T> for #name #ty_generics #where_clause {
            fn visit<'__a>(
                &'__a mut self,
                prefix: &str,
                f: &mut dyn FnMut(&str, #krate::nn::Item<'__a, __T>),
            ) {
                #(#visits)*
            }
        }
    })
}
