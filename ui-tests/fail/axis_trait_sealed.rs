// The shape-side axis traits are sealed: a user's own name type makes an impl legal under the
// orphan rules, but one that would type `select`'s result as `[1000]` on a `[2, 3]` tensor (whose
// layout has 3 elements there) must not compile.
use shaped::prelude::*;
use shaped::shape::{DropAxis, Pos};

dims! { Foo }

impl DropAxis<Foo, Pos<0>> for (Const<2>, Const<3>) {
    type Removed = (Const<1000>,);
    fn axis_index(_: &Foo) -> isize {
        0
    }
}

fn main() {}
