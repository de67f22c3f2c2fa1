//! JavaBDD `BDDFactory.save` dumps (`.bdd`) and bddbddb's `bddinfo`.
//!
//! ```text
//! <node count> <variable count>
//! <for each variable: its level>
//! <id> <variable> <low id> <high id>     children before parents; root last
//! ```
//! Ids 0 and 1 are the terminals; a constant is saved as `0 0 <0|1>`.
//! Variables are numbered in domain-instance allocation order (`bddinfo`
//! lists one domain name per allocated instance), bit 0 first.

use std::io::{self, Write};
use std::path::Path;

/// One decision node of a dump.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DumpNode {
    /// The node's id in the file.
    pub id: u64,
    /// The variable it tests (allocation numbering).
    pub var: u32,
    /// Id of the low child.
    pub low: u64,
    /// Id of the high child.
    pub high: u64,
}

/// A parsed `.bdd` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BddDump {
    /// The constant `false` or `true`.
    Constant(bool),
    /// A BDD.
    Nodes {
        /// For each variable, its level in the saving factory's order.
        var_levels: Vec<u32>,
        /// Nodes, children first; the last one is the root.
        nodes: Vec<DumpNode>,
    },
}

/// A malformed dump: what and where (1-based line).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct DumpError {
    /// The line of the problem.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// Parses the text of a `.bdd` file.
pub fn parse(text: &str) -> Result<BddDump, DumpError> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end_matches('\r').trim()))
        .filter(|(_, l)| !l.is_empty());
    let err = |line: usize, m: &str| DumpError {
        line,
        message: m.to_string(),
    };
    let (hl, header) = lines.next().ok_or_else(|| err(1, "empty file"))?;
    let nums: Vec<&str> = header.split_whitespace().collect();
    let num = |s: &str, line: usize| {
        s.parse::<u64>()
            .map_err(|_| err(line, &format!("'{s}' is not a number")))
    };
    match nums.as_slice() {
        [n, v, c] if *n == "0" && *v == "0" => {
            return Ok(BddDump::Constant(num(c, hl)? != 0));
        }
        [n] if *n == "0" || *n == "1" => return Ok(BddDump::Constant(*n == "1")),
        [n, v] if *n == "0" && *v == "0" => {
            let (l, c) = lines
                .next()
                .ok_or_else(|| err(hl + 1, "missing constant value"))?;
            return Ok(BddDump::Constant(num(c, l)? != 0));
        }
        [_, _] => {}
        _ => return Err(err(hl, "expected '<node count> <variable count>'")),
    }
    let node_count = num(nums[0], hl)? as usize;
    let var_count = num(nums[1], hl)? as usize;
    // Variable levels may wrap over several lines.
    let mut var_levels = Vec::with_capacity(var_count);
    while var_levels.len() < var_count {
        let (l, text) = lines
            .next()
            .ok_or_else(|| err(hl + 1, "missing variable levels"))?;
        for t in text.split_whitespace() {
            var_levels.push(num(t, l)? as u32);
        }
    }
    if var_levels.len() != var_count {
        return Err(err(hl + 1, "wrong number of variable levels"));
    }
    let mut nodes = Vec::with_capacity(node_count);
    for (l, text) in lines {
        let f: Vec<&str> = text.split_whitespace().collect();
        if f.len() != 4 {
            return Err(err(l, "expected '<id> <variable> <low> <high>'"));
        }
        let node = DumpNode {
            id: num(f[0], l)?,
            var: num(f[1], l)? as u32,
            low: num(f[2], l)?,
            high: num(f[3], l)?,
        };
        if node.var as usize >= var_count {
            return Err(err(
                l,
                &format!(
                    "variable {} is out of range (the file has {var_count})",
                    node.var
                ),
            ));
        }
        nodes.push(node);
    }
    if nodes.len() != node_count {
        return Err(err(
            hl,
            &format!(
                "the header promises {node_count} nodes but the file has {}",
                nodes.len()
            ),
        ));
    }
    Ok(BddDump::Nodes { var_levels, nodes })
}

/// Writes a dump. `nodes` must list children before parents, root last.
pub fn write(out: &mut impl Write, dump: &BddDump) -> io::Result<()> {
    match dump {
        BddDump::Constant(c) => writeln!(out, "0 0 {}", u8::from(*c)),
        BddDump::Nodes { var_levels, nodes } => {
            writeln!(out, "{} {}", nodes.len(), var_levels.len())?;
            let levels: Vec<String> = var_levels.iter().map(u32::to_string).collect();
            writeln!(out, "{} ", levels.join(" "))?;
            for n in nodes {
                writeln!(out, "{} {} {} {}", n.id, n.var, n.low, n.high)?;
            }
            Ok(())
        }
    }
}

/// Reads `bddinfo`: one domain name per allocated instance.
pub fn read_info(path: &Path) -> io::Result<Vec<String>> {
    Ok(std::fs::read_to_string(path)?
        .lines()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_nodes_and_constants() {
        let d = parse("2 3\r\n2 1 0\r\n5 0 0 1\r\n6 2 5 1\r\n").unwrap();
        match &d {
            BddDump::Nodes { var_levels, nodes } => {
                assert_eq!(var_levels, &vec![2, 1, 0]);
                assert_eq!(
                    nodes[1],
                    DumpNode {
                        id: 6,
                        var: 2,
                        low: 5,
                        high: 1
                    }
                );
            }
            _ => panic!(),
        }
        let mut buf = Vec::new();
        write(&mut buf, &d).unwrap();
        assert_eq!(parse(std::str::from_utf8(&buf).unwrap()).unwrap(), d);
        assert_eq!(parse("0 0 0\r\n").unwrap(), BddDump::Constant(false));
        assert_eq!(parse("0 0 1").unwrap(), BddDump::Constant(true));
    }

    #[test]
    fn reports_damage_with_line() {
        let e = parse("2 3\n2 1 0\n5 0 0 1\n").unwrap_err();
        assert!(e.to_string().contains("promises 2 nodes"));
        let e = parse("1 2\n0 1\n5 7 0 1\n").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(parse("x y\n").is_err());
    }
}
