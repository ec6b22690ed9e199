//! Topic `pretrained` of the test binary `training`: pretrained models against their reference implementations
//! (all-MiniLM-L6-v2, a BERT, against sentence-transformers), and the checkpoint loader's errors.
//!
//! Each module is one file of tests/, included unchanged (a test is named `pretrained::<file>::<test>`).
// Each file keeps its own `mod common;` (tests/common/mod.rs), as when it was a binary alone.
#![allow(clippy::duplicate_mod)]

// Loads `.safetensors` checkpoints.
#[cfg(feature = "safetensors")]
#[path = "../bert_minilm.rs"]
mod bert_minilm;
