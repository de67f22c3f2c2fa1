//! The BDD layer: relations as BDDs over blocks of variables.
//!
//! Everything above this layer uses the API re-exported here, and names
//! neither biodivine-lib-bdd (whose [`Bdd`] is the representation at the
//! boundary) nor node pointers:
//!
//! | what | functions |
//! |---|---|
//! | layout | [`Layout`], [`LayoutBuilder`], [`parse_var_order`]: which variable encodes which bit of which domain instance |
//! | constants | [`mk_false`], [`mk_true`], [`value_bdd`], [`range_bdd`], [`interval_bdd`], [`less_than_bdd`], [`equal_bdd`], [`less_bdd`], [`offset_bdd`] |
//! | tuples in | [`relation_from_tuples`], [`from_bit_rows`] |
//! | product | [`relprod`], [`and_exists`], [`and_exists3`], [`exists`], [`and`] |
//! | union | [`or`], [`or_into`], [`or_owned`] |
//! | difference | [`and_not`], [`and_not_all`] |
//! | rename | [`rename`], [`rename_owned`], [`relayout`], [`preserves_order`] |
//! | count, iterate | [`count`], [`node_count`], [`for_each_tuple`], [`for_each_row`], [`sorted_tuples`] |
//! | save, load | [`dump_nodes`], [`from_dump_nodes`] (the node lists of dump files) |
//! | parallel joins | [`partition`] |
//!
//! The modules behind it:
//! - `layout`: domains and instances to BDD variables;
//! - `arena`: the one hash-consed node arena every operation builds its result in;
//! - `apply`: and, or, and-not and the relational product, sized to their work;
//! - `tables`: the computed and unique tables those operations consult;
//! - `varset`: sets of variables (what a product quantifies);
//! - `partition`: a relation cut into disjoint parts, for parallel joins;
//! - `rename`: moving relations between domain instances;
//! - `encode` / `decode`: values and tuples into BDDs, and counts and tuples out;
//! - `dump`: BDDs to and from the node lists of dump files.

mod apply;
mod arena;
mod decode;
mod dump;
mod encode;
mod layout;
mod partition;
mod rename;
mod tables;
mod varset;

pub use apply::{
    and, and_exists, and_exists3, and_exists_within, and_not, and_not_all, compact, exists,
    live_size, or, or_growing, or_into, or_owned, relprod, MergeTable,
};
pub use arena::{mk_false, mk_true, CollisionError};
pub use biodivine_lib_bdd::{Bdd, BddVariable};
pub use decode::{count, for_each_row, for_each_tuple, node_count, sorted_tuples, SORT_LIMIT};
pub use dump::{dump_nodes, from_dump_nodes, NodesError};
pub use encode::{
    equal_bdd, from_bit_rows, interval_bdd, less_bdd, less_than_bdd, offset_bdd, range_bdd,
    relation_from_tuples, value_bdd,
};
pub use layout::{
    bits_for, parse_var_order, DomainId, DomainSpec, Instance, InstanceId, Layout, LayoutBuilder,
    LayoutError, OrderGroup,
};
pub use partition::partition;
pub use rename::{preserves_order, relayout, rename, rename_owned};
pub use varset::{Projection, VarSet};
