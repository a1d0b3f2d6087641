//! The on-disk bundle format ([`format`]), its writer (compiler side) and its reader (reader side; positioned reads, no memory map).
//! The format is the project's only stability boundary.

mod decompress;
pub mod format;
mod keyed;
pub mod reader;
pub mod writer;

pub use format::BundleError;
pub use reader::Bundle;
pub use writer::{BundleWriter, Frame};

#[cfg(test)]
mod fuzz;
