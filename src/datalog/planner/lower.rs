//! Phase 5 of planning: lowering to BDD operations. Each subgoal becomes
//! the restriction of its constants, the equality of its repeated
//! variables, the projection of its wildcards and the rename of its
//! attributes into the homes; each comparison a BDD over the homes; the
//! head the rename from the homes into its attributes, with its
//! constants and wildcards.

use super::super::ast::CmpOp;
use super::super::program::{Atom, Program, RelId, Rule, Term, VarId};
use super::{AtomPlan, CmpPlan, Factor, HeadPlan};
use crate::bdd::{
    equal_bdd, less_bdd, less_than_bdd, mk_false, mk_true, range_bdd, value_bdd, Bdd, BddVariable,
    InstanceId, Layout, VarSet,
};
use std::collections::HashSet;

/// The BDD variables of a used variable's home.
fn home_of<'a>(layout: &'a Layout, homes: &[Option<InstanceId>], v: VarId) -> &'a [BddVariable] {
    &layout
        .instance(homes[v].expect("used variable has a home"))
        .vars
}

/// A comparison of the rule, over the homes of its variables.
pub(super) fn plan_cmp(
    prog: &Program,
    layout: &Layout,
    rule: &Rule,
    (op, lhs, rhs): (CmpOp, Term, Term),
    homes: &[Option<InstanceId>],
) -> CmpPlan {
    let mut vars = Vec::new();
    for v in [lhs, rhs].iter().filter_map(super::var_of) {
        if !vars.contains(&v) {
            vars.push(v);
        }
    }
    let bdd = cmp_bdd(prog, layout, rule, op, lhs, rhs, homes);
    CmpPlan { bdd, vars }
}

/// Ranges the variables that a static group's filters add beyond its
/// subgoal's over their domains (`Factor::extra_range`).
pub(super) fn add_extra_ranges(
    prog: &Program,
    layout: &Layout,
    rule: &Rule,
    homes: &[Option<InstanceId>],
    atoms: &[AtomPlan],
    factors: &mut [Factor],
) {
    let nv = layout.num_vars();
    for f in factors {
        let base: HashSet<VarId> = atoms[f.atom].vars.iter().copied().collect();
        let extra: Vec<VarId> = f
            .vars
            .iter()
            .copied()
            .filter(|v| !base.contains(v))
            .collect();
        if !extra.is_empty() {
            let mut r = mk_true(nv);
            for v in extra {
                let size = prog.domains[rule.vars[v].domain].size;
                r = r.and(&range_bdd(nv, home_of(layout, homes, v), size));
            }
            f.extra_range = Some(r);
        }
    }
}

/// The BDD variables of the homes of `vars`.
pub(super) fn home_bits(layout: &Layout, homes: &[Option<InstanceId>], vars: &[VarId]) -> VarSet {
    let bits = vars
        .iter()
        .flat_map(|&v| home_of(layout, homes, v).iter().copied());
    VarSet::of(layout.num_vars(), bits)
}

/// Lowers subgoal `a` (negated when not `positive`): see [`AtomPlan`].
pub(super) fn plan_atom(
    prog: &Program,
    layout: &Layout,
    a: &Atom,
    homes: &[Option<InstanceId>],
    uses: &[usize],
    dynamic: &HashSet<RelId>,
    positive: bool,
) -> AtomPlan {
    let nv = layout.num_vars();
    let rel = &prog.relations[a.rel];
    let mut restrict = Vec::new();
    let mut quantify = VarSet::new(nv);
    let mut rename = Vec::new();
    let mut vars: Vec<VarId> = Vec::new();
    let mut first_inst: Vec<(VarId, InstanceId)> = Vec::new();
    let mut equal: Option<Bdd> = None;
    for (k, t) in a.args.iter().enumerate() {
        let attr = &rel.attrs[k];
        let inst = attr.instance_in(layout);
        let ivars = &layout.instance(inst).vars;
        match t {
            Term::Const(c) => {
                for (bit, v) in ivars.iter().enumerate() {
                    restrict.push((*v, bit < 64 && (c >> bit) & 1 == 1));
                }
            }
            Term::Any => quantify.extend(ivars.iter().copied()),
            // A variable used nowhere else is a wildcard (only in positive
            // subgoals: a negated one must keep it to stay safe).
            Term::Var(v) if positive && uses[*v] == 1 => quantify.extend(ivars.iter().copied()),
            Term::Var(v) => {
                if let Some(&(_, first)) = first_inst.iter().find(|(x, _)| x == v) {
                    let eq = equal_bdd(nv, &layout.instance(first).vars, ivars);
                    equal = Some(match equal {
                        Some(e) => e.and(&eq),
                        None => eq,
                    });
                    quantify.extend(ivars.iter().copied());
                } else {
                    first_inst.push((*v, inst));
                    vars.push(*v);
                    let home = homes[*v].expect("used variable has a home");
                    if home != inst {
                        for (from, to) in ivars.iter().zip(&layout.instance(home).vars) {
                            rename.push((*from, *to));
                        }
                    }
                }
            }
        }
    }
    AtomPlan {
        rel: a.rel,
        dynamic: dynamic.contains(&a.rel),
        restrict,
        equal,
        quantify,
        rename,
        vars,
    }
}

/// The BDD of `lhs op rhs` over the homes, with each variable's domain
/// range.
fn cmp_bdd(
    prog: &Program,
    layout: &Layout,
    rule: &Rule,
    op: CmpOp,
    lhs: Term,
    rhs: Term,
    homes: &[Option<InstanceId>],
) -> Bdd {
    let nv = layout.num_vars();
    let block = |v: VarId| &layout.instance(homes[v].expect("used")).vars;
    let range = |v: VarId| range_bdd(nv, block(v), prog.domains[rule.vars[v].domain].size);
    // Normalise to `a op b` with op in {=, !=, <, <=}.
    let (op, l, r) = match op {
        CmpOp::Gt => (CmpOp::Lt, rhs, lhs),
        CmpOp::Ge => (CmpOp::Le, rhs, lhs),
        other => (other, lhs, rhs),
    };
    let base = match (l, r) {
        (Term::Var(a), Term::Var(b)) => {
            let (ba, bb) = (block(a), block(b));
            let core = match op {
                CmpOp::Eq => equal_bdd(nv, ba, bb),
                CmpOp::Ne => equal_bdd(nv, ba, bb).not(),
                CmpOp::Lt => less_bdd(nv, ba, bb),
                CmpOp::Le => less_bdd(nv, bb, ba).not(),
                _ => unreachable!("normalised above"),
            };
            core.and(&range(a)).and(&range(b))
        }
        (Term::Var(a), Term::Const(c)) => {
            let ba = block(a);
            let core = match op {
                CmpOp::Eq => value_bdd(nv, ba, c),
                CmpOp::Ne => value_bdd(nv, ba, c).not(),
                CmpOp::Lt => less_than_bdd(nv, ba, c),
                CmpOp::Le => less_than_bdd(nv, ba, c.saturating_add(1)),
                _ => unreachable!("normalised above"),
            };
            core.and(&range(a))
        }
        (Term::Const(c), Term::Var(b)) => {
            let bb = block(b);
            // c < b  ==  !(b < c+1);  c <= b == !(b < c)
            let core = match op {
                CmpOp::Eq => value_bdd(nv, bb, c),
                CmpOp::Ne => value_bdd(nv, bb, c).not(),
                CmpOp::Lt => less_than_bdd(nv, bb, c.saturating_add(1)).not(),
                CmpOp::Le => less_than_bdd(nv, bb, c).not(),
                _ => unreachable!("normalised above"),
            };
            core.and(&range(b))
        }
        _ => mk_false(nv),
    };
    base
}

/// Lowers the head: see [`HeadPlan`].
pub(super) fn plan_head(
    prog: &Program,
    layout: &Layout,
    head: &Atom,
    homes: &[Option<InstanceId>],
) -> HeadPlan {
    let nv = layout.num_vars();
    let rel = &prog.relations[head.rel];
    let mut rename = Vec::new();
    let mut extra: Option<Bdd> = None;
    let mut equalities: Vec<Bdd> = Vec::new();
    let mut and = |b: Bdd| {
        extra = Some(match extra.take() {
            Some(e) => e.and(&b),
            None => b,
        })
    };
    let mut first_inst: Vec<(VarId, InstanceId)> = Vec::new();
    for (k, t) in head.args.iter().enumerate() {
        let attr = &rel.attrs[k];
        let inst = attr.instance_in(layout);
        let ivars = &layout.instance(inst).vars;
        match t {
            Term::Const(c) => and(value_bdd(nv, ivars, *c)),
            Term::Any => and(range_bdd(nv, ivars, prog.domains[attr.domain].size)),
            Term::Var(v) => {
                if let Some(&(_, first)) = first_inst.iter().find(|(x, _)| x == v) {
                    equalities.push(equal_bdd(nv, &layout.instance(first).vars, ivars));
                } else {
                    first_inst.push((*v, inst));
                    let home = homes[*v].expect("head variables have homes");
                    if home != inst {
                        for (from, to) in layout.instance(home).vars.iter().zip(ivars) {
                            rename.push((*from, *to));
                        }
                    }
                }
            }
        }
    }
    let extra = extra.into_iter().chain(equalities).collect();
    HeadPlan { rename, extra }
}
