//! Moving a relation between domain instances (`V1` → `V0`).
//!
//! When the rename keeps the relative order of the BDD's support variables,
//! it is a relabelling of nodes: linear time, no new nodes. Otherwise the
//! BDD is rebuilt in the new order with [`Arena::ite_var`], which is
//! correct for any injective map.

use super::arena::{Arena, CollisionError};
use super::decode::{count, for_each_tuple};
use super::encode::from_bit_rows;
use biodivine_lib_bdd::{Bdd, BddPointer, BddVariable};
use num_bigint::BigUint;
use std::ops::ControlFlow;

/// Relations up to this many assignments of their support are moved by
/// enumerating them and building the result bottom-up from sorted rows
/// (see [`ENUMERATION_PER_NODE`]).
const ENUMERATION_LIMIT: u64 = 1 << 23;

/// ... and only when they have at most this many assignments per node.
///
/// Enumeration costs in proportion to the tuples, rebuilding in
/// proportion to the nodes and to how far variables move. Both were
/// timed on every reordering rename of two runs (2-core EPYC, 2026-11-27):
///
/// - the quick start against the whole JDK (10,738 renames): rebuilding
///   took 70.5 s in all, enumerating 6.7 s. Its worst cases have fewer
///   tuples than nodes (308,267 tuples in 1.2 million nodes: 22.5 s
///   rebuilt, 1.3 s enumerated), the widest ratio that enumeration still
///   won was 12.5 (5.1 million tuples in 406,022 nodes: 3.1 s against
///   1.2 s);
/// - bddbddb's c_pa (1,194 renames): rebuilding took 0.22 s, enumerating
///   27.1 s, with up to 1,500 tuples per node (2.9 million tuples in
///   1,858 nodes: 1.7 ms rebuilt, 1.27 s enumerated). Enumerating every
///   relation under the limit had made c_pa 2.1 times slower (23.8 s
///   against 11.5 s).
///
/// With 16 per node, the renames cost 6.7 s and 0.7 s: within 0.5 s of
/// the better method on each.
const ENUMERATION_PER_NODE: u64 = 16;

/// Renames variables of `bdd`: each `(from, to)` pair sends `from` to `to`;
/// other variables stay. The map must be injective on the BDD's support.
pub fn rename(bdd: &Bdd, pairs: &[(BddVariable, BddVariable)]) -> Result<Bdd, CollisionError> {
    if pairs.is_empty() || bdd.is_false() || bdd.is_true() {
        return Ok(bdd.clone());
    }
    let map = variable_map(bdd, pairs);
    if preserves_order(bdd, &map) {
        return Ok(relabel(bdd.clone(), &map));
    }
    rebuild(bdd, &map)
}

/// [`rename`] of a BDD the caller no longer needs: an order-preserving
/// rename relabels its own nodes instead of a copy.
pub fn rename_owned(bdd: Bdd, pairs: &[(BddVariable, BddVariable)]) -> Result<Bdd, CollisionError> {
    if pairs.is_empty() || bdd.is_false() || bdd.is_true() {
        return Ok(bdd);
    }
    let map = variable_map(&bdd, pairs);
    if preserves_order(&bdd, &map) {
        return Ok(relabel(bdd, &map));
    }
    rebuild(&bdd, &map)
}

/// The map from each variable to its new place.
fn variable_map(bdd: &Bdd, pairs: &[(BddVariable, BddVariable)]) -> Vec<u16> {
    let mut map: Vec<u16> = (0..bdd.num_vars()).collect();
    for &(from, to) in pairs {
        map[from.to_index()] = to.to_index() as u16;
    }
    map
}

/// The nodes of `bdd` with their variables moved by an order-preserving
/// `map`: one pass over the nodes, and one copy into the result
/// ([`Bdd::from_nodes`] takes a slice).
fn relabel(bdd: Bdd, map: &[u16]) -> Bdd {
    let mut nodes = bdd.to_nodes();
    for node in nodes.iter_mut().skip(2) {
        node.var = BddVariable::from_index(map[node.var.to_index()] as usize);
    }
    // The order is preserved, so the node array stays a valid BDD.
    Bdd::from_nodes(&nodes).expect("order-preserving rename keeps a valid BDD")
}

/// A rename that does not preserve the order: the BDD rebuilt in the new
/// one.
fn rebuild(bdd: &Bdd, map: &[u16]) -> Result<Bdd, CollisionError> {
    if let Some(b) = rebuild_by_enumeration(bdd, map, bdd.num_vars())? {
        return Ok(b);
    }
    let mut builder = Arena::with_capacity(bdd.num_vars(), bdd.size());
    let root = builder.import_mapped(bdd, |v| map[v.to_index()])?;
    Ok(builder.export(root))
}

/// Moves a BDD with few satisfying assignments (over its support, and
/// per node) by listing them with their bits permuted, then building from
/// sorted rows. `None` when there are too many.
fn rebuild_by_enumeration(
    bdd: &Bdd,
    map: &[u16],
    num_vars: u16,
) -> Result<Option<Bdd>, CollisionError> {
    let mut in_support = vec![false; bdd.num_vars() as usize];
    for i in 2..bdd.size() {
        in_support[bdd.var_of(BddPointer::from_index(i)).to_index()] = true;
    }
    let support: Vec<BddVariable> = (0..in_support.len())
        .filter(|&v| in_support[v])
        .map(BddVariable::from_index)
        .collect();
    let limit = ENUMERATION_LIMIT.min(ENUMERATION_PER_NODE.saturating_mul(bdd.size() as u64));
    if count(bdd, &support) > BigUint::from(limit) {
        return Ok(None);
    }
    // The support's new variables in level order, and each old variable's
    // position among them.
    let mut targets: Vec<(u16, usize)> = support
        .iter()
        .enumerate()
        .map(|(k, v)| (map[v.to_index()], k))
        .collect();
    targets.sort_unstable();
    if let Some(w) = targets.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(CollisionError(w[0].0));
    }
    let mut position = vec![0usize; support.len()];
    for (pos, &(_, k)) in targets.iter().enumerate() {
        position[k] = pos;
    }
    let vars: Vec<u16> = targets.iter().map(|t| t.0).collect();
    let words = support.len().div_ceil(64).max(1);
    let blocks: Vec<[BddVariable; 1]> = support.iter().map(|v| [*v]).collect();
    let block_refs: Vec<&[BddVariable]> = blocks.iter().map(|b| b.as_slice()).collect();
    let mut keys: Vec<u64> = Vec::new();
    let _ = for_each_tuple(bdd, &block_refs, |t| {
        let start = keys.len();
        keys.resize(start + words, 0);
        for (k, bit) in t.iter().enumerate() {
            if *bit == 1 {
                let p = position[k];
                keys[start + p / 64] |= 1u64 << (63 - p % 64);
            }
        }
        ControlFlow::Continue(())
    });
    Ok(Some(from_bit_rows(num_vars, &vars, &keys, words)))
}

/// Whether `map` keeps the support variables of `bdd` in the same relative
/// order (and distinct).
pub fn preserves_order(bdd: &Bdd, map: &[u16]) -> bool {
    let mut in_support = vec![false; map.len()];
    for i in 2..bdd.size() {
        in_support[bdd.var_of(BddPointer::from_index(i)).to_index()] = true;
    }
    let mut last: Option<u16> = None;
    for (v, _) in in_support.iter().enumerate().filter(|(_, s)| **s) {
        let to = map[v];
        if last.is_some_and(|l| to <= l) {
            return false;
        }
        last = Some(to);
    }
    true
}

/// Moves `bdd` into a layout with `num_vars` variables, sending variable
/// `v` to `map[v]`. Used when a program gains domain instances and every
/// relation must follow its variables to their new places. Linear when the
/// map keeps the order of the support, as adding instances does.
pub fn relayout(bdd: &Bdd, map: &[u16], num_vars: u16) -> Result<Bdd, CollisionError> {
    if bdd.is_false() {
        return Ok(super::arena::mk_false(num_vars));
    }
    if bdd.is_true() {
        return Ok(super::arena::mk_true(num_vars));
    }
    if preserves_order(bdd, map) {
        let mut nodes = bdd.clone().to_nodes();
        for (k, node) in nodes.iter_mut().enumerate() {
            node.var = BddVariable::from_index(if k < 2 {
                num_vars as usize
            } else {
                map[node.var.to_index()] as usize
            });
        }
        return Ok(Bdd::from_nodes(&nodes).expect("order-preserving relayout keeps a valid BDD"));
    }
    if let Some(b) = rebuild_by_enumeration(bdd, map, num_vars)? {
        return Ok(b);
    }
    let mut builder = Arena::with_capacity(num_vars, bdd.size());
    let root = builder.import_mapped(bdd, |v| map[v.to_index()])?;
    Ok(builder.export(root))
}

#[cfg(test)]
mod tests {
    use super::*;
    use biodivine_lib_bdd::BddVariableSet;

    fn v(i: usize) -> BddVariable {
        BddVariable::from_index(i)
    }

    #[test]
    fn monotone_and_general_renames_agree_with_semantics() {
        let vars = BddVariableSet::new_anonymous(4);
        let f = vars.eval_expression_string("x_0 & !x_1");
        // Monotone: 0->2, 1->3.
        let g = rename(&f, &[(v(0), v(2)), (v(1), v(3))]).unwrap();
        assert_eq!(g, vars.eval_expression_string("x_2 & !x_3"));
        // A swap is not monotone.
        let h = rename(&f, &[(v(0), v(1)), (v(1), v(0))]).unwrap();
        assert_eq!(h, vars.eval_expression_string("x_1 & !x_0"));
        // Collisions are reported, not silently merged.
        assert!(rename(&f, &[(v(0), v(1))]).is_err());
        // The owning form does the same, either way.
        assert_eq!(
            rename_owned(f.clone(), &[(v(0), v(2)), (v(1), v(3))]).unwrap(),
            g
        );
        assert_eq!(
            rename_owned(f.clone(), &[(v(0), v(1)), (v(1), v(0))]).unwrap(),
            h
        );
        assert_eq!(rename_owned(f.clone(), &[]).unwrap(), f);
        assert!(rename_owned(f, &[(v(0), v(1))]).is_err());
    }

    #[test]
    fn relayout_moves_relations_into_a_wider_layout() {
        let vars = BddVariableSet::new_anonymous(3);
        let wide = BddVariableSet::new_anonymous(5);
        let f = vars.eval_expression_string("x_0 & !x_2 | x_1");
        let g = relayout(&f, &[0, 2, 4], 5).unwrap();
        assert_eq!(g, wide.eval_expression_string("x_0 & !x_4 | x_2"));
        // Rebuilt node by node: the same function and size as biodivine's
        // (the nodes may be stored in another order).
        let h = relayout(&f, &[4, 2, 0], 5).unwrap();
        let expected = wide.eval_expression_string("x_4 & !x_0 | x_2");
        assert!(h.xor(&expected).is_false());
        assert_eq!(h.size(), expected.size());
    }
}
