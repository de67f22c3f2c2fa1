//! Class files: structure (via jclassfile, after [`sanitize`]), names and
//! descriptors, and the bytecode of method bodies.

pub mod bytecode;
pub mod descriptor;
pub mod model;
pub mod sanitize;

pub use model::{read_class, ClassError, ClassInfo};
