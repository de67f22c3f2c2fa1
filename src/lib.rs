//! refract: a BDD-backed relational program database for Java.
//!
//! Data flows through the modules in this order:
//!
//! - [`classpath`], [`classfile`]: jars, jmods and directories to parsed
//!   class files (our own bytecode decoder);
//! - [`ir`]: method bodies lowered to a small three-address form;
//! - [`models`]: the JDK's natives and collections, modelled on the IR
//!   (the other models are Datalog, in `queries/models/`);
//! - [`facts`]: the IR as relations over program domains (V, H, I, M, ...);
//! - [`bdd`]: relations as binary decision diagrams over domain instances;
//! - [`datalog`]: bddbddb's Datalog language, parsed, checked, stratified
//!   and evaluated semi-naively over BDD relations;
//! - [`analysis`]: the points-to and reflection analyses of `queries/`,
//!   run over the facts, with their report and exports;
//! - [`database`]: the database directory (maps, relations, manifest),
//!   written atomically and opened lazily;
//! - [`session`], [`shell`]: incremental queries over a database, in the
//!   interactive shell or as batch scripts;
//! - [`export`]: relations as TSV, CSV or JSON (the call graph's export,
//!   DOT, SVG and HTML included, is in [`analysis`]);
//! - [`io`]: the file formats relations are read from and written to
//!   (`.bdd`, `.tuples`, map files, Soufflé-style TSV);
//! - [`interrupt`]: Ctrl-C and the memory budget, polled by long work;
//! - [`trace`]: where the time goes, on stderr (`--trace`).

#![warn(missing_docs)]

pub mod analysis;
pub mod bdd;
pub mod classfile;
pub mod classpath;
pub mod database;
pub mod datalog;
pub mod export;
pub mod facts;
pub mod interrupt;
pub mod io;
pub mod ir;
pub mod models;
pub mod session;
pub mod shell;
pub mod trace;
