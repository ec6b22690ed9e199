//! Serialisation: serde (JSON through serde_json) and NumPy `.npy`/`.npz` files, including a
//! round trip through NumPy itself. Needs `--features serde,npy`.
use shaped::io::{FileFormat, IoError, NpzReader, NpzWriter};
use shaped::prelude::*;
use shaped::{bf16, f16, Complex};
use std::path::PathBuf;
use std::process::Command;

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

// ---------------------------------------------------------------- npy in memory

fn npy_bytes<D: shaped::Data, S: Shape>(t: &shaped::TensorBase<D, S>) -> Vec<u8>
where
    D::Elem: shaped::io::NpyElement,
{
    let mut v = Vec::new();
    t.write_npy(&mut v).unwrap();
    v
}

/// The header dict of a `.npy` file, as text.
fn header(bytes: &[u8]) -> String {
    assert_eq!(&bytes[..6], b"\x93NUMPY");
    let len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    String::from_utf8(bytes[10..10 + len].to_vec()).unwrap()
}

/// A version-1 `.npy` file from a header dict and little-endian data.
fn raw_npy(dict: &str, data: &[u8]) -> Vec<u8> {
    let mut h = dict.to_string();
    while !(10 + h.len() + 1).is_multiple_of(64) {
        h.push(' ');
    }
    h.push('\n');
    let mut v = b"\x93NUMPY\x01\x00".to_vec();
    v.extend((h.len() as u16).to_le_bytes());
    v.extend(h.as_bytes());
    v.extend(data);
    v
}

fn round_trip<T: shaped::io::NpyElement, const N: usize>(values: [T; N], descr: &str) {
    let t = Tensor::<T, Shape![_]>::from_vec(&[N], values.to_vec());
    let bytes = npy_bytes(&t);
    let h = header(&bytes);
    assert!(h.contains(&format!("'descr': '{descr}'")), "{h}");
    let back = Tensor::<T, Shape![_]>::read_npy(&bytes[..]).unwrap();
    assert_eq!(back.to_vec(), values);
}

#[test]
fn npy_element_types_round_trip() {
    round_trip([1.5f32, -2.0, 3.25], "<f4");
    round_trip([1.5f64, -2.0, f64::MAX], "<f8");
    round_trip([f16::from_f32(1.5), f16::from_f32(-65504.)], "<f2");
    round_trip([i8::MIN, 0, i8::MAX], "|i1");
    round_trip([i16::MIN, 0, i16::MAX], "<i2");
    round_trip([i32::MIN, 0, i32::MAX], "<i4");
    round_trip([i64::MIN, 0, i64::MAX], "<i8");
    round_trip([0u8, 255], "|u1");
    round_trip([0u16, u16::MAX], "<u2");
    round_trip([0u32, u32::MAX], "<u4");
    round_trip([0u64, u64::MAX], "<u8");
    round_trip([true, false, true], "|b1");
    round_trip([Complex::new(1.0f32, -2.0)], "<c8");
    round_trip([Complex::new(1.0f64, -2.0), Complex::new(0.0, 3.5)], "<c16");
}

#[test]
fn npy_shapes_and_header() {
    let x = x23();
    let bytes = npy_bytes(&x);
    let h = header(&bytes);
    assert!(h.contains("'fortran_order': False") && h.contains("'shape': (2, 3,"), "{h}");
    assert_eq!(Tensor::<f32, Shape![2, 3]>::read_npy(&bytes[..]).unwrap().to_vec(), x.to_vec());
    assert_eq!(Tensor::<f32, Shape![_, 3]>::read_npy(&bytes[..]).unwrap().sizes(), [2, 3]);
    let d = Tensor::<f32, DynShape>::read_npy(&bytes[..]).unwrap();
    assert_eq!((d.sizes(), d.to_vec()), (&[2usize, 3][..], x.to_vec()));
    // Rank 0 is `shape: ()`; a transposed view is written in its logical order.
    let z = Tensor::scalar(7i32);
    let bytes = npy_bytes(&z);
    assert!(header(&bytes).contains("'shape': ()"), "{}", header(&bytes));
    assert_eq!(Tensor::<i32, Shape![]>::read_npy(&bytes[..]).unwrap().to_vec(), [7]);
    let bytes = npy_bytes(&x.t());
    assert!(header(&bytes).contains("'shape': (3, 2,"));
    let t = Tensor::<f32, Shape![3, 2]>::read_npy(&bytes[..]).unwrap();
    assert!(t.is_contiguous());
    assert_eq!(t.to_vec(), [1., 4., 2., 5., 3., 6.]);
    // Empty tensors.
    let e = Tensor::<u8, DynShape>::from_vec(&[0, 3], vec![]);
    assert_eq!(Tensor::<u8, DynShape>::read_npy(&npy_bytes(&e)[..]).unwrap().sizes(), [0, 3]);
}

#[test]
fn npy_fortran_order_is_a_transposed_layout() {
    // [[0, 1, 2], [3, 4, 5]] stored column by column.
    let data: Vec<u8> = [0i32, 3, 1, 4, 2, 5].iter().flat_map(|v| v.to_le_bytes()).collect();
    let bytes = raw_npy("{'descr': '<i4', 'fortran_order': True, 'shape': (2, 3), }", &data);
    let t = Tensor::<i32, Shape![2, 3]>::read_npy(&bytes[..]).unwrap();
    assert_eq!(t.strides(), [1, 2]);
    assert_eq!(t.to_vec(), [0, 1, 2, 3, 4, 5]);
    assert_eq!(t.storage(), [0, 3, 1, 4, 2, 5]); // no copy into row-major order
    assert_eq!(t.at([1, 0]), 3);
    // Written back, it is C order again.
    let again = Tensor::<i32, DynShape>::read_npy(&npy_bytes(&t)[..]).unwrap();
    assert_eq!((again.strides(), again.to_vec()), (&[3isize, 1][..], t.to_vec()));
    // Rank 3.
    let vals: Vec<u8> = (0..24u8).collect();
    let bytes = raw_npy("{'descr': '|u1', 'fortran_order': True, 'shape': (2, 3, 4), }", &vals);
    let t = Tensor::<u8, DynShape>::read_npy(&bytes[..]).unwrap();
    assert_eq!(t.strides(), [1, 2, 6]);
    assert_eq!(t.at([1usize, 2, 3]), 1 + 2 * 2 + 3 * 6);
}

#[test]
fn npy_errors() {
    let bytes = npy_bytes(&x23());
    // A static shape that differs.
    match Tensor::<f32, Shape![3, 2]>::read_npy(&bytes[..]) {
        Err(IoError::Shape(e @ ShapeError::ShapeMismatch { .. })) => {
            assert_eq!(e.to_string(), "sizes [2, 3] do not match shape [3, 2]")
        }
        r => panic!("{:?}", r.map(|t| t.to_vec())),
    }
    let e = Tensor::<f32, Shape![_]>::read_npy(&bytes[..]).unwrap_err();
    assert_eq!(e.to_string(), "npy shape error: sizes [2, 3] do not match shape [_]");
    // A dtype that differs: no conversion.
    match Tensor::<f64, Shape![2, 3]>::read_npy(&bytes[..]) {
        Err(IoError::DType { expected, found }) => assert_eq!((&*expected, &*found), ("<f8", "<f4")),
        r => panic!("{:?}", r.map(|t| t.to_vec())),
    }
    let e = Tensor::<i32, DynShape>::read_npy(&bytes[..]).unwrap_err();
    assert_eq!(e.to_string(), "npy dtype mismatch: the file holds <f4, the tensor's element type is <i4");
    // A truncated data section, a broken header, a huge claimed shape.
    assert!(matches!(Tensor::<f32, DynShape>::read_npy(&bytes[..bytes.len() - 1]), Err(IoError::Io(_))));
    assert!(matches!(Tensor::<f32, DynShape>::read_npy(&b"not a npy file"[..]), Err(IoError::Io(_))));
    let huge = raw_npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1000000000000,), }", &[0; 8]);
    assert!(matches!(Tensor::<f32, DynShape>::read_npy(&huge[..]), Err(IoError::Io(_))));
    let overflow = raw_npy(&format!("{{'descr': '<f4', 'fortran_order': False, 'shape': ({}, 4), }}", u64::MAX), &[]);
    let e = Tensor::<f32, DynShape>::read_npy(&overflow[..]).unwrap_err();
    assert_eq!(e.to_string(), format!("npy shape error: the element count of npy shape [{}, 4] overflows", u64::MAX));
    // Sizes that fit u64 but not the address space.
    let overflow = raw_npy("{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967295), }", &[]);
    assert!(matches!(
        Tensor::<f32, DynShape>::read_npy(&overflow[..]),
        Err(IoError::Shape(ShapeError::Overflow { .. }))
    ));
    let bad_bool = raw_npy("{'descr': '|b1', 'fortran_order': False, 'shape': (1,), }", &[7]);
    assert!(matches!(Tensor::<bool, DynShape>::read_npy(&bad_bool[..]), Err(IoError::Io(_))));
}

// ---------------------------------------------------------------- files and npz

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shaped-io-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn npy_files() {
    let p = tmp("x.npy");
    x23().save_npy(&p).unwrap();
    let y = Tensor::<f32, Shape![2, 3]>::load_npy(&p).unwrap();
    assert_eq!(y.to_vec(), x23().to_vec());
    let e = Tensor::<f32, DynShape>::load_npy(tmp("missing.npy")).unwrap_err();
    assert!(matches!(e.inner(), IoError::Io(_)), "{e:?}");
}

/// Functions that take a path name the format and the file in every error (issue 46), and give
/// the inner error in the format's words; the stream APIs keep their messages.
#[test]
fn path_errors_name_the_format_and_the_file() {
    let missing = tmp("no-such-dir").join("x.npy");
    let e = Tensor::<f32, DynShape>::load_npy(&missing).unwrap_err();
    assert_eq!(e.to_string(), format!("npy file {missing:?}: No such file or directory (os error 2)"));
    assert!(matches!(&e, IoError::File { format: FileFormat::Npy, path, .. } if *path == missing), "{e:?}");
    assert!(matches!(e.inner(), IoError::Io(e) if e.kind() == std::io::ErrorKind::NotFound), "{e:?}");
    let e = x23().save_npy(&missing).unwrap_err();
    assert_eq!(e.to_string(), format!("npy file {missing:?}: No such file or directory (os error 2)"));

    let p = tmp("errors.npy");
    x23().save_npy(&p).unwrap();
    let e = Tensor::<f32, Shape![3, 2]>::load_npy(&p).unwrap_err();
    assert_eq!(e.to_string(), format!("npy file {p:?}: sizes [2, 3] do not match shape [3, 2]"));
    assert!(matches!(e.inner(), IoError::Shape(ShapeError::ShapeMismatch { .. })), "{e:?}");
    let e = Tensor::<f64, Shape![2, 3]>::load_npy(&p).unwrap_err();
    assert_eq!(e.to_string(), format!("npy file {p:?}: dtype <f4 in the file, the tensor's element type is <f8"));
    assert!(matches!(e.inner(), IoError::DType { .. }), "{e:?}");
    std::fs::write(&p, b"not a npy file").unwrap();
    let e = Tensor::<f32, DynShape>::load_npy(&p).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(r#"npy file {p:?}: not an npy file: it starts with [110, 111, 116, 32, 97, 32], not \x93NUMPY"#)
    );

    let missing = missing.with_extension("npz");
    let e = NpzReader::open(&missing).map(|_| ()).unwrap_err();
    assert_eq!(e.to_string(), format!("npz file {missing:?}: No such file or directory (os error 2)"));
    assert!(matches!(e.inner(), IoError::Io(_)), "{e:?}");
    let e = NpzWriter::create(&missing).map(|_| ()).unwrap_err();
    assert_eq!(e.to_string(), format!("npz file {missing:?}: No such file or directory (os error 2)"));
    let e = shaped::io::load_npz::<f32, DynShape>(&missing, "w").unwrap_err();
    assert_eq!(e.to_string(), format!("npz file {missing:?}: No such file or directory (os error 2)"));

    let p = tmp("errors.npz");
    let mut npz = NpzWriter::create(&p).unwrap();
    npz.add("weights", &x23()).unwrap();
    npz.add("mask", &Tensor::from([true, false, true])).unwrap();
    npz.finish().unwrap();
    let e = shaped::io::load_npz::<f32, DynShape>(&p, "bias").unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(r#"npz file {p:?}: no array named "bias" (the archive holds ["weights", "mask"])"#)
    );
    assert!(matches!(e.inner(), IoError::NotFound { name, .. } if name == "bias"), "{e:?}");
    let e = shaped::io::load_npz::<f32, Shape![3, 2]>(&p, "weights").unwrap_err();
    assert_eq!(e.to_string(), format!(r#"npz file {p:?}: array "weights": sizes [2, 3] do not match shape [3, 2]"#));
    assert!(matches!(e.inner(), IoError::Shape(ShapeError::ShapeMismatch { .. })), "{e:?}");
    let e = shaped::io::load_npz::<u8, Shape![3]>(&p, "mask").unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(r#"npz file {p:?}: array "mask": dtype |b1 in the file, the tensor's element type is |u1"#)
    );
    // The chain of sources: the file, the member, the dtype error.
    let member = std::error::Error::source(&e).unwrap();
    assert_eq!(
        member.to_string(),
        r#"npz member "mask": npy dtype mismatch: the file holds |b1, the tensor's element type is |u1"#
    );
    assert!(matches!(std::error::Error::source(member).unwrap().downcast_ref(), Some(IoError::DType { .. })));
    assert!(matches!(e.inner(), IoError::DType { .. }), "{e:?}");
    // The stream API of the same archive keeps its messages.
    let e = NpzReader::open(&p).unwrap().read::<f32, DynShape>("bias").unwrap_err();
    assert_eq!(e.to_string(), r#"no array named "bias" in the npz archive (it holds ["weights", "mask"])"#);
}

#[test]
fn npz_write_several_read_one() {
    for compressed in [false, true] {
        let p = tmp(&format!("several-{compressed}.npz"));
        let file = std::io::BufWriter::new(std::fs::File::create(&p).unwrap());
        let mut npz = if compressed { NpzWriter::new_compressed(file) } else { NpzWriter::new(file) };
        npz.add("weights", &x23()).unwrap();
        npz.add("mask", &Tensor::from([true, false, true])).unwrap();
        npz.add("wt", &x23().t()).unwrap();
        assert!(matches!(npz.add("mask", &Tensor::from([1u8])), Err(IoError::DuplicateName(n)) if n == "mask"));
        npz.finish().unwrap();

        let mut r = NpzReader::open(&p).unwrap();
        assert_eq!(r.names(), ["weights", "mask", "wt"]);
        let m: Tensor<bool, Shape![3]> = r.read("mask").unwrap();
        assert_eq!(m.to_vec(), [true, false, true]);
        let wt: Tensor<f32, Shape![3, 2]> = r.read("wt").unwrap();
        assert_eq!(wt.to_vec(), x23().t().to_vec());
        let w: Tensor<f32, Shape![2, 3]> = shaped::io::load_npz(&p, "weights").unwrap();
        assert_eq!(w.to_vec(), x23().to_vec());
        match r.read::<f32, DynShape>("bias") {
            Err(e @ IoError::NotFound { .. }) => assert_eq!(
                e.to_string(),
                r#"no array named "bias" in the npz archive (it holds ["weights", "mask", "wt"])"#
            ),
            r => panic!("{:?}", r.map(|t| t.to_vec())),
        }
        // Errors name the member (issue 35).
        let e = r.read::<f32, Shape![3, 2]>("weights").map(|t| t.to_vec()).unwrap_err();
        assert_eq!(e.to_string(), r#"npz member "weights": sizes [2, 3] do not match shape [3, 2]"#);
        assert!(matches!(&e, IoError::Member { name, .. } if name == "weights"));
        assert!(matches!(e.inner(), IoError::Shape(ShapeError::ShapeMismatch { .. })), "{e:?}");
        let e = r.read::<f32, Shape![3]>("weights").map(|t| t.to_vec()).unwrap_err();
        assert!(matches!(e.inner(), IoError::Shape(_)), "{e:?}");
        let e = r.read::<u8, Shape![3]>("mask").map(|t| t.to_vec()).unwrap_err();
        assert_eq!(
            e.to_string(),
            r#"npz member "mask": npy dtype mismatch: the file holds |b1, the tensor's element type is |u1"#
        );
        assert!(matches!(e.inner(), IoError::DType { .. }));
        assert!(std::error::Error::source(&e).is_some());
    }
}

// ---------------------------------------------------------------- NumPy itself

/// Whether NumPy can be imported. In CI (`CI` set) its absence fails the test; locally it skips.
fn numpy_available() -> bool {
    let ok = Command::new("python3").args(["-c", "import numpy"]).status().is_ok_and(|s| s.success());
    if !ok {
        if std::env::var_os("CI").is_some() {
            panic!("`python3 -c 'import numpy'` failed: CI must install NumPy (python3 -m pip install numpy)");
        }
        eprintln!("skipped: python3 with NumPy is not available (the test fails instead when CI is set)");
    }
    ok
}

fn python(script: &str) {
    let out = Command::new("python3").args(["-c", script]).output().expect("python3 runs");
    assert!(out.status.success(), "python failed:\n{script}\n--- stderr:\n{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn numpy_round_trip() {
    if !numpy_available() {
        return;
    }
    let dir = tmp("numpy");
    std::fs::create_dir_all(&dir).unwrap();
    let p = |n: &str| dir.join(n).to_str().unwrap().to_string();

    // Rust -> NumPy.
    Tensor::<f64, Shape![2, 3]>::from([[1., 2., 3.], [4., 5., 6.5]]).save_npy(p("f64.npy")).unwrap();
    Tensor::<f32, Shape![2, 3]>::from([[1., 2., 3.], [4., 5., 6.]]).t().save_npy(p("t.npy")).unwrap();
    Tensor::from([[true, false], [false, true]]).save_npy(p("bool.npy")).unwrap();
    Tensor::from([i32::MIN, -1, i32::MAX]).save_npy(p("i32.npy")).unwrap();
    Tensor::from([0u64, u64::MAX]).save_npy(p("u64.npy")).unwrap();
    Tensor::from([f16::from_f32(0.5), f16::from_f32(-3.0)]).save_npy(p("f16.npy")).unwrap();
    Tensor::from([Complex::new(1.0f64, 2.0)]).save_npy(p("c16.npy")).unwrap();
    let mut npz = NpzWriter::create(p("rust.npz")).unwrap();
    npz.add("a", &Tensor::from([1i16, 2, 3])).unwrap();
    npz.add("b", &Tensor::scalar(9.0f32)).unwrap();
    npz.finish().unwrap();

    python(&format!(
        r#"
import numpy as np
d = {dir:?}
a = np.load(d + "/f64.npy"); assert a.dtype == np.float64 and a.shape == (2, 3), a
assert (a == [[1, 2, 3], [4, 5, 6.5]]).all(), a
t = np.load(d + "/t.npy"); assert t.dtype == np.float32 and (t == [[1, 4], [2, 5], [3, 6]]).all(), t
b = np.load(d + "/bool.npy"); assert b.dtype == np.bool_ and (b == [[True, False], [False, True]]).all(), b
i = np.load(d + "/i32.npy"); assert i.dtype == np.int32 and (i == [-2**31, -1, 2**31 - 1]).all(), i
u = np.load(d + "/u64.npy"); assert u.dtype == np.uint64 and (u == [0, 2**64 - 1]).all(), u
h = np.load(d + "/f16.npy"); assert h.dtype == np.float16 and (h == [0.5, -3]).all(), h
c = np.load(d + "/c16.npy"); assert c.dtype == np.complex128 and c[0] == 1 + 2j, c
z = np.load(d + "/rust.npz"); assert z.files == ["a", "b"], z.files
assert z["a"].dtype == np.int16 and (z["a"] == [1, 2, 3]).all() and z["b"].shape == () and z["b"] == 9
np.save(d + "/np_c.npy", np.arange(6, dtype=np.float32).reshape(2, 3))
f = np.asfortranarray(np.arange(24, dtype=np.int64).reshape(2, 3, 4)); assert f.flags.f_contiguous
np.save(d + "/np_f.npy", f)
np.save(d + "/np_bool.npy", np.array([[True, False, True]]))
np.save(d + "/np_be.npy", np.array([1, -2, 300], dtype=">i2"))
np.save(d + "/np_u8.npy", np.array([0, 7, 255], dtype=np.uint8))
np.save(d + "/np_f8.npy", a * 2)
np.savez(d + "/np.npz", x=np.arange(4, dtype=np.int32), y=np.eye(2))
np.savez_compressed(d + "/npc.npz", x=np.arange(1000, dtype=np.float64))
"#,
        dir = dir.to_str().unwrap()
    ));

    // NumPy -> Rust.
    let c = Tensor::<f32, Shape![2, 3]>::load_npy(p("np_c.npy")).unwrap();
    assert_eq!(c.to_vec(), [0., 1., 2., 3., 4., 5.]);
    let f = Tensor::<i64, Shape![2, 3, 4]>::load_npy(p("np_f.npy")).unwrap();
    assert_eq!(f.strides(), [1, 2, 6]);
    assert_eq!(f.to_vec(), (0..24).collect::<Vec<i64>>());
    let b = Tensor::<bool, Shape![1, _]>::load_npy(p("np_bool.npy")).unwrap();
    assert_eq!(b.to_vec(), [true, false, true]);
    let be = Tensor::<i16, Shape![3]>::load_npy(p("np_be.npy")).unwrap();
    assert_eq!(be.to_vec(), [1, -2, 300]);
    let u = Tensor::<u8, DynShape>::load_npy(p("np_u8.npy")).unwrap();
    assert_eq!(u.to_vec(), [0, 7, 255]);
    let a2 = Tensor::<f64, Shape![2, 3]>::load_npy(p("np_f8.npy")).unwrap();
    assert_eq!(a2.to_vec(), [2., 4., 6., 8., 10., 13.]);
    let e = Tensor::<f32, Shape![2, 3]>::load_npy(p("np_f8.npy")).unwrap_err();
    assert!(matches!(e.inner(), IoError::DType { .. }), "{e:?}");
    let mut z = NpzReader::open(p("np.npz")).unwrap();
    assert_eq!(z.names(), ["x", "y"]);
    assert_eq!(z.read::<f64, Shape![2, 2]>("y").unwrap().to_vec(), [1., 0., 0., 1.]);
    assert_eq!(z.read::<i32, Shape![_]>("x").unwrap().to_vec(), [0, 1, 2, 3]);
    let x: Tensor<f64, Shape![1000]> = shaped::io::load_npz(p("npc.npz"), "x").unwrap();
    assert_eq!(x.to_vec(), (0..1000).map(f64::from).collect::<Vec<_>>());
}
