//! Rules that only copy a fact relation into another layout, encoded
//! straight from the facts instead of evaluated.
//!
//! The analysis keeps per-call copies of some facts with their variables
//! in other blocks (`actualOfI(i, z, v) :- actual(i, z, v).`, or with a
//! selection, `receiverOfI(i, v) :- actual(i, 0, v).`). Evaluated, each is
//! a rename that cannot keep the variable order: for the whole JDK the
//! copies of `actual` alone took 14 s. Their tuples are the fact's, so
//! [`take_fact_copies`] removes such rules from the program and the driver
//! encodes their heads from the fact tuples in the heads' own layout.

use crate::datalog::program::{Literal, Program, RelId, Term};
use crate::facts::schema::RELATIONS;

/// A rule `H(x1, ..., xn) :- F(t1, ..., tm).` over a fact relation `F`,
/// whose terms are distinct variables, constants or `_`, and whose head
/// lists distinct variables of the body: `H` holds the tuples of `F` that
/// match the constants, projected on the head's variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FactCopy {
    /// The head relation.
    pub head: RelId,
    /// The fact relation, as an index into [`RELATIONS`].
    pub fact: usize,
    /// For each head attribute, the fact column it copies.
    pub columns: Vec<usize>,
    /// `(column, value)`: the fact's columns that must hold a constant.
    pub filters: Vec<(usize, u64)>,
}

impl FactCopy {
    /// The head's rows from the fact's rows (of arity `arity`), flat.
    pub fn rows(&self, fact_rows: &[u32], arity: usize) -> Vec<u32> {
        let mut out = Vec::new();
        for t in fact_rows.chunks_exact(arity) {
            if self.filters.iter().all(|&(c, v)| u64::from(t[c]) == v) {
                out.extend(self.columns.iter().map(|&c| t[c]));
            }
        }
        out
    }
}

/// Removes from `prog` the rules that copy a fact relation (see
/// [`FactCopy`]) into a relation no other rule derives and no input
/// declares, and returns them.
pub fn take_fact_copies(prog: &mut Program) -> Vec<FactCopy> {
    let mut found: Vec<(usize, FactCopy)> = Vec::new();
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
        let Some(fact) = RELATIONS
            .iter()
            .position(|s| s.name == prog.relations[body.rel].name)
        else {
            continue;
        };
        if let Some(copy) = copy_of(&rule.head.args, &body.args, head, fact) {
            found.push((k, copy));
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
    found.into_iter().map(|(_, c)| c).collect()
}

fn copy_of(head: &[Term], body: &[Term], rel: RelId, fact: usize) -> Option<FactCopy> {
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
    Some(FactCopy {
        head: rel,
        fact,
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
    fn copies_and_selections_are_taken_and_other_rules_stay() {
        let mut prog = program(
            "copy(i, z, v) :- actual(i, z, v).\n\
             receiver(i, v) :- actual(i, 0, v).\n\
             twice(a, b) :- A(a, b).\n\
             twice(a, b) :- A(b, a).\n",
        );
        let copies = take_fact_copies(&mut prog);
        let actual = RELATIONS.iter().position(|s| s.name == "actual").unwrap();
        assert_eq!(
            copies,
            vec![
                FactCopy {
                    head: prog.relation_id("copy").unwrap(),
                    fact: actual,
                    columns: vec![0, 1, 2],
                    filters: vec![],
                },
                FactCopy {
                    head: prog.relation_id("receiver").unwrap(),
                    fact: actual,
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
        assert!(take_fact_copies(&mut prog).is_empty());
        assert_eq!(prog.rules.len(), 2);
    }
}
