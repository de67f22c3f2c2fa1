//! Splitting a relation into disjoint parts, so that a join driven by it
//! can run on several threads: `∃q. (a₁ ∨ a₂) ∧ b = (∃q. a₁ ∧ b) ∨ (∃q. a₂ ∧ b)`.

use super::arena::reachable_post_order;
use biodivine_lib_bdd::{Bdd, BddNode, BddPointer, BddVariable};

/// Splits `bdd` into at most `max_parts` disjoint, non-empty BDDs whose
/// union is `bdd`, cutting the largest part at its first node where both
/// branches are non-empty while it has at least `min_nodes` nodes. A BDD
/// smaller than that comes back whole.
pub fn partition(bdd: &Bdd, max_parts: usize, min_nodes: usize) -> Vec<Bdd> {
    let mut parts = vec![bdd.clone()];
    while parts.len() < max_parts {
        let Some((largest, _)) = parts
            .iter()
            .enumerate()
            .filter(|(_, p)| p.size() >= min_nodes)
            .max_by_key(|(_, p)| p.size())
        else {
            break;
        };
        let Some((low, high)) = split(&parts[largest]) else {
            break;
        };
        parts[largest] = low;
        parts.push(high);
    }
    parts
}

/// The two halves of `bdd` under the variable of its first node with two
/// non-empty branches; `None` for a single path.
///
/// Every path passes that node, and the nodes above it each have one
/// empty branch, so each half is the path above, that node with one of
/// its branches emptied, and the other branch's nodes as they are: two
/// copies, where an `and` with the literal would hash every node again.
fn split(bdd: &Bdd) -> Option<(Bdd, Bdd)> {
    let nodes = bdd.clone().to_nodes();
    // The path down to the node, and which branch each of its nodes keeps.
    let mut path: Vec<(BddVariable, bool)> = Vec::new();
    let mut p = bdd.root_pointer();
    while !p.is_terminal() {
        let n = nodes[p.to_index()];
        if n.low_link.is_zero() {
            path.push((n.var, true));
            p = n.high_link;
        } else if n.high_link.is_zero() {
            path.push((n.var, false));
            p = n.low_link;
        } else {
            let half = |high: bool| {
                let child = if high { n.high_link } else { n.low_link };
                let mut out = reachable_post_order(&nodes, child);
                // The child is the last node (the `true` terminal's index
                // for `true`).
                let mut top = BddPointer::from_index(out.len() - 1);
                for &(var, keeps_high) in std::iter::once(&(n.var, high)).chain(path.iter().rev()) {
                    let (low, high) = if keeps_high {
                        (BddPointer::zero(), top)
                    } else {
                        (top, BddPointer::zero())
                    };
                    out.push(BddNode::mk_node(var, low, high));
                    top = BddPointer::from_index(out.len() - 1);
                }
                Bdd::from_nodes(&out).expect("the half is in post-order")
            };
            return Some((half(false), half(true)));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use biodivine_lib_bdd::BddVariableSet;

    #[test]
    fn parts_are_disjoint_and_cover_the_relation() {
        let vars = BddVariableSet::new_anonymous(6);
        for e in [
            "(x_0 & !x_3) | x_5",
            "(x_1 | x_2) & (x_4 <=> x_5)",
            "x_0 ^ x_1 ^ x_2 ^ x_5",
            "x_0 & x_1 & (x_2 | x_3)",
        ] {
            let f = vars.eval_expression_string(e);
            let parts = partition(&f, 4, 1);
            assert!(parts.len() > 1, "{e}");
            let mut union = vars.mk_false();
            for (i, p) in parts.iter().enumerate() {
                assert!(!p.is_false());
                // Canonical: as small as biodivine's copy of it.
                assert_eq!(p.size(), p.and(&vars.mk_true()).size(), "{e}");
                for q in &parts[i + 1..] {
                    assert!(p.and(q).is_false());
                }
                union = union.or(p);
            }
            assert!(union.xor(&f).is_false(), "{e}");
        }
        let cube = vars.eval_expression_string("x_0 & !x_1");
        assert_eq!(partition(&cube, 4, 1).len(), 1);
        assert_eq!(partition(&vars.mk_true(), 4, 1).len(), 1);
    }
}
