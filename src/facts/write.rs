//! Writing facts as a database directory: one map file per domain, one
//! bddbddb `.tuples` file per relation, and `schema.dl`, which declares
//! the domains (with their sizes and maps) and the relations so that a
//! Datalog program can `.include` it.
//!
//! The directory is staged ([`StagedDatabase`]) and renamed into place by
//! the caller, so an interrupted run never leaves a half-written database.

use super::extract::FactsBuilder;
use super::schema::{DOMAINS, RELATIONS};
use crate::bdd::bits_for;
use crate::database::manifest::ManifestBuilder;
use crate::database::staged::StagedDatabase;
use crate::io::text_file::TextWriter;
use rayon::prelude::*;
use std::io::{self, Write};
use std::path::Path;

/// Size and name of each domain, in [`DOMAINS`] order.
pub fn domain_sizes(b: &FactsBuilder) -> Vec<(&'static str, u64)> {
    DOMAINS
        .iter()
        .map(|(d, _)| {
            let n = match *d {
                "V" => b.var_count(),
                "H" => b.heaps.len(),
                "T" => b.types.len(),
                "F" => b.fields.len(),
                "M" => b.methods.len(),
                "I" => b.site_domain_size(),
                "N" => b.names.len(),
                "Z" => b.max_z as usize + 1,
                "MOD" => b.modifiers.len(),
                "PKG" => b.packages.len(),
                "MODULE" => b.modules.len(),
                "BCI" => b.max_bci as usize + 1,
                _ => b.max_line as usize + 1,
            };
            (*d, n.max(1) as u64)
        })
        .collect()
}

/// Makes the domains hold every constant a program over these facts uses
/// (see [`crate::datalog::constants`]): quoted names of types, methods,
/// fields, names and modifiers are added to their maps, and the numbered
/// domains (argument positions, bytecode indices, lines) grow to hold the
/// largest number. A call site that no instruction is (`<no call
/// site>`, the context of the methods no site calls) is added after the
/// program's sites. A constant of another domain (a variable, a heap
/// object, a real site) cannot be made up; the resolver reports it.
pub fn hold_constants(b: &mut FactsBuilder, c: &crate::datalog::constants::Constants) {
    for (domain, names) in &c.names {
        if domain == "I" {
            for n in names {
                b.hold_site(n);
            }
            continue;
        }
        let interner = match domain.as_str() {
            "T" => &mut b.types,
            "M" => &mut b.methods,
            "F" => &mut b.fields,
            "N" => &mut b.names,
            "MOD" => &mut b.modifiers,
            "PKG" => &mut b.packages,
            "MODULE" => &mut b.modules,
            _ => continue,
        };
        for n in names {
            interner.intern(n);
        }
    }
    for (domain, &n) in &c.max_int {
        let n = u32::try_from(n).unwrap_or(u32::MAX - 1);
        match domain.as_str() {
            "Z" => b.max_z = b.max_z.max(n),
            "BCI" => b.max_bci = b.max_bci.max(n),
            "LINE" => b.max_line = b.max_line.max(n),
            _ => {}
        }
    }
}

/// The distinct tuples of a relation, sorted.
pub fn tuples(b: &FactsBuilder, r: usize) -> Vec<&[u32]> {
    let arity = RELATIONS[r].attrs.len();
    let mut rows: Vec<&[u32]> = b.rels[r].chunks_exact(arity).collect();
    rows.sort_unstable();
    rows.dedup();
    rows
}

/// Counts of the written database: per domain and per relation.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// `(domain, size)`.
    pub domains: Vec<(String, u64)>,
    /// `(relation, tuples)`.
    pub relations: Vec<(String, usize)>,
}

/// The map file of domain `d`: compressed, since maps are most of a
/// database's bytes (the quick start against the whole JDK: 620 MB of
/// names as text, 38 MB compressed).
pub fn map_file(d: &str) -> String {
    format!("{d}.map.zst")
}

/// Writes a domain's map: `n` names, element `k` named `name(k)`.
fn write_lines(path: &Path, n: usize, name: impl Fn(usize) -> String) -> io::Result<()> {
    let mut w = TextWriter::create(path)?;
    for k in 0..n {
        w.line(&name(k))?;
    }
    w.finish()
}

/// Writes the facts into a new staged database for `dir`; the caller
/// adds what else belongs in it and commits it. `force`: replace a
/// directory that is not a database (see [`crate::database::staged`]).
pub fn stage_database(
    b: &FactsBuilder,
    dir: &Path,
    force: bool,
) -> io::Result<(StagedDatabase, Summary)> {
    let staged = StagedDatabase::create(dir, force)?;
    let summary = write_facts(b, staged.path(), &|_| true)?;
    Ok((staged, summary))
}

/// Writes the database to `dir` with its manifest (replacing an existing
/// database only once the new one is complete; `force`: see
/// [`stage_database`]).
pub fn write_database(
    b: &FactsBuilder,
    dir: &Path,
    manifest: &ManifestBuilder,
    force: bool,
) -> io::Result<Summary> {
    let (staged, summary) = stage_database(b, dir, force)?;
    staged.commit(manifest)?;
    Ok(summary)
}

/// Writes the facts into the directory `dir`: the domains' maps,
/// `schema.dl`, and a `.tuples` file for each relation (an index into
/// [`RELATIONS`]) that `as_tuples` accepts; the caller stores the others
/// in another form. The summary counts the relations written.
pub fn write_facts(
    b: &FactsBuilder,
    dir: &Path,
    as_tuples: &(dyn Fn(usize) -> bool + Sync),
) -> io::Result<Summary> {
    let domains = write_maps_and_schema(b, dir)?;
    let relations = write_relations(b, dir, as_tuples)?;
    Ok(Summary { domains, relations })
}

/// Writes each domain's map and `schema.dl` into `dir` (the files a
/// Datalog program over the facts needs to resolve its names), side by
/// side. Returns each domain's size.
pub fn write_maps_and_schema(b: &FactsBuilder, dir: &Path) -> io::Result<Vec<(String, u64)>> {
    let sizes = domain_sizes(b);
    sizes.par_iter().try_for_each(|&(d, n)| {
        let path = dir.join(map_file(d));
        match d {
            "V" => write_lines(&path, b.var_count(), |k| b.var_name(k as u32)),
            "H" => write_lines(&path, b.heaps.len(), |k| b.heaps[k].clone()),
            "T" => write_lines(&path, b.types.len(), |k| b.types.names()[k].clone()),
            "F" => write_lines(&path, b.fields.len(), |k| b.fields.names()[k].clone()),
            "M" => write_lines(&path, b.methods.len(), |k| b.methods.names()[k].clone()),
            "I" => write_lines(&path, b.site_domain_size(), |k| b.site_name(k as u32)),
            "N" => write_lines(&path, b.names.len(), |k| b.names.names()[k].clone()),
            "MOD" => write_lines(&path, b.modifiers.len(), |k| b.modifiers.names()[k].clone()),
            "PKG" => write_lines(&path, b.packages.len(), |k| b.packages.names()[k].clone()),
            "MODULE" => write_lines(&path, b.modules.len(), |k| b.modules.names()[k].clone()),
            _ => write_lines(&path, n as usize, |k| k.to_string()),
        }
    })?;
    std::fs::write(dir.join("schema.dl"), schema_text(&sizes))?;
    Ok(sizes.iter().map(|&(d, n)| (d.to_string(), n)).collect())
}

/// Writes a `.tuples.zst` file into `dir` for each relation that `as_tuples`
/// accepts, side by side. Returns their numbers of tuples.
pub fn write_relations(
    b: &FactsBuilder,
    dir: &Path,
    as_tuples: &(dyn Fn(usize) -> bool + Sync),
) -> io::Result<Vec<(String, usize)>> {
    let sizes = domain_sizes(b);
    let bits = |d: &str| {
        sizes
            .iter()
            .find(|(n, _)| *n == d)
            .map_or(1, |(_, s)| bits_for(*s))
    };
    (0..RELATIONS.len())
        .into_par_iter()
        .filter(|&r| as_tuples(r))
        .map(|r| {
            let name = RELATIONS[r].name;
            let rows = tuples(b, r);
            write_tuples(&dir.join(format!("{name}.tuples.zst")), r, &rows, &bits)?;
            Ok((name.to_string(), rows.len()))
        })
        .collect()
}

/// One relation's `.tuples` file: a header naming each attribute's domain
/// instance and width, then a line per tuple.
fn write_tuples(
    path: &Path,
    r: usize,
    rows: &[&[u32]],
    bits: &dyn Fn(&str) -> u32,
) -> io::Result<()> {
    let schema = &RELATIONS[r];
    let mut w = TextWriter::create(path)?;
    let mut seen: Vec<&str> = Vec::new();
    let header: Vec<String> = schema
        .attrs
        .iter()
        .map(|(_, d)| {
            let k = seen.iter().filter(|x| *x == d).count();
            seen.push(d);
            format!("{d}{k}:{}", bits(d))
        })
        .collect();
    writeln!(w, "# {}", header.join(" "))?;
    let mut line = Vec::new();
    for row in rows {
        line.clear();
        for (k, v) in row.iter().enumerate() {
            if k > 0 {
                line.push(b' ');
            }
            push_decimal(&mut line, *v);
        }
        line.push(b'\n');
        w.write_all(&line)?;
    }
    w.finish()
}

/// Appends `v` in decimal to `out`, without allocating.
fn push_decimal(out: &mut Vec<u8>, mut v: u32) {
    let mut digits = [0u8; 10];
    let mut k = digits.len();
    loop {
        k -= 1;
        digits[k] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[k..]);
}

/// The text of `schema.dl`: domain and relation declarations.
pub fn schema_text(sizes: &[(&str, u64)]) -> String {
    let mut s = String::from(
        "# The program database's schema, written by `refract facts`.\n\
         # Include it from an analysis: .include \"schema.dl\"\n\n",
    );
    for ((d, n), (_, doc)) in sizes.iter().zip(DOMAINS) {
        s.push_str(&format!("# {doc}\n{d} {n} {}\n", map_file(d)));
    }
    s.push('\n');
    for r in RELATIONS {
        let attrs: Vec<String> = r.attrs.iter().map(|(a, d)| format!("{a}:{d}")).collect();
        s.push_str(&format!(
            "# {}\n{} ({}) input\n",
            r.doc,
            r.name,
            attrs.join(", ")
        ));
    }
    s
}

/// The readable name of element `id` of `domain` (as its map file has it).
pub fn element_name(b: &FactsBuilder, domain: &str, id: u32) -> String {
    match domain {
        "V" => b.var_name(id),
        "H" => b.heaps[id as usize].clone(),
        "T" => b.types.name(id).to_string(),
        "F" => b.fields.name(id).to_string(),
        "M" => b.methods.name(id).to_string(),
        "I" => b.site_name(id),
        "N" => b.names.name(id).to_string(),
        "MOD" => b.modifiers.name(id).to_string(),
        "PKG" => b.packages.name(id).to_string(),
        "MODULE" => b.modules.name(id).to_string(),
        _ => id.to_string(),
    }
}

/// The tuples of a relation with every element named, one tab-separated
/// line per tuple, sorted.
pub fn named_tuples(b: &FactsBuilder, relation: &str) -> Vec<String> {
    let Some(r) = super::schema::relation_index(relation) else {
        return Vec::new();
    };
    let attrs = RELATIONS[r].attrs;
    let mut out: Vec<String> = tuples(b, r)
        .into_iter()
        .map(|row| {
            row.iter()
                .zip(attrs)
                .map(|(v, (_, d))| element_name(b, d, *v))
                .collect::<Vec<_>>()
                .join("\t")
        })
        .collect();
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A site that the rules name and no instruction is comes after the
    /// program's sites, once; a name of a real site's form is not made up.
    #[test]
    fn held_sites_follow_the_program_s_sites() {
        let mut b = FactsBuilder::new();
        let mut c = crate::datalog::constants::Constants::default();
        let names = [
            "<no call site>",
            "<C: void m()>[3@L7] invokestatic <D: void n()>",
        ];
        c.names
            .insert("I".into(), names.iter().map(|n| n.to_string()).collect());
        hold_constants(&mut b, &c);
        hold_constants(&mut b, &c);
        assert_eq!(b.site_count(), 0);
        assert_eq!(b.site_domain_size(), 1);
        assert_eq!(element_name(&b, "I", 0), "<no call site>");
        let sizes = domain_sizes(&b);
        assert!(sizes.contains(&("I", 1)), "{sizes:?}");
    }

    #[test]
    fn decimals_are_written_in_full() {
        let mut out = Vec::new();
        for v in [0, 7, 10, 4_294_967_295] {
            super::push_decimal(&mut out, v);
            out.push(b' ');
        }
        assert_eq!(out, b"0 7 10 4294967295 ");
    }
}
