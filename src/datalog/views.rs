//! Views: rules that only copy a stored relation into another layout,
//! built from the stored rows instead of evaluated.
//!
//! A program may keep copies of an input relation with its variables in
//! other blocks (`actualOfI(i, z, v) :- actual(i, z, v).`, or with a
//! selection, `receiverOfI(i, v) :- actual(i, 0, v).`), so that the joins
//! that read them keep the variable order. Evaluated, each such rule is a
//! rename that cannot keep the order: for the whole JDK, the copies of
//! `actual` alone took 14 s. Their tuples are the stored relation's, so
//! [`take_views`] removes such rules from the program, and whoever holds
//! the stored rows (`refract analyze`'s driver, with the facts in memory)
//! encodes each view's head from them in the head's own layout.

use super::program::{Literal, Program, RelId, Term};

/// A rule `H(x1, ..., xn) :- S(t1, ..., tm).` over a stored relation `S`,
/// whose terms are distinct variables, constants or `_`, and whose head
/// lists distinct variables of the body: `H` holds the tuples of `S` that
/// match the constants, projected on the head's variables.
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
}

impl View {
    /// The head's rows from the stored rows (of arity `arity`), flat.
    pub fn rows(&self, stored_rows: &[u32], arity: usize) -> Vec<u32> {
        let mut out = Vec::new();
        for t in stored_rows.chunks_exact(arity) {
            if self.filters.iter().all(|&(c, v)| u64::from(t[c]) == v) {
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
        let [Literal::Pos(body)] = rule.body.as_slice() else {
            continue;
        };
        if !stored(body.rel) {
            continue;
        }
        if let Some(view) = view_of(&rule.head.args, &body.args, head, body.rel) {
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

/// The view that a rule with these head and body terms defines, if it
/// is one.
fn view_of(head: &[Term], body: &[Term], rel: RelId, source: RelId) -> Option<View> {
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
    Some(View {
        head: rel,
        source,
        columns,
        filters,
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
                },
                View {
                    head: prog.relation_id("receiver").unwrap(),
                    source: actual,
                    columns: vec![0, 2],
                    filters: vec![(1, 0)],
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
    fn rules_that_join_or_compare_stay() {
        let mut prog = program(
            "copy(i, z, v) :- actual(i, z, v), A(v, v).\n\
             twice(a, a) :- A(a, a).\n",
        );
        let (actual, a) = (
            prog.relation_id("actual").unwrap(),
            prog.relation_id("A").unwrap(),
        );
        assert!(take_views(&mut prog, |r| r == actual || r == a).is_empty());
        assert_eq!(prog.rules.len(), 2);
    }
}
