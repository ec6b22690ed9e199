//! PyTorch-style `Display` (`tensor([[1, 2], [3, 4]])`, `tensor([0.1000, 1.5000])`, summarised
//! with `...` past 1000 elements) and a `Debug` that adds sizes and strides.
use crate::shape::Shape;
use crate::storage::Data;
use crate::tensor::TensorBase;
use alloc::string::String;
use alloc::vec::Vec;
use core::any::Any;
use core::fmt::{self, Write};

/// Elements past which each dim is shown as its first and last 3 entries, as PyTorch does.
const SUMMARY_THRESHOLD: usize = 1000;
const EDGE: usize = 3;
/// Digits after the point for floats, PyTorch's default `precision=4`.
const PRECISION: usize = 4;

/// The value of a float element as `f64` (`None` for integer and bool elements).
fn float_value<T: 'static>(x: &T) -> Option<f64> {
    let x = x as &dyn Any;
    x.downcast_ref::<f32>()
        .map(|&v| f64::from(v))
        .or_else(|| x.downcast_ref::<f64>().copied())
        .or_else(|| x.downcast_ref::<half::f16>().map(|v| v.to_f64()))
        .or_else(|| x.downcast_ref::<half::bf16>().map(|v| v.to_f64()))
}

/// The real and imaginary parts of a complex element as `f64`s (`None` for other elements).
fn complex_value<T: 'static>(x: &T) -> Option<(f64, f64)> {
    let x = x as &dyn Any;
    x.downcast_ref::<num_complex::Complex<f32>>()
        .map(|v| (f64::from(v.re), f64::from(v.im)))
        .or_else(|| x.downcast_ref::<num_complex::Complex<f64>>().map(|v| (v.re, v.im)))
}

/// How every float of one tensor is printed, chosen from the shown values as PyTorch's
/// `_Formatter` chooses: integers as `1.`, others with 4 decimals (`0.5000`), and scientific
/// notation (`1.0000e-05`) when the nonzero magnitudes span more than a factor 1000, exceed 1e8 or
/// (for non-integers) fall below 1e-4.
#[derive(Clone, Copy, Debug)]
enum FloatMode {
    Int,
    Fixed(usize),
    Sci(usize),
}

impl FloatMode {
    /// The mode for `values` (the shown elements); an explicit `precision` (`{:.2}`) replaces
    /// PyTorch's 4 digits and prints integers with that many decimals too.
    fn choose(values: impl Iterator<Item = f64>, precision: Option<usize>) -> FloatMode {
        let p = precision.unwrap_or(PRECISION);
        let (mut int, mut min, mut max, mut any) = (true, f64::INFINITY, 0f64, false);
        for v in values.filter(|v| v.is_finite() && *v != 0.0) {
            let a = v.abs();
            any = true;
            min = min.min(a);
            max = max.max(a);
            int &= v == num_traits::Float::ceil(v);
        }
        let wide = any && (max / min > 1000.0 || max > 1.0e8);
        match (int, precision) {
            _ if wide || (!int && min < 1.0e-4) => FloatMode::Sci(p),
            (true, None) => FloatMode::Int,
            _ => FloatMode::Fixed(p),
        }
    }

    fn format(self, v: f64, out: &mut String) {
        if v.is_nan() {
            return out.push_str("nan");
        }
        if v.is_infinite() {
            return out.push_str(if v > 0.0 { "inf" } else { "-inf" });
        }
        match self {
            FloatMode::Int => write!(out, "{v:.0}."),
            FloatMode::Fixed(p) => write!(out, "{v:.p$}"),
            FloatMode::Sci(p) => {
                // Rust writes `1.2346e8`; PyTorch (Python) writes `1.2346e+08`.
                let s = alloc::format!("{v:.p$e}");
                let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
                let exp: i32 = exp.parse().unwrap_or(0);
                let sign = if exp < 0 { '-' } else { '+' };
                write!(out, "{mantissa}e{sign}{:02}", exp.unsigned_abs())
            }
        }
        .unwrap();
    }
}

/// The coordinates shown along a dim of `n` elements (`None` marks the `...`).
fn shown(n: usize, summarise: bool) -> Vec<Option<usize>> {
    if summarise && n > 2 * EDGE {
        (0..EDGE).map(Some).chain([None]).chain((n - EDGE..n).map(Some)).collect()
    } else {
        (0..n).map(Some).collect()
    }
}

impl<D: Data, S: Shape> fmt::Display for TensorBase<D, S> {
    /// `tensor([[1., 2.], [3., 4.]])`, one row per line, as PyTorch prints: floats that are all
    /// integers as `1.`, other floats with 4 decimals (`tensor([0.1000, 1.5000])`), in scientific
    /// notation (`1.0000e-05`) when their magnitudes span more than a factor 1000, and right
    /// aligned to a common width. A precision (`{:.2}`) sets the decimals of every float element.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.numel() == 0 {
            // PyTorch's form for empty tensors; no dim is walked (one may be huge).
            return if self.rank() == 1 {
                f.write_str("tensor([])")
            } else {
                write!(f, "tensor([], size={:?})", self.sizes())
            };
        }
        let summarise = self.numel() > SUMMARY_THRESHOLD;
        let data = self.data.as_slice();
        let precision = f.precision();
        let first = &data[self.layout().offset()];
        let complex = complex_value(first).is_some();
        let float_mode = (float_value(first).is_some() || complex).then(|| {
            let mut shown_values = Vec::new();
            visit(self, summarise, &mut Vec::new(), &mut |o| {
                shown_values.extend(float_value(&data[o]));
                shown_values.extend(complex_value(&data[o]).into_iter().flat_map(|(re, im)| [re, im]));
            });
            FloatMode::choose(shown_values.into_iter(), precision)
        });
        let cell = |o: usize| -> String {
            let mut s = String::new();
            if let (Some(mode), Some((re, im))) = (float_mode, complex_value(&data[o])) {
                // PyTorch's form: `0.7071-0.7071j`.
                mode.format(re, &mut s);
                s.push(if im.is_sign_negative() { '-' } else { '+' });
                mode.format(im.abs(), &mut s);
                s.push('j');
                return s;
            }
            if let Some(mode) = float_mode {
                mode.format(float_value(&data[o]).expect("a float element"), &mut s);
                return s;
            }
            match precision {
                Some(p) => write!(s, "{:.*}", p, data[o]),
                None => write!(s, "{}", data[o]),
            }
            .unwrap();
            s
        };
        // Width of the widest shown element, for right alignment. For floats, as PyTorch, only the
        // finite nonzero ones count (`tensor([inf, 1.])`, `tensor([0., 0.])`).
        let mut width = 0;
        visit(self, summarise, &mut Vec::new(), &mut |o| {
            if float_mode.is_none() || complex || float_value(&data[o]).is_some_and(|v| v.is_finite() && v != 0.0) {
                width = width.max(cell(o).chars().count());
            }
        });
        f.write_str("tensor(")?;
        let mut out = String::new();
        render(self, summarise, &mut Vec::new(), 0, width, &cell, &mut out);
        f.write_str(&out)?;
        f.write_str(")")
    }
}

fn visit<D: Data, S: Shape>(t: &TensorBase<D, S>, summarise: bool, idx: &mut Vec<usize>, g: &mut impl FnMut(usize)) {
    if idx.len() == t.rank() {
        g(t.layout().offset_of(idx));
        return;
    }
    for i in shown(t.sizes()[idx.len()], summarise).into_iter().flatten() {
        idx.push(i);
        visit(t, summarise, idx, g);
        idx.pop();
    }
}

fn render<D: Data, S: Shape>(
    t: &TensorBase<D, S>,
    summarise: bool,
    idx: &mut Vec<usize>,
    depth: usize,
    width: usize,
    cell: &dyn Fn(usize) -> String,
    out: &mut String,
) {
    let rank = t.rank();
    if depth == rank {
        let c = cell(t.layout().offset_of(idx));
        let _ = write!(out, "{c:>width$}");
        return;
    }
    out.push('[');
    let last_dim = depth + 1 == rank;
    for (k, i) in shown(t.sizes()[depth], summarise).into_iter().enumerate() {
        if k > 0 {
            out.push(',');
            if last_dim {
                out.push(' ');
            } else {
                // Blank lines between blocks of higher dims, as PyTorch prints them.
                for _ in 0..rank - depth - 1 {
                    out.push('\n');
                }
                out.extend(core::iter::repeat_n(' ', "tensor(".len() + depth + 1));
            }
        }
        match i {
            Some(i) => {
                idx.push(i);
                render(t, summarise, idx, depth + 1, width, cell, out);
                idx.pop();
            }
            None => out.push_str("..."),
        }
    }
    out.push(']');
}

impl<D: Data, S: Shape> fmt::Debug for TensorBase<D, S> {
    /// The `Display` text followed by the shape type, sizes, strides and offset.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{self} shape={} sizes={:?} strides={:?} offset={}",
            S::describe(),
            self.sizes(),
            self.strides(),
            self.storage_offset()
        )
    }
}
