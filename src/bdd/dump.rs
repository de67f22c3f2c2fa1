//! BDDs to and from the node lists of a dump file (bddbddb's JavaBDD text
//! dumps and refract's compact form, [`crate::io`]): the node-level half
//! of reading and writing relations, so that the layers above name no
//! node pointers.

use super::arena::Arena;
use super::tables::MixMap;
use crate::io::javabdd::DumpNode;
use biodivine_lib_bdd::{Bdd, BddPointer};

/// Why a dump's nodes do not form a BDD of the relation read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NodesError {
    /// A node tests a variable that the variable map leaves out.
    #[error("node {id} tests variable {var}, which belongs to no attribute of the relation")]
    UnknownVariable {
        /// The node's id in the file.
        id: u64,
        /// Its variable, in the file's numbering.
        var: u32,
    },
    /// A node's child is not defined before it.
    #[error("node {id} refers to node {child} before defining it")]
    Undefined {
        /// The node's id in the file.
        id: u64,
        /// The child's id.
        child: u64,
    },
    /// A path tests a variable twice.
    #[error("node {id} tests variable {var} twice on one path")]
    Repeated {
        /// The node's id in the file.
        id: u64,
        /// Its variable, in the file's numbering.
        var: u32,
    },
}

/// The BDD whose decision nodes are `nodes`, children first, over
/// `num_vars` variables: `var_map` gives, for each variable of the file,
/// the variable it stands for (`None`: not one of the relation's). The
/// root is the last node. The nodes need not follow the variable order
/// (a dump in another order is reordered as it is built).
pub fn from_dump_nodes(
    num_vars: u16,
    nodes: &[DumpNode],
    var_map: &[Option<u16>],
) -> Result<Bdd, NodesError> {
    // A dump in this layout's order gives a BDD of as many nodes: sized
    // so, the unique table never grows (pa's seventeen dumps spent 8% of
    // their loading in its doublings).
    let mut builder = Arena::with_capacity(num_vars, nodes.len());
    let mut ids = NodeIds::new(nodes);
    let mut root = BddPointer::zero();
    for &DumpNode { id, var, low, high } in nodes {
        let ours = (var_map.get(var as usize).copied().flatten())
            .ok_or(NodesError::UnknownVariable { id, var })?;
        let child = |c: u64| ids.get(c).ok_or(NodesError::Undefined { id, child: c });
        let (l, h) = (child(low)?, child(high)?);
        root = (builder.ite_var(ours, l, h)).map_err(|_| NodesError::Repeated { id, var })?;
        ids.insert(id, root);
    }
    Ok(builder.export(root))
}

/// The decision nodes of a (non-constant) BDD as a dump's, children
/// first, ids 2, 3, ..., variables in file numbering (`file_var`).
pub fn dump_nodes<'a>(
    bdd: &'a Bdd,
    file_var: &'a [u32],
) -> impl ExactSizeIterator<Item = DumpNode> + 'a {
    (2..bdd.size()).map(move |i| {
        let p = BddPointer::from_index(i);
        DumpNode {
            id: i as u64,
            var: file_var[bdd.var_of(p).to_index()],
            low: bdd.low_link_of(p).to_index() as u64,
            high: bdd.high_link_of(p).to_index() as u64,
        }
    })
}

/// The nodes read so far, by their ids in the file: a vector where the
/// ids are 2, 3, ... in order (every compact file, and the dumps refract
/// writes), else a map.
enum NodeIds {
    /// Pointer of id `k` at index `k`.
    Dense(Vec<BddPointer>),
    /// Any ids (JavaBDD's dumps name nodes by their slots in its table).
    Sparse(MixMap<BddPointer>),
}

impl NodeIds {
    /// Room for `nodes`, with the terminals 0 and 1 known.
    fn new(nodes: &[DumpNode]) -> NodeIds {
        let terminals = [BddPointer::zero(), BddPointer::one()];
        if nodes.iter().enumerate().all(|(k, n)| n.id == k as u64 + 2) {
            let mut v = Vec::with_capacity(nodes.len() + 2);
            v.extend(terminals);
            NodeIds::Dense(v)
        } else {
            let mut m = MixMap::with_capacity_and_hasher(nodes.len() + 2, Default::default());
            m.extend([(0, terminals[0]), (1, terminals[1])]);
            NodeIds::Sparse(m)
        }
    }

    /// The pointer of node `id`, if read.
    fn get(&self, id: u64) -> Option<BddPointer> {
        match self {
            NodeIds::Dense(v) => usize::try_from(id).ok().and_then(|k| v.get(k).copied()),
            NodeIds::Sparse(m) => m.get(&id).copied(),
        }
    }

    /// Records node `id` (the next one, where dense).
    fn insert(&mut self, id: u64, p: BddPointer) {
        match self {
            NodeIds::Dense(v) => v.push(p),
            NodeIds::Sparse(m) => {
                m.insert(id, p);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(id: u64, var: u32, low: u64, high: u64) -> DumpNode {
        DumpNode { id, var, low, high }
    }

    /// Written out and read back, a BDD is itself; with the file's
    /// variables swapped, its variables swap too.
    #[test]
    fn nodes_round_trip_and_follow_the_variable_map() {
        let vars = biodivine_lib_bdd::BddVariableSet::new_anonymous(3);
        let f = vars.eval_expression_string("(x_0 & !x_2) | x_1");
        let file_var = [0, 1, 2];
        let nodes: Vec<DumpNode> = dump_nodes(&f, &file_var).collect();
        let same = [Some(0), Some(1), Some(2)];
        assert_eq!(from_dump_nodes(3, &nodes, &same).unwrap(), f);
        let swapped = [Some(2), Some(1), Some(0)];
        assert_eq!(
            from_dump_nodes(3, &nodes, &swapped).unwrap(),
            vars.eval_expression_string("(x_2 & !x_0) | x_1")
        );
    }

    #[test]
    fn malformed_node_lists_are_refused() {
        let outside = [Some(0), None];
        assert_eq!(
            from_dump_nodes(2, &[node(2, 1, 0, 1)], &outside),
            Err(NodesError::UnknownVariable { id: 2, var: 1 })
        );
        let all = [Some(0), Some(1)];
        assert_eq!(
            from_dump_nodes(2, &[node(2, 0, 0, 7)], &all),
            Err(NodesError::Undefined { id: 2, child: 7 })
        );
        assert_eq!(
            from_dump_nodes(2, &[node(2, 0, 0, 1), node(3, 0, 2, 1)], &all),
            Err(NodesError::Repeated { id: 3, var: 0 })
        );
    }
}
