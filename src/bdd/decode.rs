//! Reading relations back out of BDDs: exact tuple counts and tuple
//! enumeration.

use biodivine_lib_bdd::{Bdd, BddPointer, BddVariable};
use num_bigint::BigUint;
use std::ops::ControlFlow;

/// The exact number of tuples of a relation whose support lies within
/// `rel_vars`: satisfying assignments counted over those variables only.
pub fn count(bdd: &Bdd, rel_vars: &[BddVariable]) -> BigUint {
    if bdd.is_false() {
        return BigUint::from(0u32);
    }
    // pos[var] = rank of var among the relation variables (terminals: n).
    let n = rel_vars.len();
    let mut pos = vec![usize::MAX; bdd.num_vars() as usize + 1];
    let mut sorted = rel_vars.to_vec();
    sorted.sort_unstable();
    for (i, v) in sorted.iter().enumerate() {
        pos[v.to_index()] = i;
    }
    pos[bdd.num_vars() as usize] = n;
    let rank = |p: BddPointer| pos[bdd.var_of(p).to_index()];
    if n < 127 {
        if let Some(c) = count_u128(bdd, rank) {
            return BigUint::from(c);
        }
    }
    let mut cache: Vec<BigUint> = Vec::with_capacity(bdd.size());
    cache.push(BigUint::from(0u32));
    cache.push(BigUint::from(1u32));
    for i in 2..bdd.size() {
        let p = BddPointer::from_index(i);
        let r = rank(p);
        let (l, h) = (bdd.low_link_of(p), bdd.high_link_of(p));
        let cl = &cache[l.to_index()] << (rank(l) - r - 1);
        let ch = &cache[h.to_index()] << (rank(h) - r - 1);
        cache.push(cl + ch);
    }
    let root = bdd.root_pointer();
    &cache[root.to_index()] << rank(root)
}

fn count_u128(bdd: &Bdd, rank: impl Fn(BddPointer) -> usize) -> Option<u128> {
    let mut cache: Vec<u128> = Vec::with_capacity(bdd.size());
    cache.push(0);
    cache.push(1);
    let shl = |x: u128, s: usize| -> Option<u128> {
        if x == 0 {
            Some(0)
        } else if s >= 128 || x.leading_zeros() < s as u32 {
            None
        } else {
            Some(x << s)
        }
    };
    for i in 2..bdd.size() {
        let p = BddPointer::from_index(i);
        let r = rank(p);
        let (l, h) = (bdd.low_link_of(p), bdd.high_link_of(p));
        let cl = shl(cache[l.to_index()], rank(l) - r - 1)?;
        let ch = shl(cache[h.to_index()], rank(h) - r - 1)?;
        cache.push(cl.checked_add(ch)?);
    }
    let root = bdd.root_pointer();
    shl(cache[root.to_index()], rank(root))
}

/// Calls `f` with every tuple of the relation over `blocks` (one block of
/// variables per attribute, least significant bit first), in BDD order.
/// `f` may stop the walk early by returning `ControlFlow::Break`.
///
/// The walk polls [`crate::interrupt`] every 65,536 tuples: what `f` keeps
/// of hundreds of millions of tuples is where a listing spends its memory,
/// and a budget must stop it there (a listing of jfreechart's `hP`
/// overshot a 10 GiB budget by 1.2 GiB before the walk polled).
pub fn for_each_tuple<F>(bdd: &Bdd, blocks: &[&[BddVariable]], mut f: F) -> ControlFlow<()>
where
    F: FnMut(&[u64]) -> ControlFlow<()>,
{
    let mut seen = 0u32;
    let mut f = |t: &[u64]| {
        seen = seen.wrapping_add(1);
        if seen & 0xFFFF == 0 {
            crate::interrupt::poll();
        }
        f(t)
    };
    let mut order: Vec<(BddVariable, usize, usize)> = Vec::new();
    for (a, block) in blocks.iter().enumerate() {
        for (bit, v) in block.iter().enumerate() {
            order.push((*v, a, bit));
        }
    }
    order.sort_unstable();
    let mut tuple = vec![0u64; blocks.len()];
    walk(bdd, bdd.root_pointer(), &order, 0, &mut tuple, &mut f)
}

fn walk<F>(
    bdd: &Bdd,
    node: BddPointer,
    order: &[(BddVariable, usize, usize)],
    k: usize,
    tuple: &mut [u64],
    f: &mut F,
) -> ControlFlow<()>
where
    F: FnMut(&[u64]) -> ControlFlow<()>,
{
    if node.is_zero() {
        return ControlFlow::Continue(());
    }
    if k == order.len() {
        return f(tuple);
    }
    let (var, a, bit) = order[k];
    let (low, high) = if bdd.var_of(node) == var {
        (bdd.low_link_of(node), bdd.high_link_of(node))
    } else {
        (node, node)
    };
    let mask = 1u64 << bit;
    tuple[a] &= !mask;
    walk(bdd, low, order, k + 1, tuple, f)?;
    tuple[a] |= mask;
    let r = walk(bdd, high, order, k + 1, tuple, f);
    tuple[a] &= !mask;
    r
}

/// All tuples, sorted.
pub fn sorted_tuples(bdd: &Bdd, blocks: &[&[BddVariable]]) -> Vec<Vec<u64>> {
    let mut out = Vec::new();
    let _ = for_each_tuple(bdd, blocks, |t| {
        out.push(t.to_vec());
        ControlFlow::Continue(())
    });
    out.sort_unstable();
    out
}

/// The number of BDD nodes, terminals excluded (as bddbddb reports it).
pub fn node_count(bdd: &Bdd) -> usize {
    bdd.size().saturating_sub(2)
}

/// Relations up to this many tuples are listed sorted; larger ones in BDD
/// order, so that listing the first rows never holds them all.
pub const SORT_LIMIT: u64 = 1_000_000;

/// Calls `each` with the first `limit` tuples of `bdd`: sorted by element
/// number when `small` (the relation holds at most [`SORT_LIMIT`]
/// tuples; the caller knows its count), else in BDD order, streamed. The
/// first error `each` returns stops the walk and is returned.
pub fn for_each_row<E>(
    bdd: &Bdd,
    blocks: &[&[BddVariable]],
    small: bool,
    limit: usize,
    each: &mut dyn FnMut(&[u64]) -> Result<(), E>,
) -> Result<(), E> {
    if small {
        let arity = blocks.len().max(1);
        let mut flat: Vec<u64> = Vec::new();
        let _ = for_each_tuple(bdd, blocks, |t| {
            flat.extend_from_slice(t);
            ControlFlow::Continue(())
        });
        let mut rows: Vec<&[u64]> = flat.chunks(arity).collect();
        rows.sort_unstable();
        return rows.into_iter().take(limit).try_for_each(each);
    }
    let mut left = limit;
    let mut result = Ok(());
    let _ = for_each_tuple(bdd, blocks, |t| {
        if left == 0 {
            return ControlFlow::Break(());
        }
        left -= 1;
        match each(t) {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                result = Err(e);
                ControlFlow::Break(())
            }
        }
    });
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use biodivine_lib_bdd::BddVariableSet;

    #[test]
    fn counts_only_relation_variables() {
        let vars = BddVariableSet::new_anonymous(6);
        let f = vars.eval_expression_string("x_1 | x_3");
        let rel: Vec<BddVariable> = [1, 3, 4]
            .iter()
            .map(|i| BddVariable::from_index(*i))
            .collect();
        // Over {1,3,4}: (x1|x3) has 3 of 4 assignments of (x1,x3), times 2 for x4.
        assert_eq!(count(&f, &rel), BigUint::from(6u32));
        let t = vars.mk_true();
        assert_eq!(count(&t, &rel), BigUint::from(8u32));
    }
}
