//! bddbddb's Datalog: parsing, checking, stratification, planning and
//! semi-naive evaluation over BDD relations.
//!
//! - [`lexer`] and [`parser`]: text into [`ast`] statements;
//! - [`resolve`]: names and types checked into a [`program::Program`];
//! - [`stratify`]: evaluation order, negation checked;
//! - [`planner`]: each rule compiled into joins, projections and renames;
//! - [`solver`]: semi-naive evaluation with an old/delta/full split.

pub mod ast;
pub mod constants;
pub mod error;
pub mod lexer;
pub mod parser;
pub mod planner;
pub mod program;
pub mod relation_io;
pub mod resolve;
pub mod solver;
pub mod stratify;

pub use error::{Error, ErrorKind, Loc, Result};
