//! refract: a BDD-backed relational program database for Java.
//!
//! Data flows through the modules in this order:
//!
//! - [`bdd`]: relations as binary decision diagrams over domain instances;
//! - [`datalog`]: bddbddb's Datalog language, parsed, checked, stratified
//!   and evaluated semi-naively over BDD relations;
//! - [`io`]: the file formats relations are read from and written to
//!   (`.bdd`, `.tuples`, map files, Soufflé-style TSV).

pub mod analysis;
pub mod bdd;
pub mod classfile;
pub mod classpath;
pub mod database;
pub mod datalog;
pub mod export;
pub mod facts;
pub mod io;
pub mod ir;
pub mod session;
pub mod shell;
