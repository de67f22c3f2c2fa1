//! Answers: the tuples of a query or relation with names from the maps,
//! cut at a row limit, and rendered as a table.

use crate::bdd::{for_each_row, Bdd, BddVariable, SORT_LIMIT};
use crate::datalog::program::RelId;
use crate::datalog::solver::Solver;
use crate::io::map::NameMap;
use num_bigint::BigUint;
use std::io::{self, Write};
use std::sync::Arc;

/// The answer to a query, or the contents of a relation: its count, and
/// its tuples, named only as they are printed.
///
/// An answer keeps the relation's BDD, not its rows: [`render`](Self::render)
/// walks the tuples twice (once for the column widths, once to print),
/// looking names up row by row, so a batch answer of tens of millions of
/// tuples prints in constant memory.
#[derive(Clone, Debug)]
pub struct Answer {
    /// What was asked (`vP(v, h)?`) or the relation's name.
    pub title: String,
    /// Column names: the query's variables or the relation's attributes.
    pub columns: Vec<String>,
    /// The exact number of tuples.
    pub total: BigUint,
    /// How many rows are shown.
    limit: usize,
    /// The tuples.
    bdd: Bdd,
    /// Each column's BDD variables.
    blocks: Vec<Vec<BddVariable>>,
    /// Each column's names, where its domain has a map.
    maps: Vec<Option<Arc<NameMap>>>,
}

impl Answer {
    /// The first `limit` tuples of `rel` (sorted by element number up to
    /// [`SORT_LIMIT`] tuples, in BDD order beyond).
    pub fn of_relation(solver: &Solver, rel: RelId, title: String, limit: usize) -> Answer {
        let r = &solver.prog.relations[rel];
        Answer {
            title,
            columns: r.attrs.iter().map(|a| a.name.clone()).collect(),
            total: solver.count(rel),
            limit,
            bdd: solver.rels[rel].clone(),
            blocks: solver.blocks(rel).into_iter().map(<[_]>::to_vec).collect(),
            maps: r
                .attrs
                .iter()
                .map(|a| solver.prog.domains[a.domain].names.clone())
                .collect(),
        }
    }

    /// How many rows are shown.
    pub fn shown(&self) -> usize {
        let total = u64::try_from(&self.total).unwrap_or(u64::MAX);
        usize::try_from(total).unwrap_or(usize::MAX).min(self.limit)
    }

    /// Calls `each` with the element numbers of every row shown, in order.
    fn for_each_row(&self, each: &mut dyn FnMut(&[u64]) -> io::Result<()>) -> io::Result<()> {
        let blocks: Vec<&[BddVariable]> = self.blocks.iter().map(Vec::as_slice).collect();
        let small = self.total <= BigUint::from(SORT_LIMIT);
        for_each_row(&self.bdd, &blocks, small, self.limit, each)
    }

    /// The name of element `v` of column `col`: from its map, else the
    /// number.
    fn cell(&self, col: usize, v: u64) -> std::borrow::Cow<'_, str> {
        match self.maps[col].as_deref().and_then(|m| m.name(v)) {
            Some(n) => n.into(),
            None => v.to_string().into(),
        }
    }

    /// The rows shown, as names where the column's domain has a map and
    /// as element numbers where it has none.
    pub fn values(&self) -> Vec<Vec<Value>> {
        let mut rows = Vec::new();
        let _ = self.for_each_row(&mut |t| {
            let row = t
                .iter()
                .enumerate()
                .map(
                    |(col, &v)| match self.maps[col].as_deref().and_then(|m| m.name(v)) {
                        Some(n) => Value::Name(n.to_string()),
                        None => Value::Number(v),
                    },
                )
                .collect();
            rows.push(row);
            Ok(())
        });
        rows
    }

    /// Prints the answer: a table of the rows shown (psql style), a note
    /// of the rows left out, and the tuple count. A query without
    /// variables prints `yes` or `no`.
    pub fn render(&self, out: &mut dyn Write) -> io::Result<()> {
        self.render_table(true, &[], out)
    }

    /// [`render`](Self::render), with or without the column names and
    /// the rule under them. `caps` are the widest each column may be
    /// (`.width`; 0 or none: no limit): a longer cell wraps onto more
    /// lines of its row.
    fn render_table(&self, headers: bool, caps: &[usize], out: &mut dyn Write) -> io::Result<()> {
        let plural = |n: &BigUint| if *n == BigUint::from(1u32) { "" } else { "s" };
        if self.columns.is_empty() {
            let yes = self.total > BigUint::from(0u32);
            return writeln!(out, "{}", if yes { "yes" } else { "no" });
        }
        let shown = self.shown();
        if shown > 0 {
            let mut widths: Vec<usize> = self.columns.iter().map(|c| c.chars().count()).collect();
            self.for_each_row(&mut |t| {
                for (col, &v) in t.iter().enumerate() {
                    widths[col] = widths[col].max(self.cell(col, v).chars().count());
                }
                Ok(())
            })?;
            for (w, &cap) in widths.iter_mut().zip(caps) {
                if cap > 0 {
                    *w = (*w).min(cap);
                }
            }
            if headers {
                let columns: Vec<&str> = self.columns.iter().map(String::as_str).collect();
                write_row(out, &columns, &widths)?;
                let rule: Vec<String> = widths.iter().map(|w| "-".repeat(w + 2)).collect();
                writeln!(out, "{}", rule.join("+"))?;
            }
            let mut cells: Vec<std::borrow::Cow<'_, str>> = Vec::new();
            self.for_each_row(&mut |t| {
                cells.clear();
                cells.extend(t.iter().enumerate().map(|(col, &v)| self.cell(col, v)));
                let refs: Vec<&str> = cells.iter().map(|c| c.as_ref()).collect();
                write_row(out, &refs, &widths)
            })?;
        }
        let shown = BigUint::from(shown);
        if shown < self.total {
            let left = &self.total - &shown;
            writeln!(
                out,
                "... {left} more row{} (.limit N to show more, .limit 0 for all)",
                plural(&left)
            )?;
        }
        writeln!(out, "{} tuple{}", self.total, plural(&self.total))
    }
}

/// One element of an answer's row.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// Its name in the domain's map.
    Name(String),
    /// Its number, in a domain without a map.
    Number(u64),
}

/// How an answer prints (the shell's `.mode`, as sqlite3's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// A psql-style table with the count below it.
    #[default]
    Table,
    /// Comma-separated, fields quoted as RFC 4180 needs.
    Csv,
    /// Tab-separated.
    Tsv,
    /// A JSON array of objects keyed by column.
    Json,
    /// One `column = value` line per cell, a blank line between rows.
    Line,
}

impl Mode {
    /// The mode's name, as `.mode` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Table => "table",
            Mode::Csv => "csv",
            Mode::Tsv => "tsv",
            Mode::Json => "json",
            Mode::Line => "line",
        }
    }
}

impl std::str::FromStr for Mode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "table" => Ok(Mode::Table),
            "csv" => Ok(Mode::Csv),
            "tsv" | "tabs" => Ok(Mode::Tsv),
            "json" => Ok(Mode::Json),
            "line" => Ok(Mode::Line),
            _ => Err(format!("unknown mode {s} (table, csv, tsv, json or line)")),
        }
    }
}

impl Answer {
    /// Prints the answer in `mode`; `headers` says whether the column
    /// names head a table, CSV or TSV. The machine-readable modes print
    /// the rows shown and nothing else: the rows `.limit` left out are
    /// counted in the return value, for a note elsewhere. A query
    /// without variables prints `yes` or `no` in every mode.
    pub fn render_in(
        &self,
        mode: Mode,
        headers: bool,
        caps: &[usize],
        out: &mut dyn Write,
    ) -> io::Result<BigUint> {
        let shown = BigUint::from(self.shown());
        let left = if shown < self.total {
            &self.total - &shown
        } else {
            BigUint::from(0u32)
        };
        if mode == Mode::Table {
            self.render_table(headers, caps, out)?;
            return Ok(BigUint::from(0u32));
        }
        if self.columns.is_empty() {
            let yes = self.total > BigUint::from(0u32);
            writeln!(out, "{}", if yes { "yes" } else { "no" })?;
            return Ok(left);
        }
        let columns: Vec<&str> = self.columns.iter().map(String::as_str).collect();
        let sep = if mode == Mode::Csv { "," } else { "\t" };
        let field = |s: &str| match mode {
            Mode::Csv => crate::export::relation::csv_field(s),
            _ => s.replace(['\t', '\n'], " "),
        };
        if headers && matches!(mode, Mode::Csv | Mode::Tsv) {
            let head: Vec<String> = columns.iter().map(|c| field(c)).collect();
            writeln!(out, "{}", head.join(sep))?;
        }
        if mode == Mode::Json {
            out.write_all(b"[")?;
        }
        let mut n = 0u64;
        let width = columns.iter().map(|c| c.chars().count()).max().unwrap_or(0);
        self.for_each_row(&mut |t| {
            let cells: Vec<std::borrow::Cow<'_, str>> = t
                .iter()
                .enumerate()
                .map(|(col, &v)| self.cell(col, v))
                .collect();
            match mode {
                Mode::Json => {
                    let fields: Vec<String> = (columns.iter().zip(&cells))
                        .map(|(c, v)| {
                            use crate::export::relation::{json_string, json_value};
                            format!("{}: {}", json_string(c), json_value(v))
                        })
                        .collect();
                    let lead = if n == 0 { "\n  " } else { ",\n  " };
                    write!(out, "{lead}{{{}}}", fields.join(", "))?;
                }
                Mode::Line => {
                    if n > 0 {
                        writeln!(out)?;
                    }
                    for (c, v) in columns.iter().zip(&cells) {
                        writeln!(out, "{c:>width$} = {v}")?;
                    }
                }
                _ => {
                    let row: Vec<String> = cells.iter().map(|c| field(c)).collect();
                    writeln!(out, "{}", row.join(sep))?;
                }
            }
            n += 1;
            Ok(())
        })?;
        if mode == Mode::Json {
            out.write_all(if n == 0 { b"]\n" } else { b"\n]\n" })?;
        }
        Ok(left)
    }
}

/// One row of a psql-style table: ` cell | cell`, padded to the column
/// widths, without trailing blanks. A cell wider than its column wraps
/// onto further lines, after a space, comma or dot where there is one.
fn write_row(out: &mut dyn Write, cells: &[&str], widths: &[usize]) -> io::Result<()> {
    let mut pieces: Vec<Vec<String>> = cells.iter().zip(widths).map(|(c, &w)| wrap(c, w)).collect();
    let lines = pieces.iter().map(Vec::len).max().unwrap_or(1);
    for l in 0..lines {
        let mut line = String::new();
        for (k, (cell, w)) in pieces.iter_mut().zip(widths).enumerate() {
            if k > 0 {
                line.push('|');
            }
            line.push(' ');
            let piece = cell.get_mut(l).map(std::mem::take).unwrap_or_default();
            let n = piece.chars().count();
            line.push_str(&piece);
            for _ in n..*w {
                line.push(' ');
            }
            line.push(' ');
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}

/// `text` in lines of at most `width` characters (`width` 0: one line).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    if width == 0 || chars.len() <= width {
        return vec![text.to_string()];
    }
    let mut lines = Vec::new();
    let mut start = 0;
    while chars.len() - start > width {
        let window = &chars[start..start + width];
        // Break after the last space, comma or dot in the window's second
        // half, else hard at the width.
        let cut = window
            .iter()
            .rposition(|c| matches!(c, ' ' | ',' | '.'))
            .filter(|&k| k + 1 > width / 2)
            .map_or(width, |k| k + 1);
        lines.push(chars[start..start + cut].iter().collect::<String>());
        start += cut;
    }
    lines.push(chars[start..].iter().collect());
    lines
}
