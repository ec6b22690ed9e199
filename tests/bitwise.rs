//! Bitwise operations (issue 29): `&`, `|`, `^`, `!` and the `bitwise_*` methods on integers and
//! `bool`, with broadcasting, against Rust's own operators on every pair of values; shifts with
//! NumPy's and PyTorch's rule for counts outside the bit width (`np.left_shift(1, 70)` is 0,
//! `np.right_shift(-8, 70)` is -1).
use proptest::prelude::*;
use shaped::prelude::*;

mod common;

#[test]
fn bool_masks_and_integers() {
    let a = Tensor::from([true, true, false, false]);
    let b = Tensor::from([true, false, true, false]);
    assert_eq!((&a & &b).to_vec(), vec![true, false, false, false]);
    assert_eq!((&a | &b).to_vec(), vec![true, true, true, false]);
    assert_eq!((a.clone() ^ b.clone()).to_vec(), vec![false, true, true, false]);
    assert_eq!((!&a).to_vec(), vec![false, false, true, true]);
    // Broadcasting a column against a row, owned and borrowed operands mixed.
    let col = Tensor::<u8, Shape![2, 1]>::from([[0b1100], [0b1010]]);
    let row = Tensor::<u8, Shape![3]>::from([0b0110, 0b1111, 0]);
    assert_eq!((&col & row.clone()).to_vec(), vec![0b0100, 0b1100, 0, 0b0010, 0b1010, 0]);
    assert_eq!((col.clone() | &row).to_vec(), vec![0b1110, 0b1111, 0b1100, 0b1110, 0b1111, 0b1010]);
    assert_eq!(row.bitwise_xor(0b0101u8).to_vec(), vec![0b0011, 0b1010, 0b0101]);
    assert_eq!((!Tensor::from([0i8, -1, 5])).to_vec(), vec![-1, 0, -6]);
    // Shifts: NumPy's values for counts past the width or negative.
    let x = Tensor::from([1i64, -8, 3, -8, 5]);
    let s = Tensor::from([3i64, 1, 70, 70, -1]);
    assert_eq!(x.bitwise_left_shift(&s).to_vec(), vec![8, -16, 0, 0, 0]);
    assert_eq!(x.bitwise_right_shift(&s).to_vec(), vec![0, -4, 0, -1, 0]);
    assert_eq!(Tensor::from([200u8]).bitwise_left_shift(1u8).to_vec(), vec![144]);
    // A runtime size mismatch is an error naming both shapes.
    let d1 = Tensor::<i32, DynShape>::from_vec(&[3], vec![1, 2, 3]);
    let d2 = Tensor::<i32, DynShape>::from_vec(&[2], vec![1, 2]);
    assert!(common::err(d1.try_bitwise_and(&d2)).contains("[3]"));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases(256, 4), failure_persistence: None, ..ProptestConfig::default() })]

    /// Every operation against Rust's operators, element by element, on random `i32` pairs and
    /// shift counts from -2 to 40.
    #[test]
    fn against_rust(v in prop::collection::vec((any::<i32>(), any::<i32>(), -2i32..40), 0..64)) {
        let n = v.len();
        let a = Tensor::<i32, Shape![_]>::from_vec(&[n], v.iter().map(|p| p.0).collect());
        let b = Tensor::<i32, Shape![_]>::from_vec(&[n], v.iter().map(|p| p.1).collect());
        let s = Tensor::<i32, Shape![_]>::from_vec(&[n], v.iter().map(|p| p.2).collect());
        let (and, or, xor, not) = ((&a & &b).to_vec(), (&a | &b).to_vec(), (&a ^ &b).to_vec(), (!&a).to_vec());
        let (shl, shr) = (a.bitwise_left_shift(&s).to_vec(), a.bitwise_right_shift(&s).to_vec());
        for (k, &(x, y, c)) in v.iter().enumerate() {
            prop_assert_eq!((and[k], or[k], xor[k], not[k]), (x & y, x | y, x ^ y, !x));
            let (l, r) = if (0..32).contains(&c) { (x << c, x >> c) } else { (0, if x < 0 { -1 } else { 0 }) };
            prop_assert_eq!((shl[k], shr[k]), (l, r));
        }
    }
}
