//! `serde` support (feature `serde`, works with `alloc` only).
//!
//! Every tensor serialises as a struct with two fields, whatever its storage kind and strides:
//!
//! ```json
//! { "shape": [2, 3], "data": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0] }
//! ```
//!
//! `shape` is the sizes ([`sizes`](crate::TensorBase::sizes)) and `data` the elements in
//! row-major logical order ([`iter`](crate::TensorBase::iter)), so a transposed or reversed view
//! serialises as the tensor it shows, not as its storage. This is ndarray's `{v, dim, data}`
//! without the version field, and the same as NumPy's `{"shape": a.shape, "data":
//! a.ravel().tolist()}`. Strides, storage offset and storage kind are not part of the format.
//!
//! Owned tensors ([`Tensor<T, S>`](crate::Tensor)) of every shape type deserialise from it: the
//! shape is checked against `S` (rank and every static size) and the data length against the
//! product of the sizes, and a mismatch is a serde error (`invalid value`), never a panic. The
//! result is row-major contiguous.
use crate::shape::Shape;
use crate::storage::{Data, Element};
use crate::tensor::{Tensor, TensorBase};
use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeStruct, Serializer};

/// The elements of a tensor in row-major logical order, as a serde sequence.
struct RowMajor<'a, D: Data, S: Shape>(&'a TensorBase<D, S>);

impl<D: Data, S: Shape> Serialize for RowMajor<'_, D, S>
where
    D::Elem: Serialize,
{
    fn serialize<Ser: Serializer>(&self, serializer: Ser) -> Result<Ser::Ok, Ser::Error> {
        serializer.collect_seq(self.0.iter())
    }
}

/// Serialises as `{ "shape": [..sizes..], "data": [..elements in row-major order..] }` (see the
/// [module docs](self)); views and non-contiguous layouts serialise their logical order without
/// copying the elements first.
impl<D: Data, S: Shape> Serialize for TensorBase<D, S>
where
    D::Elem: Serialize,
{
    fn serialize<Ser: Serializer>(&self, serializer: Ser) -> Result<Ser::Ok, Ser::Error> {
        let mut st = serializer.serialize_struct("Tensor", 2)?;
        st.serialize_field("shape", self.sizes())?;
        st.serialize_field("data", &RowMajor(self))?;
        st.end()
    }
}

const FIELDS: &[&str] = &["shape", "data"];

enum Field {
    Shape,
    Data,
}

impl<'de> Deserialize<'de> for Field {
    fn deserialize<De: Deserializer<'de>>(deserializer: De) -> Result<Self, De::Error> {
        struct FieldVisitor;
        impl Visitor<'_> for FieldVisitor {
            type Value = Field;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("`shape` or `data`")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Field, E> {
                match v {
                    "shape" => Ok(Field::Shape),
                    "data" => Ok(Field::Data),
                    _ => Err(E::unknown_field(v, FIELDS)),
                }
            }
            fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Field, E> {
                match v {
                    b"shape" => Ok(Field::Shape),
                    b"data" => Ok(Field::Data),
                    _ => Err(E::unknown_field(&alloc::string::String::from_utf8_lossy(v), FIELDS)),
                }
            }
        }
        deserializer.deserialize_identifier(FieldVisitor)
    }
}

struct TensorVisitor<T, S>(PhantomData<(T, S)>);

impl<T: Element, S: Shape> TensorVisitor<T, S> {
    /// Checks the shape against `S` and the data length against it.
    fn build<E: de::Error>(shape: Vec<usize>, data: Vec<T>) -> Result<Tensor<T, S>, E> {
        Tensor::<T, S>::try_from_vec(&shape, data).map_err(E::custom)
    }
}

impl<'de, T: Element + Deserialize<'de>, S: Shape> Visitor<'de> for TensorVisitor<T, S> {
    type Value = Tensor<T, S>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a tensor of shape {} as {{ shape, data }}", S::describe())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let shape: Vec<usize> = seq.next_element()?.ok_or_else(|| de::Error::invalid_length(0, &self))?;
        S::check_sizes(&shape).map_err(de::Error::custom)?;
        let data: Vec<T> = seq.next_element()?.ok_or_else(|| de::Error::invalid_length(1, &self))?;
        Self::build(shape, data)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut shape: Option<Vec<usize>> = None;
        let mut data: Option<Vec<T>> = None;
        while let Some(key) = map.next_key()? {
            match key {
                Field::Shape => {
                    if shape.is_some() {
                        return Err(de::Error::duplicate_field("shape"));
                    }
                    let s: Vec<usize> = map.next_value()?;
                    // Fail before reading the data when the shape is already wrong.
                    S::check_sizes(&s).map_err(de::Error::custom)?;
                    shape = Some(s);
                }
                Field::Data => {
                    if data.is_some() {
                        return Err(de::Error::duplicate_field("data"));
                    }
                    data = Some(map.next_value()?);
                }
            }
        }
        let shape = shape.ok_or_else(|| de::Error::missing_field("shape"))?;
        let data = data.ok_or_else(|| de::Error::missing_field("data"))?;
        Self::build(shape, data)
    }
}

/// Deserialises `{ "shape": [..], "data": [..] }` (see the [module docs](self)) into a row-major
/// contiguous tensor.
///
/// # Errors
/// A serde error (never a panic) when a field is missing, duplicated or unknown; when the shape
/// does not fit `S` (the message names both: `sizes [3, 4] do not match shape [2, _]`); when the
/// data length is not the product of the sizes (`a buffer of 5 elements does not fit shape [2,
/// 3]`); or when the element count overflows `isize`.
impl<'de, T: Element + Deserialize<'de>, S: Shape> Deserialize<'de> for Tensor<T, S> {
    fn deserialize<De: Deserializer<'de>>(deserializer: De) -> Result<Self, De::Error> {
        deserializer.deserialize_struct("Tensor", FIELDS, TensorVisitor(PhantomData))
    }
}
