//! A naive explicit-set Datalog evaluator, the oracle for differential tests.
//!
//! It shares only the checked program representation with the engine:
//! relations are sets of tuples, rules are evaluated by backtracking over
//! bindings, and each stratum is iterated naively to its fixpoint.

use refract::datalog::ast::CmpOp;
use refract::datalog::program::{Atom, Literal, Program, Rule, Term};
use refract::datalog::stratify::stratify;
use std::collections::BTreeSet;

pub type Tuples = BTreeSet<Vec<u64>>;

/// Evaluates `prog` from the given initial relation contents.
pub fn evaluate(prog: &Program, mut rels: Vec<Tuples>) -> Vec<Tuples> {
    let strata = stratify(prog).expect("generated programs are stratified");
    for s in strata {
        loop {
            let mut changed = false;
            for &ri in &s.rules {
                let rule = &prog.rules[ri];
                for t in eval_rule(prog, rule, &rels) {
                    if rels[rule.head.rel].insert(t) {
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
    }
    rels
}

fn eval_rule(prog: &Program, rule: &Rule, rels: &[Tuples]) -> Vec<Vec<u64>> {
    let positives: Vec<&Atom> = rule
        .body
        .iter()
        .filter_map(|l| match l {
            Literal::Pos(a) => Some(a),
            _ => None,
        })
        .collect();
    let mut out = Vec::new();
    let mut binding: Vec<Option<u64>> = vec![None; rule.vars.len()];
    join(prog, rule, rels, &positives, 0, &mut binding, &mut out);
    out
}

fn join(
    prog: &Program,
    rule: &Rule,
    rels: &[Tuples],
    atoms: &[&Atom],
    k: usize,
    b: &mut Vec<Option<u64>>,
    out: &mut Vec<Vec<u64>>,
) {
    if k == atoms.len() {
        // Variables bound only by comparisons range over their domain.
        let free: Vec<usize> = (0..b.len())
            .filter(|&v| b[v].is_none() && used_in_cmp(rule, v))
            .collect();
        enumerate_free(prog, rule, rels, &free, 0, b, out);
        return;
    }
    let atom = atoms[k];
    for t in &rels[atom.rel] {
        let saved = b.clone();
        if matches(&atom.args, t, b) {
            join(prog, rule, rels, atoms, k + 1, b, out);
        }
        *b = saved;
    }
}

fn used_in_cmp(rule: &Rule, v: usize) -> bool {
    rule.body.iter().any(|l| matches!(l, Literal::Cmp { lhs, rhs, .. } if *lhs == Term::Var(v) || *rhs == Term::Var(v)))
}

fn enumerate_free(
    prog: &Program,
    rule: &Rule,
    rels: &[Tuples],
    free: &[usize],
    k: usize,
    b: &mut Vec<Option<u64>>,
    out: &mut Vec<Vec<u64>>,
) {
    if k == free.len() {
        finish(prog, rule, rels, b, out);
        return;
    }
    let size = prog.domains[rule.vars[free[k]].domain].size;
    for val in 0..size {
        b[free[k]] = Some(val);
        enumerate_free(prog, rule, rels, free, k + 1, b, out);
    }
    b[free[k]] = None;
}

fn matches(args: &[Term], t: &[u64], b: &mut [Option<u64>]) -> bool {
    for (a, &val) in args.iter().zip(t) {
        match a {
            Term::Const(c) if *c != val => return false,
            Term::Var(v) => match b[*v] {
                Some(x) if x != val => return false,
                Some(_) => {}
                None => b[*v] = Some(val),
            },
            _ => {}
        }
    }
    true
}

fn value(t: &Term, b: &[Option<u64>]) -> u64 {
    match t {
        Term::Const(c) => *c,
        Term::Var(v) => b[*v].expect("bound"),
        Term::Any => unreachable!("no wildcard in comparisons"),
    }
}

fn finish(
    prog: &Program,
    rule: &Rule,
    rels: &[Tuples],
    b: &mut [Option<u64>],
    out: &mut Vec<Vec<u64>>,
) {
    for l in &rule.body {
        match l {
            Literal::Cmp { op, lhs, rhs, .. } => {
                let (x, y) = (value(lhs, b), value(rhs, b));
                let ok = match op {
                    CmpOp::Eq => x == y,
                    CmpOp::Ne => x != y,
                    CmpOp::Lt => x < y,
                    CmpOp::Le => x <= y,
                    CmpOp::Gt => x > y,
                    CmpOp::Ge => x >= y,
                };
                if !ok {
                    return;
                }
            }
            Literal::Neg(a) => {
                let hit = rels[a.rel].iter().any(|t| {
                    a.args.iter().zip(t).all(|(arg, &val)| match arg {
                        Term::Const(c) => *c == val,
                        Term::Var(v) => b[*v] == Some(val),
                        Term::Any => true,
                    })
                });
                if hit {
                    return;
                }
            }
            Literal::Pos(_) => {}
        }
    }
    // Head: wildcards range over the attribute's domain.
    let head = &rule.head;
    let mut tuples: Vec<Vec<u64>> = vec![Vec::new()];
    for (k, a) in head.args.iter().enumerate() {
        let vals: Vec<u64> = match a {
            Term::Const(c) => vec![*c],
            Term::Var(v) => vec![b[*v].expect("safe rule")],
            Term::Any => (0..prog.domains[prog.relations[head.rel].attrs[k].domain].size).collect(),
        };
        tuples = tuples
            .into_iter()
            .flat_map(|t| {
                vals.iter().map(move |v| {
                    let mut t2 = t.clone();
                    t2.push(*v);
                    t2
                })
            })
            .collect();
    }
    out.extend(tuples);
}
