//! The guide: topic pages that find a method without scrolling through [`TensorBase`]'s
//! thousand. Each page has a table of its methods (linked), an example, and the details; the
//! topics at a glance:
//!
//! | page | what | methods |
//! |---|---|---|
//! | [`creation`] | constructors, queries, printing | [`from`](TensorBase#impl-From<%5B%5BT;+N%5D;+M%5D>-for-TensorBase<OwnedRepr<T>,+(%3CConst%3CM%3E+as+ArrayLen%3E::Dim,+%3CConst%3CN%3E+as+ArrayLen%3E::Dim)>), [`zeros`](TensorBase::zeros), [`zeros_sized`](TensorBase::zeros_sized), [`arange`](TensorBase::arange), [`linspace`](TensorBase::linspace), [`from_fn`](TensorBase::from_fn), [`from_vec`](TensorBase::from_vec), [`sizes`](TensorBase::sizes) |
//! | [`indexing`] | [`t!`], views, reshapes, gathers and scatters, iteration | [`t!`], [`select`](TensorBase::select), [`narrow`](TensorBase::narrow), [`transpose`](TensorBase::transpose), [`permute`](TensorBase::permute), [`reshape`](TensorBase::reshape), [`cast_shape`](TensorBase::cast_shape), [`gather`](TensorBase::gather), [`index_select`](TensorBase::index_select), [`axis_iter`](TensorBase::axis_iter) |
//! | [`elementwise`] | operators, float functions, comparisons, `_out` and in-place forms, casts | [`exp`](TensorBase::exp), [`relu`](TensorBase::relu), [`greater`](TensorBase::greater), [`maximum`](TensorBase::maximum), [`map`](TensorBase::map), [`add_out`](TensorBase::add_out), [`cast`](TensorBase::cast) |
//! | [`reductions`] | sums, means, variance, extrema, norms, scans, softmax | [`sum_axis`](TensorBase::sum_axis), [`mean_keepdim`](TensorBase::mean_keepdim), [`var`](TensorBase::var), [`argmax_axis`](TensorBase::argmax_axis), [`norm`](TensorBase::norm), [`cumsum`](TensorBase::cumsum), [`softmax`](TensorBase::softmax) |
//! | [`shape_ops`] | join, split, pad, repeat, move axes | [`Cat::cat`], [`Stack::stack`], [`pad`](TensorBase::pad), [`repeat`](TensorBase::repeat), [`chunk`](TensorBase::chunk), [`tril`](TensorBase::tril), [`where_`] |
//! | [`linalg`] | products, [`einsum!`], `torch.linalg` | [`matmul`](TensorBase::matmul), [`solve`](TensorBase::solve), [`lstsq`](TensorBase::lstsq), [`inv`](TensorBase::inv), [`svd`](TensorBase::svd), [`eigh`](TensorBase::eigh), [`cholesky`](TensorBase::cholesky), [`qr`](TensorBase::qr) |
//! | [`conv`] | convolution, pooling, sliding windows | [`conv2d`](TensorBase::conv2d), [`conv1d`](TensorBase::conv1d), [`conv_transpose2d`](TensorBase::conv_transpose2d), [`max_pool2d`](TensorBase::max_pool2d), [`avg_pool2d`](TensorBase::avg_pool2d), [`unfold`](TensorBase::unfold) |
//! | [`sorting`] | sorts, top-k, medians, quantiles, searching, counting | [`sort`](TensorBase::sort), [`argsort`](TensorBase::argsort), [`topk`](TensorBase::topk), [`kthvalue`](TensorBase::kthvalue), [`quantile`](TensorBase::quantile), [`searchsorted`](TensorBase::searchsorted), [`unique`](TensorBase::unique) |
//! | [`autograd`] | gradients, the functional layers, optimizers, saving parameters | [`Tape`](crate::autograd::Tape), [`Var`](crate::autograd::Var), [`Param`](crate::autograd::Param), [`backward`](crate::autograd::Var::backward), [`nn::cross_entropy`](crate::autograd::nn::cross_entropy), [`optim::Adam`](crate::autograd::optim::Adam), [`gradcheck`](crate::autograd::gradcheck) |
//! | [`models`] | models as typed values: layers, `#[derive(Module)]`, train/eval, state dicts, a PyTorch -> shaped table | [`nn::Module`], [`nn::Linear`], [`nn::Conv2d`], [`nn::Forward`], [`state_dict`](crate::nn::Module::state_dict) |
//! | [`pretrained`] | loading a PyTorch checkpoint by its keys: a BERT-family encoder, what is checked, another checkpoint's sizes | [`nn::bert::BertModel`], `from_safetensors`, [`BertSizes`](crate::nn::bert::BertSizes), [`load_state_dict`](crate::nn::Module::load_state_dict) |
//! | [`derivatives`] | Jacobians, gradients and Hessians of small functions by forward mode (dual numbers) | [`jacobian`](crate::derivative::jacobian), [`gradient`](crate::derivative::gradient), [`hessian`](crate::derivative::hessian), [`Dual`](crate::derivative::Dual) |
//! | [`random`] | random tensors from a caller's generator (feature `rand`) | [`rand`](TensorBase::rand), [`randn`](TensorBase::randn), [`uniform`](TensorBase::uniform), [`normal_`](TensorBase::normal_), [`randperm`](TensorBase::randperm) |
//! | [`interop`] | ndarray, nalgebra, faer, slices, serde, `.npy`/`.npz` | [`from_slice`](TensorBase::from_slice), [`to_vec`](TensorBase::to_vec), [`crate::interop`] |
//! | [`small_tensors`] | [`STensor`]: small static tensors held inline | [`stensor`], [`to_heap`](TensorBase::to_heap), [`to_inline`](TensorBase::to_inline) |
//! | [`generic`] | functions generic over shapes, sizes and element types | [`prelude`] |
//! | [`named_dims`] | runtime dims with names (`Batch`, `Seq`) that never mix | [`dims!`], [`DimName`], [`ShapeError::NamedDim`] |
//! | [`shape_checks`] | which shape errors are compile errors, their messages, compile time | [`ShapeError`] |
//! | [`safety`] | soundness, errors, integer arithmetic | [`ShapeError`] |
//! | [`features`] | cargo features and their build times | |
//! | [`speed`] | benchmark figures against ndarray, faer, nalgebra and plain loops | |
//! | [`for_pytorch_users`] | PyTorch, NumPy, ndarray and nalgebra calls beside `shaped`'s | |
//!
//! Every method has a `try_` form returning [`ShapeError`] where the plain one panics, and most
//! axis methods a `_dyn` form taking a runtime axis; the pages name the plain forms.
#![allow(unused_imports)]

use crate::*;

macro_rules! page {
    ($(#[$m:meta])* $name:ident, $file:literal) => {
        $(#[$m])*
        pub mod $name {
            #![doc = include_str!($file)]
            #[allow(unused_imports)]
            use crate::*;
        }
    };
}

page!(creation, "creation.md");
page!(indexing, "indexing.md");
page!(elementwise, "elementwise.md");
page!(reductions, "reductions.md");
page!(shape_ops, "shape_ops.md");
page!(linalg, "linalg.md");
page!(conv, "conv.md");
page!(sorting, "sorting.md");
page!(random, "random.md");
page!(autograd, "autograd.md");
page!(models, "models.md");
page!(pretrained, "pretrained.md");
page!(derivatives, "derivatives.md");
page!(interop, "interop.md");
page!(small_tensors, "small_tensors.md");
page!(named_dims, "named_dims.md");
page!(generic, "generic.md");
page!(shape_checks, "shape_checks.md");
page!(safety, "safety.md");
page!(features, "features.md");
page!(speed, "speed.md");
page!(for_pytorch_users, "for_pytorch_users.md");
