//! File formats relations are read from and written to.
//!
//! - [`map`]: bddbddb map files (element names);
//! - [`javabdd`]: JavaBDD `.bdd` dumps with their `bddinfo`;
//! - [`compact`]: the binary, compressed form of those dumps that databases
//!   store;
//! - [`tuples`]: bddbddb `.tuples` files;
//! - [`tsv`]: Soufflé-style `R.facts` in and `R.csv` out;
//! - [`text_file`]: text files, plain or zstd-compressed by name.

pub mod compact;
pub mod javabdd;
pub mod map;
pub mod text_file;
pub mod tsv;
pub mod tuples;
