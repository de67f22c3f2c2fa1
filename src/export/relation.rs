//! One relation as TSV (tab-separated, with a header row of attribute
//! names), CSV (RFC 4180, with a header row) or JSON (an array of objects keyed by
//! attribute name). Elements print as their names from the domain's map,
//! or as numbers where the domain has none. Tuples come in BDD order.

use crate::bdd::for_each_tuple;
use crate::datalog::program::RelId;
use crate::datalog::solver::Solver;
use std::io::{self, Write};
use std::ops::ControlFlow;

/// An export format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Tab-separated with a header row (Soufflé's output with
    /// `headers=true`).
    Tsv,
    /// Comma-separated with a header row, fields quoted as needed.
    Csv,
    /// A JSON array of objects, one per tuple.
    Json,
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "tsv" => Ok(Format::Tsv),
            "csv" => Ok(Format::Csv),
            "json" => Ok(Format::Json),
            _ => Err(format!("unknown format {s} (tsv, csv or json)")),
        }
    }
}

/// Writes relation `rel` of `solver` to `out`; returns the number of tuples.
pub fn write_relation(
    solver: &Solver,
    rel: RelId,
    format: Format,
    out: &mut dyn Write,
) -> io::Result<u64> {
    let r = &solver.prog.relations[rel];
    let names: Vec<&str> = r.attrs.iter().map(|a| a.name.as_str()).collect();
    let maps = solver.attr_maps(rel);
    match format {
        Format::Csv => {
            let header: Vec<String> = names.iter().map(|n| csv_field(n)).collect();
            writeln!(out, "{}", header.join(","))?;
        }
        Format::Json => out.write_all(b"[")?,
        Format::Tsv => {
            let header: Vec<String> = names.iter().map(|n| n.replace(['\t', '\n'], " ")).collect();
            writeln!(out, "{}", header.join("\t"))?;
        }
    }
    let mut n = 0u64;
    let mut err: Option<io::Error> = None;
    let mut line = String::new();
    let _ = for_each_tuple(&solver.rels[rel], &solver.blocks(rel), |t| {
        line.clear();
        for (k, v) in t.iter().enumerate() {
            let name = maps[k].and_then(|m| m.name(*v));
            match format {
                Format::Tsv => {
                    if k > 0 {
                        line.push('\t');
                    }
                    match name {
                        Some(s) => line.push_str(s),
                        None => line.push_str(&v.to_string()),
                    }
                }
                Format::Csv => {
                    if k > 0 {
                        line.push(',');
                    }
                    match name {
                        Some(s) => line.push_str(&csv_field(s)),
                        None => line.push_str(&v.to_string()),
                    }
                }
                Format::Json => {
                    line.push_str(if k == 0 { "{" } else { ", " });
                    line.push_str(&json_string(names[k]));
                    line.push_str(": ");
                    match name {
                        Some(s) => line.push_str(&json_value(s)),
                        None => line.push_str(&v.to_string()),
                    }
                }
            }
        }
        let r = match format {
            Format::Json => {
                let sep = if n == 0 { "\n  " } else { ",\n  " };
                write!(out, "{sep}{line}}}")
            }
            _ => writeln!(out, "{line}"),
        };
        n += 1;
        match r {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                err = Some(e);
                ControlFlow::Break(())
            }
        }
    });
    if let Some(e) = err {
        return Err(e);
    }
    if format == Format::Json {
        out.write_all(if n == 0 { b"]\n" } else { b"\n]\n" })?;
    }
    Ok(n)
}

/// A name as a JSON value: a number where the name is one (argument
/// positions, bytecode indexes and lines are named by their numbers),
/// else a string.
pub fn json_value(s: &str) -> String {
    let number = !s.is_empty()
        && s.len() <= 18
        && s.bytes().all(|b| b.is_ascii_digit())
        && (s == "0" || !s.starts_with('0'));
    if number {
        s.to_string()
    } else {
        json_string(s)
    }
}

/// A CSV field, quoted when it holds a comma, quote or line break.
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// A JSON string literal.
pub fn json_string(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    o.push('"');
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            '\r' => o.push_str("\\r"),
            '\t' => o.push_str("\\t"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_escaped() {
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"x\""), "\"say \"\"x\"\"\"");
        assert_eq!(csv_field("<a: b()>"), "<a: b()>");
        assert_eq!(json_string("a\"b\\c\n"), "\"a\\\"b\\\\c\\n\"");
    }
}
