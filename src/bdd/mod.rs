//! The BDD layer: relations as BDDs over blocks of variables.
//!
//! - [`layout`]: which BDD variable encodes which bit of which domain instance;
//! - [`arena`]: the one hash-consed node arena every operation builds its result in;
//! - [`apply`]: and, or, and-not and the relational product, sized to their work;
//! - [`tables`]: the computed and unique tables those operations consult;
//! - [`varset`]: sets of variables (what a product quantifies);
//! - [`partition`]: a relation cut into disjoint parts, for parallel joins;
//! - [`relprod`]: relational product and projection;
//! - [`rename`]: moving relations between domain instances;
//! - [`encode`] / [`decode`]: values and tuples into BDDs, and counts and tuples out;
//! - [`dump`]: BDDs to and from the node lists of dump files.

pub mod apply;
pub mod arena;
pub mod decode;
pub mod dump;
pub mod encode;
pub mod layout;
pub mod partition;
pub mod relprod;
pub mod rename;
pub(crate) mod tables;
pub mod varset;

pub use biodivine_lib_bdd::{Bdd, BddVariable};
