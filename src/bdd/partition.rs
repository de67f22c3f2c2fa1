//! Splitting a relation into disjoint parts, so that a join driven by it
//! can run on several threads: `∃q. (a₁ ∨ a₂) ∧ b = (∃q. a₁ ∧ b) ∨ (∃q. a₂ ∧ b)`.

use super::apply;
use super::encode::value_bdd;
use biodivine_lib_bdd::Bdd;

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
fn split(bdd: &Bdd) -> Option<(Bdd, Bdd)> {
    let mut p = bdd.root_pointer();
    while !p.is_terminal() {
        let (low, high) = (bdd.low_link_of(p), bdd.high_link_of(p));
        if low.is_zero() {
            p = high;
        } else if high.is_zero() {
            p = low;
        } else {
            let var = bdd.var_of(p);
            let literal = value_bdd(bdd.num_vars(), &[var], 1);
            return Some((apply::and_not(bdd, &literal), apply::and(bdd, &literal)));
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
