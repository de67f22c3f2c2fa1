//! Phase 4 of planning: the join order of each variant. A variant joins
//! from its delta outwards, each time the factor that shares most bound
//! variables, applies each free filter as soon as its variables are
//! bound, and projects every variable as soon as nothing later needs it
//! (relational product).
//!
//! One exception to "as soon as": a negation that the delta alone makes
//! ready waits for the join with the static factor that follows it. A
//! negation is a pass over its whole operand, and the delta of a large
//! relation is large while the static subgoals next to it are usually its
//! guard: `elementNotClass(i) :- lookupElement(i, _, v), vP(v, c),
//! !isClassObject(c)` subtracted the class objects from each step's new
//! `vP` tuples to keep those of a few dozen variables: 2.2 s of the quick
//! start's main stratum (summed over both threads, 8,127 evaluations),
//! and after the change too little to be listed. The quick start's wall
//! time did not move beyond this machine's spread: 1.011 and 1.004 of
//! the time (user 0.975 and 0.979) in two alternating runs of two pairs,
//! 1.050 in bench-compare's (bench/RESULTS.md, thirty-third session).

use super::{AtomPlan, CmpPlan, Factor, Source, Step, Variant};
use crate::bdd::VarSet;
use crate::datalog::program::VarId;
use std::collections::HashSet;

/// What every variant of a rule is planned from.
pub(super) struct Units<'a> {
    /// The join units.
    pub factors: &'a [Factor],
    /// The negated subgoals.
    pub negs: &'a [AtomPlan],
    /// The comparisons.
    pub cmps: &'a [CmpPlan],
    /// The negations not folded into a factor.
    pub free_negs: &'a [usize],
    /// The comparisons not folded into a factor.
    pub free_cmps: &'a [usize],
    /// The head's variables.
    pub head_vars: &'a HashSet<VarId>,
    /// The BDD variables of the homes of some rule variables.
    pub home_bits: &'a dyn Fn(&[VarId]) -> VarSet,
    /// Whether each factor reads a relation of the stratum being evaluated.
    pub dynamic: &'a [bool],
}

/// Plans the variant whose factor `delta` reads the delta, the factors
/// `older` the old version, and the rest the full one.
pub(super) fn plan_variant(units: &Units, delta: Option<usize>, older: &[usize]) -> Variant {
    let mut plan = VariantPlan {
        units,
        remaining: (0..units.factors.len()).collect(),
        pend_negs: units.free_negs.to_vec(),
        pend_cmps: units.free_cmps.to_vec(),
        bound: HashSet::new(),
        live: HashSet::new(),
        steps: Vec::new(),
    };
    let mut next = delta;
    while !plan.remaining.is_empty() {
        let pick = next.take().unwrap_or_else(|| plan.best_connected());
        plan.join(pick, source_of(pick, delta, older));
    }
    plan.unbound_filters();
    plan.project_to_head();
    Variant {
        delta,
        steps: plan.steps,
    }
}

/// Which version factor `f` reads in the variant of `delta`.
fn source_of(f: usize, delta: Option<usize>, older: &[usize]) -> Source {
    if Some(f) == delta {
        Source::Delta
    } else if older.contains(&f) {
        Source::Old
    } else {
        Source::Full
    }
}

/// The state of a variant being planned.
struct VariantPlan<'a> {
    units: &'a Units<'a>,
    /// The factors not joined yet.
    remaining: Vec<usize>,
    /// The free negations not applied yet.
    pend_negs: Vec<usize>,
    /// The free comparisons not applied yet.
    pend_cmps: Vec<usize>,
    /// The variables some join has bound.
    bound: HashSet<VarId>,
    /// The variables of the current result.
    live: HashSet<VarId>,
    /// The operations so far.
    steps: Vec<Step>,
}

impl VariantPlan<'_> {
    /// The remaining factor sharing most bound variables (the first of
    /// equals).
    fn best_connected(&self) -> usize {
        *self
            .remaining
            .iter()
            .max_by_key(|&&f| {
                let vars = &self.units.factors[f].vars;
                let shared = vars.iter().filter(|v| self.bound.contains(v)).count();
                (shared, std::cmp::Reverse(f))
            })
            .expect("non-empty")
    }

    /// Whether the factor joined next is static and shares a variable
    /// with what is bound (the guard of a delta).
    fn static_guard_follows(&self) -> bool {
        if self.remaining.is_empty() {
            return false;
        }
        let next = self.best_connected();
        !self.units.dynamic[next]
            && (self.units.factors[next].vars.iter()).any(|v| self.bound.contains(v))
    }

    /// Joins factor `pick`, then applies the filters that became
    /// applicable, projecting what nothing after them needs.
    fn join(&mut self, pick: usize, source: Source) {
        let u = self.units;
        self.remaining.retain(|&f| f != pick);
        self.bound.extend(u.factors[pick].vars.iter().copied());
        self.live.extend(u.factors[pick].vars.iter().copied());
        let ready_negs = if source == Source::Delta && self.static_guard_follows() {
            Vec::new()
        } else {
            take_ready(&mut self.pend_negs, |n| &u.negs[n].vars, &self.bound)
        };
        let ready_cmps = take_ready(&mut self.pend_cmps, |c| &u.cmps[c].vars, &self.bound);
        let needed = self.needed_vars();
        let filter_vars: HashSet<VarId> = (ready_negs.iter())
            .flat_map(|&n| u.negs[n].vars.iter().copied())
            .chain(
                ready_cmps
                    .iter()
                    .flat_map(|&c| u.cmps[c].vars.iter().copied()),
            )
            .collect();
        let drop = self.take_live(|v| !needed.contains(v) && !filter_vars.contains(v));
        self.steps.push(Step::Join {
            factor: pick,
            source,
            quantify: (u.home_bits)(&drop),
        });
        self.steps.extend(ready_cmps.into_iter().map(Step::And));
        self.steps.extend(ready_negs.into_iter().map(Step::AndNot));
        let after = self.take_live(|v| !needed.contains(v));
        if !after.is_empty() {
            self.steps.push(Step::Exists((u.home_bits)(&after)));
        }
    }

    /// The filters left after every join: the comparisons that bind
    /// variables no subgoal binds, and the negations they make ready.
    fn unbound_filters(&mut self) {
        let u = self.units;
        while !self.pend_cmps.is_empty() || !self.pend_negs.is_empty() {
            let before = (self.pend_cmps.len(), self.pend_negs.len());
            for n in take_ready(&mut self.pend_negs, |n| &u.negs[n].vars, &self.bound) {
                self.steps.push(Step::AndNot(n));
            }
            if let Some(c) = self.pend_cmps.first().copied() {
                self.pend_cmps.remove(0);
                self.bound.extend(u.cmps[c].vars.iter().copied());
                self.live.extend(u.cmps[c].vars.iter().copied());
                self.steps.push(Step::And(c));
            }
            if (self.pend_cmps.len(), self.pend_negs.len()) == before {
                break; // unreachable for safe rules
            }
        }
    }

    /// Projects away the live variables that the head does not use.
    fn project_to_head(&mut self) {
        let head_vars = self.units.head_vars;
        let rest = self.take_live(|v| !head_vars.contains(v));
        if !rest.is_empty() {
            self.steps.push(Step::Exists((self.units.home_bits)(&rest)));
        }
    }

    /// Removes from the live variables those that `drop` selects, and
    /// returns them.
    fn take_live(&mut self, drop: impl Fn(&VarId) -> bool) -> Vec<VarId> {
        let taken: Vec<VarId> = self.live.iter().copied().filter(|v| drop(v)).collect();
        for v in &taken {
            self.live.remove(v);
        }
        taken
    }

    /// The variables that a later join, a pending filter or the head
    /// needs.
    fn needed_vars(&self) -> HashSet<VarId> {
        let u = self.units;
        let mut s: HashSet<VarId> = u.head_vars.clone();
        for &f in &self.remaining {
            s.extend(u.factors[f].vars.iter().copied());
        }
        for &n in &self.pend_negs {
            s.extend(u.negs[n].vars.iter().copied());
        }
        for &c in &self.pend_cmps {
            s.extend(u.cmps[c].vars.iter().copied());
        }
        s
    }
}

/// Takes out of `pending` the filters whose variables (`vars_of`) are all
/// bound, and returns them in their order.
fn take_ready<'a>(
    pending: &mut Vec<usize>,
    vars_of: impl Fn(usize) -> &'a [VarId],
    bound: &HashSet<VarId>,
) -> Vec<usize> {
    let (ready, rest): (Vec<usize>, Vec<usize>) = pending
        .iter()
        .partition(|&&f| vars_of(f).iter().all(|v| bound.contains(v)));
    *pending = rest;
    ready
}
