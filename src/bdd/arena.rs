//! The one node arena every BDD operation builds its result in.
//!
//! biodivine-lib-bdd keeps every [`Bdd`] as its own array of nodes, with no
//! shared node table. An operation here builds its result in an [`Arena`]:
//! reduced, hash-consed nodes appended in post-order (children before
//! parents, the terminals first), which is the order biodivine stores a
//! [`Bdd`] in, so the result is handed over by one copy of the array
//! ([`Bdd::from_nodes`] takes a slice). The apply operations
//! ([`super::apply`]) create nodes with [`Arena::mk`]; reordering a BDD
//! into another variable order, building a BDD from sorted tuples and
//! non-monotone renames use [`Arena::ite_var`], which places a variable
//! below children that test earlier ones.

use super::tables::UniqueTable;
use biodivine_lib_bdd::{Bdd, BddNode, BddPointer, BddVariable};
use fxhash::FxHashMap;
use std::borrow::Cow;

/// A growing array of reduced, shared BDD nodes over `num_vars` variables.
pub struct Arena {
    nodes: Vec<BddNode>,
    unique: UniqueTable,
    /// The computed table of [`Arena::ite_var`], keyed by the variable and
    /// both children. Exact, as before the arenas were one: with the lossy
    /// computed table in its place (cf584a4), the quick start took 1.10
    /// and 1.19 times f2b2134's time (one pair alone in each order); with
    /// this map (ad2945b) it took 0.997 times 35cdebd's, the commit before
    /// the arenas were merged (`scripts/bench-compare.sh`, 3 pairs).
    ite_memo: FxHashMap<(u16, u32, u32), BddPointer>,
    /// Whether nodes may have become unreachable from the result (an `or`
    /// of partial results leaves its operands behind, and an arena that
    /// starts as an operand's nodes replaces some of them).
    garbage: bool,
}

/// Raised when a variable map sends a variable onto one that is still below it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("variable {0} cannot be placed: the map is not injective on the BDD's support")]
pub struct CollisionError(pub u16);

impl Arena {
    /// An empty arena (holding just the two terminals).
    pub fn new(num_vars: u16) -> Self {
        Arena::with_capacity(num_vars, 0)
    }

    /// An empty arena with room for about `nodes` nodes before its unique
    /// table grows.
    pub fn with_capacity(num_vars: u16, nodes: usize) -> Self {
        let mut arena = Vec::with_capacity(nodes + 2);
        arena.push(BddNode::mk_zero(num_vars));
        arena.push(BddNode::mk_one(num_vars));
        Arena {
            nodes: arena,
            unique: UniqueTable::new(nodes),
            ite_memo: FxHashMap::default(),
            garbage: false,
        }
    }

    /// An arena that starts as `bdd`'s own nodes, for an operation whose
    /// result keeps them wherever its other operands leave them as they
    /// stand; `hint` is the expected number of new nodes. An owned `bdd`
    /// lends its node array.
    pub fn starting_from(bdd: Cow<Bdd>, hint: usize) -> Self {
        let nodes = bdd.into_owned().to_nodes();
        let unique = UniqueTable::of_distinct(&nodes, hint);
        Arena::from_parts(nodes, unique)
    }

    /// An arena over `nodes` whose unique table `unique` already records
    /// each of them (kept from the merge that built them, see
    /// [`super::apply::or_growing`]): nothing is hashed again.
    pub(crate) fn from_parts(nodes: Vec<BddNode>, unique: UniqueTable) -> Self {
        Arena {
            nodes,
            unique,
            ite_memo: FxHashMap::default(),
            garbage: true,
        }
    }

    /// The node array and its unique table, the arena given up.
    pub(crate) fn into_parts(self) -> (Vec<BddNode>, UniqueTable) {
        (self.nodes, self.unique)
    }

    /// The number of nodes stored, terminals and garbage included.
    #[inline]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Node `p` as it is stored.
    #[inline]
    pub fn node(&self, p: BddPointer) -> BddNode {
        self.nodes[p.to_index()]
    }

    /// Notes that nodes may have become unreachable from the result, so
    /// that [`Arena::finish`] drops them.
    #[inline]
    pub fn leave_garbage(&mut self) {
        self.garbage = true;
    }

    /// The variable a node tests (`num_vars` for terminals).
    #[inline]
    pub fn var_of(&self, p: BddPointer) -> u16 {
        self.nodes[p.to_index()].var.to_index() as u16
    }

    /// The low child of a node.
    #[inline]
    pub fn low(&self, p: BddPointer) -> BddPointer {
        self.nodes[p.to_index()].low_link
    }

    /// The high child of a node.
    #[inline]
    pub fn high(&self, p: BddPointer) -> BddPointer {
        self.nodes[p.to_index()].high_link
    }

    /// The reduced node `var ? high : low`. Both children must test later
    /// variables than `var`.
    #[inline]
    pub fn mk(&mut self, var: u16, low: BddPointer, high: BddPointer) -> BddPointer {
        if low == high {
            return low;
        }
        debug_assert!(self.var_of(low) > var && self.var_of(high) > var);
        let node = BddNode::mk_node(BddVariable::from_index(var as usize), low, high);
        self.unique.find_or_insert(&mut self.nodes, node)
    }

    /// `var ? high : low` where the children may test variables above `var`
    /// (BuDDy's "correctify"): `var` is pushed down to its place.
    pub fn ite_var(
        &mut self,
        var: u16,
        low: BddPointer,
        high: BddPointer,
    ) -> Result<BddPointer, CollisionError> {
        if low == high {
            return Ok(low);
        }
        let (lv, hv) = (self.var_of(low), self.var_of(high));
        if var < lv && var < hv {
            return Ok(self.mk(var, low, high));
        }
        if var == lv || var == hv {
            return Err(CollisionError(var));
        }
        let key = (var, low.to_index() as u32, high.to_index() as u32);
        if let Some(p) = self.ite_memo.get(&key) {
            return Ok(*p);
        }
        let top = lv.min(hv);
        let (l0, l1) = self.cofactors(low, top);
        let (h0, h1) = self.cofactors(high, top);
        let r0 = self.ite_var(var, l0, h0)?;
        let r1 = self.ite_var(var, l1, h1)?;
        let r = self.mk(top, r0, r1);
        let cap = self.ite_memo.capacity();
        if self.ite_memo.len() == cap {
            // The map is about to double and rehash in one step, gigabytes
            // on a relayout of a whole-JDK relation: ask the budget first.
            let entry = std::mem::size_of::<((u16, u32, u32), BddPointer)>() + 1;
            crate::interrupt::reserve((cap.max(16) * 2 * entry) as u64);
        }
        self.ite_memo.insert(key, r);
        Ok(r)
    }

    fn cofactors(&self, p: BddPointer, var: u16) -> (BddPointer, BddPointer) {
        if self.var_of(p) == var {
            (self.low(p), self.high(p))
        } else {
            (p, p)
        }
    }

    /// Copies a [`Bdd`] into the arena, sending each variable `v` to `map(v)`.
    /// The map may reorder variables; it must be injective on the support.
    pub fn import_mapped(
        &mut self,
        bdd: &Bdd,
        map: impl Fn(BddVariable) -> u16,
    ) -> Result<BddPointer, CollisionError> {
        if bdd.is_false() {
            return Ok(BddPointer::zero());
        }
        if bdd.is_true() {
            return Ok(BddPointer::one());
        }
        // biodivine stores nodes in post-order: children before parents.
        let mut translated = vec![BddPointer::zero(); bdd.size()];
        translated[1] = BddPointer::one();
        for i in 2..bdd.size() {
            let p = BddPointer::from_index(i);
            let low = translated[bdd.low_link_of(p).to_index()];
            let high = translated[bdd.high_link_of(p).to_index()];
            translated[i] = self.ite_var(map(bdd.var_of(p)), low, high)?;
        }
        Ok(translated[bdd.size() - 1])
    }

    /// Extracts the BDD rooted at `root` as a standalone [`Bdd`].
    pub fn export(&self, root: BddPointer) -> Bdd {
        export_post_order(&self.nodes, root, false)
    }

    /// The BDD rooted at `root`, the arena given up: without the nodes
    /// `root` does not reach, which are found only where the arena may
    /// hold garbage.
    pub fn finish(self, root: BddPointer) -> Bdd {
        // Without garbage, everything below the last node is reachable
        // from it.
        let whole = !self.garbage && root.to_index() + 1 == self.nodes.len();
        export_post_order(&self.nodes, root, whole)
    }
}

/// The BDD rooted at `root` in `nodes`, an array in post-order (children
/// before parents, the terminals first), as every arena here builds it:
/// a node can only link to nodes that exist. One backward pass marks what
/// `root` reaches and one forward pass renumbers it, unless `whole` says
/// that `nodes[..=root]` is all reachable.
pub(crate) fn export_post_order(nodes: &[BddNode], root: BddPointer, whole: bool) -> Bdd {
    let num_vars = nodes[0].var.to_index() as u16;
    if root.is_zero() {
        return mk_false(num_vars);
    }
    if root.is_one() {
        return mk_true(num_vars);
    }
    let r = root.to_index();
    if whole {
        return Bdd::from_nodes(&nodes[..=r]).expect("the arena holds ordered nodes in post-order");
    }
    let out = reachable_post_order(nodes, root);
    Bdd::from_nodes(&out).expect("the arena holds ordered nodes in post-order")
}

/// The nodes that `root` reaches in `nodes` (an arena in post-order), in
/// post-order with the terminals first: `root` is the last unless it is a
/// terminal.
pub(crate) fn reachable_post_order(nodes: &[BddNode], root: BddPointer) -> Vec<BddNode> {
    let r = root.to_index();
    if r < 2 {
        return nodes[..2].to_vec();
    }
    let mut reachable = vec![false; r + 1];
    reachable[r] = true;
    for i in (2..=r).rev() {
        if reachable[i] {
            reachable[nodes[i].low_link.to_index()] = true;
            reachable[nodes[i].high_link.to_index()] = true;
        }
    }
    let mut index = vec![BddPointer::zero(); r + 1];
    index[1] = BddPointer::one();
    let mut out = Vec::with_capacity(reachable.iter().filter(|&&x| x).count() + 2);
    out.extend_from_slice(&nodes[..2]);
    for i in 2..=r {
        if reachable[i] {
            let n = nodes[i];
            index[i] = BddPointer::from_index(out.len());
            out.push(BddNode::mk_node(
                n.var,
                index[n.low_link.to_index()],
                index[n.high_link.to_index()],
            ));
        }
    }
    out
}

/// The constant `false` over `num_vars` variables.
pub fn mk_false(num_vars: u16) -> Bdd {
    Bdd::from_nodes(&[BddNode::mk_zero(num_vars)]).expect("valid constant")
}

/// The constant `true` over `num_vars` variables.
pub fn mk_true(num_vars: u16) -> Bdd {
    Bdd::from_nodes(&[BddNode::mk_zero(num_vars), BddNode::mk_one(num_vars)])
        .expect("valid constant")
}

#[cfg(test)]
mod tests {
    use super::*;
    use biodivine_lib_bdd::BddVariableSet;

    #[test]
    fn import_export_round_trip() {
        let vars = BddVariableSet::new_anonymous(4);
        let f = vars.eval_expression_string("(x_0 & x_2) | !x_3");
        let mut b = Arena::new(4);
        let r = b.import_mapped(&f, |v| v.to_index() as u16).unwrap();
        assert_eq!(b.export(r), f);
    }

    #[test]
    fn reordering_import_swaps_variables() {
        let vars = BddVariableSet::new_anonymous(4);
        let f = vars.eval_expression_string("(x_0 & !x_1) | (x_2 & x_3)");
        let expected = vars.eval_expression_string("(x_3 & !x_2) | (x_1 & x_0)");
        let mut b = Arena::new(4);
        let r = b.import_mapped(&f, |v| 3 - v.to_index() as u16).unwrap();
        assert_eq!(b.export(r), expected);
    }
}
