//! Relational product and existential quantification.
//!
//! The relational product `∃V. A ∧ B` is the join of two relations with the
//! join columns (or any other columns) projected away in the same pass.
//! [`super::apply::and_exists`] computes it without materialising `A ∧ B`.

use super::varset::VarSet;
use biodivine_lib_bdd::Bdd;

/// `∃ quantify. a ∧ b`, in one pass (see [`super::apply`]).
pub fn relprod(a: &Bdd, b: &Bdd, quantify: &VarSet) -> Bdd {
    if quantify.is_empty() {
        return super::apply::and(a, b);
    }
    super::apply::and_exists(a, b, quantify)
}

/// `∃ quantify. a`, in one pass.
pub fn exists(a: &Bdd, quantify: &VarSet) -> Bdd {
    super::apply::exists(a, quantify)
}

#[cfg(test)]
mod tests {
    use super::*;
    use biodivine_lib_bdd::{BddVariable, BddVariableSet};

    #[test]
    fn relprod_joins_and_projects() {
        let vars = BddVariableSet::new_anonymous(3);
        let a = vars.eval_expression_string("x_0 & x_1");
        let b = vars.eval_expression_string("x_1 <=> x_2");
        let q = VarSet::of(3, [BddVariable::from_index(1)]);
        assert_eq!(
            relprod(&a, &b, &q),
            vars.eval_expression_string("x_0 & x_2")
        );
        assert_eq!(exists(&a, &q), vars.eval_expression_string("x_0"));
    }
}
