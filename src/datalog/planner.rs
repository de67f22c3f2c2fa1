//! Rule compilation: a checked rule into a sequence of BDD operations.
//!
//! For each rule the planner decides:
//!
//! 1. **Normal form.** `x = y` unifies two variables; `x = c` substitutes a
//!    constant; a variable used once is a wildcard.
//! 2. **Homes.** Every variable gets one domain instance (its *home*) where it
//!    lives in intermediate results. Subgoals are renamed from their attribute
//!    instances into the homes. Homes are chosen by a small search that
//!    prefers no rename, then order-preserving renames (linear time), and
//!    avoids general permutations, weighting subgoals that are re-read in
//!    every iteration, and, in recursive rules, keeping static subgoals in
//!    the layout their relations declare.
//! 3. **Static groups.** Negations and comparisons that only touch one
//!    non-recursive subgoal (plus free variables) are folded into it once
//!    per stratum, instead of filtering large results in every iteration.
//!    So are the negations touching a non-recursive subgoal that shares
//!    no variable with any other: joined first, it would be a cross
//!    product that only the negations cut down.
//! 4. **Variants.** A recursive rule gets one variant per recursive subgoal:
//!    that subgoal reads the delta, earlier recursive subgoals read the old
//!    version, later ones the full version. Each variant joins from its delta
//!    outwards along shared variables and projects every variable as soon as
//!    nothing later needs it (relational product).

use super::ast::CmpOp;
use super::program::{Atom, Literal, Program, RelId, Rule, Term, VarId};
use crate::bdd::encode::{equal_bdd, less_bdd, range_bdd, value_bdd};
use crate::bdd::layout::{InstanceId, Layout};
use crate::bdd::node_builder::{mk_false, mk_true};
use crate::bdd::relprod::VarSet;
use biodivine_lib_bdd::{Bdd, BddVariable};
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
    /// Constants, wildcards' ranges, and equalities of repeated variables.
    pub extra: Option<Bdd>,
}

/// A compiled rule.
#[derive(Clone, Debug)]
pub struct RulePlan {
    /// The rule's index in the program.
    pub rule: usize,
    /// The head relation.
    pub head_rel: RelId,
    /// False when a constant equality can never hold: the rule derives nothing.
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
/// evaluated.
pub fn plan_rule(prog: &Program, layout: &Layout, ri: usize, dynamic: &HashSet<RelId>) -> RulePlan {
    let rule = &prog.rules[ri];
    let (norm, satisfiable) = normalize(rule);
    let nv = layout.num_vars();
    let (homes, rename_cost) = choose_homes(prog, layout, &norm, dynamic);
    let home_vars =
        |v: VarId| -> &[BddVariable] { &layout.instance(homes[v].expect("used variable")).vars };

    // Occurrence counts decide which variables are single-use wildcards.
    let mut uses = vec![0usize; norm.vars.len()];
    let mut count_terms = |args: &[Term]| {
        for t in args {
            if let Term::Var(v) = t {
                uses[*v] += 1;
            }
        }
    };
    count_terms(&norm.head.args);
    for l in &norm.body {
        match l {
            Literal::Pos(a) | Literal::Neg(a) => count_terms(&a.args),
            Literal::Cmp { lhs, rhs, .. } => count_terms(&[*lhs, *rhs]),
        }
    }

    let mut atoms = Vec::new();
    let mut negs = Vec::new();
    let mut cmps = Vec::new();
    for l in &norm.body {
        match l {
            Literal::Pos(a) => atoms.push(plan_atom(prog, layout, a, &homes, &uses, dynamic, true)),
            Literal::Neg(a) => negs.push(plan_atom(prog, layout, a, &homes, &uses, dynamic, false)),
            Literal::Cmp { op, lhs, rhs, .. } => {
                let mut vars = Vec::new();
                for t in [lhs, rhs] {
                    if let Term::Var(v) = t {
                        if !vars.contains(v) {
                            vars.push(*v);
                        }
                    }
                }
                let bdd = cmp_bdd(prog, layout, &norm, *op, *lhs, *rhs, &homes);
                cmps.push(CmpPlan { bdd, vars });
            }
        }
    }

    // Static groups: a non-recursive subgoal together with the negations and
    // comparisons that are connected to it and to no other positive subgoal.
    let mut factors: Vec<Factor> = atoms
        .iter()
        .enumerate()
        .map(|(i, a)| Factor {
            atom: i,
            negs: vec![],
            cmps: vec![],
            extra_range: None,
            vars: a.vars.clone(),
        })
        .collect();
    let mut free_negs: Vec<usize> = (0..negs.len()).collect();
    let mut free_cmps: Vec<usize> = (0..cmps.len()).collect();
    group_filters(
        &atoms,
        &negs,
        &cmps,
        &mut factors,
        &mut free_negs,
        &mut free_cmps,
    );
    for f in &mut factors {
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
                let size = prog.domains[norm.vars[v].domain].size;
                r = r.and(&range_bdd(nv, home_vars(v), size));
            }
            f.extra_range = Some(r);
        }
    }

    let head_vars: HashSet<VarId> = norm.head.args.iter().filter_map(var_of).collect();
    let dynamic_factors: Vec<usize> = (0..factors.len())
        .filter(|&f| atoms[factors[f].atom].dynamic)
        .collect();
    let home_bits =
        |vs: &[VarId]| VarSet::of(nv, vs.iter().flat_map(|&v| home_vars(v).iter().copied()));
    let variant = |delta: Option<usize>, older: &[usize]| {
        plan_variant(
            &factors, &negs, &cmps, &free_negs, &free_cmps, &head_vars, delta, older, &home_bits,
        )
    };
    let variants = if dynamic_factors.is_empty() {
        vec![variant(None, &[])]
    } else {
        (0..dynamic_factors.len())
            .map(|k| variant(Some(dynamic_factors[k]), &dynamic_factors[..k]))
            .collect()
    };

    let head = plan_head(prog, layout, &norm.head, &homes);
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

fn var_of(t: &Term) -> Option<VarId> {
    match t {
        Term::Var(v) => Some(*v),
        _ => None,
    }
}

/// Applies `x = y` (unification) and `x = c` (substitution). Returns the
/// rewritten rule and whether it can fire at all.
fn normalize(rule: &Rule) -> (Rule, bool) {
    let n = rule.vars.len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(p: &mut [usize], x: usize) -> usize {
        let mut r = x;
        while p[r] != r {
            r = p[r];
        }
        p[x] = r;
        r
    }
    let mut konst: Vec<Option<u64>> = vec![None; n];
    let mut satisfiable = true;
    for l in &rule.body {
        if let Literal::Cmp {
            op: CmpOp::Eq,
            lhs: Term::Var(a),
            rhs: Term::Var(b),
            ..
        } = l
        {
            let (ra, rb) = (find(&mut parent, *a), find(&mut parent, *b));
            parent[ra.max(rb)] = ra.min(rb);
        }
    }
    for l in &rule.body {
        if let Literal::Cmp {
            op: CmpOp::Eq,
            lhs,
            rhs,
            ..
        } = l
        {
            if let (Term::Var(v), Term::Const(c)) | (Term::Const(c), Term::Var(v)) = (lhs, rhs) {
                let r = find(&mut parent, *v);
                match konst[r] {
                    Some(prev) if prev != *c => satisfiable = false,
                    _ => konst[r] = Some(*c),
                }
            }
        }
    }
    let subst: Vec<Term> = (0..n)
        .map(|v| {
            let r = find(&mut parent, v);
            match konst[r] {
                Some(c) => Term::Const(c),
                None => Term::Var(r),
            }
        })
        .collect();
    let map = |t: &Term| -> Term {
        match t {
            Term::Var(v) => subst[*v],
            other => *other,
        }
    };
    let map_atom = |a: &Atom| Atom {
        rel: a.rel,
        args: a.args.iter().map(map).collect(),
        loc: a.loc.clone(),
    };
    let head = map_atom(&rule.head);
    let mut body = Vec::new();
    for l in &rule.body {
        match l {
            Literal::Pos(a) => body.push(Literal::Pos(map_atom(a))),
            Literal::Neg(a) => body.push(Literal::Neg(map_atom(a))),
            Literal::Cmp { op, lhs, rhs, loc } => {
                let (l2, r2) = (map(lhs), map(rhs));
                match (op, l2, r2) {
                    // Unifications are now structural.
                    (CmpOp::Eq, Term::Var(a), Term::Var(b)) if a == b => {}
                    (op, Term::Const(a), Term::Const(b)) => {
                        if !const_cmp(*op, a, b) {
                            satisfiable = false;
                        }
                    }
                    (op, l2, r2) => body.push(Literal::Cmp {
                        op: *op,
                        lhs: l2,
                        rhs: r2,
                        loc: loc.clone(),
                    }),
                }
            }
        }
    }
    (
        Rule {
            head,
            body,
            vars: rule.vars.clone(),
            loc: rule.loc.clone(),
            text: rule.text.clone(),
        },
        satisfiable,
    )
}

fn const_cmp(op: CmpOp, a: u64, b: u64) -> bool {
    match op {
        CmpOp::Eq => a == b,
        CmpOp::Ne => a != b,
        CmpOp::Lt => a < b,
        CmpOp::Le => a <= b,
        CmpOp::Gt => a > b,
        CmpOp::Ge => a >= b,
    }
}

/// A place where variables are renamed: a subgoal into homes, or homes into
/// the head. `pairs` lists (variable, attribute instance) for the kept
/// attributes; `to_home` tells the direction.
struct RenameSite {
    pairs: Vec<(VarId, InstanceId)>,
    to_home: bool,
    weight: u64,
}

/// Chooses a home instance for every variable of the rule; returns the
/// homes and their rename cost.
fn choose_homes(
    prog: &Program,
    layout: &Layout,
    rule: &Rule,
    dynamic: &HashSet<RelId>,
) -> (Vec<Option<InstanceId>>, u64) {
    let n = rule.vars.len();
    let inst_of = |rel: RelId, k: usize| -> InstanceId {
        let a = &prog.relations[rel].attrs[k];
        layout
            .find_instance(a.domain, a.instance)
            .expect("relation instances are allocated")
    };
    let recursive_rule = rule
        .body
        .iter()
        .any(|l| matches!(l, Literal::Pos(a) if dynamic.contains(&a.rel)));
    let mut sites = Vec::new();
    let mut used = vec![false; n];
    let mut add_site = |a: &Atom, to_home: bool, weight: u64, used: &mut Vec<bool>| {
        let mut pairs = Vec::new();
        let mut seen = HashSet::new();
        for (k, t) in a.args.iter().enumerate() {
            if let Term::Var(v) = t {
                used[*v] = true;
                if seen.insert(*v) {
                    pairs.push((*v, inst_of(a.rel, k)));
                }
            }
        }
        sites.push(RenameSite {
            pairs,
            to_home,
            weight,
        });
    };
    for l in &rule.body {
        match l {
            // In a recursive rule a static subgoal is renamed once, but
            // its layout then serves every join: keeping the layout its
            // relation declares (chosen for those joins) outweighs
            // renaming each result into the head.
            Literal::Pos(a) => {
                let w = match (dynamic.contains(&a.rel), recursive_rule) {
                    (true, _) => 8,
                    (false, true) => 5,
                    (false, false) => 1,
                };
                add_site(a, true, w, &mut used)
            }
            Literal::Neg(a) => add_site(a, true, 1, &mut used),
            Literal::Cmp { lhs, rhs, .. } => {
                for t in [lhs, rhs] {
                    if let Term::Var(v) = t {
                        used[*v] = true;
                    }
                }
            }
        }
    }
    add_site(
        &rule.head,
        false,
        if recursive_rule { 4 } else { 1 },
        &mut used,
    );

    // Candidate homes per variable: every allocated instance of its domain,
    // those it already occupies first.
    let vars: Vec<VarId> = (0..n).filter(|&v| used[v]).collect();
    let mut cands: Vec<Vec<InstanceId>> = vec![Vec::new(); n];
    for &v in &vars {
        let mut c: Vec<InstanceId> = Vec::new();
        for s in &sites {
            for &(sv, inst) in &s.pairs {
                if sv == v && !c.contains(&inst) {
                    c.push(inst);
                }
            }
        }
        for (id, inst) in layout.instances().iter().enumerate() {
            if inst.domain == rule.vars[v].domain && !c.contains(&id) {
                c.push(id);
            }
        }
        cands[v] = c;
    }

    let cost = |homes: &[Option<InstanceId>]| -> u64 {
        sites.iter().map(|s| site_cost(layout, s, homes)).sum()
    };

    // Greedy start: first free candidate.
    let mut best: Vec<Option<InstanceId>> = vec![None; n];
    {
        let mut taken = HashSet::new();
        for &v in &vars {
            let h = cands[v]
                .iter()
                .copied()
                .find(|c| !taken.contains(c))
                .expect("enough instances are reserved");
            taken.insert(h);
            best[v] = Some(h);
        }
    }
    let mut best_cost = cost(&best);
    // Branch and bound over the candidates, with a budget.
    let mut budget = 20_000u32;
    let mut cur: Vec<Option<InstanceId>> = vec![None; n];
    let mut taken: HashSet<InstanceId> = HashSet::new();
    search(
        &vars,
        0,
        &cands,
        &mut cur,
        &mut taken,
        &mut best,
        &mut best_cost,
        &mut budget,
        &cost,
    );
    (best, best_cost)
}

#[allow(clippy::too_many_arguments)]
fn search(
    vars: &[VarId],
    k: usize,
    cands: &[Vec<InstanceId>],
    cur: &mut Vec<Option<InstanceId>>,
    taken: &mut HashSet<InstanceId>,
    best: &mut Vec<Option<InstanceId>>,
    best_cost: &mut u64,
    budget: &mut u32,
    cost: &dyn Fn(&[Option<InstanceId>]) -> u64,
) {
    if *budget == 0 || *best_cost == 0 {
        return;
    }
    *budget -= 1;
    if k == vars.len() {
        let c = cost(cur);
        if c < *best_cost {
            *best_cost = c;
            best.clone_from(cur);
        }
        return;
    }
    let v = vars[k];
    for &h in &cands[v] {
        if taken.contains(&h) {
            continue;
        }
        cur[v] = Some(h);
        taken.insert(h);
        search(
            vars,
            k + 1,
            cands,
            cur,
            taken,
            best,
            best_cost,
            budget,
            cost,
        );
        taken.remove(&h);
        cur[v] = None;
    }
}

/// Cost of one rename site: 0 if nothing moves, its weight if the rename
/// preserves order, 40 times that for a general permutation.
fn site_cost(layout: &Layout, site: &RenameSite, homes: &[Option<InstanceId>]) -> u64 {
    let mut moved = false;
    let mut bits: Vec<(usize, usize)> = Vec::new();
    for &(v, inst) in &site.pairs {
        let Some(home) = homes[v] else { continue };
        let (from, to) = if site.to_home {
            (inst, home)
        } else {
            (home, inst)
        };
        if from != to {
            moved = true;
        }
        for (a, b) in layout
            .instance(from)
            .vars
            .iter()
            .zip(&layout.instance(to).vars)
        {
            bits.push((a.to_index(), b.to_index()));
        }
    }
    if !moved {
        return 0;
    }
    bits.sort_unstable();
    let monotone = bits.windows(2).all(|w| w[0].1 < w[1].1);
    if monotone {
        site.weight
    } else {
        site.weight * 40
    }
}

fn plan_atom(
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
        let inst = layout
            .find_instance(attr.domain, attr.instance)
            .expect("allocated");
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
                CmpOp::Lt => crate::bdd::encode::less_than_bdd(nv, ba, c),
                CmpOp::Le => crate::bdd::encode::less_than_bdd(nv, ba, c.saturating_add(1)),
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
                CmpOp::Lt => crate::bdd::encode::less_than_bdd(nv, bb, c.saturating_add(1)).not(),
                CmpOp::Le => crate::bdd::encode::less_than_bdd(nv, bb, c).not(),
                _ => unreachable!("normalised above"),
            };
            core.and(&range(b))
        }
        _ => mk_false(nv),
    };
    base
}

fn group_filters(
    atoms: &[AtomPlan],
    negs: &[AtomPlan],
    cmps: &[CmpPlan],
    factors: &mut [Factor],
    free_negs: &mut Vec<usize>,
    free_cmps: &mut Vec<usize>,
) {
    // Connected components over literals linked by shared variables.
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
    let mut comp: Vec<usize> = (0..total).collect();
    fn find(c: &mut [usize], x: usize) -> usize {
        let mut r = x;
        while c[r] != r {
            r = c[r];
        }
        c[x] = r;
        r
    }
    for i in 0..total {
        for j in (i + 1)..total {
            if vars_of(i).iter().any(|v| vars_of(j).contains(v)) {
                let (a, b) = (find(&mut comp, i), find(&mut comp, j));
                comp[a.max(b)] = a.min(b);
            }
        }
    }
    for (ai, atom) in atoms.iter().enumerate() {
        if atom.dynamic {
            continue;
        }
        let c = find(&mut comp, ai);
        let positives = (0..n_atoms).filter(|&j| find(&mut comp, j) == c).count();
        if positives != 1 {
            continue;
        }
        let f = &mut factors[ai];
        free_negs.retain(|&ni| {
            if find(&mut comp, n_atoms + ni) == c {
                f.negs.push(ni);
                f.add_vars(&negs[ni].vars);
                false
            } else {
                true
            }
        });
        free_cmps.retain(|&ci| {
            if find(&mut comp, n_atoms + negs.len() + ci) == c {
                f.cmps.push(ci);
                f.add_vars(&cmps[ci].vars);
                false
            } else {
                true
            }
        });
    }
    fold_into_unjoined(atoms, negs, factors, free_negs);
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

#[allow(clippy::too_many_arguments)]
fn plan_variant(
    factors: &[Factor],
    negs: &[AtomPlan],
    cmps: &[CmpPlan],
    free_negs: &[usize],
    free_cmps: &[usize],
    head_vars: &HashSet<VarId>,
    delta: Option<usize>,
    older: &[usize],
    home_bits: &dyn Fn(&[VarId]) -> VarSet,
) -> Variant {
    let mut remaining: Vec<usize> = (0..factors.len()).collect();
    let mut pend_negs: Vec<usize> = free_negs.to_vec();
    let mut pend_cmps: Vec<usize> = free_cmps.to_vec();
    let mut bound: HashSet<VarId> = HashSet::new();
    let mut live: HashSet<VarId> = HashSet::new(); // variables in the current result
    let mut steps = Vec::new();
    let source_of = |f: usize| -> Source {
        if Some(f) == delta {
            Source::Delta
        } else if older.contains(&f) {
            Source::Old
        } else {
            Source::Full
        }
    };
    let mut first = true;
    while !remaining.is_empty() {
        // Pick the delta first, then the factor sharing most bound variables.
        let pick = match delta {
            Some(d) if first => d,
            _ => *remaining
                .iter()
                .max_by_key(|&&f| {
                    let shared = factors[f].vars.iter().filter(|v| bound.contains(v)).count();
                    (shared, std::cmp::Reverse(f))
                })
                .expect("non-empty"),
        };
        first = false;
        remaining.retain(|&f| f != pick);
        bound.extend(factors[pick].vars.iter().copied());
        live.extend(factors[pick].vars.iter().copied());
        // Filters that become applicable right after this join.
        let ready_negs = take_ready(&mut pend_negs, |n| &negs[n].vars, &bound);
        let ready_cmps = take_ready(&mut pend_cmps, |c| &cmps[c].vars, &bound);
        // Project what nothing after this join needs.
        let needed = needed_vars(
            factors, &remaining, negs, &pend_negs, cmps, &pend_cmps, head_vars,
        );
        let filter_vars: HashSet<VarId> = ready_negs
            .iter()
            .flat_map(|&n| negs[n].vars.iter().copied())
            .chain(
                ready_cmps
                    .iter()
                    .flat_map(|&c| cmps[c].vars.iter().copied()),
            )
            .collect();
        let drop: Vec<VarId> = live
            .iter()
            .copied()
            .filter(|v| !needed.contains(v) && !filter_vars.contains(v))
            .collect();
        for v in &drop {
            live.remove(v);
        }
        steps.push(Step::Join {
            factor: pick,
            source: source_of(pick),
            quantify: home_bits(&drop),
        });
        for c in ready_cmps {
            steps.push(Step::And(c));
        }
        for n in ready_negs {
            steps.push(Step::AndNot(n));
        }
        let after: Vec<VarId> = live
            .iter()
            .copied()
            .filter(|v| !needed.contains(v))
            .collect();
        if !after.is_empty() {
            for v in &after {
                live.remove(v);
            }
            steps.push(Step::Exists(home_bits(&after)));
        }
    }
    // Comparisons that bind variables no subgoal binds, then the rest.
    while !pend_cmps.is_empty() || !pend_negs.is_empty() {
        let before = (pend_cmps.len(), pend_negs.len());
        for n in take_ready(&mut pend_negs, |n| &negs[n].vars, &bound) {
            steps.push(Step::AndNot(n));
        }
        if let Some(c) = pend_cmps.first().copied() {
            pend_cmps.remove(0);
            bound.extend(cmps[c].vars.iter().copied());
            live.extend(cmps[c].vars.iter().copied());
            steps.push(Step::And(c));
        }
        if (pend_cmps.len(), pend_negs.len()) == before {
            break; // unreachable for safe rules
        }
    }
    let rest: Vec<VarId> = live
        .iter()
        .copied()
        .filter(|v| !head_vars.contains(v))
        .collect();
    if !rest.is_empty() {
        steps.push(Step::Exists(home_bits(&rest)));
    }
    Variant { delta, steps }
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

fn needed_vars(
    factors: &[Factor],
    remaining: &[usize],
    negs: &[AtomPlan],
    pend_negs: &[usize],
    cmps: &[CmpPlan],
    pend_cmps: &[usize],
    head_vars: &HashSet<VarId>,
) -> HashSet<VarId> {
    let mut s: HashSet<VarId> = head_vars.clone();
    for &f in remaining {
        s.extend(factors[f].vars.iter().copied());
    }
    for &n in pend_negs {
        s.extend(negs[n].vars.iter().copied());
    }
    for &c in pend_cmps {
        s.extend(cmps[c].vars.iter().copied());
    }
    s
}

fn plan_head(
    prog: &Program,
    layout: &Layout,
    head: &Atom,
    homes: &[Option<InstanceId>],
) -> HeadPlan {
    let nv = layout.num_vars();
    let rel = &prog.relations[head.rel];
    let mut rename = Vec::new();
    let mut extra: Option<Bdd> = None;
    let mut and = |b: Bdd| {
        extra = Some(match extra.take() {
            Some(e) => e.and(&b),
            None => b,
        })
    };
    let mut first_inst: Vec<(VarId, InstanceId)> = Vec::new();
    for (k, t) in head.args.iter().enumerate() {
        let attr = &rel.attrs[k];
        let inst = layout
            .find_instance(attr.domain, attr.instance)
            .expect("allocated");
        let ivars = &layout.instance(inst).vars;
        match t {
            Term::Const(c) => and(value_bdd(nv, ivars, *c)),
            Term::Any => and(range_bdd(nv, ivars, prog.domains[attr.domain].size)),
            Term::Var(v) => {
                if let Some(&(_, first)) = first_inst.iter().find(|(x, _)| x == v) {
                    and(equal_bdd(nv, &layout.instance(first).vars, ivars));
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
    HeadPlan { rename, extra }
}
