//! The static part of each rule: its subgoals over relations that the
//! stratum does not derive, prepared once (restricted to their constants,
//! projected and renamed into the rule's variable homes), and a cache
//! that shares each prepared subgoal between the rules and strata of one
//! solve.
//!
//! Many rules read the same complete relation in the same shape:
//! `mI(m, i, _)` in six rules of the reflection models, `actualOfI(i, 0,
//! v)` in five, `formalOfM(m, 0, this)` in a dozen. Projecting `mI`'s
//! name, the top block of its variable order, rebuilds its 3.7 million
//! nodes, about 2.7 s each time; restricting `actualOfI` to one argument
//! position takes about 1 s. Prepared once per solve (and with
//! `applicationSite` in reflection.dl), the static parts of the
//! quick-start fixture against the whole JDK took 17.3 s of CPU time
//! instead of 40.5 s, and its peak memory fell from 8.3 GB to 5.6 GB
//! (bench/RESULTS.md, "Static subgoals prepared once").

use super::Solver;
use crate::bdd::{self, Bdd};
use crate::datalog::error::Result;
use crate::datalog::planner::{AtomPlan, RulePlan};
use crate::datalog::program::RelId;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

/// Subgoals of one rule prepared once per stratum.
pub(super) struct Prepared {
    /// Per factor: its BDD if static (dynamic ones are prepared per
    /// iteration).
    pub(super) factors: Vec<Option<Static>>,
    /// Negated subgoals.
    pub(super) negs: Vec<Static>,
}

/// A subgoal over a complete relation, as the joins read it.
pub(super) enum Static {
    /// Restricted to its constants, projected or renamed, once per solve
    /// (shared through [`PreparedAtoms`]).
    Prepared(Arc<Bdd>),
    /// The relation as it stands, read in place. Such subgoals were
    /// copies in the cache before: at the end of the quick start's solve
    /// (Invoke, casts, JDK 17), 71.6 million of the cache's 121.7 million
    /// nodes, about 860 MB.
    Relation(RelId),
}

impl Static {
    /// The subgoal's BDD, given the solver's relations.
    pub(super) fn bdd<'a>(&'a self, rels: &'a [Bdd]) -> &'a Bdd {
        match self {
            Static::Prepared(b) => b,
            Static::Relation(rel) => &rels[*rel],
        }
    }
}

/// What a prepared subgoal depends on besides its relation's contents:
/// the relation, the fixed bits of its constants, the bits projected away
/// and the renaming into the rule's homes (as variable indexes).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct AtomKey {
    rel: RelId,
    restrict: Vec<(usize, bool)>,
    quantify: Vec<usize>,
    rename: Vec<(usize, usize)>,
}

impl AtomKey {
    /// The key of a subgoal, or `None` for one with repeated variables
    /// (its equality constraint is not part of the key; such subgoals are
    /// rare and prepared each time).
    fn of(a: &AtomPlan) -> Option<AtomKey> {
        if a.equal.is_some() {
            return None;
        }
        Some(AtomKey {
            rel: a.rel,
            restrict: a.restrict.iter().map(|(v, b)| (v.to_index(), *b)).collect(),
            quantify: a.quantify.iter().map(|v| v.to_index()).collect(),
            rename: a
                .rename
                .iter()
                .map(|(f, t)| (f.to_index(), t.to_index()))
                .collect(),
        })
    }
}

/// Prepared subgoals over complete relations, shared for one solve.
///
/// A relation that a stratum reads without deriving it is complete: an
/// input, a relation of an earlier stratum, or one that an interactive
/// re-solve leaves as it stands. None of them changes until the solve
/// ends, so an entry stays valid until [`PreparedAtoms::clear`], which
/// every solve calls when it begins and ends; the solve drops it earlier,
/// by [`PreparedAtoms::forget`], once no stratum still to run reads its
/// relation. Each entry has its own lock:
/// two rules that need the same subgoal at once (strata and rules are
/// prepared in parallel) compute it once, and the second waits.
#[derive(Default)]
pub(super) struct PreparedAtoms {
    entries: Mutex<HashMap<AtomKey, Arc<Slot>>>,
}

/// One prepared subgoal: empty until its first user has computed it.
type Slot = Mutex<Option<Arc<Bdd>>>;

impl PreparedAtoms {
    /// Forgets every entry.
    pub(super) fn clear(&self) {
        self.entries
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
    }

    /// Forgets the entries of the relations for which `done` holds: those
    /// that no stratum still to run reads.
    pub(super) fn forget(&self, done: impl Fn(RelId) -> bool) {
        (self.entries.lock().unwrap_or_else(PoisonError::into_inner))
            .retain(|key, _| !done(key.rel));
    }

    /// What the cache holds: its entries and their nodes (for `--trace`).
    pub(super) fn footprint(&self) -> (usize, usize) {
        let entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        (entries.values())
            .filter_map(|slot| {
                slot.lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .as_ref()
                    .map(|b| b.size())
            })
            .fold((0, 0), |(n, nodes), size| (n + 1, nodes + size))
    }

    /// The prepared subgoal of `a`, computed by `prepare` on first use.
    fn get_or_prepare(
        &self,
        a: &AtomPlan,
        prepare: impl FnOnce() -> Result<Bdd>,
    ) -> Result<Arc<Bdd>> {
        let Some(key) = AtomKey::of(a) else {
            return prepare().map(Arc::new);
        };
        let slot = self
            .entries
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .entry(key)
            .or_default()
            .clone();
        let mut slot = slot.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(b) = &*slot {
            return Ok(b.clone());
        }
        let b = Arc::new(prepare()?);
        *slot = Some(b.clone());
        Ok(b)
    }
}

impl Solver {
    /// A complete relation's subgoal: the relation itself where it is
    /// read as it stands, else prepared once per solve.
    fn prepare_complete(&self, a: &AtomPlan) -> Result<Static> {
        if a.restrict.is_empty()
            && a.equal.is_none()
            && a.quantify.is_empty()
            && a.rename.is_empty()
        {
            return Ok(Static::Relation(a.rel));
        }
        let b = self.prepared_atoms.get_or_prepare(a, || {
            Ok(self.prepare_atom(a, &self.rels[a.rel])?.into_owned())
        })?;
        Ok(Static::Prepared(b))
    }

    /// Prepares a rule's static part: its negations, and each static
    /// factor with the comparisons and negations folded into it.
    pub(super) fn prepare_static(&self, p: &RulePlan) -> Result<Prepared> {
        let negs = p
            .negs
            .iter()
            .map(|n| self.prepare_complete(n))
            .collect::<Result<Vec<_>>>()?;
        let mut factors = Vec::new();
        for f in &p.factors {
            let a = &p.atoms[f.atom];
            if a.dynamic {
                factors.push(None);
                continue;
            }
            if f.in_place.is_some() {
                factors.push(Some(Static::Relation(a.rel)));
                continue;
            }
            let shared = self.prepare_complete(a)?;
            if super::tracing() && !a.rename.is_empty() {
                self.trace_renames(a, p);
            }
            if f.extra_range.is_none() && f.cmps.is_empty() && f.negs.is_empty() {
                factors.push(Some(shared));
                continue;
            }
            let mut b = Bdd::clone(shared.bdd(&self.rels));
            if let Some(r) = &f.extra_range {
                b = bdd::and(&b, r);
            }
            for &c in &f.cmps {
                b = bdd::and(&b, &p.cmps[c].bdd);
            }
            for &n in &f.negs {
                b = bdd::and_not(&b, negs[n].bdd(&self.rels));
            }
            factors.push(Some(Static::Prepared(Arc::new(b))));
        }
        Ok(Prepared { factors, negs })
    }

    /// Under `--trace`: the attributes a static subgoal moves to other
    /// homes, and the rule.
    fn trace_renames(&self, a: &AtomPlan, p: &RulePlan) {
        let moves: Vec<String> = self.prog.relations[a.rel]
            .attrs
            .iter()
            .filter_map(|at| {
                let id = self.layout.find_instance(at.domain, at.instance)?;
                let first = self.layout.instance(id).vars.first()?;
                let to = a.rename.iter().find(|(from, _)| from == first)?.1;
                let home = self
                    .layout
                    .instances()
                    .iter()
                    .find(|i| i.vars.first() == Some(&to))?;
                Some(format!(
                    "{}{} -> {}",
                    self.prog.domains[at.domain].name, at.instance, home.name
                ))
            })
            .collect();
        eprintln!(
            "[trace]     renames {} ({}) in {}",
            self.prog.relations[a.rel].name,
            moves.join(", "),
            self.prog.rules[p.rule].text
        );
    }
}
