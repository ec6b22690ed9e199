// The strict forms accept operands of the same shape (a `Dyn` side is checked at run time).
use shaped::prelude::*;

fn mse<const N: usize>(yhat: &Tensor<f32, Shape![N]>, y: &Tensor<f32, Shape![N]>) -> f32 {
    let d = yhat.sub_same(y);
    d.mul_same(&d).mean()
}

pub fn main() {
    let y = Tensor::from_array([1.0f32, 2., 3.]);
    let yhat = Tensor::from_array([1.0f32, 2., 5.]);
    assert_eq!(mse(&yhat, &y), 4. / 3.);
    let d: Tensor<f32, Shape![_]> = Tensor::from_vec(&[3], vec![1., 1., 1.]);
    assert_eq!(y.add_same(&d).to_vec(), [2., 3., 4.]);
    assert!(y.try_add_same(&Tensor::<f32, Shape![_]>::zeros_sized(&[2])).is_err());
}
