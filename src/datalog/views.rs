//! Views: rules that only copy a stored relation into another layout,
//! built from the stored rows instead of evaluated.
//!
//! A program may keep copies of an input relation with its variables in
//! other blocks (`actualOfI(i, z, v) :- actual(i, z, v).`, or with a
//! selection, `receiverOfI(i, v) :- actual(i, 0, v).`), so that the joins
//! that read them keep the variable order. Evaluated, each such rule is a
//! rename that cannot keep the order: for the whole JDK, the copies of
//! `actual` alone took 14 s. A view may also leave out the rows where a
//! variable holds a constant (`loadByBase(b, f, v) :- L(b, f, v), b !=
//! 0.`). Their tuples are the stored relation's, so
//! [`take_views`] removes such rules from the program, and whoever holds
//! the stored rows (`refract analyze`'s driver, with the facts in memory)
//! encodes each view's head from them in the head's own layout.

use super::ast::CmpOp;
use super::program::{Literal, Program, RelId, Term, VarId};

/// A rule `H(x1, ..., xn) :- S(t1, ..., tm), y1 != c1, ....` over a
/// stored relation `S`, whose terms are distinct variables, constants or
/// `_`, whose head lists distinct variables of the body, and whose
/// comparisons (if any) say that a variable of `S` is not a constant: `H`
/// holds the tuples of `S` that match the constants and not the excluded
/// ones, projected on the head's variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    /// The head relation.
    pub head: RelId,
    /// The stored relation.
    pub source: RelId,
    /// For each head attribute, the stored column it copies.
    pub columns: Vec<usize>,
    /// `(column, value)`: the stored columns that must hold a constant.
    pub filters: Vec<(usize, u64)>,
    /// `(column, value)`: the stored columns that must not hold a
    /// constant.
    pub exclusions: Vec<(usize, u64)>,
}

impl View {
    /// The head's rows from the stored rows (of arity `arity`), flat.
    pub fn rows(&self, stored_rows: &[u32], arity: usize) -> Vec<u32> {
        let mut out = Vec::new();
        for t in stored_rows.chunks_exact(arity) {
            if self.filters.iter().all(|&(c, v)| u64::from(t[c]) == v)
                && self.exclusions.iter().all(|&(c, v)| u64::from(t[c]) != v)
            {
                out.extend(self.columns.iter().map(|&c| t[c]));
            }
        }
        out
    }
}

/// Removes from `prog` the rules that copy a relation that `stored` holds
/// (see [`View`]) into a relation no other rule derives and no input
/// declares, and returns them.
pub fn take_views(prog: &mut Program, stored: impl Fn(RelId) -> bool) -> Vec<View> {
    let mut found: Vec<(usize, View)> = Vec::new();
    for (k, rule) in prog.rules.iter().enumerate() {
        let head = rule.head.rel;
        let defining = prog.rules.iter().filter(|r| r.head.rel == head).count();
        let options = &prog.relations[head].options;
        if defining != 1 || options.input || prog.queries.iter().any(|q| q.rule == k) {
            continue;
        }
        let [Literal::Pos(body), comparisons @ ..] = rule.body.as_slice() else {
            continue;
        };
        if !stored(body.rel) {
            continue;
        }
        let Some(excluded) = exclusions(comparisons) else {
            continue;
        };
        if let Some(view) = view_of(&rule.head.args, &body.args, head, body.rel, &excluded) {
            found.push((k, view));
        }
    }
    for (k, _) in found.iter().rev() {
        prog.rules.remove(*k);
        for q in &mut prog.queries {
            if q.rule > *k {
                q.rule -= 1;
            }
        }
    }
    found.into_iter().map(|(_, v)| v).collect()
}

/// The `(variable, constant)` pairs of comparisons that are all
/// `variable != constant` (either way round), or `None`.
fn exclusions(comparisons: &[Literal]) -> Option<Vec<(VarId, u64)>> {
    comparisons
        .iter()
        .map(|l| match l {
            Literal::Cmp {
                op: CmpOp::Ne,
                lhs: Term::Var(v),
                rhs: Term::Const(x),
                ..
            }
            | Literal::Cmp {
                op: CmpOp::Ne,
                lhs: Term::Const(x),
                rhs: Term::Var(v),
                ..
            } => Some((*v, *x)),
            _ => None,
        })
        .collect()
}

/// The view that a rule with these head and body terms and `excluded`
/// `(variable, constant)` pairs defines, if it is one.
fn view_of(
    head: &[Term],
    body: &[Term],
    rel: RelId,
    source: RelId,
    excluded: &[(VarId, u64)],
) -> Option<View> {
    let mut filters = Vec::new();
    let mut column_of = Vec::new();
    for (c, t) in body.iter().enumerate() {
        match t {
            Term::Var(v) if column_of.iter().any(|&(w, _)| w == *v) => return None,
            Term::Var(v) => column_of.push((*v, c)),
            Term::Const(x) => filters.push((c, *x)),
            Term::Any => {}
        }
    }
    let mut columns = Vec::new();
    for t in head {
        let Term::Var(v) = t else { return None };
        let &(_, c) = column_of.iter().find(|&&(w, _)| w == *v)?;
        if columns.contains(&c) {
            return None;
        }
        columns.push(c);
    }
    let exclusions = (excluded.iter())
        .map(|&(v, x)| Some((column_of.iter().find(|&&(w, _)| w == v)?.1, x)))
        .collect::<Option<Vec<_>>>()?;
    Some(View {
        head: rel,
        source,
        columns,
        filters,
        exclusions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datalog::parser::parse_str;
    use crate::datalog::resolve::resolve;

    fn program(rules: &str) -> Program {
        let text = format!(
            "V 8\nI 8\nZ 4\n\
             actual (invoke:I, num:Z, variable:V) input\n\
             A (dest:V, source:V) input\n\
             copy (invoke:I0, num:Z0, variable:V2)\n\
             receiver (invoke:I0, variable:V3)\n\
             twice (a:V0, b:V1)\n\
             {rules}"
        );
        resolve(&parse_str(&text, "t.dl", std::path::Path::new(".")).unwrap()).unwrap()
    }

    #[test]
    fn copies_and_selections_of_a_stored_relation_are_taken_and_other_rules_stay() {
        let mut prog = program(
            "copy(i, z, v) :- actual(i, z, v).\n\
             receiver(i, v) :- actual(i, 0, v).\n\
             twice(a, b) :- A(a, b).\n\
             twice(a, b) :- A(b, a).\n",
        );
        let actual = prog.relation_id("actual").unwrap();
        let a = prog.relation_id("A").unwrap();
        let copies = take_views(&mut prog, |r| r == actual || r == a);
        assert_eq!(
            copies,
            vec![
                View {
                    head: prog.relation_id("copy").unwrap(),
                    source: actual,
                    columns: vec![0, 1, 2],
                    filters: vec![],
                    exclusions: vec![],
                },
                View {
                    head: prog.relation_id("receiver").unwrap(),
                    source: actual,
                    columns: vec![0, 2],
                    filters: vec![(1, 0)],
                    exclusions: vec![],
                },
            ]
        );
        // `twice` has two rules: both stay.
        assert_eq!(prog.rules.len(), 2);
        assert_eq!(
            copies[1].rows(&[5, 0, 1, 5, 1, 2, 6, 0, 3], 3),
            vec![5, 1, 6, 3]
        );
    }

    #[test]
    fn a_view_leaves_out_the_rows_where_a_variable_is_a_constant() {
        let mut prog = program(
            "receiver(i, v) :- actual(i, z, v), z != 0, 2 != v.\n\
             twice(a, b) :- A(a, b), a != b.\n",
        );
        let actual = prog.relation_id("actual").unwrap();
        let a = prog.relation_id("A").unwrap();
        let views = take_views(&mut prog, |r| r == actual || r == a);
        assert_eq!(
            views,
            vec![View {
                head: prog.relation_id("receiver").unwrap(),
                source: actual,
                columns: vec![0, 2],
                filters: vec![],
                exclusions: vec![(1, 0), (2, 2)],
            }]
        );
        // `a != b` compares two variables: the rule stays.
        assert_eq!(prog.rules.len(), 1);
        assert_eq!(
            views[0].rows(&[5, 0, 1, 5, 1, 2, 6, 1, 3, 7, 2, 4], 3),
            vec![6, 3, 7, 4]
        );
    }

    #[test]
    fn rules_that_join_or_compare_stay() {
        let mut prog = program(
            "copy(i, z, v) :- actual(i, z, v), A(v, v).\n\
             receiver(i, v) :- actual(i, z, v), z < 2.\n\
             twice(a, a) :- A(a, a).\n",
        );
        let (actual, a) = (
            prog.relation_id("actual").unwrap(),
            prog.relation_id("A").unwrap(),
        );
        assert!(take_views(&mut prog, |r| r == actual || r == a).is_empty());
        assert_eq!(prog.rules.len(), 3);
    }
}
