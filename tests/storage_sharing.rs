//! Storage sharing as in the seeds: shared tensors (Etaler's shallow copy), deep copies, the
//! storage accessors, and checked `as_strided` (the lecture's `set_`).
use shaped::prelude::*;

#[test]
fn clones_of_a_shared_tensor_share_storage() {
    let s = Tensor::from([[1, 2, 3], [4, 5, 6]]).into_shared();
    let q = s.clone();
    assert!(s.shares_storage_with(&q));
    assert_eq!(s.storage().as_ptr(), q.storage().as_ptr());
    assert_eq!(s.storage_handles(), 2);
    let deep = s.copy();
    assert!(!deep.shares_storage_with(&s));
    assert_eq!(deep, s);
    // An owning handle to a view: the transpose shares the buffer and outlives the borrow.
    let t: SharedTensor<i32, Shape![3, 2]> = s.share(&s.t());
    assert!(t.shares_storage_with(&s));
    assert_eq!(t.strides(), [1, 3]);
    assert_eq!(t.to_vec(), [1, 4, 2, 5, 3, 6]);
    let col = s.share(&t!(s[.., 1]));
    assert_eq!((col.to_vec(), col.storage_offset()), (vec![2, 5], 1));
    let other = Tensor::from([[0; 3]; 2]);
    let e = s.try_share(&other.as_view()).unwrap_err();
    assert_eq!(e.to_string(), "share: the view does not look at this tensor's storage");
}

#[test]
fn writes_are_copy_on_write() {
    let s = Tensor::from([1.0f32, 2.0, 3.0]).into_shared();
    let mut w = s.clone();
    w.set([0], 10.0);
    assert_eq!(w.to_vec(), [10., 2., 3.]);
    assert_eq!(s.to_vec(), [1., 2., 3.], "the other handle never sees the write");
    assert!(!w.shares_storage_with(&s));
    let mut only = Tensor::from([1u8, 2]).into_shared();
    let before = only.storage().as_ptr();
    t!(only[..] = 7);
    assert_eq!((only.to_vec(), only.storage().as_ptr()), (vec![7, 7], before), "unshared: written in place");
}

#[test]
fn deep_copy_of_owned_and_strided_tensors() {
    let x = Tensor::from([[1, 2], [3, 4]]);
    let c = x.copy();
    assert_ne!(c.storage().as_ptr(), x.storage().as_ptr());
    let t = x.t().to_owned();
    assert_eq!(t.copy().strides(), [2, 1]);
    assert_eq!(t.copy().to_vec(), [1, 3, 2, 4]);
}

#[test]
fn as_strided_is_the_lectures_set_and_is_checked() {
    // >>> q = torch.arange(0, 20).storage()
    // >>> x = torch.tensor(0.).set_(q, storage_offset = 5, size = (3, 2), stride = (4, 1))
    let q = Tensor::<i64, Shape![20]>::arange();
    let x = q.as_strided(&[3, 2], &[4, 1], 5);
    assert_eq!(x.to_vec(), [5, 6, 9, 10, 13, 14]);
    assert_eq!((x.storage_offset(), x.strides()), (5, &[4, 1][..]));
    // >>> torch.tensor(0.).set_(n.storage(), 1, (3, 3), (0, 1))  -- a repeated row
    let n = Tensor::<i64, Shape![10]>::arange();
    assert_eq!(n.as_strided(&[3, 3], &[0, 1], 1).to_vec(), [1, 2, 3, 1, 2, 3, 1, 2, 3]);
    assert_eq!(n.as_strided(&[2, 4], &[1, 0], 1).to_vec(), [1, 1, 1, 1, 2, 2, 2, 2]);
    // Reversed strides reach below the offset: fine while they stay in the storage.
    assert_eq!(n.as_strided(&[3], &[-2], 9).to_vec(), [9, 7, 5]);
    let e = n.try_as_strided(&[3, 2], &[4, 1], 5).unwrap_err();
    assert_eq!(
        e.to_string(),
        "layout with sizes [3, 2], strides [4, 1] and offset 5 reaches outside a storage of 10 elements"
    );
    assert!(n.try_as_strided(&[3], &[-4], 5).is_err());
    assert!(n.try_as_strided(&[0], &[1], 10).is_ok(), "an empty view at the end is valid");
    assert!(n.try_as_strided(&[1; 7], &[0; 7], 0).is_err());
    // Views of views see the whole storage, as PyTorch's `storage()` does.
    let v = t!(n[5..]);
    assert_eq!(v.as_strided(&[2], &[1], 0).to_vec(), [0, 1]);
}
