//! bddbddb `.tuples` files.
//!
//! ```text
//! # V0:16 H0:14
//! 3 7
//! 4 *
//! 5-9 2
//! ```
//! The header names each attribute's domain instance and bit width. Each
//! line is one tuple; `*` stands for every value and `a-b` for a range.

use std::io::{self, Write};

/// One field of a tuple line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// One value.
    Value(u64),
    /// Every value in `lo..=hi`.
    Range(u64, u64),
    /// Every value of the domain.
    All,
}

/// A parsed `.tuples` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TuplesFile {
    /// `(instance name, bits)` per attribute, from the header (if present).
    pub header: Vec<(String, u32)>,
    /// The tuple lines with their 1-based line numbers.
    pub rows: Vec<(usize, Vec<Field>)>,
}

/// A malformed line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct TuplesError {
    /// The line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// Parses `.tuples` text; every row must have `arity` fields.
pub fn parse(text: &str, arity: usize) -> Result<TuplesFile, TuplesError> {
    let mut header = Vec::new();
    let mut rows = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let l = raw.trim_end_matches('\r').trim();
        if l.is_empty() {
            continue;
        }
        if let Some(h) = l.strip_prefix('#') {
            if header.is_empty() && rows.is_empty() {
                for item in h.split_whitespace() {
                    if let Some((name, bits)) = item.split_once(':') {
                        header.push((name.to_string(), bits.parse().unwrap_or(0)));
                    }
                }
            }
            continue;
        }
        let fields: Vec<Field> = l
            .split_whitespace()
            .map(|f| {
                parse_field(f).ok_or_else(|| TuplesError {
                    line,
                    message: format!("'{f}' is not a number, a range a-b, or *"),
                })
            })
            .collect::<Result<_, _>>()?;
        if fields.len() != arity {
            return Err(TuplesError {
                line,
                message: format!("expected {arity} fields, found {}", fields.len()),
            });
        }
        rows.push((line, fields));
    }
    Ok(TuplesFile { header, rows })
}

fn parse_field(f: &str) -> Option<Field> {
    if f == "*" {
        return Some(Field::All);
    }
    if let Some((a, b)) = f.split_once('-') {
        let (lo, hi) = (a.parse().ok()?, b.parse().ok()?);
        return if lo <= hi {
            Some(Field::Range(lo, hi))
        } else {
            None
        };
    }
    f.parse().ok().map(Field::Value)
}

/// Writes the header line.
pub fn write_header(out: &mut impl Write, attrs: &[(String, u32)]) -> io::Result<()> {
    let items: Vec<String> = attrs.iter().map(|(n, b)| format!("{n}:{b}")).collect();
    writeln!(out, "# {}", items.join(" "))
}

/// Writes one tuple line.
pub fn write_row(out: &mut impl Write, tuple: &[u64]) -> io::Result<()> {
    let items: Vec<String> = tuple.iter().map(u64::to_string).collect();
    writeln!(out, "{}", items.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_ranges_and_stars() {
        let t = parse("# V0:4 H0:2\n1 2\n3-5 *\n\n", 2).unwrap();
        assert_eq!(t.header, vec![("V0".to_string(), 4), ("H0".to_string(), 2)]);
        assert_eq!(t.rows[1], (3, vec![Field::Range(3, 5), Field::All]));
        let e = parse("1 2 3\n", 2).unwrap_err();
        assert_eq!(e.line, 1);
        assert!(parse("1 x\n", 2).is_err());
    }
}
