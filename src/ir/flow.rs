//! The shape of a method's control flow, kept past lowering for the
//! passes that ask whether one statement runs on every path to another,
//! and only once.
//!
//! Lowering ([`super::lower`]) works on basic blocks; the IR it produces
//! is a list of statements. [`Flow`] keeps the blocks' bytecode ranges,
//! their successors and their dominators, so that a pass can place a
//! statement by its bytecode index. It is kept only for the methods that
//! need it: those that make a `StringBuilder` or `StringBuffer`, whose
//! appends [`super::string_builders`] orders.

/// The immediate dominator of each block, by the algorithm of Cooper,
/// Harvey and Kennedy ("A Simple, Fast Dominance Algorithm", 2001):
/// `None` for the roots and for blocks that `order` does not list.
///
/// `order` lists the reachable blocks in reverse post-order, roots
/// first; `preds` gives each block's predecessors along normal control
/// flow.
pub fn immediate_dominators(
    nb: usize,
    order: &[usize],
    preds: &[Vec<usize>],
    is_root: impl Fn(usize) -> bool,
) -> Vec<Option<usize>> {
    // A virtual root above the real ones, numbered `nb`; ranks follow
    // `order`, with the virtual root first.
    let virtual_root = nb;
    let mut rank = vec![usize::MAX; nb + 1];
    rank[virtual_root] = 0;
    for (r, &b) in order.iter().enumerate() {
        rank[b] = r + 1;
    }
    let mut idom: Vec<Option<usize>> = vec![None; nb + 1];
    idom[virtual_root] = Some(virtual_root);
    for &b in order {
        if is_root(b) {
            idom[b] = Some(virtual_root);
        }
    }
    let intersect = |idom: &[Option<usize>], mut a: usize, mut b: usize| {
        while a != b {
            while rank[a] > rank[b] {
                a = idom[a].unwrap_or(virtual_root);
            }
            while rank[b] > rank[a] {
                b = idom[b].unwrap_or(virtual_root);
            }
        }
        a
    };
    let mut changed = true;
    while changed {
        changed = false;
        for &b in order {
            if is_root(b) {
                continue;
            }
            let mut new = None;
            for &p in &preds[b] {
                if idom[p].is_none() {
                    continue;
                }
                new = Some(match new {
                    None => p,
                    Some(d) => intersect(&idom, p, d),
                });
            }
            // A block whose predecessors are all unlisted hangs below the
            // virtual root, as a root does.
            let new = new.or(Some(virtual_root));
            if idom[b] != new {
                idom[b] = new;
                changed = true;
            }
        }
    }
    idom.truncate(nb);
    for d in idom.iter_mut() {
        if *d == Some(virtual_root) {
            *d = None;
        }
    }
    idom
}

/// A method's blocks: where each starts, where control may go next, and
/// which block dominates which.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Flow {
    /// The bytecode index of each block's first instruction, ascending.
    starts: Vec<u32>,
    /// Each block's successors, along normal control flow and into the
    /// handlers that cover it.
    succs: Vec<Vec<usize>>,
    /// Each block's immediate dominator along normal control flow, the
    /// entry and the handlers being roots (see [`immediate_dominators`]).
    idom: Vec<Option<usize>>,
}

impl Flow {
    /// The flow of blocks that start at `starts` (ascending), with their
    /// successors and immediate dominators.
    pub fn new(starts: Vec<u32>, succs: Vec<Vec<usize>>, idom: Vec<Option<usize>>) -> Flow {
        Flow {
            starts,
            succs,
            idom,
        }
    }

    /// The block that holds the instruction at `bci`.
    pub fn block_at(&self, bci: u32) -> usize {
        self.starts.partition_point(|&s| s <= bci).saturating_sub(1)
    }

    /// Whether every path from the entry (or from the handler that roots
    /// it) to block `b` passes through block `a`.
    pub fn dominates(&self, a: usize, b: usize) -> bool {
        let mut x = b;
        // Each step climbs the dominator tree; a chain longer than the
        // number of blocks cannot be, but a bound keeps a bad tree finite.
        for _ in 0..=self.starts.len() {
            if x == a {
                return true;
            }
            match self.idom.get(x).copied().flatten() {
                Some(d) if d != x => x = d,
                _ => return false,
            }
        }
        false
    }

    /// Whether control can leave block `a` and come back to it without
    /// passing through block `avoid`: `a` may run more than once for each
    /// run of `avoid`.
    pub fn repeats_without(&self, a: usize, avoid: usize) -> bool {
        if a == avoid || a >= self.succs.len() {
            return false;
        }
        let mut seen = vec![false; self.succs.len()];
        let mut work: Vec<usize> = self.succs[a].clone();
        while let Some(b) = work.pop() {
            if b == a {
                return true;
            }
            if b == avoid || b >= seen.len() || seen[b] {
                continue;
            }
            seen[b] = true;
            work.extend(self.succs[b].iter().copied());
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A loop inside a branch: 0 -> 1 -> {2, 4}; 2 -> 3 -> 2 (loop), 3 -> 4.
    fn flow() -> Flow {
        let succs = vec![vec![1], vec![2, 4], vec![3], vec![2, 4], vec![]];
        let mut preds = vec![Vec::new(); 5];
        for (b, ss) in succs.iter().enumerate() {
            for &s in ss {
                preds[s].push(b);
            }
        }
        let idom = immediate_dominators(5, &[0, 1, 2, 3, 4], &preds, |b| b == 0);
        Flow::new(vec![0, 5, 9, 14, 20], succs, idom)
    }

    #[test]
    fn blocks_are_found_by_bytecode_index() {
        let f = flow();
        assert_eq!(
            [0, 4, 5, 13, 14, 20, 99].map(|bci| f.block_at(bci)),
            [0, 0, 1, 2, 3, 4, 4]
        );
    }

    #[test]
    fn dominance_follows_every_path() {
        let f = flow();
        assert!(f.dominates(1, 4));
        assert!(f.dominates(2, 3));
        assert!(f.dominates(4, 4));
        // The loop may be skipped on the way to 4.
        assert!(!f.dominates(2, 4));
        assert!(!f.dominates(3, 4));
    }

    #[test]
    fn a_block_repeats_in_a_loop_that_avoids_the_given_block() {
        let f = flow();
        assert!(f.repeats_without(2, 0));
        assert!(f.repeats_without(3, 1));
        // Every way back to 3 passes through 2.
        assert!(!f.repeats_without(3, 2));
        assert!(!f.repeats_without(1, 0));
        assert!(!f.repeats_without(4, 0));
    }
}
