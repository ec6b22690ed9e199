//! Serialisation: serde (JSON through serde_json). Needs `--features serde`.
use shaped::prelude::*;
use shaped::{bf16, f16, Complex};

// ---------------------------------------------------------------- serde

fn x23() -> Tensor<f32, Shape![2, 3]> {
    Tensor::from([[1., 2., 3.], [4., 5., 6.]])
}

#[test]
fn serde_static_round_trip() {
    let x = x23();
    let s = serde_json::to_string(&x).unwrap();
    assert_eq!(s, r#"{"shape":[2,3],"data":[1.0,2.0,3.0,4.0,5.0,6.0]}"#);
    let y: Tensor<f32, Shape![2, 3]> = serde_json::from_str(&s).unwrap();
    assert_eq!(y.sizes(), [2, 3]);
    assert_eq!(y.to_vec(), x.to_vec());
    // The same text reads into partly or fully dynamic shapes.
    let d: Tensor<f32, Shape![_, 3]> = serde_json::from_str(&s).unwrap();
    assert_eq!(d.sizes(), [2, 3]);
    let d: Tensor<f32, DynShape> = serde_json::from_str(&s).unwrap();
    assert_eq!((d.sizes(), d.to_vec()), (&[2usize, 3][..], x.to_vec()));
}

#[test]
fn serde_dyn_and_dynshape_round_trip() {
    let x = Tensor::<i64, Shape![_, 2]>::from_vec(&[3, 2], vec![1, -2, 3, -4, 5, -6]);
    let s = serde_json::to_string(&x).unwrap();
    assert_eq!(s, r#"{"shape":[3,2],"data":[1,-2,3,-4,5,-6]}"#);
    let y: Tensor<i64, Shape![_, 2]> = serde_json::from_str(&s).unwrap();
    assert_eq!((y.sizes(), y.to_vec()), (x.sizes(), x.to_vec()));

    let d = Tensor::<u8, DynShape>::from_vec(&[2, 1, 3], vec![1, 2, 3, 4, 5, 6]);
    let s = serde_json::to_string(&d).unwrap();
    let e: Tensor<u8, DynShape> = serde_json::from_str(&s).unwrap();
    assert_eq!((e.sizes(), e.to_vec()), (d.sizes(), d.to_vec()));

    // Rank 0 and empty tensors.
    let z = Tensor::scalar(2.5f64);
    let s = serde_json::to_string(&z).unwrap();
    assert_eq!(s, r#"{"shape":[],"data":[2.5]}"#);
    let w: Tensor<f64, Shape![]> = serde_json::from_str(&s).unwrap();
    assert_eq!(w.to_vec(), [2.5]);
    let empty: Tensor<f32, DynShape> = serde_json::from_str(r#"{"shape":[0,4],"data":[]}"#).unwrap();
    assert_eq!(empty.sizes(), [0, 4]);
}

#[test]
fn serde_views_serialise_their_logical_order() {
    let x = x23();
    let t = x.t(); // a non-contiguous view [3, 2]
    assert!(!t.is_contiguous());
    let s = serde_json::to_string(&t).unwrap();
    assert_eq!(s, r#"{"shape":[3,2],"data":[1.0,4.0,2.0,5.0,3.0,6.0]}"#);
    let y: Tensor<f32, Shape![3, 2]> = serde_json::from_str(&s).unwrap();
    assert!(y.is_contiguous());
    assert_eq!(y.to_vec(), t.to_vec());
    // A reversed, stepped view and an inline tensor.
    let r = t!(x[.., ..;-2]);
    assert_eq!(serde_json::to_string(&r).unwrap(), r#"{"shape":[2,2],"data":[3.0,1.0,6.0,4.0]}"#);
    let st = stensor([[1u16, 2], [3, 4]]);
    assert_eq!(serde_json::to_string(&st).unwrap(), r#"{"shape":[2,2],"data":[1,2,3,4]}"#);
}

#[test]
fn serde_element_types() {
    let b = Tensor::from([true, false]);
    let s = serde_json::to_string(&b).unwrap();
    assert_eq!(s, r#"{"shape":[2],"data":[true,false]}"#);
    assert_eq!(serde_json::from_str::<Tensor<bool, Shape![2]>>(&s).unwrap().to_vec(), [true, false]);
    let h = Tensor::from([f16::from_f32(1.5), f16::from_f32(-2.0)]);
    let back: Tensor<f16, Shape![2]> = serde_json::from_str(&serde_json::to_string(&h).unwrap()).unwrap();
    assert_eq!(back.to_vec(), h.to_vec());
    let bh = Tensor::from([bf16::from_f32(0.5)]);
    let back: Tensor<bf16, Shape![1]> = serde_json::from_str(&serde_json::to_string(&bh).unwrap()).unwrap();
    assert_eq!(back.to_vec(), bh.to_vec());
    let c = Tensor::from([Complex::new(1.0f64, -1.0), Complex::new(0.5, 2.0)]);
    let s = serde_json::to_string(&c).unwrap();
    assert_eq!(s, r#"{"shape":[2],"data":[[1.0,-1.0],[0.5,2.0]]}"#);
    let back: Tensor<Complex<f64>, Shape![2]> = serde_json::from_str(&s).unwrap();
    assert_eq!(back.to_vec(), c.to_vec());
}

#[test]
fn serde_sequence_form() {
    // Formats without field names (bincode, postcard) use the sequence form; JSON accepts it.
    let y: Tensor<i32, Shape![2]> = serde_json::from_str("[[2],[7,8]]").unwrap();
    assert_eq!(y.to_vec(), [7, 8]);
    let e = serde_json::from_str::<Tensor<i32, Shape![3]>>("[[2],[7,8]]").unwrap_err().to_string();
    assert!(e.contains("sizes [2] do not match shape [3]"), "{e}");
}

fn de_err<S: Shape>(json: &str) -> String {
    match serde_json::from_str::<Tensor<f32, S>>(json) {
        Ok(t) => panic!("expected an error, got sizes {:?}", t.sizes()),
        Err(e) => e.to_string(),
    }
}

#[test]
fn serde_errors() {
    // A static size that differs: the message names both shapes.
    let e = de_err::<Shape![2, 3]>(r#"{"shape":[3,3],"data":[1,2,3,4,5,6,7,8,9]}"#);
    assert!(e.contains("sizes [3, 3] do not match shape [2, 3]"), "{e}");
    let e = de_err::<Shape![_, 3]>(r#"{"shape":[2,4],"data":[1,2,3,4,5,6,7,8]}"#);
    assert!(e.contains("sizes [2, 4] do not match shape [_, 3]"), "{e}");
    // A rank that differs.
    let e = de_err::<Shape![6]>(r#"{"shape":[2,3],"data":[1,2,3,4,5,6]}"#);
    assert!(e.contains("sizes [2, 3] do not match shape [6]"), "{e}");
    // The data length is not the product of the sizes.
    let e = de_err::<Shape![2, 3]>(r#"{"shape":[2,3],"data":[1,2,3,4,5]}"#);
    assert!(e.contains("a buffer of 5 elements does not fit shape [2, 3]"), "{e}");
    let e = de_err::<DynShape>(r#"{"shape":[2,3],"data":[1,2,3,4,5,6,7]}"#);
    assert!(e.contains("a buffer of 7 elements does not fit shape [2, 3]"), "{e}");
    // Sizes whose product overflows, more dims than MAX_RANK, negative sizes.
    let e = de_err::<DynShape>(&format!(r#"{{"shape":[{},4],"data":[]}}"#, usize::MAX));
    assert!(e.contains("overflows"), "{e}");
    let e = de_err::<DynShape>(r#"{"shape":[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],"data":[1]}"#);
    assert!(e.contains("exceeds the maximum"), "{e}");
    let e = de_err::<DynShape>(r#"{"shape":[-1],"data":[]}"#);
    assert!(e.contains("invalid value"), "{e}");
    // Missing, duplicated and unknown fields; a wrong element type.
    assert!(de_err::<DynShape>(r#"{"shape":[2]}"#).contains("missing field `data`"));
    assert!(de_err::<DynShape>(r#"{"data":[1,2]}"#).contains("missing field `shape`"));
    assert!(de_err::<DynShape>(r#"{"shape":[1],"shape":[1],"data":[1]}"#).contains("duplicate field `shape`"));
    assert!(de_err::<DynShape>(r#"{"shape":[1],"data":[1],"strides":[1]}"#).contains("unknown field `strides`"));
    assert!(de_err::<DynShape>(r#"{"shape":[1],"data":["a"]}"#).contains("invalid type"));
    assert!(de_err::<DynShape>("[[1]]").contains("invalid length 1"));
}
