//! The weights' gradient of a 2-D convolution at the level of tensors: the sizes checked, the
//! operands made contiguous, `kernels::conv::weight_grad` called (the backward pass of
//! `autograd::conv` is its caller).
use super::{dense, invalid, out_size};
use crate::error::ShapeError;
use crate::kernels::{self, conv::Geom, Gemm};
use crate::layout::Layout;
use crate::shape::DynShape;
use crate::storage::Data;
use crate::tensor::{Tensor, TensorBase};
use crate::ConvArgs;
use alloc::format;

/// The gradient of `conv2d`'s weights `[o, c / groups, kh, kw]` (`w_sizes`) for the input `x`
/// `[n, c, h, w]` and the output's gradient `gy` `[n, o, oh, ow]` of a convolution with `a`
/// (PyTorch's `torch.nn.grad.conv2d_weight`): the sizes are those of a forward that ran, checked
/// again here (a mismatch is [`ShapeError::Invalid`]); `kernels::conv::weight_grad` computes it.
/// The gradient may cover fewer output rows or columns than `x` gives (the weights' gradient of
/// `conv_transpose2d` with an output padding: the rows it adds are read by no window).
pub(crate) fn conv2d_weight_grad<T: Gemm, D: Data<Elem = T>, D2: Data<Elem = T>>(
    x: &TensorBase<D, DynShape>,
    gy: &TensorBase<D2, DynShape>,
    w_sizes: [usize; 4],
    a: ConvArgs,
) -> Result<Tensor<T, DynShape>, ShapeError> {
    let (xs, gs) = (x.sizes(), gy.sizes());
    let [o, cg, kh, kw] = w_sizes;
    let g = a.groups;
    let fits = xs.len() == 4
        && gs.len() == 4
        && g > 0
        && o % g == 0
        && cg.checked_mul(g) == Some(xs[1])
        && gs[0] == xs[0]
        && gs[1] == o
        && out_size("conv2d", "height", xs[2], kh, a.stride[0], a.padding[0], a.dilation[0])
            .is_ok_and(|oh| gs[2] <= oh)
        && out_size("conv2d", "width", xs[3], kw, a.stride[1], a.padding[1], a.dilation[1]).is_ok_and(|ow| gs[3] <= ow);
    if !fits {
        return Err(invalid(format!(
            "conv2d weight gradient: input {xs:?}, output gradient {gs:?} and weights {w_sizes:?} do not belong to one convolution"
        )));
    }
    let ([n, c, h, w], [oh, ow]) = ([xs[0], xs[1], xs[2], xs[3]], [gs[2], gs[3]]);
    let geom = Geom { n, c, h, w, kh, kw, stride: a.stride, pad: a.padding, dil: a.dilation, oh, ow };
    Layout::contiguous(&w_sizes)?;
    Layout::contiguous(&[cg, kh, kw, oh, ow])?;
    let mut out = crate::memory::try_vec_for_overwrite(w_sizes.iter().product())?;
    let (xd, gd) = (dense(x)?, dense(gy)?);
    kernels::conv::weight_grad::conv2d_weight_grad(&xd, &gd, &geom, o, g, &mut out)?;
    Tensor::try_from_vec(&w_sizes, out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    /// Sizes that do not belong to one convolution are an error naming them, never a read past a
    /// buffer: channels that are not the weights' times groups, a batch, channel count or output
    /// plane the input cannot give, groups of zero, sizes whose product overflows.
    #[test]
    fn weight_gradient_refuses_sizes_of_another_convolution() {
        let x = Tensor::<f32, DynShape>::zeros_sized(&[2, 4, 6, 6]);
        let a = ConvArgs { stride: [1, 1], padding: [1, 1], dilation: [1, 1], groups: 1 };
        let g = |sizes: &[usize]| Tensor::<f32, DynShape>::zeros_sized(sizes);
        assert_eq!(conv2d_weight_grad(&x, &g(&[2, 3, 6, 6]), [3, 4, 3, 3], a).unwrap().sizes(), [3, 4, 3, 3]);
        for (gs, ws, groups) in [
            ([2, 3, 6, 6], [3, 3, 3, 3], 1),
            ([1, 3, 6, 6], [3, 4, 3, 3], 1),
            ([2, 4, 6, 6], [3, 4, 3, 3], 1),
            ([2, 3, 7, 6], [3, 4, 3, 3], 1),
            ([2, 3, 6, 9], [3, 4, 3, 3], 1),
            ([2, 3, 6, 6], [3, 4, 3, 3], 0),
            ([2, 3, 6, 6], [3, 2, 3, 3], 2),
            ([2, 3, 6, 6], [3, usize::MAX, 3, 3], 1),
        ] {
            let e = conv2d_weight_grad(&x, &g(&gs), ws, ConvArgs { groups, ..a }).unwrap_err().to_string();
            assert!(e.contains("do not belong to one convolution") && e.contains(&format!("{gs:?}")), "{e}");
        }
    }
}
