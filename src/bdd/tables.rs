//! The two tables every BDD operation consults: the computed table
//! ([`Memo`]), which remembers the result of each pair of operand nodes,
//! and the unique table ([`UniqueTable`]), which keeps the result's nodes
//! hash-consed.
//!
//! Both are flat arrays with power-of-two sizes. In a profile of the whole
//! JDK's points-to analysis, general-purpose hash maps took a third of the
//! time: two probes per visited pair (look up, then insert after the
//! recursion), 16-byte entries plus control bytes, and rehashing as they
//! grew. The computed table here is direct-mapped and lossy, as in CUDD:
//! a collision overwrites the older entry, whose pair is recomputed if it
//! is met again, so a lookup or an insert is one slot. The unique table is
//! exact (a node must never be created twice) and stores 8-byte slots: a
//! hash tag and the node's index in the output.

use biodivine_lib_bdd::{BddNode, BddPointer};

/// A 64-bit mix: a folded 64×64→128 multiply, so that every input bit
/// reaches every output bit (the slot is taken from the high bits).
#[inline]
pub(crate) fn mix(word: u64) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let m = u128::from(word ^ K) * u128::from(K);
    (m as u64) ^ ((m >> 64) as u64)
}

/// A hasher of one `u64` key by [`mix`], for hash maps keyed by packed
/// node pointers, whose low halves are often zero (FxHash leaves such
/// keys' low bits zero, and every key in one bucket).
#[derive(Default, Clone, Copy)]
pub(crate) struct MixHasher(u64);

impl std::hash::Hasher for MixHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = mix(self.0 ^ u64::from(b));
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = mix(self.0 ^ word);
    }
}

/// A hash map keyed by packed node pointers (see [`MixHasher`]).
pub(crate) type MixMap<V> =
    std::collections::HashMap<u64, V, std::hash::BuildHasherDefault<MixHasher>>;

/// `n` copies of `value`, written now.
///
/// `vec![0; n]` asks the allocator for zeroed memory, which fresh pages
/// from the system give for free: each page is mapped to the shared zero
/// page, and the first write into it faults again to copy it, flushing
/// the TLB of every core the process runs on. A hash table reads a slot
/// before it writes it, so every page of a grown unique table, which is
/// filled at once, took both faults and the flush: in `perf`, pa spent 8%
/// of its cycles in those flushes under `UniqueTable::grow`. Written now,
/// each page faults once. A new table stays lazily zeroed: sized by a
/// hint, it may never touch most of its pages (written at once, the quick
/// start took 1.017 of the time, two alternating pairs).
fn filled<T: Copy>(n: usize, value: T) -> Vec<T> {
    let mut v = Vec::with_capacity(n);
    v.resize(n, value);
    v
}

/// The slot count for `hint` expected entries, at least `min` and at most
/// `max` (powers of two).
fn slots_for(hint: usize, min: usize, max: usize) -> usize {
    hint.saturating_mul(2).next_power_of_two().clamp(min, max)
}

/// A computed-table key: one `u64` for a pair of node indices, one `u128`
/// for up to four.
pub(crate) trait MemoKey: Copy + Eq {
    /// A key that no tuple of node pointers forms (all would be
    /// `u32::MAX`).
    const EMPTY: Self;
    /// The key's hash, whose high bits pick the slot.
    fn hash(self) -> u64;
}

impl MemoKey for u64 {
    const EMPTY: u64 = u64::MAX;
    #[inline]
    fn hash(self) -> u64 {
        mix(self)
    }
}

impl MemoKey for u128 {
    const EMPTY: u128 = u128::MAX;
    #[inline]
    fn hash(self) -> u64 {
        mix(self as u64 ^ mix((self >> 64) as u64))
    }
}

/// Every operation polls [`crate::interrupt`] when its count of computed
/// entries or of new nodes is a multiple of this plus one (4,096): a
/// Ctrl-C or an exceeded memory budget stops even a single product of
/// minutes within a millisecond or so, at the cost of one test of a
/// counter per step.
const POLL_EVERY: usize = (1 << 12) - 1;

/// The smallest computed table.
const MEMO_MIN_SLOTS: usize = 1 << 10;
/// The largest computed table: 8 M slots, 128 MB for 64-bit keys. Beyond
/// it entries are overwritten rather than the table doubled.
const MEMO_MAX_SLOTS: usize = 1 << 23;

/// A lossy computed table from a tuple of node pointers to a result node.
///
/// It doubles (keeping its entries) once it has taken as many inserts as
/// it has slots, up to [`MEMO_MAX_SLOTS`], so that an operation that
/// visits more pairs than expected does not keep evicting its own work.
pub(crate) struct Memo<K: MemoKey = u64> {
    slots: Vec<(K, u32)>,
    shift: u32,
    inserts: usize,
}

impl<K: MemoKey> Memo<K> {
    /// A table for about `hint` pairs.
    pub(crate) fn new(hint: usize) -> Self {
        let n = slots_for(hint, MEMO_MIN_SLOTS, MEMO_MAX_SLOTS);
        Memo {
            slots: vec![(K::EMPTY, 0); n],
            shift: 64 - n.trailing_zeros(),
            inserts: 0,
        }
    }

    #[inline]
    fn slot(&self, key: K) -> usize {
        (key.hash() >> self.shift) as usize
    }

    /// The remembered result for `key`, if it is still there.
    #[inline]
    pub(crate) fn get(&self, key: K) -> Option<BddPointer> {
        let (k, v) = self.slots[self.slot(key)];
        (k == key).then(|| BddPointer::from_index(v as usize))
    }

    /// Remembers `value` for `key`, overwriting what shared its slot.
    #[inline]
    pub(crate) fn insert(&mut self, key: K, value: BddPointer) {
        self.inserts += 1;
        if self.inserts & POLL_EVERY == 0 {
            crate::interrupt::poll();
        }
        if self.inserts > self.slots.len() && self.slots.len() < MEMO_MAX_SLOTS {
            self.grow();
        }
        let s = self.slot(key);
        self.slots[s] = (key, value.to_index() as u32);
    }

    fn grow(&mut self) {
        let n = self.slots.len() * 2;
        let old = std::mem::replace(&mut self.slots, vec![(K::EMPTY, 0); n]);
        self.shift -= 1;
        self.inserts = 0;
        for (k, v) in old {
            if k != K::EMPTY {
                let s = self.slot(k);
                self.slots[s] = (k, v);
                self.inserts += 1;
            }
        }
    }
}

/// The smallest unique table.
const UNIQUE_MIN_SLOTS: usize = 1 << 10;

/// An empty unique-table slot (index 0 is the `false` terminal, which is
/// never stored).
const EMPTY_SLOT: u64 = 0;

/// The hash of a node: its variable and both children.
#[inline]
fn node_hash(n: &BddNode) -> u64 {
    let children = ((n.low_link.to_index() as u64) << 32) | n.high_link.to_index() as u64;
    mix(children ^ mix(n.var.to_index() as u64))
}

/// An exact hash-consing table over the nodes of a result under
/// construction, with open addressing and linear probing. A slot holds
/// the top 32 bits of the node's hash and its index in the node array, so
/// a probe compares nodes only when the tags match.
pub(crate) struct UniqueTable {
    slots: Vec<u64>,
    shift: u32,
    len: usize,
}

impl UniqueTable {
    /// A table for about `hint` nodes.
    pub(crate) fn new(hint: usize) -> Self {
        let n = slots_for(hint, UNIQUE_MIN_SLOTS, usize::MAX);
        UniqueTable {
            slots: vec![EMPTY_SLOT; n],
            shift: 64 - n.trailing_zeros(),
            len: 0,
        }
    }

    /// The index of the node equal to `node` in `nodes`, or, if there is
    /// none, the index at which `node` is appended.
    #[inline]
    pub(crate) fn find_or_insert(&mut self, nodes: &mut Vec<BddNode>, node: BddNode) -> BddPointer {
        let h = node_hash(&node);
        let tag = h & 0xFFFF_FFFF_0000_0000;
        let mask = self.slots.len() - 1;
        let mut s = (h >> self.shift) as usize;
        loop {
            let slot = self.slots[s];
            if slot == EMPTY_SLOT {
                break;
            }
            if slot & 0xFFFF_FFFF_0000_0000 == tag {
                let i = (slot & 0xFFFF_FFFF) as usize;
                if nodes[i] == node {
                    return BddPointer::from_index(i);
                }
            }
            s = (s + 1) & mask;
        }
        let i = nodes.len();
        if i == nodes.capacity() {
            // The vector is about to double: gigabytes, in one step.
            let bytes = i * std::mem::size_of::<BddNode>();
            crate::interrupt::reserve(bytes as u64);
        } else if i & POLL_EVERY == 0 {
            crate::interrupt::poll();
        }
        nodes.push(node);
        self.slots[s] = tag | i as u64;
        self.len += 1;
        if self.len * 2 > self.slots.len() {
            self.grow(nodes);
        }
        BddPointer::from_index(i)
    }

    /// A table recording every node of `nodes` (distinct, as in any
    /// reduced BDD), with room for about `more` new ones.
    pub(crate) fn of_distinct(nodes: &[BddNode], more: usize) -> Self {
        let mut unique = UniqueTable::new(nodes.len() + more);
        for i in 2..nodes.len() {
            unique.insert_distinct(nodes, i);
        }
        unique
    }

    /// Records `nodes[i]`, known to be distinct from every node recorded.
    pub(crate) fn insert_distinct(&mut self, nodes: &[BddNode], i: usize) {
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow(nodes);
        }
        self.place(nodes, i);
        self.len += 1;
    }

    fn place(&mut self, nodes: &[BddNode], i: usize) {
        let h = node_hash(&nodes[i]);
        let mask = self.slots.len() - 1;
        let mut s = (h >> self.shift) as usize;
        while self.slots[s] != EMPTY_SLOT {
            s = (s + 1) & mask;
        }
        self.slots[s] = (h & 0xFFFF_FFFF_0000_0000) | i as u64;
    }

    fn grow(&mut self, nodes: &[BddNode]) {
        let n = self.slots.len() * 2;
        // The new slots are all written at once ([`filled`]).
        crate::interrupt::reserve((n * std::mem::size_of::<u64>()) as u64);
        let old = std::mem::replace(&mut self.slots, filled(n, EMPTY_SLOT));
        self.shift -= 1;
        for slot in old {
            if slot != EMPTY_SLOT {
                self.place(nodes, (slot & 0xFFFF_FFFF) as usize);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use biodivine_lib_bdd::BddVariable;

    #[test]
    fn the_computed_table_keeps_what_fits_and_grows() {
        let mut m: Memo = Memo::new(4);
        assert_eq!(m.get(7), None);
        m.insert(7, BddPointer::from_index(3));
        assert_eq!(m.get(7), Some(BddPointer::from_index(3)));
        // Many more inserts than slots: the table doubles and the latest
        // entries are all there.
        for k in 0..10_000u64 {
            m.insert(k << 32 | (k + 1), BddPointer::from_index(k as usize));
        }
        assert!(m.slots.len() > MEMO_MIN_SLOTS);
        let kept = (9_900..10_000u64)
            .filter(|&k| m.get(k << 32 | (k + 1)) == Some(BddPointer::from_index(k as usize)))
            .count();
        assert!(kept > 50, "{kept}");
    }

    #[test]
    fn the_unique_table_finds_each_node_once() {
        let mut nodes = vec![BddNode::mk_zero(8), BddNode::mk_one(8)];
        let mut u = UniqueTable::new(1);
        let mut made = Vec::new();
        for v in 0..8u16 {
            for lo in 0..40usize {
                let node = BddNode::mk_node(
                    BddVariable::from_index(v as usize),
                    BddPointer::from_index(lo % 2),
                    BddPointer::from_index(lo),
                );
                made.push((node, u.find_or_insert(&mut nodes, node)));
            }
        }
        // Grown well past its first size; asking again finds the same nodes.
        assert_eq!(nodes.len(), 2 + 8 * 40);
        for (node, p) in made {
            assert_eq!(u.find_or_insert(&mut nodes, node), p);
            assert_eq!(nodes[p.to_index()], node);
        }
        assert_eq!(nodes.len(), 2 + 8 * 40);
    }
}
