// The digits CNN of PyTorch's first day, written once with static weights: conv(1->8, 3x3,
// padding 1)-relu-maxpool-conv(8->16)-relu-maxpool-linear(64->32)-gelu-linear(32->10)-
// log_softmax. Every size but the batch is in the types: `reshape::<(N, Const<64>)>()` is
// PyTorch's `x.reshape(n, -1)` and keeps the 64 static, so forgetting a `.t()` on a linear
// layer's weight is a compile error (ui-tests/fail/linear_forgot_transpose.rs).
use shaped::prelude::*;

struct Cnn {
    c1: Tensor<f32, Shape![8, 1, 3, 3]>,
    b1: Tensor<f32, Shape![8]>,
    c2: Tensor<f32, Shape![16, 8, 3, 3]>,
    b2: Tensor<f32, Shape![16]>,
    fc1: Tensor<f32, Shape![32, 64]>,
    fb1: Tensor<f32, Shape![32]>,
    fc2: Tensor<f32, Shape![10, 32]>,
    fb2: Tensor<f32, Shape![10]>,
}

/// A batch of any size, static or not.
fn forward<N: Dim>(m: &Cnn, x: &Tensor<f32, (N, One, Const<8>, Const<8>)>) -> Tensor<f32, (N, Const<10>)> {
    let h: Tensor<f32, (N, Const<8>, Const<8>, Const<8>)> = x.conv2d(&m.c1, &m.b1, Conv::<1, 1>).relu();
    let h: Tensor<f32, (N, Const<8>, Const<4>, Const<4>)> = h.max_pool2d(Pool::<2, 2>);
    let h: Tensor<f32, (N, Const<16>, Const<4>, Const<4>)> = h.conv2d(&m.c2, &m.b2, Conv::<1, 1>).relu();
    let h: Tensor<f32, (N, Const<16>, Const<2>, Const<2>)> = h.max_pool2d(Pool::<2, 2>);
    // PyTorch's `h.reshape(n, -1)`: the batch may be `Dyn`; the 64 is checked when the program
    // is built (16 * 2 * 2).
    let h: TensorCow<f32, (N, Const<64>)> = h.reshape::<(N, Const<64>)>();
    let h: Tensor<f32, (N, Const<32>)> = (h.matmul(&m.fc1.t()) + &m.fb1).gelu();
    let y: Tensor<f32, (N, Const<10>)> = h.matmul(&m.fc2.t()) + &m.fb2;
    y.log_softmax(Ax::<1>)
}

pub fn main() {
    let m = Cnn {
        c1: Tensor::full(0.1),
        b1: Tensor::zeros(),
        c2: Tensor::full(0.01),
        b2: Tensor::zeros(),
        fc1: Tensor::full(0.01),
        fb1: Tensor::zeros(),
        fc2: Tensor::full(0.1),
        fb2: Tensor::zeros(),
    };
    // A static batch of 360 images, as the scikit-learn digits test set.
    let x: Tensor<f32, Shape![360, 1, 8, 8]> = Tensor::ones();
    let y: Tensor<f32, Shape![360, 10]> = forward(&m, &x);
    assert_eq!(y.sizes(), [360, 10]);
    // Equal weights give equal logits: log_softmax is ln(1/10) everywhere.
    assert!((y.at([7, 3]) - (0.1f32).ln()).abs() < 1e-5);

    // The same function on a run-time batch.
    let xd: Tensor<f32, Shape![_, 1, 8, 8]> = Tensor::ones_sized(&[5, 1, 8, 8]);
    let yd: Tensor<f32, Shape![_, 10]> = forward(&m, &xd);
    assert_eq!(yd.sizes(), [5, 10]);

    // `_` in a reshape target is inferred (PyTorch's -1) and the static sizes stay in the type.
    let f: Tensor<f32, Shape![_, 16, 2, 2]> = Tensor::zeros_sized(&[6, 16, 2, 2]);
    let g: TensorCow<f32, Shape![_, 64]> = f.reshape::<Shape![_, 64]>();
    let v: TensorView<f32, Shape![_, 64]> = f.view::<Shape![_, 64]>();
    let s: Tensor<f32, Shape![6, 16, 2, 2]> = Tensor::zeros();
    let gs: TensorCow<f32, Shape![6, _]> = s.reshape::<Shape![6, _]>();
    assert_eq!((g.sizes(), v.sizes(), gs.sizes()), ([6, 64].as_slice(), [6, 64].as_slice(), [6, 64].as_slice()));
}
