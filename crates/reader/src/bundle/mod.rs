//! The on-disk bundle format ([`format`]), its writer (compiler side) and its memory-mapped reader (reader side).
//! The format is the project's only stability boundary.

pub mod format;
pub mod reader;
pub mod writer;

pub use format::BundleError;
pub use reader::Bundle;
pub use writer::{BundleWriter, Frame};
