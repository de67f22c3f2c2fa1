//! Phase 2 of planning: a home for every variable. Each variable lives
//! in one domain instance (its *home*) in intermediate results; subgoals
//! are renamed from their attribute instances into the homes, and the
//! result from the homes into the head. The homes are chosen by a small
//! search that prefers no rename, then order-preserving renames (linear
//! time), and avoids general permutations, weighting subgoals that are
//! re-read in every iteration, and, in recursive rules, keeping static
//! subgoals in the layout their relations declare. A large static
//! relation (a million nodes or more) weighs most: its renamed copy would
//! be kept while the solve reads it, and the deltas, the head and the
//! small subgoals that move instead are smaller.

use super::super::program::{Atom, Literal, Program, RelId, Rule, Term, VarId};
use crate::bdd::{InstanceId, Layout};
use std::collections::HashSet;

/// The homes of a rule's variables (`None` for unused ones) and what
/// they cost in renames.
pub(super) type Homes = (Vec<Option<InstanceId>>, u64);

/// How many assignments the branch-and-bound search may try.
const SEARCH_BUDGET: u32 = 20_000;

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
pub(super) fn choose_homes(
    prog: &Program,
    layout: &Layout,
    rule: &Rule,
    dynamic: &HashSet<RelId>,
    large: &HashSet<RelId>,
) -> Homes {
    let n = rule.vars.len();
    let (sites, used) = rename_sites(prog, layout, rule, dynamic, large);
    let vars: Vec<VarId> = (0..n).filter(|&v| used[v]).collect();
    let cands = candidates(layout, rule, &sites, &vars);
    let cost = |homes: &[Option<InstanceId>]| -> u64 {
        sites.iter().map(|s| site_cost(layout, s, homes)).sum()
    };
    let mut best = first_free(n, &vars, &cands);
    let best_cost = cost(&best);
    let mut search = Search {
        vars: &vars,
        cands: &cands,
        cost: &cost,
        cur: vec![None; n],
        taken: HashSet::new(),
        best_cost,
        budget: SEARCH_BUDGET,
    };
    search.run(0, &mut best);
    (best, search.best_cost)
}

/// The rename sites of a rule (its subgoals, then its head), and which
/// variables occur anywhere.
fn rename_sites(
    prog: &Program,
    layout: &Layout,
    rule: &Rule,
    dynamic: &HashSet<RelId>,
    large: &HashSet<RelId>,
) -> (Vec<RenameSite>, Vec<bool>) {
    let inst_of =
        |rel: RelId, k: usize| -> InstanceId { prog.relations[rel].attrs[k].instance_in(layout) };
    let recursive_rule = rule
        .body
        .iter()
        .any(|l| matches!(l, Literal::Pos(a) if dynamic.contains(&a.rel)));
    let mut sites = Vec::new();
    let mut used = vec![false; rule.vars.len()];
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
                    // Twice a dynamic subgoal: its copy would outweigh
                    // the deltas and fulls renamed instead.
                    _ if large.contains(&a.rel) => 16,
                    (false, true) => 5,
                    (false, false) => 1,
                };
                add_site(a, true, w, &mut used)
            }
            Literal::Neg(a) => add_site(a, true, 1, &mut used),
            Literal::Cmp { lhs, rhs, .. } => {
                for v in [lhs, rhs].into_iter().filter_map(super::var_of) {
                    used[v] = true;
                }
            }
        }
    }
    let head_weight = if recursive_rule { 4 } else { 1 };
    add_site(&rule.head, false, head_weight, &mut used);
    (sites, used)
}

/// Candidate homes per variable: every allocated instance of its domain,
/// those it already occupies first.
fn candidates(
    layout: &Layout,
    rule: &Rule,
    sites: &[RenameSite],
    vars: &[VarId],
) -> Vec<Vec<InstanceId>> {
    let mut cands: Vec<Vec<InstanceId>> = vec![Vec::new(); rule.vars.len()];
    for &v in vars {
        let mut c: Vec<InstanceId> = Vec::new();
        for s in sites {
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
    cands
}

/// The search's start: each variable in its first candidate that no
/// earlier variable took.
fn first_free(n: usize, vars: &[VarId], cands: &[Vec<InstanceId>]) -> Vec<Option<InstanceId>> {
    let mut homes: Vec<Option<InstanceId>> = vec![None; n];
    let mut taken = HashSet::new();
    for &v in vars {
        let h = cands[v]
            .iter()
            .copied()
            .find(|c| !taken.contains(c))
            .expect("enough instances are reserved");
        taken.insert(h);
        homes[v] = Some(h);
    }
    homes
}

/// Branch and bound over the candidates, with a budget of assignments.
struct Search<'a> {
    vars: &'a [VarId],
    cands: &'a [Vec<InstanceId>],
    cost: &'a dyn Fn(&[Option<InstanceId>]) -> u64,
    /// The partial assignment being extended.
    cur: Vec<Option<InstanceId>>,
    /// The instances `cur` uses.
    taken: HashSet<InstanceId>,
    /// The cost of the best complete assignment found.
    best_cost: u64,
    budget: u32,
}

impl Search<'_> {
    /// Assigns `vars[k..]`, keeping in `best` the cheapest complete
    /// assignment; stops when the budget is spent or nothing moves.
    fn run(&mut self, k: usize, best: &mut Vec<Option<InstanceId>>) {
        if self.budget == 0 || self.best_cost == 0 {
            return;
        }
        self.budget -= 1;
        if k == self.vars.len() {
            let c = (self.cost)(&self.cur);
            if c < self.best_cost {
                self.best_cost = c;
                best.clone_from(&self.cur);
            }
            return;
        }
        let v = self.vars[k];
        for &h in &self.cands[v] {
            if self.taken.contains(&h) {
                continue;
            }
            self.cur[v] = Some(h);
            self.taken.insert(h);
            self.run(k + 1, best);
            self.taken.remove(&h);
            self.cur[v] = None;
        }
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
