//! bddbddb's Datalog: parsing, checking, stratification, planning and
//! semi-naive evaluation over BDD relations.
//!
//! - [`lexer`] and [`parser`]: text into [`ast`] statements;
//! - [`resolve`]: names and types checked into a [`program::Program`];
//! - [`stratify`]: evaluation order, negation checked;
//! - [`views`]: rules that only copy a stored relation into another
//!   layout, taken out to be built from the stored rows;
//! - [`numbering`]: `number` rules, the paths of a graph numbered as
//!   contexts (Whaley and Lam's cloning);
//! - [`planner`]: each rule compiled into joins, projections and renames;
//! - [`solver`]: semi-naive evaluation with an old/delta/full split;
//! - [`observer`]: what a solve reports as it goes (strata, iterations).

pub mod ast;
pub mod constants;
pub mod error;
pub mod explain_plan;
pub mod lexer;
pub mod numbering;
pub mod observer;
pub mod parser;
pub mod planner;
pub mod program;
pub mod quote;
pub mod relation_io;
pub mod resolve;
pub mod solver;
pub mod stratify;
pub mod views;

pub use error::{Error, ErrorKind, Loc, Result};

/// Runs the front end of the language on arbitrary bytes: lexing,
/// parsing, name resolution, stratification and layout (the solver is
/// built but not run). The entry point of the `.dl` fuzz target. Errors
/// are expected; panics and hangs are bugs. `.include` and map files are
/// looked up in a directory that does not exist.
pub fn fuzz_one(bytes: &[u8]) {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    let dir = std::path::Path::new("/nonexistent/refract-fuzz");
    let Ok(parsed) = parser::parse_str(text, "fuzz.dl", dir) else {
        return;
    };
    let _ = constants::collect(&parsed);
    if let Ok(prog) = resolve::resolve(&parsed) {
        let _ = solver::Solver::new(prog);
    }
}
