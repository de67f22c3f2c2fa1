//! The analyses: points-to analysis with an on-the-fly call graph and
//! reflection resolution, run as Datalog over the facts, and what is read
//! back from their results.
//!
//! - [`variant`]: the five versions and their rule files;
//! - [`context`]: the context kinds of the points-to analysis;
//! - [`spec`]: user specifications of reflective targets;
//! - [`driver`]: facts → engine → database;
//! - [`results`]: reflective sites and their targets, read from a
//!   database; [`report`] and [`export`] print them;
//! - [`trace`] and [`check`]: dynamic traces of real runs, and the
//!   results measured against them (`refract check`);
//! - [`callgraph`]: the call graph as TSV, DOT, SVG or a page, filtered.

pub mod assume;
pub mod callgraph;
pub mod check;
pub mod context;
pub mod driver;
pub mod export;
pub mod report;
pub mod results;
pub mod spec;
pub mod trace;
pub mod variant;

pub use assume::Assume;
pub use context::{Context, ContextScope};
pub use variant::Variant;
