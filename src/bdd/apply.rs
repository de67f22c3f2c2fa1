//! Boolean operations and the relational product, with working memory
//! that grows with the work done.
//!
//! biodivine-lib-bdd sizes each operation's tables by its larger operand:
//! an `and_not` of a ten-node delta against a five-million-node relation
//! allocates and clears tables for five million entries, though it visits
//! a few hundred pairs of nodes. The evaluator's inner loops do exactly
//! that thousands of times, so these versions start from tables sized by
//! the smaller operand and let them grow. They build the result in
//! post-order, children before parents, as biodivine stores a [`Bdd`], and
//! hand it over with [`Bdd::from_nodes`], which copies the node array once
//! (it takes a slice).
//!
//! The relational product also stops early where biodivine's nested
//! apply does not: once the low half of a quantified variable is `true`,
//! the high half is not visited.

use super::arena::{export_post_order, mk_false, mk_true, Arena};
use super::tables::{Memo, UniqueTable};
use super::varset::{Projection, VarSet};
use biodivine_lib_bdd::{Bdd, BddNode, BddPointer, BddVariable};
use std::borrow::Cow;

/// Tables start at most this large; they grow on demand.
const INITIAL_CAPACITY: usize = 1 << 20;

/// The arena of a result expected to take about `hint` nodes: its tables
/// start at most [`INITIAL_CAPACITY`] large and grow on demand.
fn output(num_vars: u16, hint: usize) -> Arena {
    Arena::with_capacity(num_vars, hint.min(INITIAL_CAPACITY))
}

/// `a ∧ b`.
pub fn and(a: &Bdd, b: &Bdd) -> Bdd {
    if a.is_false() || b.is_true() {
        return a.clone();
    }
    if b.is_false() || a.is_true() {
        return b.clone();
    }
    apply(a, b, a.size().min(b.size()), |x, y| match (x, y) {
        (Some(false), _) | (_, Some(false)) => Some(false),
        (Some(true), Some(true)) => Some(true),
        _ => None,
    })
}

/// `a ∨ b`, merged into the larger operand by [`merge_into`].
pub fn or(a: &Bdd, b: &Bdd) -> Bdd {
    if a.is_false() || b.is_true() {
        return b.clone();
    }
    if b.is_false() || a.is_true() {
        return a.clone();
    }
    let (big, small) = if a.size() >= b.size() { (a, b) } else { (b, a) };
    merge_into(Cow::Borrowed(big), small)
}

/// `a ∨ b` for an `a` the caller gives up (a relation growing by what a
/// step found): where `a` is the larger operand, its nodes are taken over
/// as the start of the result instead of being visited and rebuilt (the
/// hand-over to biodivine at the end still copies the array once).
pub fn or_into(a: Bdd, b: &Bdd) -> Bdd {
    if a.is_false() || b.is_true() {
        return b.clone();
    }
    if b.is_false() || a.is_true() {
        return a;
    }
    if a.size() >= b.size() {
        merge_into(Cow::Owned(a), b)
    } else {
        merge_into(Cow::Borrowed(b), &a)
    }
}

/// `a ∨ b` for operands the caller gives up: the larger one's nodes start
/// the result (see [`or_into`]).
pub fn or_owned(a: Bdd, b: Bdd) -> Bdd {
    if a.size() >= b.size() {
        or_into(a, &b)
    } else {
        or_into(b, &a)
    }
}

/// `big ∨ small`, where `big` is the larger operand. The result starts as
/// `big`'s own nodes, which also fill the unique table, and only the
/// pairs under `small`'s nodes are visited: where `small` is false the
/// result is `big`'s node as it stands. A plain apply visits, memoises
/// and rebuilds every node of both (four table operations per node of
/// `big` instead of one). The nodes of `big` that the new paths replace
/// are dropped at the end (two linear passes). On freetts's `vP` (532,000
/// nodes) cut in two, a plain apply took 118 ms whatever the cut, this
/// 25 ms for a 13,000-node part, 41 ms for a seventh and 70 ms for half
/// (`benches/merge_timing.rs`).
fn merge_into(big: Cow<Bdd>, small: &Bdd) -> Bdd {
    apply_on_left(big, small, small.size(), or_terminal)
}

/// The unique table of a BDD that grows by merges ([`or_growing`]), kept
/// from one merge to the next so that the next one does not hash every
/// node of the BDD again. Between merges the BDD keeps the nodes that its
/// merges replaced: unreachable from the root, still valid, and still in
/// the table, so that its reachable part stays canonical. [`compact`]
/// drops them.
///
/// The evaluator keeps one for each relation of a recursive stratum
/// between its iterations. In the quick start's profile (whole JDK,
/// `casts`), rebuilding the larger operand's table and then dropping the
/// replaced nodes was most of the time of its merges, about a tenth of
/// the run. With the tables kept, the quick start took 0.941 times as
/// long (`farm-bench -n 2`, 0.903–0.979, 88.1 s against 93.7 s) and
/// 160 MiB more memory. Kept for the inner loop's accumulators too
/// (`recent` and `new`), they did not pay: those grow by doubling, so the
/// tables were dropped as often as they were reused, and the garbage
/// they left made each step's renames of them longer.
pub struct MergeTable {
    table: UniqueTable,
    /// The length of the node array the table records and its last node
    /// (the root): the table belongs to the BDD that the last merge
    /// returned, and is not used for another.
    len: usize,
    root: BddNode,
    /// The length of the node array when the table was built, without
    /// garbage: once the array has doubled since, the merge drops the
    /// garbage and the table.
    compacted: usize,
}

/// `big ∨ small`, for a `big` that grows by a series of such merges: as
/// [`or_into`], but the unique table of `big`'s nodes is `table`, kept
/// from the merge that returned `big`, and the nodes that the new paths
/// replace stay in the result's array (see [`MergeTable`]). Returns the
/// result and the table to pass to the next merge into it; `None` where
/// the result was compacted. A `table` that does not belong to `big`
/// (another size or root) is not used: the table is built again.
pub fn or_growing(
    big: Cow<Bdd>,
    small: &Bdd,
    table: Option<MergeTable>,
) -> (Bdd, Option<MergeTable>) {
    let belongs =
        |t: &MergeTable, nodes: &[BddNode]| t.len == nodes.len() && nodes.last() == Some(&t.root);
    if small.is_false() {
        let root = big.root_pointer();
        let last = BddNode::mk_node(
            big.var_of(root),
            big.low_link_of(root),
            big.high_link_of(root),
        );
        let keep = table.filter(|t| t.len == big.size() && t.root == last);
        return (big.into_owned(), keep);
    }
    if big.is_false() || big.is_true() || small.is_true() || big.size() < small.size() {
        let merged = match big {
            Cow::Owned(b) => or_into(b, small),
            Cow::Borrowed(b) => or(b, small),
        };
        return (merged, None);
    }
    let root = big.root_pointer();
    let nodes = big.into_owned().to_nodes();
    let (table, compacted) = match table {
        Some(t) if belongs(&t, &nodes) => (t.table, t.compacted),
        _ => (UniqueTable::of_distinct(&nodes, small.size()), nodes.len()),
    };
    let mut job = Apply {
        left: Left::InOutput,
        right: small,
        terminal: or_terminal,
        out: Arena::from_parts(nodes, table),
        memo: Memo::new(small.size()),
    };
    let root = job.go(root, small.root_pointer());
    let (nodes, table) = job.out.into_parts();
    if root.to_index() + 1 == nodes.len() && nodes.len() <= 2 * compacted {
        let bdd = Bdd::from_nodes(&nodes).expect("the arena holds ordered nodes in post-order");
        let kept = MergeTable {
            table,
            len: nodes.len(),
            root: nodes[nodes.len() - 1],
            compacted,
        };
        (bdd, Some(kept))
    } else {
        (export_post_order(&nodes, root, false), None)
    }
}

/// `bdd` without the nodes its root does not reach, which merges by
/// [`or_growing`] leave behind.
pub fn compact(bdd: Bdd) -> Bdd {
    if bdd.size() <= 2 {
        return bdd;
    }
    let root = bdd.root_pointer();
    export_post_order(&bdd.to_nodes(), root, false)
}

/// The size [`Bdd::size`] gives once [`compact`] has dropped the nodes
/// the root does not reach (one backward pass over the node array).
pub fn live_size(bdd: &Bdd) -> usize {
    let n = bdd.size();
    if n <= 2 {
        return n;
    }
    let mut reached = vec![false; n];
    reached[n - 1] = true;
    let mut live = 2;
    for i in (2..n).rev() {
        if reached[i] {
            live += 1;
            let p = BddPointer::from_index(i);
            reached[bdd.low_link_of(p).to_index()] = true;
            reached[bdd.high_link_of(p).to_index()] = true;
        }
    }
    live
}

/// The terminal cases of `∨` where the left operand is kept as it stands.
fn or_terminal(l: BddPointer, r: BddPointer) -> Option<BddPointer> {
    if r.is_zero() || l.is_one() {
        Some(l)
    } else if r.is_one() {
        Some(r)
    } else {
        None
    }
}

/// A binary operation whose result starts as `left`'s own nodes (which
/// also fill the unique table): where `terminal` answers a node of
/// `left`, that node is the result as it stands, at the same index. The
/// nodes that the new paths replace are dropped at the end. `hint` is
/// the expected number of node pairs visited. An owned `left` lends its
/// node array to the result.
fn apply_on_left<F: Fn(BddPointer, BddPointer) -> Option<BddPointer>>(
    left: Cow<Bdd>,
    right: &Bdd,
    hint: usize,
    terminal: F,
) -> Bdd {
    let root = left.root_pointer();
    let mut job = Apply {
        left: Left::InOutput,
        right,
        terminal,
        out: Arena::starting_from(left, hint),
        memo: Memo::new(hint),
    };
    let root = job.go(root, right.root_pointer());
    job.out.finish(root)
}

/// `a ∧ ¬b`.
pub fn and_not(a: &Bdd, b: &Bdd) -> Bdd {
    if a.is_false() || b.is_false() {
        return a.clone();
    }
    if b.is_true() {
        return mk_false(a.num_vars());
    }
    if a.size() <= b.size() {
        return subtract_from(a, b);
    }
    // Where one operand is small, so is the work: start from its size.
    apply(a, b, a.size().min(b.size()), |x, y| match (x, y) {
        (Some(false), _) | (_, Some(true)) => Some(false),
        (Some(true), Some(false)) => Some(true),
        _ => None,
    })
}

/// `a ∧ ¬b₁ ∧ … ∧ ¬bₖ`, up to three `b`s in one pass (more, three at a
/// time): new tuples checked against everything known (the full
/// relation, what this iteration found, what the last steps found).
/// Chained `and_not`s each copy, hash and compact the result of the one
/// before; a saturation step's joins spent a quarter of their time in
/// three of them, though the first removed a tenth of the nodes. Like
/// [`subtract_from`], the result starts as `a`'s own nodes.
pub fn and_not_all(a: &Bdd, bs: &[&Bdd]) -> Bdd {
    let bs: Vec<&Bdd> = bs.iter().copied().filter(|b| !b.is_false()).collect();
    if a.is_false() || bs.is_empty() {
        return a.clone();
    }
    if bs.iter().any(|b| b.is_true()) {
        return mk_false(a.num_vars());
    }
    match bs[..] {
        [b] => and_not(a, b),
        [_, _] | [_, _, _] => {
            let mut ops = [bs[0]; 3];
            ops[..bs.len()].copy_from_slice(&bs);
            let mut job = Subtract {
                left: a,
                ops,
                out: Arena::starting_from(Cow::Borrowed(a), a.size()),
                memo: Memo::new(a.size()),
            };
            let mut roots = [BddPointer::zero(); 3];
            for (r, b) in roots.iter_mut().zip(&bs) {
                *r = b.root_pointer();
            }
            let root = job.go(a.root_pointer(), roots);
            job.out.finish(root)
        }
        _ => bs[1..]
            .chunks(3)
            .fold(and_not(a, bs[0]), |acc, chunk| and_not_all(&acc, chunk)),
    }
}

/// One [`and_not_all`] in progress: a zero pointer in `ops`' place stands
/// for an operand that is false below this point (or absent).
struct Subtract<'a> {
    left: &'a Bdd,
    ops: [&'a Bdd; 3],
    out: Arena,
    memo: Memo<u128>,
}

impl Subtract<'_> {
    fn go(&mut self, l: BddPointer, rs: [BddPointer; 3]) -> BddPointer {
        if l.is_zero() || rs.iter().any(|r| r.is_one()) {
            return BddPointer::zero();
        }
        if rs.iter().all(|r| r.is_zero()) {
            // Nothing to take away: `l` as it stands, at its own index.
            return l;
        }
        let k = (l.to_index() as u128) << 96
            | (rs[0].to_index() as u128) << 64
            | (rs[1].to_index() as u128) << 32
            | rs[2].to_index() as u128;
        if let Some(p) = self.memo.get(k) {
            return p;
        }
        // A zero pointer tests no variable and is its own cofactor, so
        // absent operands need no case of their own here.
        let mut var = self.left.var_of(l);
        for (r, op) in rs.iter().zip(self.ops) {
            var = var.min(op.var_of(*r));
        }
        let (l0, l1) = cofactors(self.left, l, var);
        let (mut r0, mut r1) = (rs, rs);
        for i in 0..3 {
            (r0[i], r1[i]) = cofactors(self.ops[i], rs[i], var);
        }
        let low = self.go(l0, r0);
        let high = self.go(l1, r1);
        let p = self.out.mk(var.to_index() as u16, low, high);
        self.memo.insert(k, p);
        p
    }
}

/// `small ∧ ¬big`, for a `small` that is the smaller operand (new tuples
/// checked against a relation). As in [`merge_into`], the result starts
/// as `small`'s own nodes: where `big` is false, the result is `small`'s
/// node as it stands, where a plain apply would rebuild it node by node.
fn subtract_from(small: &Bdd, big: &Bdd) -> Bdd {
    apply_on_left(Cow::Borrowed(small), big, small.size(), |l, r| {
        if r.is_zero() || l.is_zero() {
            Some(l)
        } else if r.is_one() {
            Some(BddPointer::zero())
        } else {
            None
        }
    })
}

/// `∃ quantify. a ∧ b`, in one pass.
pub fn and_exists(a: &Bdd, b: &Bdd, quantify: &VarSet) -> Bdd {
    product::<false>(a, b, quantify, usize::MAX).expect("an unbounded product never declines")
}

/// `∃ quantify. a ∧ b`, or `None` as soon as the result under
/// construction holds more than `cap` nodes (the pass then returns at
/// once, its remaining calls cut short).
pub fn and_exists_within(a: &Bdd, b: &Bdd, quantify: &VarSet, cap: usize) -> Option<Bdd> {
    product::<true>(a, b, quantify, cap)
}

/// [`and_exists`], bounded by `cap` where `CAPPED` (a constant, so that
/// the unbounded pass tests nothing).
fn product<const CAPPED: bool>(a: &Bdd, b: &Bdd, quantify: &VarSet, cap: usize) -> Option<Bdd> {
    if a.is_false() {
        return Some(a.clone());
    }
    if b.is_false() {
        return Some(b.clone());
    }
    // Start from the smaller operand, unless that is `true` (in `exists`).
    let hint = match (a.size(), b.size()) {
        (2, n) | (n, 2) => n,
        (m, n) => m.min(n),
    };
    let mut job = Product::<CAPPED> {
        a,
        b,
        quantify,
        out: output(a.num_vars(), hint),
        memo: Memo::new(hint),
        or_memo: Memo::new(hint),
        cap,
    };
    let root = job.product(a.root_pointer(), b.root_pointer());
    (!CAPPED || job.out.len() <= cap).then(|| job.out.finish(root))
}

/// `∃ quantify. a ∧ b`: the join of two relations with the columns in
/// `quantify` projected away in the same pass, without materialising
/// `a ∧ b` ([`and_exists`]; a plain [`and`] where nothing is quantified).
pub fn relprod(a: &Bdd, b: &Bdd, quantify: &VarSet) -> Bdd {
    if quantify.is_empty() {
        return and(a, b);
    }
    and_exists(a, b, quantify)
}

/// `∃ quantify. a ∧ b ∧ c`, in one pass, or `None` where the operands are
/// too large for the pass's memo keys (three node indices in 64 bits).
///
/// Two joins of a rule run as one: a join followed by a filter (`vP(v1,
/// h) :- assignCall(v1, v2), vP(v2, h), vPfilter(v1, h)`) computes the
/// join's disjunctions over `v2` only where the filter admits the pair,
/// and never builds the unfiltered result; two joins that both project
/// never build the first one's result.
pub fn and_exists3(a: &Bdd, b: &Bdd, c: &Bdd, quantify: &VarSet) -> Option<Bdd> {
    and_exists3_within(a, b, c, quantify, u64::BITS)
}

/// [`and_exists3`] with memo keys of `key_bits` bits (64 in use; fewer in
/// tests, to reach the refusal without operands of millions of nodes).
fn and_exists3_within(a: &Bdd, b: &Bdd, c: &Bdd, quantify: &VarSet, key_bits: u32) -> Option<Bdd> {
    if a.is_false() || b.is_false() || c.is_false() {
        return Some(mk_false(a.num_vars()));
    }
    let bits = |x: &Bdd| usize::BITS - (x.size() - 1).leading_zeros();
    let (bb, bc) = (bits(b), bits(c));
    if bits(a) + bb + bc > key_bits {
        return None;
    }
    let hint = a.size().min(b.size()).min(c.size());
    let mut job = Product3 {
        ops: [a, b, c],
        shifts: (bb + bc, bc),
        quantify,
        out: output(a.num_vars(), hint),
        memo: Memo::new(hint),
        or_memo: Memo::new(hint),
    };
    let root = job.product([a.root_pointer(), b.root_pointer(), c.root_pointer()]);
    Some(job.out.finish(root))
}

/// `∃ quantify. a`.
pub fn exists(a: &Bdd, quantify: &VarSet) -> Bdd {
    if quantify.is_empty() || a.is_false() || a.is_true() {
        return a.clone();
    }
    and_exists(a, &mk_true(a.num_vars()), quantify)
}

#[inline]
fn key(x: BddPointer, y: BddPointer) -> u64 {
    ((x.to_index() as u64) << 32) | y.to_index() as u64
}

/// The cofactors of node `p` of `bdd` for variable `var`: its children if
/// it tests `var`, else itself twice.
#[inline]
fn cofactors(bdd: &Bdd, p: BddPointer, var: BddVariable) -> (BddPointer, BddPointer) {
    if bdd.var_of(p) == var {
        (bdd.low_link_of(p), bdd.high_link_of(p))
    } else {
        (p, p)
    }
}

/// Where a binary operation reads its left operand's nodes.
enum Left<'a> {
    /// From the operand.
    Bdd(&'a Bdd),
    /// From the output, which starts as the operand's nodes and keeps
    /// them unchanged below the nodes it appends (see [`apply_on_left`]).
    InOutput,
}

/// A binary operation in progress: `terminal` gives the result of the
/// pairs that need no recursion.
struct Apply<'a, F> {
    left: Left<'a>,
    right: &'a Bdd,
    terminal: F,
    out: Arena,
    memo: Memo,
}

impl<F: Fn(BddPointer, BddPointer) -> Option<BddPointer>> Apply<'_, F> {
    fn go(&mut self, l: BddPointer, r: BddPointer) -> BddPointer {
        if let Some(p) = (self.terminal)(l, r) {
            return p;
        }
        let k = key(l, r);
        if let Some(p) = self.memo.get(k) {
            return p;
        }
        let ln = match self.left {
            Left::Bdd(b) => BddNode::mk_node(b.var_of(l), b.low_link_of(l), b.high_link_of(l)),
            Left::InOutput => self.out.node(l),
        };
        let var = ln.var.min(self.right.var_of(r));
        let (l0, l1) = if ln.var == var {
            (ln.low_link, ln.high_link)
        } else {
            (l, l)
        };
        let (r0, r1) = cofactors(self.right, r, var);
        let low = self.go(l0, r0);
        let high = self.go(l1, r1);
        let p = self.out.mk(var.to_index() as u16, low, high);
        self.memo.insert(k, p);
        p
    }
}

/// A binary operation: `op` decides terminal cases (`None` for "recurse");
/// `hint` is the expected number of node pairs visited.
fn apply(
    left: &Bdd,
    right: &Bdd,
    hint: usize,
    op: fn(Option<bool>, Option<bool>) -> Option<bool>,
) -> Bdd {
    let mut job = Apply {
        left: Left::Bdd(left),
        right,
        terminal: |l: BddPointer, r: BddPointer| {
            op(l.as_bool(), r.as_bool()).map(BddPointer::from_bool)
        },
        out: output(left.num_vars(), hint),
        memo: Memo::new(hint),
    };
    let root = job.go(left.root_pointer(), right.root_pointer());
    job.out.finish(root)
}

/// One relational product in progress.
struct Product<'a, const CAPPED: bool> {
    a: &'a Bdd,
    b: &'a Bdd,
    quantify: &'a VarSet,
    out: Arena,
    memo: Memo,
    /// Disjunctions of partial results, over `out`'s nodes.
    or_memo: Memo,
    /// Where `CAPPED`, the most nodes `out` may hold; past it every call
    /// returns `false` and the caller discards the result.
    cap: usize,
}

impl<const CAPPED: bool> Product<'_, CAPPED> {
    fn product(&mut self, x: BddPointer, y: BddPointer) -> BddPointer {
        if x.is_zero() || y.is_zero() || (CAPPED && self.out.len() > self.cap) {
            return BddPointer::zero();
        }
        if x.is_one() && y.is_one() {
            return BddPointer::one();
        }
        let k = key(x, y);
        if let Some(p) = self.memo.get(k) {
            return p;
        }
        let var = self.a.var_of(x).min(self.b.var_of(y));
        let (x0, x1) = cofactors(self.a, x, var);
        let (y0, y1) = cofactors(self.b, y, var);
        let p = match self.quantify.projection(var) {
            Projection::Fixed(false) => self.product(x0, y0),
            Projection::Fixed(true) => self.product(x1, y1),
            Projection::Any => {
                let low = self.product(x0, y0);
                if low.is_one() {
                    low
                } else {
                    let high = self.product(x1, y1);
                    or_over(&mut self.out, &mut self.or_memo, low, high)
                }
            }
            Projection::Kept => {
                let low = self.product(x0, y0);
                let high = self.product(x1, y1);
                self.out.mk(var.to_index() as u16, low, high)
            }
        };
        self.memo.insert(k, p);
        p
    }
}

/// One three-way relational product in progress (see [`and_exists3`]).
struct Product3<'a> {
    ops: [&'a Bdd; 3],
    /// Where the first and second node indices go in a memo key.
    shifts: (u32, u32),
    quantify: &'a VarSet,
    out: Arena,
    memo: Memo,
    /// Disjunctions of partial results, over `out`'s nodes.
    or_memo: Memo,
}

impl Product3<'_> {
    fn product(&mut self, p: [BddPointer; 3]) -> BddPointer {
        if p.iter().any(|x| x.is_zero()) {
            return BddPointer::zero();
        }
        if p.iter().all(|x| x.is_one()) {
            return BddPointer::one();
        }
        let k = ((p[0].to_index() as u64) << self.shifts.0)
            | ((p[1].to_index() as u64) << self.shifts.1)
            | p[2].to_index() as u64;
        if let Some(r) = self.memo.get(k) {
            return r;
        }
        let var = (0..3)
            .map(|i| self.ops[i].var_of(p[i]))
            .min()
            .expect("three operands");
        let mut lo = p;
        let mut hi = p;
        for i in 0..3 {
            (lo[i], hi[i]) = cofactors(self.ops[i], p[i], var);
        }
        let r = match self.quantify.projection(var) {
            Projection::Fixed(false) => self.product(lo),
            Projection::Fixed(true) => self.product(hi),
            Projection::Any => {
                let low = self.product(lo);
                if low.is_one() {
                    low
                } else {
                    let high = self.product(hi);
                    or_over(&mut self.out, &mut self.or_memo, low, high)
                }
            }
            Projection::Kept => {
                let low = self.product(lo);
                let high = self.product(hi);
                self.out.mk(var.to_index() as u16, low, high)
            }
        };
        self.memo.insert(k, r);
        r
    }
}

/// `p ∨ q` over the nodes of `out`, memoised in `memo`.
fn or_over(out: &mut Arena, memo: &mut Memo, p: BddPointer, q: BddPointer) -> BddPointer {
    if p.is_one() || q.is_zero() || p == q {
        return p;
    }
    if q.is_one() || p.is_zero() {
        return q;
    }
    out.leave_garbage();
    let k = if p.to_index() < q.to_index() {
        key(p, q)
    } else {
        key(q, p)
    };
    if let Some(r) = memo.get(k) {
        return r;
    }
    let var = out.var_of(p).min(out.var_of(q));
    let cof = |out: &Arena, x: BddPointer| {
        if out.var_of(x) == var {
            (out.low(x), out.high(x))
        } else {
            (x, x)
        }
    };
    let (p0, p1) = cof(out, p);
    let (q0, q1) = cof(out, q);
    let low = or_over(out, memo, p0, q0);
    let high = or_over(out, memo, p1, q1);
    let r = out.mk(var, low, high);
    memo.insert(k, r);
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use biodivine_lib_bdd::BddVariableSet;

    fn exprs() -> (BddVariableSet, Vec<Bdd>) {
        let vars = BddVariableSet::new_anonymous(6);
        let fs = [
            "true",
            "false",
            "x_0",
            "x_0 & !x_3",
            "(x_1 | x_2) & (x_4 <=> x_5)",
            "x_0 ^ x_1 ^ x_2 ^ x_5",
            "(x_0 => x_4) & (x_2 | !x_3)",
        ]
        .iter()
        .map(|e| vars.eval_expression_string(e))
        .collect();
        (vars, fs)
    }

    /// The same function (biodivine's `==` also compares node order).
    fn same(a: &Bdd, b: &Bdd) -> bool {
        a.xor(b).is_false()
    }

    #[test]
    fn the_fused_join_declines_operands_too_large_for_its_keys() {
        // a(x0, x1) ∧ b(x1, x2) ∧ c(x0, x2), with x1 quantified.
        let vars = BddVariableSet::new_anonymous(6);
        let a = vars.eval_expression_string("(x_0 ^ x_2) | (x_3 & x_1)");
        let b = vars.eval_expression_string("(x_2 <=> x_4) | x_5");
        let c = vars.eval_expression_string("x_0 | x_4 | !x_5");
        let q = VarSet::of(6, [BddVariable::from_index(2), BddVariable::from_index(3)]);
        let fused = and_exists3_within(&a, &b, &c, &q, 64).expect("small operands fit");
        assert!(and_exists3_within(&a, &b, &c, &q, 3).is_none());
        // What the solver does instead: the join, then the filter.
        let fallback = and(&and_exists(&a, &b, &q), &c);
        assert!(same(&fused, &fallback));
        let reference = a.and(&b).exists(&q.iter().collect::<Vec<_>>()).and(&c);
        assert!(same(&fused, &reference));
    }

    #[test]
    fn boolean_operations_agree_with_biodivine() {
        let (_, fs) = exprs();
        for a in &fs {
            for b in &fs {
                assert!(same(&and(a, b), &a.and(b)));
                assert!(same(&or(a, b), &a.or(b)));
                assert!(same(&and_not(a, b), &a.and_not(b)));
                // Canonical: as small as biodivine's.
                assert_eq!(and_not(a, b).size(), a.and_not(b).size());
                assert_eq!(or(a, b).size(), a.or(b).size());
            }
        }
    }

    #[test]
    fn subtracting_several_relations_at_once_agrees_with_biodivine() {
        let (_, fs) = exprs();
        for a in &fs {
            for b in &fs {
                for c in &fs {
                    for d in &fs {
                        let all: Vec<&Bdd> = vec![b, c, d, b];
                        for k in 0..=all.len() {
                            let expected = all[..k].iter().fold(a.clone(), |x, y| x.and_not(y));
                            let got = and_not_all(a, &all[..k]);
                            assert!(same(&got, &expected));
                            // Canonical: no node left over from `a`.
                            assert_eq!(got.size(), expected.size());
                        }
                    }
                }
            }
        }
    }

    /// A source of pseudo-random minterms over all of `vars` (xorshift
    /// from `seed`).
    fn minterms(vars: &BddVariableSet, mut seed: u64) -> impl FnMut() -> Bdd + '_ {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mut f = vars.mk_true();
            for v in 0..vars.num_vars() {
                let lit = vars.mk_var(BddVariable::from_index(v.into()));
                f = f.and(&if (seed >> v) & 1 == 1 { lit } else { lit.not() });
            }
            f
        }
    }

    #[test]
    fn merging_a_small_disjunct_agrees_with_biodivine() {
        // A large relation and a few new tuples; the result must be
        // canonical: as small as biodivine's.
        let vars = BddVariableSet::new_anonymous(16);
        let mut minterm = minterms(&vars, 0x2545_F491_4F6C_DD1D);
        let known: Vec<Bdd> = (0..300).map(|_| minterm()).collect();
        let big = known.iter().fold(vars.mk_false(), |f, m| f.or(m));
        for n in [1, 2, 5] {
            // Some tuples new, some known already.
            let small = (0..n).fold(known[n].clone(), |f, _| f.or(&minterm()));
            let expected = big.or(&small);
            for result in [
                or(&big, &small),
                or(&small, &big),
                or_into(big.clone(), &small),
                or_into(small.clone(), &big),
                or_owned(small.clone(), big.clone()),
            ] {
                assert!(same(&result, &expected));
                assert_eq!(result.size(), expected.size());
            }
            // The new tuples among them, by subtracting from the small side.
            let fresh = small.and_not(&big);
            assert!(!fresh.is_false());
            assert!(same(&and_not(&small, &big), &fresh));
            assert_eq!(and_not(&small, &big).size(), fresh.size());
            let in_one_pass = and_not_all(&small, &[&known[0], &big, &known[1]]);
            assert!(same(&in_one_pass, &fresh));
            assert_eq!(in_one_pass.size(), fresh.size());
        }
        assert!(same(&or(&big, &vars.mk_false()), &big));
    }

    #[test]
    fn merges_that_keep_their_table_agree_with_biodivine() {
        let vars = BddVariableSet::new_anonymous(12);
        let mut minterm = minterms(&vars, 0x9E37_79B9_7F4A_7C15);
        let mut expected = (0..50).fold(vars.mk_false(), |f, _| f.or(&minterm()));
        let mut grown = expected.clone();
        let mut table = None;
        let mut kept = 0;
        for round in 0..40 {
            // A few new tuples each time, and now and then nothing new.
            let small = (0..round % 4).fold(vars.mk_false(), |f, _| f.or(&minterm()));
            expected = expected.or(&small);
            let (next, t) = or_growing(Cow::Borrowed(&grown), &small, table);
            kept += usize::from(t.is_some());
            (grown, table) = (next, t);
            assert!(same(&grown, &expected));
            // The garbage is unreachable: the reachable part is canonical.
            assert_eq!(compact(grown.clone()).size(), expected.size());
            assert_eq!(live_size(&grown), expected.size());
        }
        assert!(kept > 20, "the table was kept in {kept} of 40 merges");
        // A table does not belong to another BDD.
        let other = expected.and(&minterm().not());
        let small = minterm();
        let (r, _) = or_growing(Cow::Borrowed(&other), &small, table);
        assert!(same(&r, &other.or(&small)));
        assert_eq!(compact(r).size(), other.or(&small).size());
    }

    /// Sets of variables to quantify, over the six of [`exprs`].
    fn quantifier_sets() -> [VarSet; 3] {
        [
            VarSet::of(6, []),
            VarSet::of(6, [BddVariable::from_index(0)]),
            VarSet::of(6, [1, 2, 4].map(BddVariable::from_index)),
        ]
    }

    #[test]
    fn three_way_product_agrees_with_and_then_exists() {
        let (_, fs) = exprs();
        let qs = quantifier_sets();
        for a in &fs {
            for b in &fs {
                for c in &fs {
                    for q in &qs {
                        let all = a.and(b).and(c);
                        let expected = q.iter().fold(all, |f, v| f.var_exists(v));
                        let got = and_exists3(a, b, c, q).expect("small operands");
                        assert!(same(&got, &expected));
                    }
                }
            }
        }
    }

    #[test]
    fn relational_product_agrees_with_and_then_exists() {
        let (_, fs) = exprs();
        let qs = quantifier_sets();
        for a in &fs {
            for b in &fs {
                for q in &qs {
                    let expected = q.iter().fold(a.and(b), |f, v| f.var_exists(v));
                    assert!(same(&and_exists(a, b, q), &expected));
                    let expected = q.iter().fold(a.clone(), |f, v| f.var_exists(v));
                    assert!(same(&exists(a, q), &expected));
                }
            }
        }
    }

    #[test]
    fn a_bounded_product_gives_the_product_or_declines_past_its_cap() {
        let (_, fs) = exprs();
        let qs = quantifier_sets();
        for a in &fs {
            for b in &fs {
                for q in &qs {
                    let expected = and_exists(a, b, q);
                    // Without a bound: the same BDD.
                    let got = and_exists_within(a, b, q, usize::MAX).expect("no bound");
                    assert!(same(&got, &expected));
                    assert_eq!(got.size(), expected.size());
                    // The nodes built (partial disjunctions included) are
                    // at least the result's: below that it declines.
                    if expected.size() > 2 {
                        assert!(and_exists_within(a, b, q, expected.size() - 1).is_none());
                    }
                    // Under any bound, the product or nothing.
                    for cap in [2, 3, 5, 8, 13] {
                        if let Some(r) = and_exists_within(a, b, q, cap) {
                            assert!(same(&r, &expected));
                            assert_eq!(r.size(), expected.size());
                        }
                    }
                }
            }
        }
    }

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
