//! The BDD kernel on relations large enough to reach the paths that the
//! differential test's small domains (at most 8 elements) never take:
//! partitioning relations of thousands of nodes, the rename that rebuilds
//! a relation node by node, products whose computed tables grow from a
//! small start, and the fused join with a filter. Each result is compared
//! with biodivine-lib-bdd's own operations, or with the relation built
//! again from its tuples.

use biodivine_lib_bdd::{Bdd, BddVariable};
use refract::bdd::{self, partition, relation_from_tuples, rename, VarSet};

/// Bits per column.
const BITS: usize = 12;

/// A small deterministic generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Three columns of `BITS` bits each, interleaved as `A0xB0xC0` would be:
/// bit k of column c is variable `3k + c`.
fn blocks() -> Vec<Vec<BddVariable>> {
    (0..3)
        .map(|c| {
            (0..BITS)
                .map(|k| BddVariable::from_index(3 * k + c))
                .collect()
        })
        .collect()
}

fn num_vars() -> u16 {
    (3 * BITS) as u16
}

/// A relation over columns `cols` (indices into [`blocks`]) of `n`
/// random tuples, values below `range`.
fn random_relation(seed: u64, cols: &[usize], n: usize, range: u64) -> (Bdd, Vec<Vec<u64>>) {
    let mut rng = Rng(seed);
    let mut rows: Vec<Vec<u64>> = (0..n)
        .map(|_| cols.iter().map(|_| rng.below(range)).collect())
        .collect();
    rows.sort();
    rows.dedup();
    let all = blocks();
    let bs: Vec<&[BddVariable]> = cols.iter().map(|&c| all[c].as_slice()).collect();
    (relation_from_tuples(num_vars(), &bs, &rows), rows)
}

/// Whether two BDDs stand for the same relation (their node arrays may
/// list the nodes in different orders).
fn same(a: &Bdd, b: &Bdd) -> bool {
    a.xor(b).is_false()
}

/// The variables of column `c`.
fn vars(c: usize) -> Vec<BddVariable> {
    blocks()[c].clone()
}

#[test]
fn partition_cuts_relations_of_thousands_of_nodes_into_disjoint_parts() {
    let (r, _) = random_relation(1, &[0, 1], 20_000, 1 << BITS);
    assert!(r.size() >= 2048, "{} nodes", r.size());
    let parts = partition(&r, 8, 2048);
    assert!(parts.len() > 1, "one part");
    let mut union = refract::bdd::mk_false(num_vars());
    for (i, p) in parts.iter().enumerate() {
        assert!(!p.is_false());
        for q in &parts[i + 1..] {
            assert!(p.and(q).is_false(), "parts overlap");
        }
        union = union.or(p);
    }
    assert!(same(&union, &r));
}

/// `r` with columns A and B swapped by [`rename`].
fn swap_a_and_b(r: &Bdd) -> Bdd {
    let pairs_of_vars: Vec<(BddVariable, BddVariable)> = vars(0)
        .into_iter()
        .zip(vars(1))
        .flat_map(|(a, b)| [(a, b), (b, a)])
        .collect();
    rename(r, &pairs_of_vars).unwrap()
}

#[test]
fn a_rename_that_reorders_rebuilds_the_relation_node_by_node() {
    // Columns A and B swapped. Besides random pairs, some 2,500 values of
    // A go with every B: over ten million assignments of A and B, above
    // the 2^23 a rename lists one by one, so the relation is rebuilt in
    // the new order.
    let (pairs, rows) = random_relation(2, &[0, 1], 20_000, 1 << BITS);
    let (any_b, firsts) = random_relation(3, &[0], 4_000, 1 << BITS);
    let r = pairs.or(&any_b);
    // Column C is free: 2^12 assignments of it for each of A and B's.
    let over_a_and_b = r.exact_cardinality() >> BITS;
    assert!(over_a_and_b > (1u32 << 23).into(), "{over_a_and_b}");
    let moved = swap_a_and_b(&r);
    let all = blocks();
    let swapped: Vec<Vec<u64>> = rows.iter().map(|t| vec![t[1], t[0]]).collect();
    let expected = relation_from_tuples(num_vars(), &[&all[0], &all[1]], &swapped)
        .or(&relation_from_tuples(num_vars(), &[&all[1]], &firsts));
    assert!(same(&moved, &expected));
}

#[test]
fn a_sparse_rename_that_reorders_lists_its_tuples() {
    // Random pairs only: fewer assignments than 16 per node, so the
    // rename lists them and builds the swapped relation from sorted rows.
    let (r, rows) = random_relation(5, &[0, 1], 20_000, 1 << BITS);
    assert!(
        rows.len() <= 16 * r.size(),
        "{} rows, {} nodes",
        rows.len(),
        r.size()
    );
    let moved = swap_a_and_b(&r);
    let all = blocks();
    let swapped: Vec<Vec<u64>> = rows.iter().map(|t| vec![t[1], t[0]]).collect();
    let expected = relation_from_tuples(num_vars(), &[&all[0], &all[1]], &swapped);
    assert!(same(&moved, &expected));
}

#[test]
fn products_agree_with_the_reference_when_tables_grow_from_a_small_start() {
    // A large relation joined with a small one: the computed table starts
    // at the small operand's size and grows many times.
    let (a, _) = random_relation(3, &[0, 1], 30_000, 1 << BITS);
    let (b, _) = random_relation(4, &[1, 2], 60, 1 << BITS);
    let q = vars(1);
    let ours = bdd::and_exists(&a, &b, &VarSet::of(num_vars(), q.iter().copied()));
    let reference = a.and(&b).exists(&q);
    assert!(!reference.is_false());
    assert!(same(&ours, &reference));
    assert!(same(&bdd::and(&a, &b), &a.and(&b)));
    assert!(same(&bdd::or(&a, &b), &a.or(&b)));
    assert!(same(&bdd::and_not(&a, &b), &a.and_not(&b)));
}

#[test]
fn the_fused_join_with_a_filter_agrees_with_join_then_filter() {
    // vP(v1, h) :- assign(v1, v2), vP(v2, h), filter(v1, h), over columns
    // (v1 = 0, v2 = 1, h = 2).
    let (assign, _) = random_relation(5, &[0, 1], 20_000, 1 << BITS);
    let (vp, _) = random_relation(6, &[1, 2], 20_000, 1 << BITS);
    let (filter, _) = random_relation(7, &[0, 2], 200_000, 1 << BITS);
    let q = vars(1);
    let set = VarSet::of(num_vars(), q.iter().copied());
    let fused = bdd::and_exists3(&assign, &vp, &filter, &set).expect("fits the memo keys");
    let reference = assign.and(&vp).exists(&q).and(&filter);
    assert!(same(&fused, &reference));
    assert!(!fused.is_false());
}
