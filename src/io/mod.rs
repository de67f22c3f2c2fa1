//! File formats relations are read from and written to.
//!
//! - [`map`]: bddbddb map files (element names);
//! - [`javabdd`]: JavaBDD `.bdd` dumps with their `bddinfo`;
//! - [`tuples`]: bddbddb `.tuples` files;
//! - [`tsv`]: Soufflé-style `R.facts` in and `R.csv` out.

pub mod javabdd;
pub mod map;
pub mod tsv;
pub mod tuples;
