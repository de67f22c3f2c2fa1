//! Exporting relations and the call graph as text. Output is streamed from
//! the BDDs, so exporting millions of tuples takes little memory.

pub mod callgraph;
pub mod relation;
