//! Opening a program database written by `refract facts` or `refract
//! analyze`: its schema (`database.dl`, else `schema.dl`) is parsed, and
//! relations are loaded on first use from their `.bdd` or `.tuples` files.

use crate::bdd::decode::sorted_tuples;
use crate::datalog::parser::parse_file;
use crate::datalog::program::RelId;
use crate::datalog::resolve::resolve;
use crate::datalog::solver::Solver;
use biodivine_lib_bdd::Bdd;
use std::path::{Path, PathBuf};

/// Why a database could not be opened or read.
#[derive(Debug, thiserror::Error)]
pub enum DatabaseError {
    /// Not a database directory.
    #[error("{0}: not a refract database (no database.dl or schema.dl); create one with `refract facts` or `refract analyze`")]
    NotADatabase(PathBuf),
    /// A relation the caller needs is not in this database.
    #[error("{dir}: the database has no relation {name}{hint}")]
    NoRelation {
        /// The database.
        dir: PathBuf,
        /// The relation.
        name: String,
        /// What to do about it.
        hint: &'static str,
    },
    /// The schema or a relation file is damaged.
    #[error("{0}")]
    Damaged(#[from] crate::datalog::error::Error),
}

/// An open database.
pub struct Database {
    /// Its directory.
    pub dir: PathBuf,
    /// The engine holding its relations.
    pub solver: Solver,
    loaded: Vec<bool>,
}

impl Database {
    /// Opens `dir` without loading any relation.
    pub fn open(dir: &Path) -> Result<Database, DatabaseError> {
        let schema = ["database.dl", "schema.dl"]
            .iter()
            .map(|f| dir.join(f))
            .find(|p| p.is_file())
            .ok_or_else(|| DatabaseError::NotADatabase(dir.to_path_buf()))?;
        let parsed = parse_file(&schema)?;
        let prog = resolve(&parsed)?;
        let solver = Solver::new(prog)?;
        let n = solver.prog.relations.len();
        Ok(Database {
            dir: dir.to_path_buf(),
            solver,
            loaded: vec![false; n],
        })
    }

    /// Whether the database has a relation.
    pub fn has(&self, name: &str) -> bool {
        self.solver.prog.relation_id(name).is_some()
    }

    /// A relation's id, loading it on first use.
    pub fn load(&mut self, name: &str) -> Result<RelId, DatabaseError> {
        let rel = self
            .solver
            .prog
            .relation_id(name)
            .ok_or_else(|| DatabaseError::NoRelation {
                dir: self.dir.clone(),
                name: name.to_string(),
                hint: if matches!(name, "reach" | "vP" | "IE") {
                    " (it holds facts only: run `refract analyze`)"
                } else {
                    ""
                },
            })?;
        if !self.loaded[rel] {
            let dir = self.dir.clone();
            self.solver.load_input(rel, Some(&dir))?;
            self.loaded[rel] = true;
        }
        Ok(rel)
    }

    /// A relation's BDD.
    pub fn relation(&mut self, name: &str) -> Result<&Bdd, DatabaseError> {
        let rel = self.load(name)?;
        Ok(&self.solver.rels[rel])
    }

    /// A relation's tuples, sorted (element numbers).
    pub fn tuples(&mut self, name: &str) -> Result<Vec<Vec<u64>>, DatabaseError> {
        let rel = self.load(name)?;
        Ok(sorted_tuples(
            &self.solver.rels[rel],
            &self.solver.blocks(rel),
        ))
    }

    /// The tuples of a relation if the database has it, else none.
    pub fn tuples_if_present(&mut self, name: &str) -> Result<Vec<Vec<u64>>, DatabaseError> {
        if self.has(name) {
            self.tuples(name)
        } else {
            Ok(Vec::new())
        }
    }

    /// The name of element `id` of domain `domain` (its number if the
    /// domain has no map).
    pub fn name(&self, domain: &str, id: u64) -> String {
        self.solver
            .prog
            .domain_id(domain)
            .and_then(|d| self.solver.prog.domains[d].names.as_ref())
            .and_then(|m| m.name(id).map(str::to_string))
            .unwrap_or_else(|| id.to_string())
    }

    /// The element of domain `domain` with this name.
    pub fn id(&self, domain: &str, name: &str) -> Option<u64> {
        self.solver
            .prog
            .domain_id(domain)
            .and_then(|d| self.solver.prog.domains[d].names.as_ref())
            .and_then(|m| m.id(name))
    }

    /// `metadata.tsv` as key/value pairs.
    pub fn metadata(&self) -> Vec<(String, String)> {
        std::fs::read_to_string(self.dir.join("metadata.tsv"))
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.split_once('\t'))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }
}
