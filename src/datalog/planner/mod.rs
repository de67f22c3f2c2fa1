//! Rule compilation: a checked rule into a sequence of BDD operations,
//! in phases with plain data between them, as Soufflé lowers its AST
//! through transformations into RAM:
//!
//! 1. [`normalize`]: `x = y` unifies two variables; `x = c` substitutes a
//!    constant; a variable used once is a wildcard.
//! 2. [`homes`]: every variable gets one domain instance (its *home*)
//!    where it lives in intermediate results, chosen to avoid renames.
//! 3. [`groups`]: negations and comparisons that only touch one
//!    non-recursive subgoal are folded into it once per stratum (static
//!    groups).
//! 4. [`order`]: a recursive rule gets one variant per recursive subgoal:
//!    that subgoal reads the delta, earlier recursive subgoals read the old
//!    version, later ones the full version. Each variant joins from its delta
//!    outwards along shared variables and projects every variable as soon as
//!    nothing later needs it (relational product).
//! 5. [`lower`]: subgoals, comparisons and the head become BDDs and
//!    renames over the homes.
//! 6. [`in_place`]: static subgoals that only fix constants and project
//!    wildcards are read as their relations stand, their bits dropped by
//!    the joins themselves.
//!
//! `refract run --explain-plan` prints the result (`explain_plan.rs`).

mod groups;
mod homes;
mod in_place;
mod lower;
mod normalize;
mod order;

use super::program::{Literal, Program, RelId, VarId};
use crate::bdd::{Bdd, BddVariable, InstanceId, Layout, VarSet};
use normalize::var_of;
use std::collections::HashSet;

/// Which version of a relation a subgoal reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// Everything known.
    Full,
    /// Everything known before the last iteration's new tuples.
    Old,
    /// The last iteration's new tuples.
    Delta,
}

/// How to turn a relation's BDD into a subgoal over variable homes.
#[derive(Clone, Debug)]
pub struct AtomPlan {
    /// The relation read.
    pub rel: RelId,
    /// Whether the relation is defined in the stratum being evaluated.
    pub dynamic: bool,
    /// Constant arguments: fixed bits, then dropped.
    pub restrict: Vec<(BddVariable, bool)>,
    /// Repeated variables: equality between the attribute instances.
    pub equal: Option<Bdd>,
    /// Wildcards, unused variables and repeated copies, projected away.
    pub quantify: VarSet,
    /// Attribute instance bits to home bits.
    pub rename: Vec<(BddVariable, BddVariable)>,
    /// The variables the prepared subgoal ranges over.
    pub vars: Vec<VarId>,
}

/// A unit the joins combine: a subgoal, or a static group.
#[derive(Clone, Debug)]
pub struct Factor {
    /// The positive subgoal.
    pub atom: usize,
    /// Negations folded in (static groups only).
    pub negs: Vec<usize>,
    /// Comparisons folded in (static groups only).
    pub cmps: Vec<usize>,
    /// Variables the group adds beyond the subgoal's (ranged over their domain).
    pub extra_range: Option<Bdd>,
    /// The variables it ranges over.
    pub vars: Vec<VarId>,
    /// Set where the subgoal is read as its relation stands
    /// ([`in_place`]).
    pub in_place: Option<InPlace>,
}

/// A static subgoal read as its relation stands: what its joins fix and
/// drop instead of a prepared copy.
#[derive(Clone, Debug)]
pub struct InPlace {
    /// The bits of its wildcards and constants, which its joins project,
    /// the constants' fixed to their values.
    pub drop: VarSet,
}

impl Factor {
    /// Extends the variables the factor ranges over by those of a
    /// negation or comparison folded into it.
    fn add_vars(&mut self, vars: &[VarId]) {
        for v in vars {
            if !self.vars.contains(v) {
                self.vars.push(*v);
            }
        }
    }
}

/// A comparison, as a BDD over the homes of its variables.
#[derive(Clone, Debug)]
pub struct CmpPlan {
    /// The constraint (includes the domain range of each variable).
    pub bdd: Bdd,
    /// Its variables.
    pub vars: Vec<VarId>,
}

/// One operation of a variant.
#[derive(Clone, Debug)]
pub enum Step {
    /// `result = ∃q. result ∧ factor[source]`.
    Join {
        /// The factor.
        factor: usize,
        /// The relation version it reads (for dynamic factors).
        source: Source,
        /// Variables projected away in the same pass.
        quantify: VarSet,
    },
    /// `result = result ∧ ¬neg`.
    AndNot(usize),
    /// `result = result ∧ cmp`.
    And(usize),
    /// `result = ∃q. result`.
    Exists(VarSet),
}

/// The joins of one variant.
#[derive(Clone, Debug)]
pub struct Variant {
    /// The factor that reads the delta (none for a non-recursive rule).
    pub delta: Option<usize>,
    /// The operations.
    pub steps: Vec<Step>,
}

/// From the result over homes to the head relation.
#[derive(Clone, Debug)]
pub struct HeadPlan {
    /// Home bits to head attribute bits.
    pub rename: Vec<(BddVariable, BddVariable)>,
    /// What the renamed result is joined with, one after the other: the
    /// constants and wildcards' ranges as one BDD, then each equality of
    /// a repeated variable by itself. Two equalities of blocks that are
    /// not interleaved, nested in the order (`cvP(h, g, this, g, h)`,
    /// 2-object's `this`), make a BDD of 2^(2w) nodes for w-bit blocks
    /// when built as one: 53 s and 3 GB on serializer.jar alone, where
    /// joining them in turn with the result is quick.
    pub extra: Vec<Bdd>,
}

/// A compiled rule.
#[derive(Clone, Debug)]
pub struct RulePlan {
    /// The rule's index in the program.
    pub rule: usize,
    /// The head relation.
    pub head_rel: RelId,
    /// False when a constant equality can never hold, or a subgoal reads a
    /// relation known to be empty: the rule derives nothing.
    pub satisfiable: bool,
    /// Positive subgoals.
    pub atoms: Vec<AtomPlan>,
    /// Negated subgoals.
    pub negs: Vec<AtomPlan>,
    /// Comparisons.
    pub cmps: Vec<CmpPlan>,
    /// Join units.
    pub factors: Vec<Factor>,
    /// The variants (one if the rule is not recursive).
    pub variants: Vec<Variant>,
    /// The head.
    pub head: HeadPlan,
    /// Homes chosen for the variables (instance per variable, if used).
    pub homes: Vec<Option<InstanceId>>,
    /// What the homes cost in renames, as the home search weighs them: 0
    /// when nothing moves; per moved subgoal or head, its weight (higher
    /// for what each iteration reads again) for a relabelling that keeps
    /// the variable order, 40 times that for a reordering.
    pub rename_cost: u64,
}

impl RulePlan {
    /// Whether any factor reads a relation of the current stratum.
    pub fn is_recursive(&self) -> bool {
        self.variants.iter().any(|v| v.delta.is_some())
    }
}

/// Compiles rule `ri`; relations in `dynamic` are those of the stratum being
/// evaluated, those in `empty` relations of earlier strata known to be
/// empty (their negations are dropped, and a rule that reads one derives
/// nothing: [`normalize::without_empty`]), and those in `large` static
/// relations whose renamed copies would be large (the homes avoid
/// renaming them: [`homes::choose_homes`]).
pub fn plan_rule(
    prog: &Program,
    layout: &Layout,
    ri: usize,
    dynamic: &HashSet<RelId>,
    empty: &HashSet<RelId>,
    large: &HashSet<RelId>,
) -> RulePlan {
    let (norm, satisfiable) = normalize::normalize(&prog.rules[ri]);
    let (norm, fires) = normalize::without_empty(norm, empty);
    let satisfiable = satisfiable && fires;
    let (homes, rename_cost) = homes::choose_homes(prog, layout, &norm, dynamic, large);
    let uses = normalize::use_counts(&norm);
    let mut atoms = Vec::new();
    let mut negs = Vec::new();
    let mut cmps = Vec::new();
    for l in &norm.body {
        match l {
            Literal::Pos(a) => atoms.push(lower::plan_atom(
                prog, layout, a, &homes, &uses, dynamic, true,
            )),
            Literal::Neg(a) => negs.push(lower::plan_atom(
                prog, layout, a, &homes, &uses, dynamic, false,
            )),
            Literal::Cmp { op, lhs, rhs, .. } => cmps.push(lower::plan_cmp(
                prog,
                layout,
                &norm,
                (*op, *lhs, *rhs),
                &homes,
            )),
        }
    }
    let (mut factors, free_negs, free_cmps) = groups::group(&atoms, &negs, &cmps);
    lower::add_extra_ranges(prog, layout, &norm, &homes, &atoms, &mut factors);
    let head_vars: HashSet<VarId> = norm.head.args.iter().filter_map(var_of).collect();
    let home_bits = |vs: &[VarId]| lower::home_bits(layout, &homes, vs);
    let dynamic: Vec<bool> = factors.iter().map(|f| atoms[f.atom].dynamic).collect();
    let units = order::Units {
        factors: &factors,
        negs: &negs,
        cmps: &cmps,
        free_negs: &free_negs,
        free_cmps: &free_cmps,
        head_vars: &head_vars,
        home_bits: &home_bits,
        dynamic: &dynamic,
    };
    let dynamic_factors: Vec<usize> = (0..factors.len()).filter(|&f| dynamic[f]).collect();
    let mut variants: Vec<Variant> = if dynamic_factors.is_empty() {
        vec![order::plan_variant(&units, None, &[])]
    } else {
        (0..dynamic_factors.len())
            .map(|k| order::plan_variant(&units, Some(dynamic_factors[k]), &dynamic_factors[..k]))
            .collect()
    };
    in_place::read_in_place(layout, &homes, &atoms, &mut factors, &mut variants);
    let head = lower::plan_head(prog, layout, &norm.head, &homes);
    RulePlan {
        rule: ri,
        head_rel: norm.head.rel,
        satisfiable,
        atoms,
        negs,
        cmps,
        factors,
        variants,
        head,
        homes,
        rename_cost,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datalog::parser::parse_str;
    use crate::datalog::resolve::resolve;
    use crate::datalog::solver::Solver;
    use std::path::Path;

    /// A subgoal over a large static relation keeps its layout where the
    /// small subgoal and the head can move instead; a small one moves,
    /// as the cheaper single rename.
    #[test]
    fn large_static_relations_are_not_renamed_where_others_can_move() {
        let text = "V 16\nH 16\n\
                    big (v:V1, h:H0) input\n\
                    small (v:V0) input\n\
                    out (v:V0, h:H0) output\n\
                    out(v, h) :- small(v), big(v, h).\n";
        let prog = resolve(&parse_str(text, "homes.dl", Path::new(".")).unwrap()).unwrap();
        let solver = Solver::new(prog).unwrap();
        let (prog, layout) = (&solver.prog, &solver.layout);
        let big = prog.relation_id("big").unwrap();
        let none = HashSet::new();
        let renamed = |large: &HashSet<RelId>| -> Vec<(String, bool)> {
            let plan = plan_rule(prog, layout, 0, &none, &none, large);
            (plan.atoms.iter())
                .map(|a| (prog.relations[a.rel].name.clone(), !a.rename.is_empty()))
                .collect()
        };
        let moved = |v: &[(String, bool)], name: &str| v.iter().any(|(n, m)| n == name && *m);
        let plain = renamed(&none);
        assert!(moved(&plain, "big") && !moved(&plain, "small"), "{plain:?}");
        let kept = renamed(&HashSet::from([big]));
        assert!(!moved(&kept, "big") && moved(&kept, "small"), "{kept:?}");
    }
}
