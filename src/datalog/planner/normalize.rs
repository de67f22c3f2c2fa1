//! Phase 1 of planning: the normal form of a rule. `x = y` unifies two
//! variables, `x = c` substitutes a constant, comparisons of constants are
//! decided, and each variable's occurrences are counted (a variable used
//! once is a wildcard).

use super::super::ast::CmpOp;
use super::super::program::{Atom, Literal, RelId, Rule, Term, VarId};
use std::collections::HashSet;

/// Disjoint sets over `0..n` whose representative is the smallest member.
pub(super) struct UnionFind {
    parent: Vec<usize>,
}

impl UnionFind {
    /// Every element in a set of its own.
    pub(super) fn new(n: usize) -> Self {
        UnionFind {
            parent: (0..n).collect(),
        }
    }

    /// The representative of `x`'s set.
    pub(super) fn find(&mut self, x: usize) -> usize {
        let mut r = x;
        while self.parent[r] != r {
            r = self.parent[r];
        }
        self.parent[x] = r;
        r
    }

    /// Merges the sets of `a` and `b`.
    pub(super) fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        self.parent[ra.max(rb)] = ra.min(rb);
    }
}

/// The variable a term is, if it is one.
pub(super) fn var_of(t: &Term) -> Option<VarId> {
    match t {
        Term::Var(v) => Some(*v),
        _ => None,
    }
}

/// Applies `x = y` (unification) and `x = c` (substitution). Returns the
/// rewritten rule and whether it can fire at all.
pub(super) fn normalize(rule: &Rule) -> (Rule, bool) {
    let (subst, mut satisfiable) = substitution(rule);
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
    let mut body = Vec::new();
    for l in &rule.body {
        match l {
            Literal::Pos(a) => body.push(Literal::Pos(map_atom(a))),
            Literal::Neg(a) => body.push(Literal::Neg(map_atom(a))),
            Literal::Cmp { op, lhs, rhs, loc } => match (op, map(lhs), map(rhs)) {
                // Unifications are now structural.
                (CmpOp::Eq, Term::Var(a), Term::Var(b)) if a == b => {}
                (op, Term::Const(a), Term::Const(b)) => satisfiable &= const_cmp(*op, a, b),
                (op, l2, r2) => body.push(Literal::Cmp {
                    op: *op,
                    lhs: l2,
                    rhs: r2,
                    loc: loc.clone(),
                }),
            },
        }
    }
    let rule = Rule {
        head: map_atom(&rule.head),
        body,
        vars: rule.vars.clone(),
        loc: rule.loc.clone(),
        text: rule.text.clone(),
        number: rule.number,
    };
    (rule, satisfiable)
}

/// `rule` without its negations of relations in `empty`, which hold for
/// every binding, and whether it can fire at all: not if a positive
/// subgoal reads one of them.
///
/// `empty` holds relations of earlier strata that came out empty, whose
/// value is final while the rule runs (Soufflé removes such subgoals and
/// rules too). A negation of an empty relation costs a subtraction, a
/// copy of the intermediate result, in every step of the rule, and a rule
/// that reads an empty relation still prepares its static part. The
/// analyses negate relations that only an option fills: `specifiedSite`
/// (`--spec`) and `otherLocaleBundle` (`--locale`) in the main stratum.
pub(super) fn without_empty(mut rule: Rule, empty: &HashSet<RelId>) -> (Rule, bool) {
    if empty.is_empty() {
        return (rule, true);
    }
    let fires = !rule
        .body
        .iter()
        .any(|l| matches!(l, Literal::Pos(a) if empty.contains(&a.rel)));
    rule.body
        .retain(|l| !matches!(l, Literal::Neg(a) if empty.contains(&a.rel)));
    (rule, fires)
}

/// What each variable becomes: the representative of the variables its
/// equalities unify it with, or the constant one of them equals. False
/// when a variable would equal two different constants.
fn substitution(rule: &Rule) -> (Vec<Term>, bool) {
    let n = rule.vars.len();
    let mut sets = UnionFind::new(n);
    let equalities = rule.body.iter().filter_map(|l| match l {
        Literal::Cmp {
            op: CmpOp::Eq,
            lhs,
            rhs,
            ..
        } => Some((lhs, rhs)),
        _ => None,
    });
    for (lhs, rhs) in equalities.clone() {
        if let (Term::Var(a), Term::Var(b)) = (lhs, rhs) {
            sets.union(*a, *b);
        }
    }
    let mut konst: Vec<Option<u64>> = vec![None; n];
    let mut satisfiable = true;
    for (lhs, rhs) in equalities {
        if let (Term::Var(v), Term::Const(c)) | (Term::Const(c), Term::Var(v)) = (lhs, rhs) {
            let r = sets.find(*v);
            match konst[r] {
                Some(prev) if prev != *c => satisfiable = false,
                _ => konst[r] = Some(*c),
            }
        }
    }
    let subst = (0..n)
        .map(|v| {
            let r = sets.find(v);
            match konst[r] {
                Some(c) => Term::Const(c),
                None => Term::Var(r),
            }
        })
        .collect();
    (subst, satisfiable)
}

/// Whether `a op b` holds.
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

/// How often each variable of the normal-form `rule` occurs, head and
/// body: a variable that occurs once is a wildcard.
pub(super) fn use_counts(rule: &Rule) -> Vec<usize> {
    let mut uses = vec![0usize; rule.vars.len()];
    let mut count = |args: &[Term]| {
        for t in args {
            if let Term::Var(v) = t {
                uses[*v] += 1;
            }
        }
    };
    count(&rule.head.args);
    for l in &rule.body {
        match l {
            Literal::Pos(a) | Literal::Neg(a) => count(&a.args),
            Literal::Cmp { lhs, rhs, .. } => count(&[*lhs, *rhs]),
        }
    }
    uses
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn union_find_keeps_the_smallest_member_as_representative() {
        let mut s = UnionFind::new(5);
        s.union(3, 1);
        s.union(4, 3);
        assert_eq!((s.find(4), s.find(3), s.find(1)), (1, 1, 1));
        assert_eq!((s.find(0), s.find(2)), (0, 2));
    }

    #[test]
    fn constants_compare_as_numbers() {
        assert!(const_cmp(CmpOp::Lt, 1, 2));
        assert!(!const_cmp(CmpOp::Ge, 1, 2));
        assert!(const_cmp(CmpOp::Ne, 1, 2));
    }
}
