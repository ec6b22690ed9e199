// Literal indices and bounds in code generic over const sizes compile and are checked at run
// time there (PyTorch semantics), while concrete sizes keep their compile-time checks.
use shaped::prelude::*;

fn corners<const N: usize, const M: usize>(x: &Tensor<f32, Shape![N, M]>) -> [f32; 4] {
    let first_col: TensorView<f32, Shape![N]> = t!(x[.., 0]);
    let last_row: TensorView<f32, Shape![M]> = t!(x[-1]);
    let tail: TensorView<f32, Shape![_, M]> = t!(x[1..]); // the length needs arithmetic: Dyn
    let pair: TensorView<f32, Shape![N, 2]> = t!(x[.., 0..2]); // the macro computes 2
    [first_col.at([0]), last_row.at([-1]), tail.at([0, 0]), pair.at([0, 1])]
}

fn literal_views<const N: usize>(x: &Tensor<f32, Shape![N, 3]>) -> (f32, f32) {
    let n: TensorView<f32, Shape![2, 3]> = x.narrow_const::<0, 1, 2>();
    let s: TensorView<f32, Shape![N]> = x.select_const::<1, 2>();
    (n.at([0, 0]), s.at([0]))
}

fn checked_first<const N: usize>(x: &Tensor<f32, Shape![N]>) -> Result<f32, ShapeError> {
    Ok(t!(try x[0])?.to_vec()[0])
}

pub fn main() {
    let x: Tensor<f32, Shape![3, 4]> = Tensor::from([[0., 1., 2., 3.], [4., 5., 6., 7.], [8., 9., 10., 11.]]);
    assert_eq!(corners(&x), [0., 11., 4., 1.]);
    let y: Tensor<f32, Shape![3, 3]> = Tensor::from([[0., 1., 2.], [3., 4., 5.], [6., 7., 8.]]);
    assert_eq!(literal_views(&y), (3., 2.));
    assert_eq!(checked_first(&Tensor::from_array([5.0f32])), Ok(5.));
    // Instantiated with N = 0, the literal index is an error at run time, not at build time.
    let empty: Tensor<f32, Shape![0]> = Tensor::zeros();
    assert_eq!(checked_first(&empty).unwrap_err().to_string(), "index 0 is out of bounds for dimension 0 of size 0");
}
