//! Phase 3 of planning: static groups. Negations and comparisons that
//! only touch one non-recursive subgoal (plus free variables) are folded
//! into it once per stratum, instead of filtering large results in every
//! iteration. So are the negations touching a non-recursive subgoal that
//! shares no variable with any other: joined first, it would be a cross
//! product that only the negations cut down.

use super::normalize::UnionFind;
use super::{AtomPlan, CmpPlan, Factor};
use crate::datalog::program::VarId;

/// The join units of a rule: one factor per positive subgoal, with the
/// filters folded into it. Returns them with the negations and
/// comparisons left free (applied in each variant's joins).
pub(super) fn group(
    atoms: &[AtomPlan],
    negs: &[AtomPlan],
    cmps: &[CmpPlan],
) -> (Vec<Factor>, Vec<usize>, Vec<usize>) {
    let mut factors: Vec<Factor> = atoms
        .iter()
        .enumerate()
        .map(|(i, a)| Factor {
            atom: i,
            negs: vec![],
            cmps: vec![],
            extra_range: None,
            vars: a.vars.clone(),
            in_place: None,
        })
        .collect();
    let mut free_negs: Vec<usize> = (0..negs.len()).collect();
    let mut free_cmps: Vec<usize> = (0..cmps.len()).collect();
    fold_connected(
        atoms,
        negs,
        cmps,
        &mut factors,
        &mut free_negs,
        &mut free_cmps,
    );
    fold_into_unjoined(atoms, negs, &mut factors, &mut free_negs);
    (factors, free_negs, free_cmps)
}

/// Folds into each non-recursive subgoal the negations and comparisons
/// that are connected to it, by shared variables, and to no other
/// positive subgoal.
fn fold_connected(
    atoms: &[AtomPlan],
    negs: &[AtomPlan],
    cmps: &[CmpPlan],
    factors: &mut [Factor],
    free_negs: &mut Vec<usize>,
    free_cmps: &mut Vec<usize>,
) {
    // Connected components over literals linked by shared variables:
    // positive subgoals, then negations, then comparisons.
    let n_atoms = atoms.len();
    let total = n_atoms + negs.len() + cmps.len();
    let vars_of = |i: usize| -> &[VarId] {
        if i < n_atoms {
            &atoms[i].vars
        } else if i < n_atoms + negs.len() {
            &negs[i - n_atoms].vars
        } else {
            &cmps[i - n_atoms - negs.len()].vars
        }
    };
    let mut comp = UnionFind::new(total);
    for i in 0..total {
        for j in (i + 1)..total {
            if vars_of(i).iter().any(|v| vars_of(j).contains(v)) {
                comp.union(i, j);
            }
        }
    }
    for (ai, atom) in atoms.iter().enumerate() {
        if atom.dynamic {
            continue;
        }
        let c = comp.find(ai);
        let positives = (0..n_atoms).filter(|&j| comp.find(j) == c).count();
        if positives != 1 {
            continue;
        }
        let f = &mut factors[ai];
        free_negs.retain(|&ni| {
            if comp.find(n_atoms + ni) == c {
                f.negs.push(ni);
                f.add_vars(&negs[ni].vars);
                false
            } else {
                true
            }
        });
        free_cmps.retain(|&ci| {
            if comp.find(n_atoms + negs.len() + ci) == c {
                f.cmps.push(ci);
                f.add_vars(&cmps[ci].vars);
                false
            } else {
                true
            }
        });
    }
}

/// Folds into a non-recursive subgoal that shares no variable with any
/// other subgoal the negations that touch it. Such a subgoal meets the
/// rest of the rule only through those negations, so joining it first is
/// a cross product that the negations then cut down. In c_pa's
/// `mergePointsTo(o, p1, o_h, p_h) :- pointsTo(o, p2, o_h, p_h),
/// !remainingFields(p1, p2), !remainingFields(p2, p1),
/// canonicalPath(p1, _)` every iteration's new `pointsTo` tuples met every
/// canonical path and two subtractions (8.0 s of an 11 s run); folded,
/// the static group over `p1` and `p2` is built once and each iteration
/// is one relational product.
fn fold_into_unjoined(
    atoms: &[AtomPlan],
    negs: &[AtomPlan],
    factors: &mut [Factor],
    free_negs: &mut Vec<usize>,
) {
    for (ai, atom) in atoms.iter().enumerate() {
        let joined = (atoms.iter().enumerate())
            .any(|(j, b)| j != ai && b.vars.iter().any(|v| atom.vars.contains(v)));
        if atom.dynamic || joined {
            continue;
        }
        let f = &mut factors[ai];
        free_negs.retain(|&ni| {
            if !negs[ni].vars.iter().any(|v| atom.vars.contains(v)) {
                return true;
            }
            f.negs.push(ni);
            f.add_vars(&negs[ni].vars);
            false
        });
    }
}
