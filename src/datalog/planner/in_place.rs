//! Phase 6 of planning: static subgoals read in place. A subgoal over a
//! complete relation whose only preparation would be fixing the bits of
//! its constants and projecting its wildcards (`actualOfI(i, 1, a)`,
//! `formalOfM(m, _, p)`) is joined with the relation as it stands: the
//! join projects the wildcards' bits and the constants' bits, the latter
//! fixed to the constants' values ([`crate::bdd::VarSet::fix`]: the
//! product takes only their branch), in the same pass. Neither are bits
//! any variable of the rule lives in.
//!
//! Prepared instead, such a subgoal is rebuilt whole once per solve:
//! projecting the argument position of `formalOfM` (1.1 million nodes)
//! took 1.06 s of the quick start's static parts, restricting
//! `actualOfI` (9.4 million nodes) to one position 0.74 s and 0.97 s,
//! while the joins that read them meet a few hundred sites. Read in place,
//! a join visits only the paths that agree with what is bound.
//!
//! A subgoal stays prepared where the join would visit more than its
//! prepared copy: where it is the first join of a variant (nothing is
//! bound, so the join is the preparation, and the prepared copy is shared
//! between rules), where it shares no variable with what is bound (a
//! cross product, which would visit the whole restricted relation in
//! every evaluation), and where a projected bit lies above every bit of
//! the variables bound before it in the variable order (the join would
//! then unite the relation's branches above the bound values, for every
//! evaluation).

use super::{AtomPlan, Factor, Step, Variant};
use crate::bdd::{BddVariable, InstanceId, Layout};
use crate::datalog::program::VarId;
use std::collections::HashSet;

/// Marks the factors read in place (`Factor::in_place`) and adds the bits
/// they drop to the projections of their joins.
pub(super) fn read_in_place(
    layout: &Layout,
    homes: &[Option<InstanceId>],
    atoms: &[AtomPlan],
    factors: &mut [Factor],
    variants: &mut [Variant],
) {
    let mut taken: HashSet<BddVariable> = (homes.iter().flatten())
        .flat_map(|&h| layout.instance(h).vars.iter().copied())
        .collect();
    let home_top = |v: VarId| -> Option<usize> {
        let h = homes.get(v).copied().flatten()?;
        layout.instance(h).vars.iter().map(|b| b.to_index()).min()
    };
    for f in 0..factors.len() {
        let a = &atoms[factors[f].atom];
        let plain = factors[f].negs.is_empty()
            && factors[f].cmps.is_empty()
            && factors[f].extra_range.is_none();
        if a.dynamic || !plain || !a.rename.is_empty() || a.equal.is_some() {
            continue;
        }
        let mut drop = a.quantify.clone();
        for &(v, value) in &a.restrict {
            drop.fix(v, value);
        }
        if drop.is_empty() || drop.iter().any(|b| taken.contains(&b)) {
            continue;
        }
        let top_projected = a.quantify.iter().map(|b| b.to_index()).min();
        let fits = variants.iter().all(|variant| {
            let Some(bound) = bound_before(variant, factors, f) else {
                return false;
            };
            let mut joined = (factors[f].vars.iter())
                .filter(|v| bound.contains(v))
                .filter_map(|&v| home_top(v));
            match top_projected {
                Some(top) => joined.any(|b| b < top),
                None => joined.next().is_some(),
            }
        });
        if !fits {
            continue;
        }
        taken.extend(drop.iter());
        for variant in variants.iter_mut() {
            for step in &mut variant.steps {
                if let Step::Join {
                    factor, quantify, ..
                } = step
                {
                    if *factor == f {
                        quantify.union_with(&drop);
                    }
                }
            }
        }
        factors[f].in_place = Some(super::InPlace { drop });
    }
}

/// The variables bound by the joins before factor `f`'s in `variant`, or
/// `None` where `f` is joined first (or not at all).
fn bound_before(variant: &Variant, factors: &[Factor], f: usize) -> Option<HashSet<VarId>> {
    let mut bound = HashSet::new();
    let mut first = true;
    for step in &variant.steps {
        let Step::Join { factor, .. } = step else {
            continue;
        };
        if *factor == f {
            return (!first).then_some(bound);
        }
        first = false;
        bound.extend(factors[*factor].vars.iter().copied());
    }
    None
}
