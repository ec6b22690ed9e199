//! Topic `indexing` of the test binary `tensors`: views, `t!` slicing and advanced indexing, reshapes, joins, selection by
//! index tensors and masks, scatter/index accumulation.
//!
//! Each module is one file of tests/, included unchanged (a test is named `indexing::<file>::<test>`).
// Each file keeps its own `mod common;` (tests/common/mod.rs), as when it was a binary alone.
#![allow(clippy::duplicate_mod)]

#[path = "../accumulate.rs"]
mod accumulate;
#[path = "../advanced.rs"]
mod advanced;
#[path = "../join.rs"]
mod join;
#[path = "../reshape_infer.rs"]
mod reshape_infer;
#[path = "../select.rs"]
mod select;
#[path = "../slicing.rs"]
mod slicing;
#[path = "../view_forms.rs"]
mod view_forms;
#[path = "../views.rs"]
mod views;
#[path = "../views_more.rs"]
mod views_more;
