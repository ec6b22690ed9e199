// A view of a borrowed view keeps the original borrow, so chains bind to one `let` (as ndarray's
// `slice_move`); mutable views chain the same way.
use shaped::prelude::*;

pub fn main() {
    let mut x: Tensor<f32, Shape![3, 4]> = Tensor::from([[0., 1., 2., 3.], [4., 5., 6., 7.], [8., 9., 10., 11.]]);
    let v: TensorView<f32, Shape![_, 3]> = x.t().narrow(Ax::<0>, 0, 2);
    let w: TensorView<f32, Shape![2, 3]> = t!(x[.., 1..3]).t();
    let u: TensorView<f32, Shape![3, 4]> = x.unsqueeze(Ax::<0>).squeeze(Ax::<0>);
    assert_eq!((v.at([1, 2]), w.at([0, 1]), u.at([2, 3])), (9., 5., 11.));
    let mut col: TensorViewMut<f32, Shape![_]> = x.t_mut().select_mut(Ax::<0>, 0).narrow_mut(Ax::<0>, 1, 2);
    col.fill(-1.);
    let mut inner: TensorViewMut<f32, Shape![2]> = x.select_mut(Ax::<0>, 0).narrow_const_mut_free();
    inner.fill(7.);
    assert_eq!(t!(x[.., 0]).to_vec(), [0., -1., -1.]);
    assert_eq!(t!(x[0]).to_vec(), [0., 7., 7., 3.]);
}

trait NarrowFree<'a> {
    fn narrow_const_mut_free(self) -> TensorViewMut<'a, f32, Shape![2]>;
}
impl<'a> NarrowFree<'a> for TensorViewMut<'a, f32, Shape![4]> {
    fn narrow_const_mut_free(self) -> TensorViewMut<'a, f32, Shape![2]> {
        t!(mut self[1..3])
    }
}
