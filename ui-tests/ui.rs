//! Compile-time guarantees of `shaped`, checked with trybuild.
//!
//! Each file in `fail/` documents one compile-time error the crate promises: a shape bug that
//! the types can see (broadcasting, matmul inner dims, literal indices
//! out of bounds, axis numbers out of range, ...) must be rejected by `cargo check`, and the
//! `.stderr` snapshot beside it records the exact message users see. The first line of each
//! error should name the shapes involved. (The few checks that only `cargo build` sees, being
//! evaluated after monomorphisation, are in `mono/`, a crate of their own.)
//!
//! Each file in `pass/` proves that something must compile (and run), with the result types
//! written out so that a change to the shape rules shows up here. Those are modules of the test
//! binary `pass` (`pass.rs`, one test per file, run by `cargo test`): with a pass case, trybuild
//! builds every case alone with full code generation instead of one `cargo check` of all.
//!
//! After a deliberate change to a message, regenerate the snapshots with
//! `TRYBUILD=overwrite cargo test -p shaped-ui-tests --test ui`, then review every changed `.stderr` for
//! readability before committing it.

mod flags;

#[test]
fn ui() {
    flags::one_set_of_rustflags();
    let t = trybuild::TestCases::new();
    t.compile_fail("fail/*.rs");
}
