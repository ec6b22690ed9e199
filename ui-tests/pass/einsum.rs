// `einsum!`: the result types of the lowered forms (batch matmul, trace, diagonal, outer product,
// bilinear form, sums, transposes, implicit output, `Dyn` and `One` dims, `...`), written out so
// that a change to the rules shows up here.
use shaped::prelude::*;

pub fn main() {
    let a: Tensor<f32, Shape![4, 2, 3]> = Tensor::ones();
    let b: Tensor<f32, Shape![4, 3, 5]> = Tensor::ones();
    let c: Tensor<f32, Shape![4, 2, 5]> = einsum!("bij,bjk->bik", a, b);
    assert_eq!(c.to_vec(), [3.0; 40]);
    let ct: Tensor<f32, Shape![5, 4, 2]> = einsum!("bij,bjk->kbi", a, b);
    assert_eq!(ct.sizes(), [5, 4, 2]);

    let m: Tensor<f64, Shape![3, 3]> = Tensor::from([[1., 2., 3.], [4., 5., 6.], [7., 8., 9.]]);
    let tr: Tensor<f64, Shape![]> = einsum!("ii->", m);
    assert_eq!(tr.item(), 15.);
    let tr2: Tensor<f64, Shape![]> = einsum!("ii", m);
    assert_eq!(tr2.item(), 15.);
    let d: Tensor<f64, Shape![3]> = einsum!("ii->i", m);
    assert_eq!(d.to_vec(), [1., 5., 9.]);
    let t: Tensor<f64, Shape![3, 3]> = einsum!("ji", m);
    assert_eq!(t.to_vec(), m.t().to_vec());
    let rows: Tensor<f64, Shape![3]> = einsum!("ij->i", m);
    assert_eq!(rows.to_vec(), [6., 15., 24.]);

    let u: Tensor<f64, Shape![3]> = Tensor::from([1., 0., -1.]);
    let v: Tensor<f64, Shape![2]> = Tensor::from([2., 3.]);
    let o: Tensor<f64, Shape![3, 2]> = einsum!("i,j->ij", u, v);
    assert_eq!(o.to_vec(), [2., 3., 0., 0., -2., -3.]);
    let bil: Tensor<f64, Shape![]> = einsum!("i,ij,j->", u, m, u);
    assert_eq!(bil.item(), 1. - 3. - 7. + 9.);

    // Static beats Dyn; all-Dyn stays Dyn; DynShape operands give Dyn dims; One is kept.
    let r: Tensor<f64, Shape![_, 3]> = Tensor::ones_sized(&[2, 3]);
    let p: Tensor<f64, Shape![_, 3]> = einsum!("ij,jk->ik", r, m);
    assert_eq!(p.sizes(), [2, 3]);
    let q: Tensor<f64, Shape![_, _]> = einsum!("ij->ji", r.as_dyn());
    let _ = q;
    let col = u.unsqueeze(Ax::<1>);
    let k: Tensor<f64, (One, Const<3>)> = einsum!("ij->ji", col);
    assert_eq!(k.sizes(), [1, 3]);

    // `...`: a DynShape result.
    let e: Tensor<f32, DynShape> = einsum!("...ij,...jk", a, b);
    assert_eq!(e.sizes(), [4, 2, 5]);

    // The Result form.
    let f: Result<Tensor<f64, Shape![3]>, ShapeError> = try_einsum!("ij,j->i", m, u);
    assert_eq!(f.unwrap().to_vec(), [-2., -2., -2.]);
}
