//! Test binary `pass`: the cases that must compile, and run. Each file of `pass/` is a program
//! of its own (`pub fn main`, so that it also builds alone as an example would), a module here,
//! and the test of its name runs its `main`. The result types written out in each file are what
//! it checks: a change to a shape rule that changes them fails this build.

#[path = "pass/at_any_integer.rs"]
mod at_any_integer;
#[path = "pass/broadcast.rs"]
mod broadcast;
#[path = "pass/chained_views.rs"]
mod chained_views;
#[path = "pass/conv_shapes.rs"]
mod conv_shapes;
#[path = "pass/digits_cnn.rs"]
mod digits_cnn;
#[path = "pass/dyn_roundtrip.rs"]
mod dyn_roundtrip;
#[path = "pass/einsum.rs"]
mod einsum;
#[path = "pass/generic_fns.rs"]
mod generic_fns;
#[path = "pass/generic_linalg.rs"]
mod generic_linalg;
#[path = "pass/generic_literals.rs"]
mod generic_literals;
#[path = "pass/generic_same_shape.rs"]
mod generic_same_shape;
#[path = "pass/inferred_constructors.rs"]
mod inferred_constructors;
#[path = "pass/large_dim_literals.rs"]
mod large_dim_literals;
#[path = "pass/large_sizes.rs"]
mod large_sizes;
#[path = "pass/linalg_shapes.rs"]
mod linalg_shapes;
#[path = "pass/matmul.rs"]
mod matmul;
#[path = "pass/mixed_static_dyn.rs"]
mod mixed_static_dyn;
#[path = "pass/mutable_views.rs"]
mod mutable_views;
#[path = "pass/negative_axes.rs"]
mod negative_axes;
#[path = "pass/shape_ops.rs"]
mod shape_ops;
#[path = "pass/slicing.rs"]
mod slicing;
#[path = "pass/static_batches.rs"]
mod static_batches;
#[path = "pass/strict_same.rs"]
mod strict_same;

/// What a case's `main` returns: nothing, or a `Result` whose error fails the test.
trait Case {
    fn check(self);
}

impl Case for () {
    fn check(self) {}
}

impl<E: std::fmt::Debug> Case for Result<(), E> {
    fn check(self) {
        if let Err(e) = self {
            panic!("the case returned an error: {e:?}");
        }
    }
}

/// One `#[test]` per case, named as its file.
macro_rules! cases {
    ($($case:ident),* $(,)?) => {
        $(
            #[test]
            fn $case() {
                // A case's `main` returns `()` or a `Result` (`?` on the fallible forms).
                Case::check($case::main());
            }
        )*
    };
}

cases!(
    at_any_integer,
    broadcast,
    chained_views,
    conv_shapes,
    digits_cnn,
    dyn_roundtrip,
    einsum,
    generic_fns,
    generic_linalg,
    generic_literals,
    generic_same_shape,
    inferred_constructors,
    large_dim_literals,
    large_sizes,
    linalg_shapes,
    matmul,
    mixed_static_dyn,
    mutable_views,
    negative_axes,
    shape_ops,
    slicing,
    static_batches,
    strict_same,
);
