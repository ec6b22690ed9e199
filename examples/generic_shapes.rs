//! Functions generic over shapes and sizes, written with the crate's documented bounds only.
//!
//! Run with `cargo run --example generic_shapes`. Each function states in its signature what the
//! compiler checks at every call: the shapes that go in and the shape that comes out.
use shaped::prelude::*;
use shaped::shape::{Broadcast, BroadcastShape, MatMulShape};

/// Any shape at all: `S: Shape` is the only bound. Scales the values into `0..=1`.
fn min_max_scale<S: Shape>(x: &Tensor<f32, S>) -> Tensor<f32, S> {
    let v = x.to_vec();
    let (lo, hi) = v.iter().fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), &t| (a.min(t), b.max(t)));
    let span = if hi > lo { hi - lo } else { 1.0 };
    x.map(|t| (t - lo) / span)
}

/// Every static size `N x M`: the row means keep their axis as the broadcastable `One`, so the
/// subtraction type-checks for all `N` and `M` without any extra bound.
fn standardize_rows<const N: usize, const M: usize>(x: &Tensor<f32, Shape![N, M]>) -> Tensor<f32, Shape![N, M]> {
    let centred = x - &x.mean_keepdim(Ax::<1>);
    let var = (&centred * &centred).mean_keepdim(Ax::<1>);
    &centred / &var.map(|v| v.sqrt().max(1e-12))
}

/// Literal indices in code generic over sizes: checked at run time here (a concrete in-range size
/// would check them at compile time). The last row minus the first, the first taken from a window
/// of two rows whose length is static because the literal bounds give it.
fn edges<const N: usize, const M: usize>(x: &Tensor<f32, Shape![N, M]>) -> Tensor<f32, Shape![M]> {
    let top: TensorView<f32, Shape![2, M]> = x.narrow_const::<0, 0, 2>();
    t!(x[-1]) - t!(top[0])
}

/// Writes through a mutable view a caller passes in: each element of the column scaled in place.
fn scale_column<const N: usize>(mut col: TensorViewMut<'_, f32, Shape![N]>, k: f32) {
    col *= k;
}

/// A dense layer. The inner dims are tied by the same `I`: passing a weight with another number
/// of rows does not compile. `B` may be static or `_` (a runtime batch size).
fn dense<B: shaped::Dim, const I: usize, const O: usize>(
    x: &Tensor<f32, (B, Const<I>)>,
    w: &Tensor<f32, Shape![I, O]>,
    bias: &Tensor<f32, Shape![O]>,
) -> Tensor<f32, (B, Const<O>)> {
    &x.matmul(w) + bias
}

/// Generic over both operand shapes: the two documented bounds `BroadcastShape` and
/// `MatMulShape` name the rules; `Broadcast<S1, S2>` and `MatMulShape`'s `Out` give the result
/// shapes.
fn residual<S1, S2>(x: &Tensor<f32, S1>, y: &Tensor<f32, S2>) -> Tensor<f32, Broadcast<S1, S2>>
where
    S1: Shape + BroadcastShape<S2>,
    S2: Shape,
{
    x + y
}

fn project<S1: MatMulShape<S2>, S2: Shape>(a: &Tensor<f32, S1>, b: &Tensor<f32, S2>) -> Tensor<f32, S1::Out> {
    a.matmul(b)
}

fn main() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::from([[1., 2., 3.], [2., 4., 6.]]);
    println!("min_max_scale = {}", min_max_scale(&x));
    println!("standardize_rows = {}", standardize_rows(&x));

    // A large static size goes through the same generic code: no size table is involved.
    let big = Tensor::<f32, Shape![4096, 8]>::ones();
    println!("standardize_rows on [4096, 8]: sum = {}", standardize_rows(&big).sum());

    let w = Tensor::<f32, Shape![3, 2]>::full(0.5);
    let b = Tensor::from([1., -1.]);
    let y: Tensor<f32, Shape![2, 2]> = dense(&x, &w, &b);
    println!("dense (static batch) = {y}");
    let xd: Tensor<f32, Shape![_, 3]> = x.clone().cast_shape();
    let yd: Tensor<f32, Shape![_, 2]> = dense(&xd, &w, &b);
    println!("dense (runtime batch) sizes = {:?}", yd.sizes());

    println!("edges: last - first row = {}", edges(&x));
    let mut m = x.clone();
    scale_column(m.select_mut(Ax::<-1>, 0), 10.);
    println!("first column scaled = {m}");

    let r: Tensor<f32, Shape![2, 3]> = residual(&x, &Tensor::from([10., 20., 30.]));
    println!("residual = {r}");
    let batch = Tensor::<f32, Shape![4, 2, 3]>::ones();
    let p: Tensor<f32, Shape![4, 2, 2]> = project(&batch, &w);
    println!("project: batched [4, 2, 3] @ [3, 2] -> {:?}", p.sizes());
}
