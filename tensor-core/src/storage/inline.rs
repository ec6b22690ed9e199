//! Inline storage: the array held in the tensor value itself ([`Inline`], [`Scalar`]), the
//! array types that can be one ([`InlineArray`], [`ArrLevel`]), and how a tensor stores its
//! layout ([`LayoutRepr`]: a [`Layout`], or the zero-sized [`RowMajor`] of a fully static inline
//! tensor).
use super::{BuildData, Data, DataMut, InlineKind, OutData, OwnedRepr, Sealed};
use crate::element::Element;
use crate::error::ShapeError;
use crate::layout::Layout;
use alloc::vec::Vec;

/// How a tensor stores its layout: a [`Layout`] (every storage kind but inline storage, and
/// inline storage of a shape with runtime dims), or [`RowMajor`], a zero-sized marker for inline
/// storage of a fully static shape, whose layout is the compile-time constant
/// [`Shape::ROW_MAJOR`](crate::Shape::ROW_MAJOR). The tensor types read it through
/// `TensorBase::layout`.
pub trait LayoutRepr: Copy + Send + Sync + core::fmt::Debug + 'static {
    /// The layout of a tensor of shape `S`.
    fn get<S: crate::Shape>(&self) -> &Layout;
    /// The representation of `l` for shape `S` (a [`RowMajor`] marker keeps nothing: `l` must
    /// address the elements as `S`'s row-major layout does).
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when `l` is not stored and is not the row-major layout of `S`.
    fn try_from_layout<S: crate::Shape>(l: Layout) -> Result<Self, ShapeError>;
    /// The representation of the row-major layout of `S`, computed by `compute` only when it must
    /// be stored (a [`RowMajor`] marker needs no run-time work).
    ///
    /// # Errors
    /// Those of `compute`.
    fn row_major<S: crate::Shape>(compute: impl FnOnce() -> Result<Layout, ShapeError>) -> Result<Self, ShapeError>;
}
impl LayoutRepr for Layout {
    #[inline(always)]
    fn get<S: crate::Shape>(&self) -> &Layout {
        self
    }
    #[inline(always)]
    fn try_from_layout<S: crate::Shape>(l: Layout) -> Result<Self, ShapeError> {
        Ok(l)
    }
    #[inline(always)]
    fn row_major<S: crate::Shape>(compute: impl FnOnce() -> Result<Layout, ShapeError>) -> Result<Self, ShapeError> {
        compute()
    }
}
/// The layout of inline storage of a fully static shape: row-major from offset 0, known from the
/// type, so nothing is stored (see [`LayoutRepr`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RowMajor;
impl LayoutRepr for RowMajor {
    #[inline(always)]
    fn get<S: crate::Shape>(&self) -> &Layout {
        &S::ROW_MAJOR
    }
    #[inline(always)]
    fn try_from_layout<S: crate::Shape>(l: Layout) -> Result<Self, ShapeError> {
        // An empty layout reads nothing; otherwise the elements must be where the row-major
        // layout of `S` (whose sizes `l` has: checked by the caller) puts them.
        if l.numel() == 0 || (l.offset() == 0 && l.is_contiguous()) {
            Ok(RowMajor)
        } else {
            Err(ShapeError::Invalid(alloc::format!(
                "inline storage of a static shape takes only its row-major layout, not sizes {:?}, strides {:?} and offset {}",
                l.sizes(),
                l.strides(),
                l.offset()
            )))
        }
    }
    #[inline(always)]
    fn row_major<S: crate::Shape>(_: impl FnOnce() -> Result<Layout, ShapeError>) -> Result<Self, ShapeError> {
        Ok(RowMajor)
    }
}

/// Storage held in the tensor value itself: a nested array in row-major order (`[[T; 4]; 4]` for
/// `Shape![4, 4]`, [`Scalar`] for `Shape![]`). What [`STensor`](crate::STensor) uses: no heap
/// allocation, no stored layout (the shape's row-major layout is a compile-time constant), and
/// `Copy` like the array.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Inline<A>(pub A);
impl<A> Sealed for Inline<A> {}

/// The zero-dimensional inline array: one element.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scalar<T>(pub T);

/// A nested array that [`Inline`] storage can hold: row-major elements viewed as one flat slice
/// (safely, through `as_flattened` at each nesting level).
pub trait InlineArray: Copy + Send + Sync + 'static {
    /// The element type.
    type Elem: Element;
    /// The number of elements.
    const LEN: usize;
    /// Every element `Elem::ZERO`.
    const ZEROED: Self;
    /// The elements in row-major order.
    fn flat(&self) -> &[Self::Elem];
    /// The elements in row-major order, mutably.
    fn flat_mut(&mut self) -> &mut [Self::Elem];
}
impl<T: Element> InlineArray for Scalar<T> {
    type Elem = T;
    const LEN: usize = 1;
    const ZEROED: Self = Scalar(T::ZERO);
    #[inline(always)]
    fn flat(&self) -> &[T] {
        core::slice::from_ref(&self.0)
    }
    #[inline(always)]
    fn flat_mut(&mut self) -> &mut [T] {
        core::slice::from_mut(&mut self.0)
    }
}
/// `InlineArray` for arrays nested `$depth` deep: `as_flattened` once per inner level.
macro_rules! inline_array {
    ($([$($n:ident),+] $ty:ty, $zero:expr, $len:expr, ($($flat:ident),*);)*) => {$(
        impl<T: Element, $(const $n: usize),+> InlineArray for $ty {
            type Elem = T;
            const LEN: usize = $len;
            const ZEROED: Self = $zero;
            #[inline(always)]
            fn flat(&self) -> &[T] {
                self$(.$flat())*
            }
            #[inline(always)]
            fn flat_mut(&mut self) -> &mut [T] {
                inline_array!(@mut self; $($flat),*)
            }
        }
    )*};
    (@mut $s:expr;) => { &mut $s[..] };
    (@mut $s:expr; $f:ident $(, $rest:ident)*) => { inline_array!(@mut $s.as_flattened_mut(); $($rest),*) };
}
inline_array! {
    [A] [T; A], [T::ZERO; A], A, ();
    [A, B] [[T; B]; A], [[T::ZERO; B]; A], A * B, (as_flattened);
    [A, B, C] [[[T; C]; B]; A], [[[T::ZERO; C]; B]; A], A * B * C, (as_flattened, as_flattened);
    [A, B, C, D] [[[[T; D]; C]; B]; A], [[[[T::ZERO; D]; C]; B]; A], A * B * C * D, (as_flattened, as_flattened, as_flattened);
    [A, B, C, D, E] [[[[[T; E]; D]; C]; B]; A], [[[[[T::ZERO; E]; D]; C]; B]; A], A * B * C * D * E,
        (as_flattened, as_flattened, as_flattened, as_flattened);
    [A, B, C, D, E, F] [[[[[[T; F]; E]; D]; C]; B]; A], [[[[[[T::ZERO; F]; E]; D]; C]; B]; A], A * B * C * D * E * F,
        (as_flattened, as_flattened, as_flattened, as_flattened, as_flattened);
}

impl<A: InlineArray> Data for Inline<A> {
    const WRITABLE: bool = true;
    const INLINE: bool = true;
    type Elem = A::Elem;
    type Kind = InlineKind;
    type Lay<S: crate::Shape> = S::InlineLay;
    type Ref<'s> = &'s [A::Elem];
    #[inline(always)]
    fn as_slice(&self) -> &[A::Elem] {
        self.0.flat()
    }
    #[inline(always)]
    fn view_data(&self) -> &[A::Elem] {
        self.0.flat()
    }
}
impl<A: InlineArray> DataMut for Inline<A> {
    #[inline(always)]
    fn as_mut_slice(&mut self) -> &mut [A::Elem] {
        self.0.flat_mut()
    }
}

/// A level of a shape's nested array type, built dim by dim from the innermost ([`Scalar`]): one
/// array level per static dim ([`Level1`] to [`Level5`], whose [`Array`](Self::Array) is the
/// nested array), and the heap marker [`Heap`] as soon as a `Dyn` dim appears (or a sixth dim).
/// `Shape::Arr<T>` is the result; its [`Store`](Self::Store) is where a new tensor of that shape
/// lives when an operand is inline: `Inline<array>` for a fully static shape, [`OwnedRepr`]
/// otherwise.
///
/// The levels are marker types rather than the arrays themselves so that each has one impl:
/// `<(Const<3>,) as Shape>::Arr<T>` normalizes to `Level1<T, 3>` with `T` still unknown, and its
/// `Store` to `Inline<[T; 3]>`, from which `T` is inferred. (An impl for `[T; A]` beside one
/// for `[[T; B]; A]` would leave `[?T; 3]` ambiguous: that is what kept `let m: STensor<f32,
/// Shape![4, 4]> = STensor::eye()` from inferring.)
pub trait ArrLevel: 'static {
    /// The element type.
    type Elem: Element;
    /// This level wrapped in one more array level of length `N` (or [`Heap`]).
    type Wrap<const N: usize>: ArrLevel<Elem = Self::Elem>;
    /// The nested array of this level (`[[T; B]; A]`; [`Scalar`] at rank 0; [`Heap`] itself for
    /// the heap marker).
    type Array: 'static;
    /// The storage of a new tensor with this array.
    type Store: OutData<Self::Elem>;
}
/// The marker of a shape with a runtime dim: its tensors live on the heap.
pub struct Heap<T>(core::marker::PhantomData<T>);
impl<T: Element> ArrLevel for Heap<T> {
    type Elem = T;
    type Wrap<const N: usize> = Heap<T>;
    type Array = Heap<T>;
    type Store = OwnedRepr<T>;
}
impl<T: Element> ArrLevel for Scalar<T> {
    type Elem = T;
    type Wrap<const N: usize> = Level1<T, N>;
    type Array = Scalar<T>;
    type Store = Inline<Scalar<T>>;
}
macro_rules! arr_level {
    ($($(#[$m:meta])* $Level:ident [$($n:ident),+] $ty:ty => $wrap:ty;)*) => {$(
        $(#[$m])*
        pub struct $Level<T, $(const $n: usize),+>(core::marker::PhantomData<T>);
        impl<T: Element, $(const $n: usize),+> ArrLevel for $Level<T, $($n),+> {
            type Elem = T;
            type Wrap<const N: usize> = $wrap;
            type Array = $ty;
            type Store = Inline<$ty>;
        }
    )*};
}
arr_level! {
    /// The array level `[T; A]` (see [`ArrLevel`]).
    Level1 [A] [T; A] => Level2<T, N, A>;
    /// The array level `[[T; B]; A]` (see [`ArrLevel`]).
    Level2 [A, B] [[T; B]; A] => Level3<T, N, A, B>;
    /// The array level `[[[T; C]; B]; A]` (see [`ArrLevel`]).
    Level3 [A, B, C] [[[T; C]; B]; A] => Level4<T, N, A, B, C>;
    /// The array level `[[[[T; D]; C]; B]; A]` (see [`ArrLevel`]).
    Level4 [A, B, C, D] [[[[T; D]; C]; B]; A] => Level5<T, N, A, B, C, D>;
    /// The array level `[[[[[T; E]; D]; C]; B]; A]` (see [`ArrLevel`]); one more dim goes to the
    /// heap.
    Level5 [A, B, C, D, E] [[[[[T; E]; D]; C]; B]; A] => Heap<T>;
}

impl<A: InlineArray> Inline<A> {
    /// Checked once per array type, at build time: an inline array (a new `STensor`, or the
    /// result of an operation on inline tensors) must fit
    /// [`MAX_INLINE_BYTES`](crate::MAX_INLINE_BYTES), so that nothing puts a large array on the
    /// stack (a broadcast of an inline operand against a large static heap tensor would). The fix
    /// is a heap tensor: `to_heap()` converts an inline operand.
    pub(crate) const FITS: () = if core::mem::size_of::<A>() > crate::limits::MAX_INLINE_BYTES {
        let m = crate::error::ConstMsg::new().str("an inline (STensor) array of ").num(core::mem::size_of::<A>());
        let m = m.str(" bytes is over the ").num(crate::limits::MAX_INLINE_BYTES);
        m.str("-byte inline limit: use a heap Tensor (`.to_heap()` converts an inline operand)").fail()
    };
    /// An error unless `n` is the array's length: a layout of `n` elements over this array would
    /// reach past it (the type rules never pair them so; this keeps it a checked error).
    #[inline(always)]
    fn check_len(n: usize) -> Result<(), crate::ShapeError> {
        if n == A::LEN {
            Ok(())
        } else {
            Err(crate::ShapeError::Invalid(alloc::format!("inline storage of {} elements for a shape of {n}", A::LEN)))
        }
    }
    /// [`FITS`](Self::FITS), used in one place so that a failure is reported once.
    #[inline(always)]
    fn assert_fits() {
        let () = Self::FITS;
    }
}
impl<A: InlineArray> BuildData for Inline<A> {
    #[inline(always)]
    fn try_from_fn(n: usize, mut f: impl FnMut(usize) -> A::Elem) -> Result<Self, crate::ShapeError> {
        Self::assert_fits();
        Self::check_len(n)?;
        let mut a = A::ZEROED;
        for (i, e) in a.flat_mut().iter_mut().enumerate() {
            *e = f(i);
        }
        Ok(Inline(a))
    }
}
impl<A: InlineArray> OutData<A::Elem> for Inline<A> {
    #[inline(always)]
    fn zeroed(n: usize) -> Result<Self, crate::ShapeError> {
        Self::assert_fits();
        Self::check_len(n)?;
        Ok(Inline(A::ZEROED))
    }

    fn from_vec(v: Vec<A::Elem>) -> Self {
        Self::assert_fits();
        let mut a = A::ZEROED;
        a.flat_mut().copy_from_slice(&v);
        Inline(a)
    }
}
