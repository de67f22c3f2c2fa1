//! The models of the JDK that run in the front end, on each method's IR.
//!
//! Most of what refract knows about the JDK's behaviour is Datalog, in
//! `queries/models/` (privileged actions, `String.valueOf`, `arraycopy`,
//! service loaders, proxies, method handles, ...), each file switched
//! off by `--no-model NAME`. The models here must rewrite bodies before
//! the facts are written, since they create variables, call sites and
//! objects that the BDD domains need before the rules run:
//!
//! - [`natives`]: bodies for the JDK natives that move objects or start
//!   code (`Object.clone`, `Thread.start0`), by the table
//!   `queries/models/natives.tsv`;
//! - [`containers`]: the JDK's collections, each object with its own
//!   contents, answered at each call site, by the table
//!   `queries/models/containers.tsv` ([`container_table`]).
//!
//! Each is switched off by `--no-model NAME` ([`FRONT_END_MODELS`]),
//! which builds the facts without it.

use thiserror::Error;

pub mod container_table;
pub mod containers;
pub mod natives;

/// The models of this layer that `--no-model` switches off, by name.
pub const FRONT_END_MODELS: [&str; 2] = ["containers", "natives"];

/// A row of a model's table that its parser cannot read, with its line.
#[derive(Debug, Error, PartialEq, Eq)]
#[error("{file}:{line}: {reason}")]
pub struct TableError {
    /// The table's file.
    pub file: String,
    /// The row's line, from 1.
    pub line: usize,
    /// What is wrong with it.
    pub reason: String,
}

/// Reads the rows of a model's table (`queries/models/*.tsv`): each
/// line's fields, split at tabs, without `#` comments and blank lines;
/// `row` takes them, and its `Err` becomes a [`TableError`] at the line.
pub fn read_rows(
    text: &str,
    file: &str,
    mut row: impl FnMut(&[&str]) -> Result<(), String>,
) -> Result<(), TableError> {
    for (k, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim_end();
        if line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        row(&fields).map_err(|reason| TableError {
            file: file.to_string(),
            line: k + 1,
            reason,
        })?;
    }
    Ok(())
}
