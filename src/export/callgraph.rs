//! The call graph of an analysed database: every edge from a reachable
//! call site to a method it may run, with reflective edges (those the
//! reflection analysis resolved, relation `IEr`) marked.
//!
//! TSV: `caller  invoke  callee  kind`, where kind is `call` or
//! `reflective`, one line per (site, target). DOT: one edge per
//! (caller, callee) pair, reflective edges dashed and red. Lines follow
//! the ids: callers in class-path order, sites in bytecode order.

use super::relation::json_string;
use crate::bdd::decode::for_each_tuple;
use crate::session::{Session, SessionError};
use std::io::{self, Write};
use std::ops::ControlFlow;

/// A call graph format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum GraphFormat {
    /// One line per (site, target).
    Tsv,
    /// Graphviz.
    Dot,
}

/// The rules deriving the edges from the stored relations.
const EDGES: &str = r#"
cgSite (caller:M, invoke:I, callee:M)
cgSiteReflective (caller:M, invoke:I, callee:M)
cgEdge (caller:M, callee:M)
cgEdgeReflective (caller:M, callee:M)
cgSite(a, i, b) :- mI(a, i, _), IE(i, b).
cgSiteReflective(a, i, b) :- mI(a, i, _), IEr(i, b).
cgEdge(a, b) :- cgSite(a, _, b).
cgEdgeReflective(a, b) :- cgSiteReflective(a, _, b).
"#;

/// Why the call graph cannot be exported.
#[derive(Debug, thiserror::Error)]
pub enum CallGraphError {
    /// The database holds no call graph.
    #[error("the database has no call graph (relation {0}): run `refract analyze` to make one")]
    NotAnalysed(&'static str),
    /// Deriving the edges failed.
    #[error(transparent)]
    Session(#[from] SessionError),
    /// Writing failed.
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// Writes the call graph; returns the number of edges written.
pub fn write_callgraph(
    session: &mut Session,
    format: GraphFormat,
    out: &mut dyn Write,
) -> Result<u64, CallGraphError> {
    for r in ["IE", "IEr", "mI"] {
        if !session.db.has(r) {
            return Err(CallGraphError::NotAnalysed(r));
        }
    }
    session.execute_text(EDGES, "<callgraph rules>", 1, 0)?;
    let solver = &session.db.solver;
    let rel = |n: &str| solver.prog.relation_id(n).expect("declared above");
    let name = |d: usize, v: u64| -> String {
        solver.prog.domains[d]
            .names
            .as_ref()
            .and_then(|m| m.name(v).map(str::to_string))
            .unwrap_or_else(|| v.to_string())
    };
    let mut n = 0u64;
    // Each kind's tuples in the order of the ids: callers as the class
    // path lists them, sites in bytecode order. (A walk of the BDD follows
    // its variable order, which interleaves caller and callee bits.)
    let lines = |r: &str, line: &dyn Fn(&[String]) -> String| -> Vec<String> {
        let id = rel(r);
        let doms: Vec<usize> = solver.prog.relations[id]
            .attrs
            .iter()
            .map(|a| a.domain)
            .collect();
        let mut tuples: Vec<Vec<u64>> = Vec::new();
        let _ = for_each_tuple(&solver.rels[id], &solver.blocks(id), |t| {
            tuples.push(t.to_vec());
            ControlFlow::Continue(())
        });
        tuples.sort_unstable();
        tuples
            .iter()
            .map(|t| {
                let names: Vec<String> = t.iter().zip(&doms).map(|(&x, &d)| name(d, x)).collect();
                line(&names)
            })
            .collect()
    };
    match format {
        GraphFormat::Tsv => {
            for (r, kind) in [("cgSite", "call"), ("cgSiteReflective", "reflective")] {
                for l in lines(r, &|t| format!("{}\t{}\t{}\t{kind}", t[0], t[1], t[2])) {
                    writeln!(out, "{l}")?;
                    n += 1;
                }
            }
        }
        GraphFormat::Dot => {
            writeln!(out, "digraph callgraph {{")?;
            writeln!(out, "  node [shape=box, fontname=\"monospace\"];")?;
            for (r, attrs) in [
                ("cgEdge", ""),
                (
                    "cgEdgeReflective",
                    " [style=dashed, color=red, label=\"reflection\"]",
                ),
            ] {
                let edge = |t: &[String]| {
                    format!("  {} -> {}{attrs};", json_string(&t[0]), json_string(&t[1]))
                };
                for l in lines(r, &edge) {
                    writeln!(out, "{l}")?;
                    n += 1;
                }
            }
        }
    }
    if format == GraphFormat::Dot {
        writeln!(out, "}}")?;
    }
    Ok(n)
}
