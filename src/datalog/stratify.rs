//! Stratification: strongly connected components of the dependency graph,
//! in evaluation order, with negation checked to stay between strata.

use super::error::{Error, ErrorKind, Result};
use super::program::{Literal, Program, RelId};

/// A set of mutually recursive relations and the rules that define them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stratum {
    /// The relations defined here.
    pub relations: Vec<RelId>,
    /// The rules whose heads are here.
    pub rules: Vec<usize>,
    /// Whether some rule reads a relation of this stratum.
    pub recursive: bool,
}

/// Orders the rules of `prog` into strata (Tarjan's algorithm): every
/// stratum comes after the strata it reads.
pub fn stratify(prog: &Program) -> Result<Vec<Stratum>> {
    let n = prog.relations.len();
    let mut edges: Vec<Vec<RelId>> = vec![Vec::new(); n];
    for rule in &prog.rules {
        for lit in &rule.body {
            if let Literal::Pos(a) | Literal::Neg(a) = lit {
                edges[rule.head.rel].push(a.rel);
            }
        }
    }
    let comps = tarjan(&edges, 0..n);
    let mut comp_of = vec![0; n];
    for (c, members) in comps.iter().enumerate() {
        for &r in members {
            comp_of[r] = c;
        }
    }
    // Negation must not occur inside a component.
    for rule in &prog.rules {
        for lit in &rule.body {
            if let Literal::Neg(a) = lit {
                if comp_of[a.rel] == comp_of[rule.head.rel] {
                    return Err(Error::at(
                        &a.loc,
                        ErrorKind::Unstratifiable,
                        format!(
                            "negation cannot be stratified: {} depends on !{} which depends on {} again",
                            prog.relations[rule.head.rel].name, prog.relations[a.rel].name, prog.relations[rule.head.rel].name
                        ),
                    ));
                }
            }
        }
    }
    let mut strata = Vec::new();
    for members in comps {
        let c = comp_of[members[0]];
        let rules: Vec<usize> = (0..prog.rules.len())
            .filter(|&i| comp_of[prog.rules[i].head.rel] == c)
            .collect();
        if rules.is_empty() {
            continue;
        }
        let recursive = rules.iter().any(|&i| {
            prog.rules[i]
                .body
                .iter()
                .any(|l| matches!(l, Literal::Pos(a) if comp_of[a.rel] == c))
        });
        let mut relations = members;
        relations.sort_unstable();
        strata.push(Stratum {
            relations,
            rules,
            recursive,
        });
    }
    Ok(strata)
}

/// The strongly connected components of the graph on `0..edges.len()`
/// that the nodes `starts` reach (Tarjan's algorithm, without recursion),
/// each emitted after those it reaches.
pub(crate) fn tarjan(
    edges: &[Vec<usize>],
    starts: impl IntoIterator<Item = usize>,
) -> Vec<Vec<usize>> {
    const UNVISITED: usize = usize::MAX;
    let n = edges.len();
    let mut index = vec![UNVISITED; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut comps = Vec::new();
    let mut next = 0;
    for root in starts {
        if index[root] != UNVISITED {
            continue;
        }
        // Iterative DFS: (node, next edge position).
        let mut work = vec![(root, 0usize)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut ei)) = work.last_mut() {
            if *ei < edges[v].len() {
                let w = edges[v][*ei];
                *ei += 1;
                if index[w] == UNVISITED {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                work.pop();
                if let Some(&(parent, _)) = work.last() {
                    low[parent] = low[parent].min(low[v]);
                }
                if low[v] == index[v] {
                    let mut comp = Vec::new();
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        comp.push(w);
                        if w == v {
                            break;
                        }
                    }
                    comps.push(comp);
                }
            }
        }
    }
    comps
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn components_come_after_what_they_read() {
        // 0 -> 1 -> 2 -> 1, 3 -> 0
        let edges = vec![vec![1], vec![2], vec![1], vec![0]];
        let comps = tarjan(&edges, 0..4);
        let pos = |x: usize| comps.iter().position(|c| c.contains(&x)).unwrap();
        assert_eq!(pos(1), pos(2));
        assert!(pos(1) < pos(0));
        assert!(pos(0) < pos(3));
    }
}
