//! Sets of BDD variables: the variables a product quantifies, or a
//! domain instance's block.

use biodivine_lib_bdd::BddVariable;

/// A set of BDD variables, stored densely for fast membership tests.
///
/// A member may be *fixed* to a value ([`VarSet::fix`]): a product that
/// quantifies it then takes only that branch of its operands, `∃v. (v = b)
/// ∧ F`, which restricts a relation to a constant in the same pass that
/// joins it (`planner::in_place`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarSet {
    /// Per variable: 0 absent, 1 a member, 2 and 3 a member fixed to
    /// `false` and `true`.
    member: Vec<u8>,
    len: usize,
}

/// A member that is not fixed.
const FREE: u8 = 1;
/// The first of the two states of a fixed member (`FIXED + value`).
const FIXED: u8 = 2;

/// What a product does with a variable of its quantified set
/// ([`VarSet::projection`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Projection {
    /// Not in the set: the variable stays in the result.
    Kept,
    /// In the set: both branches are united.
    Any,
    /// In the set, fixed to a value: only that branch is taken.
    Fixed(bool),
}

impl VarSet {
    /// The empty set over `num_vars` variables.
    pub fn new(num_vars: u16) -> Self {
        VarSet {
            member: vec![0; num_vars as usize],
            len: 0,
        }
    }

    /// A set holding the given variables.
    pub fn of(num_vars: u16, vars: impl IntoIterator<Item = BddVariable>) -> Self {
        let mut s = VarSet::new(num_vars);
        s.extend(vars);
        s
    }

    /// Adds a variable (one already fixed stays fixed).
    pub fn insert(&mut self, v: BddVariable) {
        let slot = &mut self.member[v.to_index()];
        if *slot == 0 {
            *slot = FREE;
            self.len += 1;
        }
    }

    /// Adds a variable fixed to `value`.
    pub fn fix(&mut self, v: BddVariable, value: bool) {
        let slot = &mut self.member[v.to_index()];
        if *slot == 0 {
            self.len += 1;
        }
        *slot = FIXED + u8::from(value);
    }

    /// Adds several variables.
    pub fn extend(&mut self, vars: impl IntoIterator<Item = BddVariable>) {
        for v in vars {
            self.insert(v);
        }
    }

    /// Adds the members of `other`, with their fixed values.
    pub fn union_with(&mut self, other: &VarSet) {
        for (slot, &o) in self.member.iter_mut().zip(&other.member) {
            if o == 0 {
                continue;
            }
            if *slot == 0 {
                self.len += 1;
            }
            *slot = (*slot).max(o);
        }
    }

    /// Whether `v` is in the set.
    #[inline]
    pub fn contains(&self, v: BddVariable) -> bool {
        self.member[v.to_index()] != 0
    }

    /// What a product that quantifies the set does with `v` (one read, on
    /// the products' hot path).
    #[inline]
    pub fn projection(&self, v: BddVariable) -> Projection {
        match self.member[v.to_index()] {
            0 => Projection::Kept,
            FREE => Projection::Any,
            m => Projection::Fixed(m == FIXED + 1),
        }
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
            .filter(|(_, m)| **m != 0)
            .map(|(i, _)| BddVariable::from_index(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fixed members keep their values through inserts and unions.
    #[test]
    fn fixed_members_keep_their_values() {
        let v = BddVariable::from_index;
        let mut a = VarSet::of(6, [v(0), v(1)]);
        a.fix(v(2), true);
        a.insert(v(2));
        let mut b = VarSet::new(6);
        b.fix(v(1), false);
        b.insert(v(4));
        a.union_with(&b);
        assert_eq!(a.len(), 4);
        assert_eq!(
            a.iter().map(|x| x.to_index()).collect::<Vec<_>>(),
            [0, 1, 2, 4]
        );
        let fixed: Vec<Option<bool>> = (0..6)
            .map(|i| match a.projection(v(i)) {
                Projection::Fixed(value) => Some(value),
                _ => None,
            })
            .collect();
        assert_eq!(fixed, [None, Some(false), Some(true), None, None, None]);
    }
}
