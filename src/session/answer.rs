//! Answers: the tuples of a query or relation with names from the maps,
//! cut at a row limit, and rendered as a table.

use crate::bdd::decode::for_each_tuple;
use crate::datalog::program::RelId;
use crate::datalog::solver::Solver;
use num_bigint::BigUint;
use std::io::{self, Write};
use std::ops::ControlFlow;
use tabled::builder::Builder;
use tabled::settings::Style;

/// Relations up to this many tuples are shown sorted; larger ones in BDD
/// order, so that showing the first rows never enumerates them all.
const SORT_LIMIT: u64 = 1_000_000;

/// The answer to a query, or the contents of a relation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// What was asked (`vP(v, h)?`) or the relation's name.
    pub title: String,
    /// Column names: the query's variables or the relation's attributes.
    pub columns: Vec<String>,
    /// The rows shown, names from the maps (numbers where there is none).
    pub rows: Vec<Vec<String>>,
    /// The exact number of tuples.
    pub total: BigUint,
}

impl Answer {
    /// The first `limit` tuples of `rel` (sorted by element number).
    pub fn of_relation(solver: &Solver, rel: RelId, title: String, limit: usize) -> Answer {
        let total = solver.count(rel);
        let r = &solver.prog.relations[rel];
        let columns: Vec<String> = r.attrs.iter().map(|a| a.name.clone()).collect();
        let blocks = solver.blocks(rel);
        let bdd = &solver.rels[rel];
        let mut ids: Vec<Vec<u64>> = Vec::new();
        if total <= BigUint::from(SORT_LIMIT) {
            let _ = for_each_tuple(bdd, &blocks, |t| {
                ids.push(t.to_vec());
                ControlFlow::Continue(())
            });
            ids.sort_unstable();
            ids.truncate(limit);
        } else {
            let _ = for_each_tuple(bdd, &blocks, |t| {
                if ids.len() >= limit {
                    return ControlFlow::Break(());
                }
                ids.push(t.to_vec());
                ControlFlow::Continue(())
            });
        }
        let maps = solver.attr_maps(rel);
        let rows = ids
            .iter()
            .map(|t| {
                t.iter()
                    .zip(&maps)
                    .map(|(v, m)| {
                        m.and_then(|m| m.name(*v))
                            .map_or_else(|| v.to_string(), str::to_string)
                    })
                    .collect()
            })
            .collect();
        Answer {
            title,
            columns,
            rows,
            total,
        }
    }

    /// Prints the answer: a table of the rows shown, a note of the rows
    /// left out, and the tuple count. A query without variables prints
    /// `yes` or `no`.
    pub fn render(&self, out: &mut dyn Write) -> io::Result<()> {
        let plural = |n: &BigUint| if *n == BigUint::from(1u32) { "" } else { "s" };
        if self.columns.is_empty() {
            let yes = self.total > BigUint::from(0u32);
            return writeln!(out, "{}", if yes { "yes" } else { "no" });
        }
        if !self.rows.is_empty() {
            let mut b = Builder::default();
            b.push_record(self.columns.iter().cloned());
            for r in &self.rows {
                b.push_record(r.iter().cloned());
            }
            let mut table = b.build();
            table.with(Style::psql());
            for line in table.to_string().lines() {
                writeln!(out, "{}", line.trim_end())?;
            }
        }
        let shown = BigUint::from(self.rows.len());
        if shown < self.total {
            let left = &self.total - &shown;
            writeln!(
                out,
                "... {left} more row{} (.limit N to show more, .limit 0 for all)",
                plural(&left)
            )?;
        }
        writeln!(out, "{} tuple{}", self.total, plural(&self.total))
    }
}
