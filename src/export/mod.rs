//! Exporting relations as text. Output is streamed from the BDDs, so
//! exporting millions of tuples takes little memory. (The call graph, which
//! reads the analysis's relations, is [`crate::analysis::callgraph`].)

pub mod relation;
