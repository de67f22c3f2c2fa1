//! Relational product and existential quantification.
//!
//! The relational product `∃V. A ∧ B` is the join of two relations with the
//! join columns (or any other columns) projected away in the same pass.
//! [`super::apply::and_exists`] computes it without materialising `A ∧ B`.

use biodivine_lib_bdd::{Bdd, BddVariable};

/// A set of BDD variables, stored densely for fast membership tests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarSet {
    member: Vec<bool>,
    len: usize,
}

impl VarSet {
    /// The empty set over `num_vars` variables.
    pub fn new(num_vars: u16) -> Self {
        VarSet {
            member: vec![false; num_vars as usize],
            len: 0,
        }
    }

    /// A set holding the given variables.
    pub fn of(num_vars: u16, vars: impl IntoIterator<Item = BddVariable>) -> Self {
        let mut s = VarSet::new(num_vars);
        s.extend(vars);
        s
    }

    /// Adds a variable.
    pub fn insert(&mut self, v: BddVariable) {
        let slot = &mut self.member[v.to_index()];
        if !*slot {
            *slot = true;
            self.len += 1;
        }
    }

    /// Adds several variables.
    pub fn extend(&mut self, vars: impl IntoIterator<Item = BddVariable>) {
        for v in vars {
            self.insert(v);
        }
    }

    /// Whether `v` is in the set.
    #[inline]
    pub fn contains(&self, v: BddVariable) -> bool {
        self.member[v.to_index()]
    }

    /// The number of variables in the set.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The variables, in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = BddVariable> + '_ {
        self.member
            .iter()
            .enumerate()
            .filter(|(_, m)| **m)
            .map(|(i, _)| BddVariable::from_index(i))
    }
}

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
    use biodivine_lib_bdd::BddVariableSet;

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
