//! Null guards: the calls that run only where a variable holds an object.
//!
//! Much of the JDK's code sits behind a test such as
//! `if (sm != null) sm.checkPackageAccess(...)` or
//! `if (handler != null) handler.publish(...)`. A call dominated by the
//! non-null branch of an `ifnull`/`ifnonnull` test of a variable runs
//! only if that variable once held an object: if the points-to analysis
//! finds no object for it, the call is dead. The facts record the test
//! (`nullGuard`); the analysis decides what to do with it (see
//! `queries/pointsto.dl`).
//!
//! The guard of a block is the variable tested by the closest dominating
//! non-null branch. Dominators come from the normal control flow; the
//! entry and every exception handler are roots, so no handler, and no
//! block reached only from a handler, inherits a guard from the code it
//! protects.

use super::Var;

/// The null test that ends a block: the variable tested and the
/// successor that control reaches when it holds an object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NullTest {
    /// The variable tested.
    pub var: Var,
    /// The block entered when the variable is not null.
    pub non_null: usize,
}

/// The guard of block `b`: the variable of the closest dominating
/// non-null branch. `tests` and `guards` must hold the values of the
/// blocks before `b` in reverse post-order (its dominators among them).
pub fn guard_of(
    b: usize,
    preds: &[Vec<usize>],
    idom: &[Option<usize>],
    tests: &[Option<NullTest>],
    guards: &[Option<Var>],
) -> Option<Var> {
    if let [p] = preds[b][..] {
        if let Some(t) = tests[p] {
            if t.non_null == b && idom[b] == Some(p) {
                return Some(t.var);
            }
        }
    }
    idom[b].and_then(|d| guards[d])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::flow::immediate_dominators;

    fn preds_of(nb: usize, edges: &[(usize, usize)]) -> Vec<Vec<usize>> {
        let mut preds = vec![Vec::new(); nb];
        for &(a, b) in edges {
            preds[b].push(a);
        }
        preds
    }

    #[test]
    fn a_diamond_is_dominated_by_its_head() {
        // 0 -> 1, 0 -> 2, 1 -> 3, 2 -> 3
        let preds = preds_of(4, &[(0, 1), (0, 2), (1, 3), (2, 3)]);
        let idom = immediate_dominators(4, &[0, 2, 1, 3], &preds, |b| b == 0);
        assert_eq!(idom, vec![None, Some(0), Some(0), Some(0)]);
    }

    #[test]
    fn a_loop_body_is_dominated_by_its_header() {
        // 0 -> 1 (header), 1 -> 2 (body), 2 -> 1, 1 -> 3 (exit)
        let preds = preds_of(4, &[(0, 1), (1, 2), (2, 1), (1, 3)]);
        let idom = immediate_dominators(4, &[0, 1, 3, 2], &preds, |b| b == 0);
        assert_eq!(idom, vec![None, Some(0), Some(1), Some(1)]);
    }

    #[test]
    fn a_handler_is_a_root() {
        // 0 -> 1; handler 2 -> 1
        let preds = preds_of(3, &[(0, 1), (2, 1)]);
        let idom = immediate_dominators(3, &[0, 2, 1], &preds, |b| b == 0 || b == 2);
        assert_eq!(idom, vec![None, None, None]);
    }

    #[test]
    fn the_non_null_branch_and_what_it_dominates_are_guarded() {
        // if (v != null) { 1; if (w != null) { 2 } 3 } 4
        // 0 -test v-> 1 | 4; 1 -test w-> 2 | 3; 2 -> 3; 3 -> 4
        let preds = preds_of(5, &[(0, 1), (0, 4), (1, 2), (1, 3), (2, 3), (3, 4)]);
        let order = [0, 1, 2, 3, 4];
        let idom = immediate_dominators(5, &order, &preds, |b| b == 0);
        let mut tests = vec![None; 5];
        tests[0] = Some(NullTest {
            var: 7,
            non_null: 1,
        });
        tests[1] = Some(NullTest {
            var: 8,
            non_null: 2,
        });
        let mut guards = vec![None; 5];
        for &b in &order {
            guards[b] = guard_of(b, &preds, &idom, &tests, &guards);
        }
        assert_eq!(guards, vec![None, Some(7), Some(8), Some(7), None]);
    }
}
