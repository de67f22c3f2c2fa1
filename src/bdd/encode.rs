//! Encoding domain values as BDDs: single values, ranges, comparisons
//! between instances, and whole relations from lists of tuples.
//!
//! A *block* is the list of BDD variables of one domain instance, least
//! significant bit first (see [`super::layout::Instance::vars`]).

use super::arena::{export_post_order, mk_false, mk_true, Arena};
use super::tables::MixMap;
use biodivine_lib_bdd::{Bdd, BddNode, BddPointer, BddVariable, BddVariableSet};

/// The BDD of `block == value`.
pub fn value_bdd(num_vars: u16, block: &[BddVariable], value: u64) -> Bdd {
    let mut b = Arena::new(num_vars);
    let mut bits: Vec<(u16, bool)> = block
        .iter()
        .enumerate()
        .map(|(i, v)| (v.to_index() as u16, i < 64 && (value >> i) & 1 == 1))
        .collect();
    bits.sort_unstable_by_key(|b| std::cmp::Reverse(b.0)); // deepest first
    let mut node = BddPointer::one();
    for (var, bit) in bits {
        node = if bit {
            b.mk(var, BddPointer::zero(), node)
        } else {
            b.mk(var, node, BddPointer::zero())
        };
    }
    b.export(node)
}

/// The BDD of `block < bound` (false for `bound == 0`).
pub fn less_than_bdd(num_vars: u16, block: &[BddVariable], bound: u64) -> Bdd {
    let width = block.len() as u32;
    if width < 64 && bound >= (1u64 << width) {
        return mk_true(num_vars);
    }
    let mut b = Arena::new(num_vars);
    // Bits sorted deepest first. When the most significant bit sits on top
    // (as every Layout places it), `x < bound` is built bottom-up in one
    // node per bit: `lt` means "the bits seen so far are strictly less than
    // the bound's". Other orders fall back to BDD operations.
    let mut order: Vec<(u16, usize)> = block
        .iter()
        .enumerate()
        .map(|(i, v)| (v.to_index() as u16, i))
        .collect();
    order.sort_unstable_by_key(|o| std::cmp::Reverse(o.0));
    let msb_on_top = order.windows(2).all(|w| w[0].1 < w[1].1);
    if !msb_on_top {
        return less_than_generic(num_vars, block, bound);
    }
    let mut lt = BddPointer::zero();
    for (var, bit) in order {
        let c = (bound >> bit) & 1 == 1;
        lt = if c {
            b.mk(var, BddPointer::one(), lt)
        } else {
            b.mk(var, lt, BddPointer::zero())
        };
    }
    b.export(lt)
}

fn less_than_generic(num_vars: u16, block: &[BddVariable], bound: u64) -> Bdd {
    let set = BddVariableSet::new_anonymous(num_vars);
    let mut lt = mk_false(num_vars);
    for (bit, v) in block.iter().enumerate() {
        let c = (bound >> bit) & 1 == 1;
        let x = set.mk_var(*v);
        lt = if c { x.not().or(&lt) } else { x.not().and(&lt) };
    }
    lt
}

/// The valid values of a domain instance: `block < size`.
pub fn range_bdd(num_vars: u16, block: &[BddVariable], size: u64) -> Bdd {
    less_than_bdd(num_vars, block, size)
}

/// `block` within `lo..=hi`.
pub fn interval_bdd(num_vars: u16, block: &[BddVariable], lo: u64, hi: u64) -> Bdd {
    let below = if hi == u64::MAX {
        mk_true(num_vars)
    } else {
        less_than_bdd(num_vars, block, hi + 1)
    };
    let not_below_lo = less_than_bdd(num_vars, block, lo).not();
    below.and(&not_below_lo)
}

/// `a == b` for two blocks of the same width.
pub fn equal_bdd(num_vars: u16, a: &[BddVariable], b: &[BddVariable]) -> Bdd {
    let set = BddVariableSet::new_anonymous(num_vars);
    // Build from the deepest bit pair up so intermediate results stay small
    // for interleaved blocks.
    let mut pairs: Vec<(BddVariable, BddVariable)> =
        a.iter().copied().zip(b.iter().copied()).collect();
    pairs.sort_unstable_by_key(|(x, y)| std::cmp::Reverse((*x).min(*y)));
    let mut eq = mk_true(num_vars);
    for (x, y) in pairs {
        eq = set.mk_var(x).iff(&set.mk_var(y)).and(&eq);
    }
    eq
}

/// `b == a + k` for two blocks of the same width, without overflow: the
/// map that moves a range of one instance to a range of another (a
/// context numbering's call edges, bddbddb's `buildAdd`). Built bit by
/// bit from the least significant, with the carry as a BDD over the bits
/// of `a` below: linear in the width when the two blocks are interleaved.
pub fn offset_bdd(num_vars: u16, a: &[BddVariable], b: &[BddVariable], k: u64) -> Bdd {
    let width = a.len().min(64);
    if width < 64 && k >> width != 0 {
        return mk_false(num_vars);
    }
    if let Some(bdd) = offset_interleaved(num_vars, a, b, k) {
        return bdd;
    }
    let set = BddVariableSet::new_anonymous(num_vars);
    let mut carry = set.mk_false();
    let mut sum = set.mk_true();
    for (bit, (x, y)) in a.iter().zip(b).enumerate() {
        let (x, y) = (set.mk_var(*x), set.mk_var(*y));
        let k_bit = bit < 64 && (k >> bit) & 1 == 1;
        let digit = if k_bit {
            x.xor(&carry).not()
        } else {
            x.xor(&carry)
        };
        sum = sum.and(&y.iff(&digit));
        carry = if k_bit { x.or(&carry) } else { x.and(&carry) };
    }
    sum.and(&carry.not())
}

/// [`offset_bdd`] built node by node when each bit of `a` and `b` sits
/// below the next more significant bit of both (interleaved blocks, the
/// most significant bits on top, as `x` in `.bddvarorder` lays them out):
/// two nodes per bit at most, no BDD operation. Read from the top, the
/// state is the carry that the bits below must produce. `None` for other
/// orders. (Built with operations, the 11,688 maps of pa's context
/// numbering took 17 s.)
fn offset_interleaved(num_vars: u16, a: &[BddVariable], b: &[BddVariable], k: u64) -> Option<Bdd> {
    let idx = |v: &BddVariable| v.to_index() as u16;
    let pairs: Vec<(u16, u16)> = a.iter().zip(b).map(|(x, y)| (idx(x), idx(y))).collect();
    let interleaved = pairs.windows(2).all(|w| {
        let (lo, hi) = (w[0], w[1]);
        lo.0.min(lo.1) > hi.0.max(hi.1)
    });
    if !interleaved || a.len() != b.len() {
        return None;
    }
    let mut nb = Arena::new(num_vars);
    // below[c]: the bits below accept, given that they must carry c into
    // this bit. Below bit 0 nothing carries.
    let mut below = [BddPointer::one(), BddPointer::zero()];
    for (bit, &(x, y)) in pairs.iter().enumerate() {
        let k_bit = u64::from(bit < 64 && (k >> bit) & 1 == 1);
        let mut here = [BddPointer::zero(); 2];
        for (carry_out, node) in here.iter_mut().enumerate() {
            // x + k + c_in = y + 2 carry_out: for each x and y, the carry
            // the bits below must give, if any.
            let need = |xv: u64, yv: u64| -> BddPointer {
                let c_in = yv as i64 + 2 * carry_out as i64 - xv as i64 - k_bit as i64;
                match c_in {
                    0 | 1 => below[c_in as usize],
                    _ => BddPointer::zero(),
                }
            };
            let (top, second) = if x < y { (x, y) } else { (y, x) };
            let pick = |t: u64, s2: u64| if x < y { need(t, s2) } else { need(s2, t) };
            let low = nb.mk(second, pick(0, 0), pick(0, 1));
            let high = nb.mk(second, pick(1, 0), pick(1, 1));
            *node = nb.mk(top, low, high);
        }
        below = here;
    }
    // Nothing carries out of the most significant bit.
    Some(nb.export(below[0]))
}

/// `a < b` (unsigned) for two blocks of the same width.
pub fn less_bdd(num_vars: u16, a: &[BddVariable], b: &[BddVariable]) -> Bdd {
    let set = BddVariableSet::new_anonymous(num_vars);
    let mut lt = mk_false(num_vars);
    for (x, y) in a.iter().zip(b) {
        let (x, y) = (set.mk_var(*x), set.mk_var(*y));
        let bit_lt = x.not().and(&y);
        let bit_eq = x.iff(&y);
        lt = bit_lt.or(&bit_eq.and(&lt));
    }
    lt
}

/// Builds the relation holding `tuples` over the given attribute blocks.
///
/// Tuples are sorted by their bit strings in variable order and the BDD is
/// built bottom-up one level at a time ([`build_by_levels`]): time
/// `O(n · bits)`, with no apply operations.
pub fn relation_from_tuples<R, T>(num_vars: u16, blocks: &[&[BddVariable]], tuples: &[R]) -> Bdd
where
    R: AsRef<[T]>,
    T: Copy + Into<u64>,
{
    let (vars, keys, words) = bit_rows(blocks, tuples);
    from_bit_rows(num_vars, &vars, &keys, words)
}

/// The tuples as rows of bits in level order: the relation's variables
/// (level order), the rows (`words` words each, bit `k` most significant
/// first the value of the `k`-th variable) and `words`.
///
/// Each byte of an attribute's value is scattered into its row by one
/// table lookup ([`ByteScatter`]) instead of a test per bit.
fn bit_rows<R, T>(blocks: &[&[BddVariable]], tuples: &[R]) -> (Vec<u16>, Vec<u64>, usize)
where
    R: AsRef<[T]>,
    T: Copy + Into<u64>,
{
    // Relation variables in level order, with (attribute, bit).
    let mut order: Vec<(u16, usize, usize)> = Vec::new();
    for (a, block) in blocks.iter().enumerate() {
        for (bit, v) in block.iter().enumerate() {
            order.push((v.to_index() as u16, a, bit));
        }
    }
    order.sort_unstable();
    let nbits = order.len();
    let words = nbits.div_ceil(64).max(1);
    let scatter = ByteScatter::new(&order, words);
    let mut keys: Vec<u64> = vec![0; tuples.len() * words];
    for (t, key) in tuples.iter().zip(keys.chunks_exact_mut(words)) {
        scatter.fill(t.as_ref(), key);
    }
    let vars: Vec<u16> = order.iter().map(|o| o.0).collect();
    (vars, keys, words)
}

/// Where the bits of each byte of each attribute's value go in a row of
/// bits: for each byte, the row's words for each of its 256 values.
///
/// Bit by bit, building the rows took 6% of the samples of the quick
/// start's `--reflection none` run (Invoke against the whole JDK 17: a
/// test and a branch per bit of every tuple, 60 for each of
/// `actualOfI`'s 1.2 million); by bytes it is 8 or 9 lookups a tuple.
/// With the common prefixes of [`Rows::common_prefixes`], the load took
/// 5.36 and 5.53 s instead of 6.55 and 6.58 s, and that run 20.8 s
/// instead of 22.1 and 22.3 s (two alternating pairs, 2-core Xeon).
struct ByteScatter {
    /// Per byte: the attribute, the byte's shift in its value, and the
    /// 256 × `words` table.
    bytes: Vec<(usize, u32, Vec<u64>)>,
    /// Words per row.
    words: usize,
}

impl ByteScatter {
    /// The tables for `order` (each level's (variable, attribute, bit of
    /// the value), in level order) and rows of `words` words.
    fn new(order: &[(u16, usize, usize)], words: usize) -> Self {
        let mut bytes: Vec<(usize, u32, Vec<u64>)> = Vec::new();
        let attrs = order.iter().map(|o| o.1 + 1).max().unwrap_or(0);
        for a in 0..attrs {
            // The level of each bit of the attribute's value (bits past 63
            // never set, as values are 64 bits).
            let levels: Vec<(usize, usize)> = (order.iter().enumerate())
                .filter(|(_, o)| o.1 == a && o.2 < 64)
                .map(|(k, o)| (o.2, k))
                .collect();
            let width = levels.iter().map(|&(bit, _)| bit + 1).max().unwrap_or(0);
            for byte in 0..width.div_ceil(8) {
                let mut table = vec![0u64; 256 * words];
                for (bit, k) in (levels.iter().copied()).filter(|&(bit, _)| bit / 8 == byte) {
                    for value in 0..256usize {
                        if (value >> (bit % 8)) & 1 == 1 {
                            table[value * words + k / 64] |= 1u64 << (63 - k % 64);
                        }
                    }
                }
                bytes.push((a, 8 * byte as u32, table));
            }
        }
        ByteScatter { bytes, words }
    }

    /// Writes the row of `tuple` into `key` (zeroed, `words` long).
    #[inline]
    fn fill<T: Copy + Into<u64>>(&self, tuple: &[T], key: &mut [u64]) {
        for (a, shift, table) in &self.bytes {
            let byte = ((tuple[*a].into() >> shift) & 0xFF) as usize;
            let masks = &table[byte * self.words..(byte + 1) * self.words];
            for (k, m) in key.iter_mut().zip(masks) {
                *k |= m;
            }
        }
    }
}

/// Builds the BDD whose satisfying assignments over `vars` (in level
/// order) are the rows of `keys`: `words` words per row, bit `k` of a row
/// (most significant first) the value of `vars[k]`.
pub fn from_bit_rows(num_vars: u16, vars: &[u16], keys: &[u64], words: usize) -> Bdd {
    let words = words.max(1);
    let sorted = sorted_rows(keys, words);
    let rows = Rows {
        data: &sorted,
        words,
    };
    build_by_levels(num_vars, vars, rows)
}

/// The rows of `keys` (`words` words each) sorted and deduplicated, side
/// by side: the levels compare each row with the next, which through a
/// list of pointers to unsorted rows would miss the cache every time.
fn sorted_rows(keys: &[u64], words: usize) -> Vec<u64> {
    if words == 1 {
        let mut rows = keys.to_vec();
        rows.sort_unstable();
        rows.dedup();
        rows
    } else {
        let mut rows: Vec<&[u64]> = keys.chunks_exact(words).collect();
        rows.sort_unstable();
        rows.dedup();
        rows.concat()
    }
}

/// The BDD of the sorted, distinct `rows` over `vars`, built one level at
/// a time from the bottom.
///
/// At each level, the rows that agree on the bits above it form groups
/// (a trie's nodes), and consecutive groups of the level below pair up
/// into the level's groups: a group's children are the group whose
/// rows have the level's bit clear and the one whose rows have it set.
/// Nodes of one variable can only equal nodes of the same variable, so
/// hash-consing is per level, in a table of that level's nodes alone:
/// a small hash table where the level below made few nodes for many
/// groups (shared structure), else a sort of the level's (low, high)
/// pairs, each run of equal pairs one node.
///
/// Building depth-first instead probed one unique table over the whole
/// result at every trie node, a cache miss each: in a profile of the
/// quick start's facts and load (Invoke against JDK 17), those probes
/// were a third of the samples. By levels, then laid out depth-first
/// ([`depth_first`]), the load took 6.0 s instead of 12.8–13.2 s, and
/// the whole quick start (`points-to`) 66.0 and 68.2 s against 74.4 and
/// 75.0 s (two alternating pairs, 2-core Xeon; the same database, byte
/// for byte). Sorting every level took 9.1–9.3 s: relations with much
/// sharing, such as `vT`, sorted millions of pairs per level for a few
/// distinct ones.
fn build_by_levels(num_vars: u16, vars: &[u16], rows: Rows) -> Bdd {
    let n = rows.data.len() / rows.words;
    let mut nodes = vec![BddNode::mk_zero(num_vars), BddNode::mk_one(num_vars)];
    if n == 0 {
        return mk_false(num_vars);
    }
    // Two consecutive groups of the level below agree on the bits above
    // level `k` if the last row of the first and the first row of the
    // second do (the rows of a group agree on more): the length of the
    // common prefix of each row and the next, computed once, answers
    // that at every level without reading the rows again.
    let lcp = rows.common_prefixes();
    // The groups of the level below, in row order: each group's first row
    // and its node.
    let mut groups: Vec<(u32, u32)> = (0..n as u32).map(|r| (r, 1)).collect();
    let mut next: Vec<(u32, u32)> = Vec::with_capacity(n);
    // The new nodes' (low, high) pairs, with the index of their group.
    let mut pairs: Vec<(u64, u32)> = Vec::with_capacity(n);
    // The nodes the level below made (none yet: the first level's pairs
    // all have the `true` terminal as their child, so at most two differ).
    let mut made_below: usize = 0;
    for k in (0..vars.len()).rev() {
        next.clear();
        pairs.clear();
        let mut i = 0;
        while i < groups.len() {
            let (first, child) = groups[i];
            let (low, high) = match groups.get(i + 1) {
                Some(&(second, sibling)) if usize::from(lcp[second as usize - 1]) >= k => {
                    i += 2;
                    (child, sibling)
                }
                _ => {
                    i += 1;
                    if rows.bit(first as usize, k) {
                        (0, child)
                    } else {
                        (child, 0)
                    }
                }
            };
            if low == high {
                next.push((first, low));
            } else {
                pairs.push(((u64::from(low) << 32) | u64::from(high), next.len() as u32));
                next.push((first, 0));
            }
        }
        let var = BddVariable::from_index(vars[k] as usize);
        let before = nodes.len();
        let mut make = |key: u64| {
            let low = BddPointer::from_index((key >> 32) as usize);
            let high = BddPointer::from_index((key & 0xFFFF_FFFF) as usize);
            nodes.push(BddNode::mk_node(var, low, high));
            (nodes.len() - 1) as u32
        };
        if made_below.saturating_mul(4) < pairs.len() {
            // Shared structure (the level below made few nodes for many
            // groups): the distinct pairs fit a small table.
            let mut ids: MixMap<u32> = MixMap::default();
            for &(key, g) in &pairs {
                next[g as usize].1 = *ids.entry(key).or_insert_with(|| make(key));
            }
        } else {
            pairs.sort_unstable();
            let mut last = None;
            for &(key, g) in &pairs {
                let id = match last {
                    Some((k, id)) if k == key => id,
                    _ => make(key),
                };
                last = Some((key, id));
                next[g as usize].1 = id;
            }
        }
        made_below = nodes.len() - before;
        std::mem::swap(&mut groups, &mut next);
        crate::interrupt::poll();
    }
    depth_first(&nodes, groups[0].1 as usize)
}

/// The BDD rooted at `root` in `nodes` (children before parents), laid
/// out in depth-first post-order, low child first: the order in which a
/// depth-first build makes the nodes, and in which operations visit
/// them. Left in the order of levels, every step from a node to its
/// children left the cache: the quick start's load took 8 s less, and
/// its solve as much more.
fn depth_first(nodes: &[BddNode], root: usize) -> Bdd {
    let num_vars = nodes[0].var.to_index() as u16;
    match root {
        0 => return mk_false(num_vars),
        1 => return mk_true(num_vars),
        _ => {}
    }
    const UNSEEN: u32 = u32::MAX;
    let mut new_id = vec![UNSEEN; nodes.len()];
    new_id[0] = 0;
    new_id[1] = 1;
    let mut out: Vec<BddNode> = vec![nodes[0], nodes[1]];
    // (node, whether its children are placed).
    let mut stack: Vec<(usize, bool)> = vec![(root, false)];
    while let Some((n, expanded)) = stack.pop() {
        if new_id[n] != UNSEEN {
            continue;
        }
        let (low, high) = (nodes[n].low_link.to_index(), nodes[n].high_link.to_index());
        if expanded {
            new_id[n] = out.len() as u32;
            out.push(BddNode::mk_node(
                nodes[n].var,
                BddPointer::from_index(new_id[low] as usize),
                BddPointer::from_index(new_id[high] as usize),
            ));
        } else {
            stack.push((n, true));
            if new_id[high] == UNSEEN {
                stack.push((high, false));
            }
            if new_id[low] == UNSEEN {
                stack.push((low, false));
            }
        }
    }
    export_post_order(&out, BddPointer::from_index(out.len() - 1), true)
}

/// Sorted rows of `words` words each, side by side.
#[derive(Clone, Copy)]
struct Rows<'a> {
    data: &'a [u64],
    words: usize,
}

impl Rows<'_> {
    /// Bit `k` (most significant first) of row `i`.
    #[inline]
    fn bit(&self, i: usize, k: usize) -> bool {
        (self.data[i * self.words + k / 64] >> (63 - k % 64)) & 1 == 1
    }

    /// For each row but the last, how many leading bits it shares with
    /// the next (the rows are distinct: fewer than their width).
    fn common_prefixes(&self) -> Vec<u16> {
        let n = self.data.len() / self.words;
        (1..n)
            .map(|i| {
                let a = &self.data[(i - 1) * self.words..i * self.words];
                let b = &self.data[i * self.words..(i + 1) * self.words];
                let w = (0..self.words)
                    .find(|&w| a[w] != b[w])
                    .unwrap_or(self.words - 1);
                (64 * w as u32 + (a[w] ^ b[w]).leading_zeros()) as u16
            })
            .collect()
    }
}

/// The BDD of the rows in `range` over `vars[k..]`; their bits before `k`
/// are equal: built depth-first through a unique table, the reference that
/// [`build_by_levels`] is tested against.
#[cfg(test)]
fn build_sorted(
    b: &mut Arena,
    vars: &[u16],
    rows: Rows,
    range: std::ops::Range<usize>,
    k: usize,
) -> BddPointer {
    if range.is_empty() {
        return BddPointer::zero();
    }
    if k == vars.len() {
        return BddPointer::one();
    }
    // The first row whose bit `k` is set: the rows are sorted, so those
    // with the bit clear come first.
    let (mut lo, mut hi) = (range.start, range.end);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if rows.bit(mid, k) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    let low = build_sorted(b, vars, rows, range.start..lo, k + 1);
    let high = build_sorted(b, vars, rows, lo..range.end, k + 1);
    b.mk(vars[k], low, high)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bdd::decode::sorted_tuples;

    fn block(vars: &[usize]) -> Vec<BddVariable> {
        vars.iter().map(|v| BddVariable::from_index(*v)).collect()
    }

    /// `build_by_levels` against depth-first construction through a unique
    /// table, on random relations of one to three attributes, rows of one
    /// and two words, interleaved and separate blocks, sparse and dense
    /// (so that both the hashed and the sorted levels run): the same
    /// tuples and the same number of nodes (both are reduced).
    #[test]
    fn levels_build_the_reduced_bdd_of_the_rows() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for case in 0..60 {
            let arity = 1 + case % 3;
            let width = [3, 9, 24, 40][case % 4];
            let interleaved = case % 2 == 0;
            let num_vars = (arity * width) as u16;
            let blocks: Vec<Vec<BddVariable>> = (0..arity)
                .map(|a| {
                    (0..width)
                        .map(|bit| {
                            // Most significant bit on top, as layouts place it.
                            let level = if interleaved {
                                (width - 1 - bit) * arity + a
                            } else {
                                a * width + (width - 1 - bit)
                            };
                            BddVariable::from_index(level)
                        })
                        .collect()
                })
                .collect();
            let refs: Vec<&[BddVariable]> = blocks.iter().map(|b| b.as_slice()).collect();
            let rows_wanted = [0, 1, 5, 300, 3000][case % 5];
            let dense = case % 3 == 0;
            let tuples: Vec<Vec<u64>> = (0..rows_wanted)
                .map(|_| {
                    (0..arity)
                        .map(|_| {
                            let v = next() % (1u64 << width.min(63));
                            if dense {
                                v % 16
                            } else {
                                v
                            }
                        })
                        .collect()
                })
                .collect();
            let got = relation_from_tuples(num_vars, &refs, &tuples);
            // The reference, from the same rows.
            let (vars, keys, words) = bit_rows(&refs, &tuples);
            let sorted = sorted_rows(&keys, words);
            let n = sorted.len() / words;
            let mut b = Arena::with_capacity(num_vars, n);
            let root = build_sorted(
                &mut b,
                &vars,
                Rows {
                    data: &sorted,
                    words,
                },
                0..n,
                0,
            );
            let want = b.export(root);
            assert_eq!(got.size(), want.size(), "case {case}: node counts");
            assert_eq!(
                sorted_tuples(&got, &refs),
                sorted_tuples(&want, &refs),
                "case {case}"
            );
            let mut distinct = tuples.clone();
            distinct.sort_unstable();
            distinct.dedup();
            assert_eq!(sorted_tuples(&got, &refs), distinct, "case {case}");
        }
    }

    #[test]
    fn ranges_and_values() {
        let blk = block(&[2, 1, 0]); // LSB deepest
        for size in 0..=8u64 {
            let r = range_bdd(3, &blk, size);
            let got = sorted_tuples(&r, &[&blk]);
            let want: Vec<Vec<u64>> = (0..size).map(|v| vec![v]).collect();
            assert_eq!(got, want, "size {size}");
        }
        let v = value_bdd(3, &blk, 5);
        assert_eq!(sorted_tuples(&v, &[&blk]), vec![vec![5]]);
        let iv = interval_bdd(3, &blk, 2, 4);
        assert_eq!(sorted_tuples(&iv, &[&blk]), vec![vec![2], vec![3], vec![4]]);
    }

    #[test]
    fn comparisons_between_blocks() {
        let a = block(&[4, 2, 0]);
        let b = block(&[5, 3, 1]);
        let eq = equal_bdd(6, &a, &b);
        let lt = less_bdd(6, &a, &b);
        let eqs = sorted_tuples(&eq, &[&a, &b]);
        assert_eq!(eqs.len(), 8);
        assert!(eqs.iter().all(|t| t[0] == t[1]));
        let lts = sorted_tuples(&lt, &[&a, &b]);
        assert_eq!(lts.len(), 28);
        assert!(lts.iter().all(|t| t[0] < t[1]));
    }

    #[test]
    fn relation_from_tuples_round_trips() {
        let a = block(&[0, 2, 4]);
        let b = block(&[1, 3]);
        let tuples: Vec<Vec<u64>> = vec![vec![3, 1], vec![0, 0], vec![7, 3], vec![3, 1]];
        let r = relation_from_tuples(5, &[&a, &b], &tuples);
        assert_eq!(
            sorted_tuples(&r, &[&a, &b]),
            vec![vec![0, 0], vec![3, 1], vec![7, 3]]
        );
    }

    #[test]
    fn relations_from_tuples_are_canonical() {
        // Built node by node, the result must be the function biodivine's
        // own construction gives, with as many nodes: reduced, shared,
        // nothing unreachable.
        let vars = BddVariableSet::new_anonymous(8);
        let a = block(&[0, 2, 4, 6]);
        let b = block(&[1, 3, 5, 7]);
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for n in [1usize, 2, 7, 40, 200] {
            let mut tuples = Vec::new();
            for _ in 0..n {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                tuples.push(vec![seed & 15, (seed >> 8) & 15]);
            }
            let r = relation_from_tuples(8, &[&a, &b], &tuples);
            let expected = tuples.iter().fold(vars.mk_false(), |f, t| {
                let bit = |blk: &[BddVariable], v: u64, i: usize| {
                    let x = vars.mk_var(blk[i]);
                    if (v >> i) & 1 == 1 {
                        x
                    } else {
                        x.not()
                    }
                };
                let mut m = vars.mk_true();
                for i in 0..4 {
                    m = m.and(&bit(&a, t[0], i)).and(&bit(&b, t[1], i));
                }
                f.or(&m)
            });
            assert_eq!(r.size(), expected.size(), "{n} tuples");
            assert!(r.xor(&expected).is_false());
        }
    }

    /// `offset_bdd(a, b, k)` holds exactly the pairs `(x, x + k)` of
    /// three-bit values.
    fn assert_offsets(a: &[BddVariable], b: &[BddVariable]) {
        for k in [0u64, 1, 3, 7, 8] {
            let bdd = offset_bdd(6, a, b, k);
            let pairs = crate::bdd::decode::sorted_tuples(&bdd, &[a, b]);
            let expected: Vec<Vec<u64>> = (0..8u64)
                .filter(|x| x + k < 8)
                .map(|x| vec![x, x + k])
                .collect();
            assert_eq!(pairs, expected, "k = {k}");
        }
    }

    #[test]
    fn offset_over_interleaved_blocks_is_the_same_map() {
        // a's bit i at 5 - 2i, b's at 4 - 2i: interleaved, most
        // significant on top (the fast construction), and b above a.
        let v = |i: usize| BddVariable::from_index(i);
        let a: Vec<BddVariable> = (0..3).map(|i| v(5 - 2 * i)).collect();
        let b: Vec<BddVariable> = (0..3).map(|i| v(4 - 2 * i)).collect();
        assert_offsets(&a, &b);
        assert_offsets(&b, &a);
    }

    #[test]
    fn offset_maps_each_value_to_itself_plus_k_without_overflow() {
        // a in bits 0..3, b in 3..6 (three bits each: values 0..8).
        let vars: Vec<BddVariable> = (0..6).map(BddVariable::from_index).collect();
        assert_offsets(&vars[0..3], &vars[3..6]);
    }
}
