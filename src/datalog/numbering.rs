//! Path numbering: bddbddb's `number` rules, the context numbering of
//! Whaley and Lam's cloning-based context-sensitive analysis (PLDI'04).
//!
//! A rule with the option `number`,
//!
//! ```text
//! IEnum(i, m, vc2, vc1) :- roots(m), mI0(m, i), IE0(i, m). number
//! ```
//!
//! reads its first subgoal as the roots of a graph (one variable) and
//! each further subgoal as edges between two variables; the graph's nodes
//! are (variable, value) pairs. Every acyclic path from a root is a
//! context. Strongly connected components are collapsed: the nodes of a
//! cycle share their contexts, and an edge inside one maps each context
//! to itself. A node has as many contexts as there are paths to its
//! component, and each edge into a component from another is given its
//! own range of the target's contexts, as long as the source's, in the
//! order of their sources. A component that nothing enters (it holds a
//! root) has one context; a root that is also called has only the
//! contexts of its calls. These are the counts of bddbddb's
//! `SCCPathNumbering`: for its Java example, pa, both give a method at
//! most 37,396,112,036,813,043 contexts. The head holds, for each tuple `(a, b)` of the edge
//! subgoal over its first two variables, the map from each context of `a`
//! (third variable) to the context of `b` it becomes (fourth): `y = x +
//! k`, with `x` below the number of contexts of `a`. Nothing is
//! enumerated but the graph: the contexts live in the BDD as ranges and
//! offsets, so 2^61 of them cost what a few do.

use super::error::{Error, ErrorKind, Result};
use super::program::{Literal, Rule, Term, VarId};
use crate::bdd::{
    self, less_than_bdd, mk_false, offset_bdd, relation_from_tuples, sorted_tuples, Bdd,
    BddVariable,
};
use std::collections::HashMap;

/// The numbering of the paths of a graph from its roots.
#[derive(Debug, PartialEq, Eq)]
pub struct PathNumbering {
    /// Each node's component.
    scc: Vec<usize>,
    /// Each component's number of contexts (0 when no root reaches it).
    contexts: Vec<u128>,
    /// The first context of its target that an edge between components
    /// maps the source's contexts to.
    offsets: HashMap<(usize, usize), u128>,
}

impl PathNumbering {
    /// Numbers the paths of the graph on nodes `0..nodes` with `edges`
    /// from `roots`. Fails (with the count so far) when some node has more
    /// than `limit` contexts.
    pub fn new(
        nodes: usize,
        edges: &[(usize, usize)],
        roots: &[usize],
        limit: u128,
    ) -> std::result::Result<Self, u128> {
        let mut succ: Vec<Vec<usize>> = vec![Vec::new(); nodes];
        for &(u, v) in edges {
            succ[u].push(v);
        }
        for s in &mut succ {
            s.sort_unstable();
            s.dedup();
        }
        let (scc, count) = components(&succ, roots);
        // Each component's incoming edges from other components, in the
        // order of their sources.
        let mut incoming: Vec<Vec<(usize, usize)>> = vec![Vec::new(); count];
        for (u, targets) in succ.iter().enumerate() {
            for &v in targets {
                if scc[u] != usize::MAX && scc[u] != scc[v] {
                    incoming[scc[v]].push((u, v));
                }
            }
        }
        // A component that no other enters is entered once, from outside:
        // it holds a root. (A root that is also called has only the
        // contexts of its calls, as in bddbddb.)
        let mut contexts: Vec<u128> = incoming.iter().map(|i| u128::from(i.is_empty())).collect();
        let mut offsets = HashMap::new();
        // Components in topological order: the counts of a component's
        // predecessors are final when its turn comes, and its incoming
        // edges take consecutive ranges of its contexts.
        for c in 0..count {
            for &(u, v) in &incoming[c] {
                offsets.insert((u, v), contexts[c]);
                contexts[c] = contexts[c].checked_add(contexts[scc[u]]).ok_or(u128::MAX)?;
                if contexts[c] > limit {
                    return Err(contexts[c]);
                }
            }
        }
        Ok(PathNumbering {
            scc,
            contexts,
            offsets,
        })
    }

    /// The number of contexts of node `v` (0 when no root reaches it).
    pub fn contexts(&self, v: usize) -> u128 {
        match self.scc[v] {
            usize::MAX => 0,
            c => self.contexts[c],
        }
    }

    /// The map of edge `(u, v)`: `u`'s contexts `0..n` become `v`'s
    /// contexts `k..k + n`. `None` when no root reaches `u`.
    pub fn edge(&self, u: usize, v: usize) -> Option<(u128, u128)> {
        let n = self.contexts(u);
        if n == 0 {
            return None;
        }
        if self.scc[u] == self.scc[v] {
            return Some((n, 0));
        }
        self.offsets.get(&(u, v)).map(|&k| (n, k))
    }

    /// The largest number of contexts of any node.
    pub fn max_contexts(&self) -> u128 {
        self.contexts.iter().copied().max().unwrap_or(0)
    }
}

/// The most contexts of any method when the paths of a call graph are
/// numbered from `entries` along method -> call site -> target, as the
/// rule `IEc(i, m, c1, c2) :- entry(m), site(m, i), edge(i, m). number`
/// numbers them: `calls` holds (caller, site, target). A caller that
/// sizes the rule's context domain before the solve uses this. Fails,
/// with the count so far, beyond `limit`.
pub fn call_graph_contexts(
    calls: &[[u64; 3]],
    entries: &[u64],
    limit: u128,
) -> std::result::Result<u128, u128> {
    // Methods and call sites are distinct nodes, as the rule's two
    // variables make them.
    let mut nodes: HashMap<(bool, u64), usize> = HashMap::new();
    let mut node = |site: bool, x: u64| {
        let n = nodes.len();
        *nodes.entry((site, x)).or_insert(n)
    };
    let roots: Vec<usize> = entries.iter().map(|&m| node(false, m)).collect();
    let mut edges = Vec::with_capacity(2 * calls.len());
    for &[m, i, n] in calls {
        let (m, i, n) = (node(false, m), node(true, i), node(false, n));
        edges.push((m, i));
        edges.push((i, n));
    }
    Ok(PathNumbering::new(nodes.len(), &edges, &roots, limit)?.max_contexts())
}

/// The strongly connected components of the nodes that `roots` reach:
/// each node's component (`usize::MAX` when unreached), numbered in
/// topological order (a component before those it has edges to), and
/// their number.
fn components(succ: &[Vec<usize>], roots: &[usize]) -> (Vec<usize>, usize) {
    let mut found = super::stratify::tarjan(succ, roots.iter().copied());
    // Tarjan finds a component after every component it reaches.
    found.reverse();
    let mut scc = vec![usize::MAX; succ.len()];
    for (c, members) in found.iter().enumerate() {
        for &v in members {
            scc[v] = c;
        }
    }
    (scc, found.len())
}

/// What a `number` rule needs: its relations' BDDs and the blocks of
/// their attributes.
pub struct NumberingInput<'a> {
    /// The relations' BDDs, by relation id.
    pub rels: &'a [Bdd],
    /// The BDD variables of each attribute of a relation.
    pub blocks: &'a dyn Fn(usize) -> Vec<&'a [BddVariable]>,
    /// The number of BDD variables.
    pub num_vars: u16,
    /// The size of the head's context domain.
    pub domain_size: u64,
}

/// Evaluates `number` rule `rule` (checked by the resolver: a root
/// subgoal of one variable, edge subgoals of two, a head of four
/// variables whose first two are an edge subgoal's): the head relation,
/// and the largest number of contexts of a node.
pub fn evaluate(rule: &Rule, input: &NumberingInput) -> Result<(Bdd, u128)> {
    let mut nodes: HashMap<(VarId, u64), usize> = HashMap::new();
    let mut node = |var: VarId, value: u64| {
        let n = nodes.len();
        *nodes.entry((var, value)).or_insert(n)
    };
    let atoms: Vec<_> = (rule.body.iter())
        .filter_map(|l| match l {
            Literal::Pos(a) => Some(a),
            _ => None,
        })
        .collect();
    let columns = |a: &super::program::Atom| -> Vec<(usize, VarId)> {
        let mut cols: Vec<(usize, VarId)> = Vec::new();
        for (k, t) in a.args.iter().enumerate() {
            if let Term::Var(v) = t {
                cols.push((k, *v));
            }
        }
        cols
    };
    let tuples =
        |a: &super::program::Atom| sorted_tuples(&input.rels[a.rel], &(input.blocks)(a.rel));
    let Some((root_atom, edge_atoms)) = atoms.split_first() else {
        return Ok((mk_false(input.num_vars), 0));
    };
    let root_col = columns(root_atom)[0];
    let roots: Vec<usize> = (tuples(root_atom).iter())
        .map(|t| node(root_col.1, t[root_col.0]))
        .collect();
    let mut edges = Vec::new();
    let mut numbered: Vec<(usize, usize, u64, u64)> = Vec::new();
    let head_vars: Vec<Option<VarId>> = (rule.head.args.iter())
        .map(|t| match t {
            Term::Var(v) => Some(*v),
            _ => None,
        })
        .collect();
    for a in edge_atoms {
        let cols = columns(a);
        let ((ks, vs), (kd, vd)) = (cols[0], cols[1]);
        let is_numbered = head_vars[0] == Some(vs) && head_vars[1] == Some(vd);
        for t in tuples(a) {
            let (u, v) = (node(vs, t[ks]), node(vd, t[kd]));
            edges.push((u, v));
            if is_numbered {
                numbered.push((u, v, t[ks], t[kd]));
            }
        }
    }
    let numbering = PathNumbering::new(nodes.len(), &edges, &roots, u128::from(input.domain_size))
        .map_err(|count| {
            Error::at(
                &rule.loc,
                ErrorKind::OutOfDomain,
                format!(
                    "the numbering rule gives a node {count} contexts, more than its context domain holds ({}); give the domain more elements",
                    input.domain_size
                ),
            )
        })?;
    let head = (input.blocks)(rule.head.rel);
    let bdd = head_relation(&numbering, &numbered, head, input.num_vars);
    Ok((bdd, numbering.max_contexts()))
}

/// The head of a `number` rule: for each numbered edge `(u, v)` with the
/// values `(a, b)`, `a`'s and `b`'s values with the map of the edge's
/// contexts.
fn head_relation(
    numbering: &PathNumbering,
    numbered: &[(usize, usize, u64, u64)],
    head: Vec<&[BddVariable]>,
    nv: u16,
) -> Bdd {
    // Many edges share a map (every edge inside a cycle is the identity
    // of its component's count; every edge from a method with one
    // context into one with one caller is `0 -> 0`): the edges are
    // grouped by their map, each group's pairs built at once from its
    // tuples, and each map built and joined once.
    let mut groups: HashMap<(u128, u128), Vec<[u64; 2]>> = HashMap::new();
    for &(u, v, a, b) in numbered {
        if let Some(map) = numbering.edge(u, v) {
            groups.entry(map).or_default().push([a, b]);
        }
    }
    let mut groups: Vec<_> = groups.into_iter().collect();
    groups.sort_unstable_by_key(|(map, _)| *map);
    let pieces = groups
        .into_iter()
        .map(|((n, k), pairs)| {
            // Both fit the context domain, whose size is a u64.
            let (n, k) = (n as u64, k as u64);
            let map = less_than_bdd(nv, head[2], n).and(&offset_bdd(nv, head[2], head[3], k));
            let ends = relation_from_tuples(nv, &[head[0], head[1]], &pairs);
            bdd::and(&ends, &map)
        })
        .collect();
    union_all(pieces, nv)
}

/// The union of `bdds`, pairwise in rounds: each BDD is copied into a
/// union about log(n) times, not n.
fn union_all(mut bdds: Vec<Bdd>, nv: u16) -> Bdd {
    while bdds.len() > 1 {
        let mut next = Vec::with_capacity(bdds.len().div_ceil(2));
        let mut it = bdds.into_iter();
        while let Some(a) = it.next() {
            next.push(match it.next() {
                Some(b) => bdd::or(&a, &b),
                None => a,
            });
        }
        bdds = next;
    }
    bdds.pop().unwrap_or_else(|| mk_false(nv))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_diamond_gives_its_join_one_context_per_path() {
        // r -> a, r -> b, a -> c, b -> c
        let p = PathNumbering::new(4, &[(0, 1), (0, 2), (1, 3), (2, 3)], &[0], 100).unwrap();
        assert_eq!(
            (0..4).map(|v| p.contexts(v)).collect::<Vec<_>>(),
            [1, 1, 1, 2]
        );
        assert_eq!(p.edge(1, 3), Some((1, 0)));
        assert_eq!(p.edge(2, 3), Some((1, 1)));
        assert_eq!(p.edge(0, 1), Some((1, 0)));
    }

    #[test]
    fn a_cycle_shares_its_contexts_and_maps_them_to_themselves() {
        // r -> a, r -> b, a -> b, b -> a, b -> c: {a, b} is one component
        // with two contexts (from r to a, from r to b).
        let edges = [(0, 1), (0, 2), (1, 2), (2, 1), (2, 3)];
        let p = PathNumbering::new(4, &edges, &[0], 100).unwrap();
        assert_eq!(
            (0..4).map(|v| p.contexts(v)).collect::<Vec<_>>(),
            [1, 2, 2, 2]
        );
        assert_eq!(p.edge(1, 2), Some((2, 0)));
        assert_eq!(p.edge(2, 1), Some((2, 0)));
        assert_eq!(p.edge(2, 3), Some((2, 0)));
        let offsets = [p.edge(0, 1), p.edge(0, 2)];
        assert_eq!(offsets, [Some((1, 0)), Some((1, 1))]);
    }

    #[test]
    fn unreached_nodes_have_no_contexts_and_a_called_root_only_its_calls() {
        // 0 and 3 are roots; 3 -> 1, 0 -> 1; 2 -> 1 is not reached; 0 -> 3
        // calls the second root.
        let edges = [(0, 1), (3, 1), (2, 1), (0, 3)];
        let p = PathNumbering::new(4, &edges, &[0, 3], 100).unwrap();
        assert_eq!(
            (0..4).map(|v| p.contexts(v)).collect::<Vec<_>>(),
            [1, 2, 0, 1]
        );
        assert_eq!(p.edge(2, 1), None);
        assert_eq!([p.edge(0, 1), p.edge(3, 1)], [Some((1, 0)), Some((1, 1))]);
    }

    #[test]
    fn paths_beyond_the_limit_are_refused() {
        // A chain of 70 diamonds has 2^70 paths.
        let mut edges = Vec::new();
        for d in 0..70 {
            let (s, a, b, t) = (3 * d, 3 * d + 1, 3 * d + 2, 3 * d + 3);
            edges.extend([(s, a), (s, b), (a, t), (b, t)]);
        }
        let p = PathNumbering::new(211, &edges, &[0], u128::MAX).unwrap();
        assert_eq!(p.contexts(210), 1 << 70);
        assert_eq!(p.max_contexts(), 1 << 70);
        assert!(PathNumbering::new(211, &edges, &[0], 1 << 61).is_err());
    }
}
