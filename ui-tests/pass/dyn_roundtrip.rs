// The dynamic fallback: `into_dyn()` erases the shape, `try_into_static` recovers it after a
// run-time check (and fails, without panicking, on the wrong shape).
use shaped::prelude::*;

pub fn main() -> Result<(), ShapeError> {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::from([[1., 2., 3.], [4., 5., 6.]]);
    let d: Tensor<f32, DynShape> = x.clone().into_dyn();
    assert_eq!(d.sizes(), [2, 3]);

    let wrong = d.clone().try_into_static::<Shape![3, 2]>();
    assert!(wrong.is_err());

    let back: Tensor<f32, Shape![2, 3]> = d.clone().try_into_static::<Shape![2, 3]>()?;
    assert_eq!(back, x);

    // Partly static: rank and last size in the type, first size at run time.
    let part: Tensor<f32, Shape![_, 3]> = d.try_into_static()?;
    assert_eq!(part.sizes(), [2, 3]);

    // Runtime slicing on a dynamic tensor.
    let w = x.clone().into_dyn();
    let col = w.try_slice(&[SliceArg::Full, SliceArg::Index(-1)])?;
    assert_eq!(col.to_vec(), [3., 6.]);
    Ok(())
}
