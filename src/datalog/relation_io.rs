//! Loading input relations and writing results, in bddbddb's and
//! Soufflé's formats.
//!
//! Inputs are looked up first in the facts directory (`-F`), then in the
//! program's base directory: `R.bdd` (JavaBDD dump), `R.tuples` (bddbddb
//! tuples) or `R.facts` (Soufflé TSV). `inputtuples` prefers `R.tuples`.

use super::error::{Error, ErrorKind, Result};
use super::program::RelId;
use super::solver::Solver;
use crate::bdd::{
    dump_nodes, from_dump_nodes, interval_bdd, mk_false, mk_true, range_bdd, relation_from_tuples,
    Bdd, NodesError,
};
use crate::io::compact;
use crate::io::javabdd::{self, BddDump};
use crate::io::map::NameMap;
use crate::io::text_file;
use crate::io::tsv;
use crate::io::tuples::{self, Field};
use rayon::prelude::*;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// An input relation as read from its file, with the files read.
struct Input {
    /// The relation's tuples.
    bdd: Bdd,
    /// The data file, and the `bddinfo` beside a JavaBDD dump.
    files: Vec<PathBuf>,
}

/// The formats a relation file can have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Bdd,
    Tuples,
    Facts,
}

impl Solver {
    /// Loads every relation declared `input` or `inputtuples`. The files
    /// are read and encoded in parallel, one relation per task: pa's
    /// seventeen JavaBDD dumps took 0.54 s one after the other.
    pub fn load_inputs(&mut self, facts_dir: Option<&Path>) -> Result<()> {
        let inputs: Vec<RelId> = (0..self.prog.relations.len())
            .filter(|&rel| {
                let opts = &self.prog.relations[rel].options;
                opts.input || opts.input_tuples
            })
            .collect();
        let this = &*self;
        // Every result is kept, so that of several bad files the first
        // in the program's order is the one reported, as before.
        let read: Vec<Result<(RelId, Input)>> = inputs
            .into_par_iter()
            .map(|rel| {
                crate::interrupt::catch(|| this.read_input(rel, facts_dir))
                    .map_err(|why| {
                        let name = &this.prog.relations[rel].name;
                        let kind = match why {
                            crate::interrupt::Interrupted::Cancelled => ErrorKind::Cancelled,
                            _ => ErrorKind::OutOfMemory,
                        };
                        Error::new(kind, format!("{why}, while loading the input {name}"))
                    })?
                    .map(|input| (rel, input))
            })
            .collect();
        for r in read {
            let (rel, input) = r?;
            self.add_input(rel, input);
        }
        Ok(())
    }

    /// Loads one input relation from `facts_dir` or the base directory
    /// (`R.bdd`, `R.tuples`, `R.tuples.zst` or `R.facts`).
    pub fn load_input(&mut self, rel: RelId, facts_dir: Option<&Path>) -> Result<()> {
        let input = self.read_input(rel, facts_dir)?;
        self.add_input(rel, input);
        Ok(())
    }

    /// Adds what [`Solver::read_input`] read to the relation, and its
    /// files to those the run read.
    fn add_input(&mut self, rel: RelId, input: Input) {
        for path in input.files {
            if !self.inputs_read.contains(&path) {
                self.inputs_read.push(path);
            }
        }
        // `or` costs the size of both operands even when one is empty.
        self.rels[rel] = if self.rels[rel].is_false() {
            input.bdd
        } else {
            self.rels[rel].or(&input.bdd)
        };
    }

    /// Reads one input relation from `facts_dir` or the base directory
    /// (`R.bdd`, `R.tuples`, `R.tuples.zst` or `R.facts`), with the files
    /// it read.
    fn read_input(&self, rel: RelId, facts_dir: Option<&Path>) -> Result<Input> {
        let opts = &self.prog.relations[rel].options;
        let name = &self.prog.relations[rel].name;
        let formats: &[(Format, &str)] = if opts.input_tuples && !opts.input {
            &[
                (Format::Tuples, "tuples"),
                (Format::Tuples, "tuples.zst"),
                (Format::Bdd, "bdd"),
                (Format::Facts, "facts"),
            ]
        } else {
            &[
                (Format::Bdd, "bdd"),
                (Format::Tuples, "tuples"),
                (Format::Tuples, "tuples.zst"),
                (Format::Facts, "facts"),
            ]
        };
        let mut dirs: Vec<PathBuf> = Vec::new();
        if let Some(f) = facts_dir {
            dirs.push(f.to_path_buf());
        }
        dirs.push(self.prog.base_dir.clone());
        let mut tried = Vec::new();
        let mut found = None;
        'search: for d in &dirs {
            // In a facts directory, Soufflé's .facts comes first.
            let mut order = formats.to_vec();
            if Some(d.as_path()) == facts_dir {
                order.sort_by_key(|(f, _)| *f != Format::Facts);
            }
            for (fmt, ext) in order {
                let p = d.join(format!("{name}.{ext}"));
                if p.is_file() {
                    found = Some((fmt, p));
                    break 'search;
                }
                tried.push(p.display().to_string());
            }
        }
        let Some((fmt, path)) = found else {
            let loc = self.prog.relations[rel].loc.clone();
            let msg = format!(
                "input relation {name} has no data file (looked for {})",
                tried.join(", ")
            );
            return Err(match loc {
                Some(l) => Error::at(&l, ErrorKind::Io, msg),
                None => Error::new(ErrorKind::Io, msg),
            });
        };
        let mut files = vec![path.clone()];
        if fmt == Format::Bdd {
            let info = path.with_file_name("bddinfo");
            if info.is_file() {
                files.push(info);
            }
        }
        let bdd = match fmt {
            Format::Bdd => self.read_bdd_file(rel, &path)?,
            Format::Tuples => self.read_tuples_file(rel, &path)?,
            Format::Facts => self.read_facts_file(rel, &path)?,
        };
        Ok(Input { bdd, files })
    }

    fn data_error(path: &Path, msg: impl std::fmt::Display) -> Error {
        Error::new(ErrorKind::BadData, format!("{}: {msg}", path.display()))
    }

    /// Reads a BDD of relation `rel`, a JavaBDD dump or its compact form
    /// (told apart by the compact form's first line), translating its
    /// variable numbering (from the `bddinfo` beside it, or this layout's
    /// file order) into this layout, reordering as needed.
    pub fn read_bdd_file(&self, rel: RelId, path: &Path) -> Result<Bdd> {
        let bytes = std::fs::read(path).map_err(|e| Error::io(path, &e))?;
        let dump = if compact::is_compact(&bytes) {
            compact::parse(&bytes).map_err(|e| Self::data_error(path, e))?
        } else {
            let text = std::str::from_utf8(&bytes).map_err(|_| {
                Self::data_error(path, "neither a JavaBDD dump (text) nor a compact BDD")
            })?;
            javabdd::parse(text).map_err(|e| Self::data_error(path, e))?
        };
        drop(bytes);
        let nv = self.layout.num_vars();
        let (_, nodes) = match dump {
            BddDump::Constant(false) => return Ok(mk_false(nv)),
            BddDump::Constant(true) => return Ok(self.full_range(rel)),
            BddDump::Nodes { var_levels, nodes } => (var_levels, nodes),
        };
        let var_map = self.file_variables(rel, path)?;
        let name = &self.prog.relations[rel].name;
        let bdd = from_dump_nodes(nv, &nodes, &var_map).map_err(|e| match e {
            NodesError::UnknownVariable { var, .. } => Self::data_error(
                path,
                format!("variable {var} does not belong to an attribute of {name} (check bddinfo and the relation's domains)"),
            ),
            e => Self::data_error(path, e),
        })?;
        let range = self.full_range(rel);
        // Domains of 2^k elements have no values to drop, and `and` with
        // `true` would still copy every node.
        Ok(if range.is_true() {
            bdd
        } else {
            bdd.and(&range)
        })
    }

    /// For each BDD variable of a dump of relation `rel` at `path`, the
    /// variable of this layout it stands for (`None` outside the
    /// relation's attributes). The dump's variables follow the domain
    /// allocation order of the `bddinfo` beside it, or this layout's file
    /// order.
    fn file_variables(&self, rel: RelId, path: &Path) -> Result<Vec<Option<u16>>> {
        let alloc = self.file_allocation(path)?;
        let attr_insts: Vec<usize> = self.prog.relations[rel]
            .attrs
            .iter()
            .map(|a| a.instance_in(&self.layout))
            .collect();
        let mut var_map: Vec<Option<u16>> = Vec::new();
        for &(d, i) in &alloc {
            let bits = self.layout.domains()[d].bits();
            let ours = self
                .layout
                .find_instance(d, i)
                .filter(|id| attr_insts.contains(id));
            for b in 0..bits {
                var_map.push(
                    ours.map(|id| self.layout.instance(id).vars[b as usize].to_index() as u16),
                );
            }
        }
        Ok(var_map)
    }

    /// The domain instances, (domain, index), in the order a dump at
    /// `path` allocated its variables: the `bddinfo` beside it, or this
    /// layout's file order.
    fn file_allocation(&self, path: &Path) -> Result<Vec<(usize, u32)>> {
        let info_path = path.with_file_name("bddinfo");
        if !info_path.is_file() {
            let order = self.layout.file_order().into_iter().map(|id| {
                let inst = self.layout.instance(id);
                (inst.domain, inst.index)
            });
            return Ok(order.collect());
        }
        let names = javabdd::read_info(&info_path).map_err(|e| Error::io(&info_path, &e))?;
        let mut seen: HashMap<String, u32> = HashMap::new();
        let mut out = Vec::new();
        for n in names {
            let d = self.prog.domain_id(&n).ok_or_else(|| {
                Self::data_error(
                    &info_path,
                    format!("domain {n} is not declared by the program"),
                )
            })?;
            let k = seen.entry(n).or_insert(0);
            out.push((d, *k));
            *k += 1;
        }
        Ok(out)
    }

    /// Every valid tuple of a relation (each attribute within its domain).
    pub fn full_range(&self, rel: RelId) -> Bdd {
        let nv = self.layout.num_vars();
        let mut r = mk_true(nv);
        for (block, a) in self.blocks(rel).iter().zip(&self.prog.relations[rel].attrs) {
            let size = self.prog.domains[a.domain].size;
            r = r.and(&range_bdd(nv, block, size));
        }
        r
    }

    fn read_tuples_file(&self, rel: RelId, path: &Path) -> Result<Bdd> {
        let (plain, cubes) = self.parse_tuples_file(rel, path)?;
        let nv = self.layout.num_vars();
        let blocks = self.blocks(rel);
        let plain = relation_from_tuples(nv, &blocks, &plain);
        let sizes = self.attr_sizes(rel);
        let mut extra = mk_false(nv);
        for row in cubes {
            let mut cube = mk_true(nv);
            for (k, f) in row.iter().enumerate() {
                let b = match f {
                    Field::Value(v) => interval_bdd(nv, blocks[k], *v, *v),
                    Field::Range(lo, hi) => interval_bdd(nv, blocks[k], *lo, *hi),
                    Field::All => range_bdd(nv, blocks[k], sizes[k]),
                };
                cube = cube.and(&b);
            }
            extra = extra.or(&cube);
        }
        Ok(if extra.is_false() {
            plain
        } else {
            plain.or(&extra)
        })
    }

    /// The rows of a `.tuples` file of `rel` that `keep` accepts, read
    /// without building a BDD: a report needs a few hundred of the whole
    /// JDK's million source locations. `None` if the file has ranges or
    /// `*` (then load the relation and select from its BDD).
    pub fn read_tuples_rows(
        &self,
        rel: RelId,
        path: &Path,
        keep: &dyn Fn(&[u64]) -> bool,
    ) -> Result<Option<Vec<Vec<u64>>>> {
        let (mut plain, cubes) = self.parse_tuples_file(rel, path)?;
        if !cubes.is_empty() {
            return Ok(None);
        }
        plain.retain(|row| keep(row));
        plain.sort_unstable();
        plain.dedup();
        Ok(Some(plain))
    }

    /// The domain size of each attribute of `rel`.
    fn attr_sizes(&self, rel: RelId) -> Vec<u64> {
        self.prog.relations[rel]
            .attrs
            .iter()
            .map(|a| self.prog.domains[a.domain].size)
            .collect()
    }

    /// Parses a `.tuples` file of `rel` and checks every field against
    /// its domain: the rows of plain values, and the rows with ranges or
    /// `*`.
    #[allow(clippy::type_complexity)]
    fn parse_tuples_file(
        &self,
        rel: RelId,
        path: &Path,
    ) -> Result<(Vec<Vec<u64>>, Vec<Vec<Field>>)> {
        let text = text_file::read(path).map_err(|e| Error::io(path, &e))?;
        let attrs = &self.prog.relations[rel].attrs;
        let file = tuples::parse(&text, attrs.len()).map_err(|e| Self::data_error(path, e))?;
        let sizes = self.attr_sizes(rel);
        let mut plain = Vec::new();
        let mut cubes = Vec::new();
        for (line, row) in file.rows {
            let mut values = Vec::with_capacity(row.len());
            for (k, f) in row.iter().enumerate() {
                let hi = match f {
                    Field::Value(v) => *v,
                    Field::Range(_, hi) => *hi,
                    Field::All => 0,
                };
                if hi >= sizes[k] {
                    return Err(Self::data_error(
                        path,
                        format!(
                            "line {line}: {hi} is outside domain {} (size {})",
                            self.prog.domains[attrs[k].domain].name, sizes[k]
                        ),
                    ));
                }
                if let Field::Value(v) = f {
                    values.push(*v);
                }
            }
            if values.len() == row.len() {
                plain.push(values);
            } else {
                cubes.push(row);
            }
        }
        Ok((plain, cubes))
    }

    fn read_facts_file(&self, rel: RelId, path: &Path) -> Result<Bdd> {
        let text = text_file::read(path).map_err(|e| Error::io(path, &e))?;
        let attrs = &self.prog.relations[rel].attrs;
        let maps: Vec<Option<&NameMap>> = attrs
            .iter()
            .map(|a| self.prog.domains[a.domain].names.as_deref())
            .collect();
        let sizes: Vec<u64> = attrs
            .iter()
            .map(|a| self.prog.domains[a.domain].size)
            .collect();
        let rows = tsv::parse(&text, &maps, &sizes).map_err(|e| Self::data_error(path, e))?;
        Ok(relation_from_tuples(
            self.layout.num_vars(),
            &self.blocks(rel),
            &rows,
        ))
    }

    /// The files [`write_outputs`](Self::write_outputs) writes into `dir`:
    /// `(relation, path)` for each relation declared `output` (`R.bdd`)
    /// or `outputtuples` (`R.tuples`), plus `R.csv` with `csv`, and the
    /// variable numbering of the `.bdd` files. That is `bddinfo`, or
    /// `rbddinfo` where `bddinfo` numbers this run's inputs, as bddbddb
    /// names its results' numbering for the same reason.
    fn output_files(&self, dir: &Path, csv: bool) -> Vec<(Option<RelId>, PathBuf)> {
        let mut files = Vec::new();
        let mut bdd = false;
        for rel in 0..self.prog.relations.len() {
            let o = &self.prog.relations[rel].options;
            let name = &self.prog.relations[rel].name;
            if o.output {
                files.push((Some(rel), dir.join(format!("{name}.bdd"))));
                bdd = true;
            }
            if o.output_tuples {
                files.push((Some(rel), dir.join(format!("{name}.tuples"))));
            }
            if csv && (o.output || o.output_tuples) {
                files.push((Some(rel), dir.join(format!("{name}.csv"))));
            }
        }
        if bdd {
            let info = dir.join("bddinfo");
            let info = if self.was_read(&info) {
                dir.join("rbddinfo")
            } else {
                info
            };
            files.push((None, info));
        }
        files
    }

    /// Whether `path` is one of the files the inputs were read from.
    fn was_read(&self, path: &Path) -> bool {
        let Ok(p) = path.canonicalize() else {
            return false;
        };
        self.inputs_read
            .iter()
            .any(|r| r.canonicalize().is_ok_and(|r| r == p))
    }

    /// Fails if writing the outputs into `dir` would replace a file an
    /// input was read from; call it before solving.
    pub fn check_outputs(&self, dir: &Path, csv: bool) -> Result<()> {
        for (rel, path) in self.output_files(dir, csv) {
            if self.was_read(&path) {
                let msg = format!(
                    "{}: the output would replace this input file; write the outputs elsewhere with -D DIR",
                    path.display()
                );
                let loc = rel.and_then(|r| self.prog.relations[r].loc.clone());
                return Err(match loc {
                    Some(l) => Error::at(&l, ErrorKind::Io, msg),
                    None => Error::new(ErrorKind::Io, msg),
                });
            }
        }
        Ok(())
    }

    /// Writes relations declared `output` (`R.bdd` plus `bddinfo`, or
    /// `rbddinfo` where `bddinfo` numbered the inputs) and `outputtuples`
    /// (`R.tuples`) to `dir`, and with `csv` also `R.csv`. A file an input
    /// was read from is never replaced.
    pub fn write_outputs(&self, dir: &Path, csv: bool) -> Result<()> {
        self.check_outputs(dir, csv)?;
        for (rel, path) in self.output_files(dir, csv) {
            let ext = path.extension().and_then(|e| e.to_str());
            match (rel, ext) {
                (None, _) => self.write_bddinfo(&path)?,
                (Some(r), Some("bdd")) => self.write_bdd_file(r, &path)?,
                (Some(r), Some("tuples")) => self.write_tuples_file(r, &path)?,
                (Some(r), _) => self.write_csv_file(r, &path)?,
            }
        }
        Ok(())
    }

    /// Writes `bddinfo`: one domain name per instance, in file order
    /// (see [`crate::bdd::Layout::file_order`]).
    pub fn write_bddinfo(&self, path: &Path) -> Result<()> {
        let mut text = String::new();
        for id in self.layout.file_order() {
            let inst = self.layout.instance(id);
            text.push_str(&self.layout.domains()[inst.domain].name);
            text.push('\n');
        }
        atomic_write(path, text.as_bytes())
    }

    /// Writes one relation as a JavaBDD dump (variables numbered in
    /// file order, as `bddinfo` lists them).
    pub fn write_bdd_file(&self, rel: RelId, path: &Path) -> Result<()> {
        let mut buf = Vec::new();
        javabdd::write(&mut buf, &self.dump(rel)).map_err(|e| Error::io(path, &e))?;
        atomic_write(path, &buf)
    }

    /// Writes one relation as [`write_bdd_file`](Self::write_bdd_file)
    /// does, in the compact form (a database's relations). The nodes go
    /// from the BDD to the encoder one by one: a dump of them first would
    /// hold 32 bytes a node (290 MB for the whole JDK's `actualOfI`).
    pub fn write_compact_bdd_file(&self, rel: RelId, path: &Path) -> Result<()> {
        let bdd = &self.rels[rel];
        let mut buf = Vec::new();
        let written = if bdd.is_false() || bdd.is_true() {
            compact::write(&mut buf, &BddDump::Constant(bdd.is_true()))
        } else {
            let (var_levels, file_var) = self.file_numbering();
            compact::write_nodes(&mut buf, &var_levels, dump_nodes(bdd, &file_var))
        };
        written.map_err(|e| Error::io(path, &e))?;
        atomic_write(path, &buf)
    }

    /// A relation's BDD as a dump, variables numbered in file order.
    fn dump(&self, rel: RelId) -> BddDump {
        let bdd = &self.rels[rel];
        if bdd.is_false() || bdd.is_true() {
            return BddDump::Constant(bdd.is_true());
        }
        let (var_levels, file_var) = self.file_numbering();
        BddDump::Nodes {
            var_levels,
            nodes: dump_nodes(bdd, &file_var).collect(),
        }
    }

    /// The file numbering of variables: instances in file order, bit 0
    /// first. Returns each file variable's level (our variable) and each
    /// of our variables' file number.
    fn file_numbering(&self) -> (Vec<u32>, Vec<u32>) {
        let mut file_var = vec![0u32; self.layout.num_vars() as usize];
        let mut var_levels = Vec::with_capacity(file_var.len());
        for id in self.layout.file_order() {
            for v in &self.layout.instance(id).vars {
                file_var[v.to_index()] = var_levels.len() as u32;
                var_levels.push(v.to_index() as u32);
            }
        }
        (var_levels, file_var)
    }

    fn sorted_rows(&self, rel: RelId) -> Vec<Vec<u64>> {
        crate::bdd::sorted_tuples(&self.rels[rel], &self.blocks(rel))
    }

    /// Writes one relation as a bddbddb `.tuples` file.
    pub fn write_tuples_file(&self, rel: RelId, path: &Path) -> Result<()> {
        let mut buf = Vec::new();
        let header: Vec<(String, u32)> = self.prog.relations[rel]
            .attrs
            .iter()
            .map(|a| {
                (
                    self.prog.instance_name(a.domain, a.instance),
                    self.prog_bits(a.domain),
                )
            })
            .collect();
        tuples::write_header(&mut buf, &header).map_err(|e| Error::io(path, &e))?;
        for t in self.sorted_rows(rel) {
            tuples::write_row(&mut buf, &t).map_err(|e| Error::io(path, &e))?;
        }
        atomic_write(path, &buf)
    }

    fn prog_bits(&self, domain: usize) -> u32 {
        self.layout.domains()[domain].bits()
    }

    /// The name maps of a relation's attributes.
    pub fn attr_maps(&self, rel: RelId) -> Vec<Option<&NameMap>> {
        self.prog.relations[rel]
            .attrs
            .iter()
            .map(|a| self.prog.domains[a.domain].names.as_deref())
            .collect()
    }

    fn write_csv_file(&self, rel: RelId, path: &Path) -> Result<()> {
        let maps = self.attr_maps(rel);
        let mut buf = Vec::new();
        for t in self.sorted_rows(rel) {
            tsv::write_row(&mut buf, &t, &maps).map_err(|e| Error::io(path, &e))?;
        }
        atomic_write(path, &buf)
    }

    /// Prints what the program asks for: `printsize` counts, `printtuples`
    /// tuples, and query answers.
    pub fn print_results(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let query_rels: Vec<RelId> = self.prog.queries.iter().map(|q| q.rel).collect();
        for rel in 0..self.prog.relations.len() {
            if query_rels.contains(&rel) {
                continue;
            }
            let r = &self.prog.relations[rel];
            if r.options.print_size {
                writeln!(out, "{}: {} tuples", r.name, self.count(rel))?;
            }
            if r.options.print_tuples {
                writeln!(
                    out,
                    "{}({}): {} tuples",
                    r.name,
                    self.prog.attributes_text(rel),
                    self.count(rel)
                )?;
                self.print_rows(rel, out)?;
            }
        }
        for q in &self.prog.queries {
            let r = &self.prog.relations[q.rel];
            let names: Vec<&str> = r.attrs.iter().map(|a| a.name.as_str()).collect();
            writeln!(out, "{}? {} tuples", q.text, self.count(q.rel))?;
            if !names.is_empty() {
                writeln!(out, "{}", names.join("\t"))?;
                self.print_rows(q.rel, out)?;
            }
        }
        Ok(())
    }

    /// Prints a relation's tuples as TSV with names, streamed (see
    /// [`crate::bdd::for_each_row`]; names are looked up row by
    /// row).
    fn print_rows(&self, rel: RelId, out: &mut dyn Write) -> std::io::Result<()> {
        let maps = self.attr_maps(rel);
        let mut out = std::io::BufWriter::new(out);
        let small = self.count(rel) <= num_bigint::BigUint::from(crate::bdd::SORT_LIMIT);
        crate::bdd::for_each_row(
            &self.rels[rel],
            &self.blocks(rel),
            small,
            usize::MAX,
            &mut |t| tsv::write_row(&mut out, t, &maps),
        )?;
        out.flush()
    }
}

/// Writes a file through a temporary sibling and a rename, so an
/// interrupted write never leaves a truncated file behind.
pub fn atomic_write(path: &Path, bytes: &[u8]) -> Result<()> {
    let tmp = path.with_extension(format!(
        "{}.tmp{}",
        path.extension().and_then(|e| e.to_str()).unwrap_or(""),
        std::process::id()
    ));
    std::fs::write(&tmp, bytes).map_err(|e| Error::io(&tmp, &e))?;
    std::fs::rename(&tmp, path).map_err(|e| Error::io(path, &e))
}
