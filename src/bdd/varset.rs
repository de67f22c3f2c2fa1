//! Sets of BDD variables: the variables a product quantifies, or a
//! domain instance's block.

use biodivine_lib_bdd::BddVariable;

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
