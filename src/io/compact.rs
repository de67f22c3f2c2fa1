//! refract's compact BDD files: the nodes of a JavaBDD dump in a binary,
//! compressed form, for the relations a database stores.
//!
//! ```text
//! refract-bdd 1\n                      the magic line
//! zstd stream (level 1) of LEB128 numbers:
//!   0 | 1                              the constant false or true, or
//!   2 <variable count> <level>...      as a JavaBDD dump's second line
//!     <node count>
//!     per node, children first, root last (node k has id k + 2):
//!       <variable - previous node's variable, zigzag>
//!       <low> <high>                   0 and 1: the terminals;
//!                                      c >= 3: the node c - 2 ids back
//! ```
//!
//! A JavaBDD text dump spends about 22 bytes on a node; this form about
//! 5.4 before compressing and 1.3 after (the whole JDK's `mI`, 3.75
//! million nodes: 84 MB as text, 20 MB of numbers, 4.7 MB compressed). A
//! text dump starts with a digit, so the magic line tells the two apart.

use super::javabdd::{BddDump, DumpNode};
use super::text_file::LEVEL;
use std::io::{self, BufRead, BufReader, Write};

/// The first bytes of a compact file.
pub const MAGIC: &[u8] = b"refract-bdd 1\n";

/// A damaged compact file: what, and at which number of the stream.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("compact BDD, number {index} of its stream: {message}")]
pub struct CompactError {
    /// The position of the bad number (0-based) in the decoded stream.
    pub index: u64,
    /// What is wrong.
    pub message: String,
}

/// Whether `bytes` begin like a compact file.
pub fn is_compact(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// Writes `dump` in the compact form. Its nodes must have the ids 2, 3,
/// ... in order, each child before its parent, as a BDD's node array has
/// them.
pub fn write(out: impl Write, dump: &BddDump) -> io::Result<()> {
    match dump {
        BddDump::Constant(c) => framed(out, |z| put(z, u64::from(*c))),
        BddDump::Nodes { var_levels, nodes } => write_nodes(out, var_levels, nodes.iter().copied()),
    }
}

/// Writes a BDD of decision nodes in the compact form, the nodes as
/// [`write`] wants them, taken one by one (nothing holds them all).
pub fn write_nodes(
    out: impl Write,
    var_levels: &[u32],
    nodes: impl ExactSizeIterator<Item = DumpNode>,
) -> io::Result<()> {
    framed(out, |z| {
        put(z, 2)?;
        put(z, var_levels.len() as u64)?;
        for &l in var_levels {
            put(z, u64::from(l))?;
        }
        put(z, nodes.len() as u64)?;
        let mut prev = 0i64;
        for (k, n) in nodes.enumerate() {
            let id = k as u64 + 2;
            if n.id != id || n.low >= id || n.high >= id {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!(
                        "node {} is not numbered {id} with its children before it",
                        n.id
                    ),
                ));
            }
            let var = i64::from(n.var);
            put(z, zigzag(var - prev))?;
            prev = var;
            put(z, child_code(id, n.low))?;
            put(z, child_code(id, n.high))?;
        }
        Ok(())
    })
}

/// The magic line, then what `body` writes, compressed.
fn framed(
    mut out: impl Write,
    body: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    out.write_all(MAGIC)?;
    let mut z = zstd::Encoder::new(io::BufWriter::new(out), LEVEL)?;
    body(&mut z)?;
    z.finish()?.flush()
}

/// Parses a compact file (its magic line included).
pub fn parse(bytes: &[u8]) -> Result<BddDump, CompactError> {
    let body = bytes.strip_prefix(MAGIC).ok_or_else(|| CompactError {
        index: 0,
        message: "not a compact BDD file (no `refract-bdd 1` line)".to_string(),
    })?;
    let mut r = Numbers {
        input: BufReader::new(zstd::Decoder::with_buffer(body).map_err(|e| CompactError {
            index: 0,
            message: e.to_string(),
        })?),
        index: 0,
    };
    match r.next("the kind")? {
        0 => return r.end(BddDump::Constant(false)),
        1 => return r.end(BddDump::Constant(true)),
        2 => {}
        k => return Err(r.bad(format!("kind {k} is not 0, 1 or 2"))),
    }
    let var_count = r.next("the variable count")?;
    if var_count > u64::from(u16::MAX) {
        return Err(r.bad(format!("{var_count} variables is more than a BDD has")));
    }
    let var_levels = (0..var_count)
        .map(|_| r.next("a variable level").map(|l| l as u32))
        .collect::<Result<Vec<_>, _>>()?;
    let node_count = r.next("the node count")?;
    // Grown as the nodes come: the count alone is no reason to allocate.
    let mut nodes = Vec::with_capacity(node_count.min(1 << 20) as usize);
    let mut var = 0i64;
    for k in 0..node_count {
        let id = k + 2;
        var += unzigzag(r.next("a node's variable")?);
        if var < 0 || var as u64 >= var_count {
            return Err(r.bad(format!(
                "node {id} tests variable {var}; the file has {var_count}"
            )));
        }
        let low = r.child(id)?;
        let high = r.child(id)?;
        nodes.push(DumpNode {
            id,
            var: var as u32,
            low,
            high,
        });
    }
    r.end(BddDump::Nodes { var_levels, nodes })
}

/// Reads the numbers of a compact file's stream.
struct Numbers<R> {
    input: R,
    index: u64,
}

impl<R: BufRead> Numbers<R> {
    /// An error at the next number (one missing or past the end).
    fn error(&self, message: String) -> CompactError {
        CompactError {
            index: self.index,
            message,
        }
    }

    /// An error in the number just read.
    fn bad(&self, message: String) -> CompactError {
        CompactError {
            index: self.index.saturating_sub(1),
            message,
        }
    }

    /// The next number; `what` names it if the stream ends or is damaged.
    fn next(&mut self, what: &str) -> Result<u64, CompactError> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let mut b = [0u8];
            if let Err(e) = self.input.read_exact(&mut b) {
                let why = if e.kind() == io::ErrorKind::UnexpectedEof {
                    "the file ends".to_string()
                } else {
                    e.to_string()
                };
                return Err(self.error(format!("{why} before {what}")));
            }
            v |= u64::from(b[0] & 0x7f) << shift;
            if b[0] & 0x80 == 0 {
                self.index += 1;
                return Ok(v);
            }
        }
        Err(self.error(format!("{what} is longer than 64 bits")))
    }

    /// A child of node `id`, as an id.
    fn child(&mut self, id: u64) -> Result<u64, CompactError> {
        match self.next("a node's child")? {
            c @ (0 | 1) => Ok(c),
            c if c >= 3 && c <= id => Ok(id - (c - 2)),
            c => Err(self.bad(format!(
                "node {id} refers to a child {c} that does not precede it"
            ))),
        }
    }

    /// `dump`, if nothing follows it.
    fn end(mut self, dump: BddDump) -> Result<BddDump, CompactError> {
        let mut rest = [0u8];
        match self.input.read(&mut rest) {
            Ok(0) => Ok(dump),
            Ok(_) => Err(self.error("data after the last node".to_string())),
            Err(e) => Err(self.error(e.to_string())),
        }
    }
}

/// Writes one LEB128 number.
fn put(out: &mut (impl Write + ?Sized), mut v: u64) -> io::Result<()> {
    let mut buf = [0u8; 10];
    let mut n = 0;
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            buf[n] = b;
            n += 1;
            break;
        }
        buf[n] = b | 0x80;
        n += 1;
    }
    out.write_all(&buf[..n])
}

/// A child as the distance back from its parent (terminals as themselves).
fn child_code(id: u64, child: u64) -> u64 {
    if child < 2 {
        child
    } else {
        id - child + 2
    }
}

/// Signed to unsigned, small magnitudes small.
fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

/// The inverse of [`zigzag`].
fn unzigzag(v: u64) -> i64 {
    ((v >> 1) as i64) ^ -((v & 1) as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(id: u64, var: u32, low: u64, high: u64) -> DumpNode {
        DumpNode { id, var, low, high }
    }

    fn bytes(d: &BddDump) -> Vec<u8> {
        let mut buf = Vec::new();
        write(&mut buf, d).unwrap();
        buf
    }

    #[test]
    fn round_trips_nodes_and_constants() {
        let d = BddDump::Nodes {
            var_levels: vec![2, 1, 0, 300],
            nodes: vec![
                node(2, 3, 0, 1),
                node(3, 0, 2, 1),
                node(4, 2, 0, 3),
                node(5, 1, 4, 2),
            ],
        };
        let b = bytes(&d);
        assert!(is_compact(&b));
        assert_eq!(parse(&b).unwrap(), d);
        for c in [false, true] {
            assert_eq!(
                parse(&bytes(&BddDump::Constant(c))).unwrap(),
                BddDump::Constant(c)
            );
        }
        assert_eq!(
            [-3i64, -1, 0, 1, 7, i64::MIN, i64::MAX].map(|v| unzigzag(zigzag(v))),
            [-3, -1, 0, 1, 7, i64::MIN, i64::MAX]
        );
    }

    #[test]
    fn refuses_nodes_out_of_order() {
        let d = BddDump::Nodes {
            var_levels: vec![0],
            nodes: vec![node(2, 0, 0, 1), node(7, 0, 2, 1)],
        };
        let e = write(Vec::new(), &d).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
    }

    /// A stream of raw numbers, compressed behind the magic line.
    fn raw(numbers: &[u64]) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        let mut z = zstd::Encoder::new(&mut out, LEVEL).unwrap();
        for &n in numbers {
            put(&mut z, n).unwrap();
        }
        z.finish().unwrap();
        out
    }

    #[test]
    fn reports_damage_with_its_place() {
        let err = |numbers: &[u64]| parse(&raw(numbers)).unwrap_err();
        // Two variables, one node testing variable 5.
        let e = err(&[2, 2, 0, 1, 1, zigzag(5), 0, 1]);
        assert_eq!(e.index, 5);
        assert!(e.message.contains("tests variable 5"), "{e}");
        // A child that is not before its parent.
        let e = err(&[2, 1, 0, 1, 0, 3]);
        assert_eq!(e.index, 5);
        assert!(e.message.contains("does not precede"), "{e}");
        // The stream stops inside a node.
        let e = err(&[2, 1, 0, 2, 0, 0, 1, 0]);
        assert!(
            e.message.contains("the file ends before a node's child"),
            "{e}"
        );
        // A promise of many nodes allocates nothing up front.
        let e = err(&[2, 1, 0, u64::MAX]);
        assert!(e.message.contains("the file ends"), "{e}");
        assert_eq!(err(&[9]).index, 0);
        assert!(err(&[9]).message.contains("kind 9"));
        assert!(err(&[0, 0]).message.contains("after the last node"));
        assert!(parse(b"12 3\n")
            .unwrap_err()
            .message
            .contains("not a compact"));
        // Any byte of a file damaged: an error or another dump, never a
        // panic.
        let good = bytes(&BddDump::Nodes {
            var_levels: vec![1, 0],
            nodes: vec![node(2, 1, 0, 1), node(3, 0, 2, 1), node(4, 0, 0, 2)],
        });
        for k in 0..good.len() {
            for bit in 0..8 {
                let mut bad = good.clone();
                bad[k] ^= 1 << bit;
                let _ = parse(&bad);
            }
        }
        let mut cut = raw(&[2, 1, 0, 1, 0, 0, 1]);
        cut.truncate(cut.len() - 3);
        assert!(parse(&cut).is_err());
    }
}
