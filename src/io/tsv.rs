//! Soufflé-style tab-separated relations: `R.facts` in, `R.csv` out.
//!
//! A field is a number, or a name that the attribute's domain map resolves.

use super::map::NameMap;
use std::io::{self, Write};

/// A malformed line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct TsvError {
    /// The line (1-based).
    pub line: usize,
    /// The field (1-based).
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

/// Parses facts text; `maps[k]` resolves names in column `k`, `sizes[k]`
/// bounds its values.
pub fn parse(
    text: &str,
    maps: &[Option<&NameMap>],
    sizes: &[u64],
) -> Result<Vec<Vec<u64>>, TsvError> {
    let mut rows = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let l = raw.trim_end_matches('\r');
        if l.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = l.split('\t').collect();
        if fields.len() != sizes.len() {
            return Err(TsvError {
                line,
                column: fields.len().min(sizes.len()) + 1,
                message: format!(
                    "expected {} tab-separated fields, found {}",
                    sizes.len(),
                    fields.len()
                ),
            });
        }
        let mut row = Vec::with_capacity(fields.len());
        for (k, f) in fields.iter().enumerate() {
            let value = match (f.parse::<u64>(), maps[k]) {
                (_, Some(m)) if m.id(f).is_some() => m.id(f).expect("checked"),
                (Ok(n), _) => n,
                (Err(_), Some(_)) => {
                    return Err(TsvError {
                        line,
                        column: k + 1,
                        message: format!("'{f}' is not in the domain's map"),
                    })
                }
                (Err(_), None) => {
                    return Err(TsvError {
                        line,
                        column: k + 1,
                        message: format!("'{f}' is not a number and the domain has no map"),
                    })
                }
            };
            if value >= sizes[k] {
                return Err(TsvError {
                    line,
                    column: k + 1,
                    message: format!("{value} is outside the domain (size {})", sizes[k]),
                });
            }
            row.push(value);
        }
        rows.push(row);
    }
    Ok(rows)
}

/// Writes one row, with names from the maps where they exist.
pub fn write_row(out: &mut impl Write, tuple: &[u64], maps: &[Option<&NameMap>]) -> io::Result<()> {
    for (k, v) in tuple.iter().enumerate() {
        if k > 0 {
            out.write_all(b"\t")?;
        }
        match maps[k].and_then(|m| m.name(*v)) {
            Some(name) => out.write_all(name.as_bytes())?,
            None => write!(out, "{v}")?,
        }
    }
    out.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_numbers() {
        let m = NameMap::from_names(vec!["a".into(), "b".into()]);
        let rows = parse("a\t3\nb\t0\n", &[Some(&m), None], &[2, 4]).unwrap();
        assert_eq!(rows, vec![vec![0, 3], vec![1, 0]]);
        let e = parse("c\t1\n", &[Some(&m), None], &[2, 4]).unwrap_err();
        assert_eq!((e.line, e.column), (1, 1));
        assert!(parse("a\t9\n", &[Some(&m), None], &[2, 4]).is_err());
        let mut out = Vec::new();
        write_row(&mut out, &[1, 3], &[Some(&m), None]).unwrap();
        assert_eq!(out, b"b\t3\n");
    }
}
