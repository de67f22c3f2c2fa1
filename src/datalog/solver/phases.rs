//! A recursive stratum evaluated in two phases.
//!
//! Some relations of a stratum feed back into the rest only rarely, but
//! cost a lot to keep up to date while the rest grows. In the `casts`
//! variant of the reflection analysis, the provenance of class names
//! (which variables lead to a `Class.forName` argument, through calls,
//! fields and string builders) is recursive with the points-to analysis
//! only because a name read from outside makes its `forName` site
//! unresolved, and an unresolved site returns the unknown Class object
//! whose casts create objects. Evaluated together, every inner step of
//! the points-to analysis also extends the provenance; evaluated after
//! it, the provenance is computed once over the finished points-to sets
//! (as in the other variants, where it is a stratum of its own).
//!
//! The caller names such relations ([`Solver::defer`]). Their stratum is
//! then split by the heads of its rules: the other relations first, the
//! deferred ones second, each phase reading the other's relations as
//! given. The phases alternate until neither derives anything the other
//! reads. A phase entered again resumes its semi-naive iteration from
//! what its relations gained since its last run (the snapshot taken
//! then). The stratum has no negation inside it, so the alternation
//! reaches the same least fixpoint as the stratum evaluated whole.

use super::{Solver, Stratum};
use crate::datalog::error::Result;
use crate::datalog::program::{Literal, RelId};
use biodivine_lib_bdd::Bdd;
use std::collections::HashMap;

impl Solver {
    /// Makes the recursive strata holding the given relations and others
    /// run in two phases, these second (see the module documentation).
    /// The fixpoint is the same; only the order of the work changes.
    pub fn defer(&mut self, relations: impl IntoIterator<Item = RelId>) {
        self.deferred.extend(relations);
    }

    /// Whether `stratum` runs in phases: it is recursive and holds both
    /// deferred relations and others.
    pub(super) fn splits(&self, stratum: &Stratum) -> bool {
        let deferred = |r: &RelId| self.deferred.contains(r);
        stratum.recursive
            && stratum.relations.iter().any(deferred)
            && !stratum.relations.iter().all(deferred)
    }

    /// Evaluates `stratum` in its two phases, alternating until neither
    /// derives anything the other reads; returns the iterations of all
    /// the phases' runs.
    pub(super) fn solve_phased(&mut self, stratum: &Stratum) -> Result<u64> {
        let phases = [self.phase(stratum, false), self.phase(stratum, true)];
        let mut snapshots: [Option<HashMap<RelId, Bdd>>; 2] = [None, None];
        let mut pending = [true, true];
        let mut iterations = 0;
        while pending.contains(&true) {
            for p in 0..2 {
                if !pending[p] {
                    continue;
                }
                pending[p] = false;
                let (iters, grown) = self.solve_stratum(&phases[p], snapshots[p].as_ref())?;
                iterations += iters;
                snapshots[p] = Some(
                    phases[p]
                        .relations
                        .iter()
                        .map(|&r| (r, self.rels[r].clone()))
                        .collect(),
                );
                let other = &phases[1 - p];
                if grown
                    .iter()
                    .any(|r| other.relations.contains(r) && !other.rules.is_empty())
                {
                    pending[1 - p] = true;
                }
            }
        }
        Ok(iterations)
    }

    /// The phase of `stratum` whose rules define deferred relations (or
    /// the others): those rules, over their heads and every relation of
    /// the stratum they read, which the phase takes as given but whose
    /// gains it joins as new tuples.
    fn phase(&self, stratum: &Stratum, deferred: bool) -> Stratum {
        let rules: Vec<usize> = stratum
            .rules
            .iter()
            .copied()
            .filter(|&r| self.deferred.contains(&self.prog.rules[r].head.rel) == deferred)
            .collect();
        let mut relations: Vec<RelId> = Vec::new();
        for &r in &rules {
            let rule = &self.prog.rules[r];
            let read = rule.body.iter().filter_map(|l| match l {
                Literal::Pos(a) | Literal::Neg(a) => Some(a.rel),
                Literal::Cmp { .. } => None,
            });
            for rel in std::iter::once(rule.head.rel).chain(read) {
                if stratum.relations.contains(&rel) && !relations.contains(&rel) {
                    relations.push(rel);
                }
            }
        }
        // The phase's own relations that no rule of it reads still belong
        // to it (they are merged with the rest).
        for &rel in &stratum.relations {
            if self.deferred.contains(&rel) == deferred && !relations.contains(&rel) {
                relations.push(rel);
            }
        }
        Stratum {
            relations,
            rules,
            recursive: true,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::datalog::parser::parse_str;
    use crate::datalog::resolve::resolve;
    use crate::datalog::solver::Solver;
    use std::path::Path;

    /// Two mutually recursive closures, solved whole and in phases.
    #[test]
    fn phases_reach_the_same_fixpoint() {
        let text = "\
N 64
edge (a:N0, b:N1)
path (a:N0, b:N1)
mark (a:N0)
reached (a:N0)
edge(0, 1).
edge(1, 2).
edge(2, 3).
edge(3, 4).
edge(4, 5).
edge(5, 6).
edge(6, 7).
edge(10, 11).
edge(11, 12).
edge(20, 21).
path(a, b) :- edge(a, b), reached(a).
path(a, c) :- path(a, b), edge(b, c).
reached(0).
reached(b) :- mark(b).
mark(b) :- path(_, b), b < 7.
mark(11) :- mark(6).
";
        let solve = |defer: bool| {
            let parsed = parse_str(text, "t.dl", Path::new(".")).expect("parses");
            let prog = resolve(&parsed).expect("resolves");
            let mut solver = Solver::new(prog).expect("lays out");
            if defer {
                let mark = solver.prog.relation_id("mark").expect("declared");
                solver.defer([mark]);
            }
            solver.solve().expect("solves");
            ["path", "mark", "reached"].map(|name| {
                let rel = solver.prog.relation_id(name).expect("declared");
                solver.count(rel)
            })
        };
        let whole = solve(false);
        assert_eq!(whole, solve(true));
        // path from 0..=6 to everything after, plus 11 -> 12.
        assert_eq!(whole[0], (28u32 + 1).into());
        assert_eq!(whole[1], 7u32.into());
    }
}
