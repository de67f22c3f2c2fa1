//! The program database: a directory written by `refract facts` or
//! `refract analyze` that holds the maps (`V.map.zst`, ...), the relations
//! (`R.bdd`, compact, or `R.tuples.zst`), the schema (`database.dl`, else `schema.dl`),
//! the program text that produced them (`program.dl`) and a manifest
//! (`metadata.tsv`, see [`manifest`]).
//!
//! Opening a database checks its manifest (format version, every file
//! present with its recorded size) and parses the schema; relations are
//! loaded on first use, each checked against its SHA-256 first. Nothing is
//! recomputed.

pub mod manifest;
pub mod staged;

use crate::bdd::{self, relation_from_tuples, relayout, sorted_tuples, Bdd};
use crate::datalog::parser::parse_file;
use crate::datalog::program::{Program, RelId};
use crate::datalog::resolve::resolve;
use crate::datalog::solver::Solver;
use manifest::{checksum, Manifest, ManifestProblem, FORMAT, MANIFEST, READABLE};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The files a stored relation `R` may be in: `R.bdd` (compact, or a
/// JavaBDD dump in a version 1 database), `R.tuples` (what a session
/// stored), `R.tuples.zst` (facts the analysis does not read).
const STORED_FORMATS: [&str; 3] = ["bdd", "tuples", "tuples.zst"];

/// Why a database could not be opened or read.
#[derive(Debug, thiserror::Error)]
pub enum DatabaseError {
    /// Nothing at the path.
    #[error("{0}: no such file or directory; create a database with `refract facts` or `refract analyze`")]
    NoSuchPath(PathBuf),
    /// Not a database directory.
    #[error("{0}: not a refract database (no database.dl or schema.dl); create one with `refract facts` or `refract analyze`")]
    NotADatabase(PathBuf),
    /// A schema but no manifest: the write never finished.
    #[error("{0}: incomplete database (no {MANIFEST}): its write did not finish, or an older refract wrote it; write it again with `refract facts` or `refract analyze`")]
    Incomplete(PathBuf),
    /// Written in another format.
    #[error("{dir}: database format `{found}`, but this refract ({version}) reads `{}` and `{FORMAT}`; write it again with this version", READABLE[0], version = env!("CARGO_PKG_VERSION"))]
    Version {
        /// The database.
        dir: PathBuf,
        /// Its format.
        found: String,
    },
    /// The manifest does not parse.
    #[error("{path}:{line}: damaged manifest line")]
    BadManifest {
        /// The manifest.
        path: PathBuf,
        /// The bad line (0: no format line).
        line: usize,
    },
    /// A file the manifest lists is missing.
    #[error("{0}: missing from the database (listed in its {MANIFEST}); the database is damaged, write it again")]
    Missing(PathBuf),
    /// A file has another size than recorded.
    #[error("{path}: {actual} bytes, but the database recorded {expected}: the file is truncated or damaged; write the database again")]
    Truncated {
        /// The file.
        path: PathBuf,
        /// Recorded size.
        expected: u64,
        /// Size on disk.
        actual: u64,
    },
    /// A file's contents changed since the database was written.
    #[error("{0}: checksum mismatch: the file changed since the database was written; write the database again")]
    Corrupt(PathBuf),
    /// A relation file that the manifest does not list.
    #[error("{0}: not listed in the database's {MANIFEST}; it was added by hand or the manifest is damaged")]
    Unlisted(PathBuf),
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
    /// Reading a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The failure.
        source: std::io::Error,
    },
    /// The schema or a relation file is damaged.
    #[error(transparent)]
    Damaged(#[from] crate::datalog::error::Error),
}

/// A database's engine state before a change, to go back to.
pub struct Snapshot {
    solver: Solver,
    loaded: Vec<bool>,
}

/// An open database.
pub struct Database {
    /// Its directory.
    pub dir: PathBuf,
    /// Its manifest.
    pub manifest: Manifest,
    /// The engine holding its relations.
    pub solver: Solver,
    loaded: Vec<bool>,
}

impl Database {
    /// Opens `dir` without loading any relation.
    pub fn open(dir: &Path) -> Result<Database, DatabaseError> {
        if !dir.exists() {
            return Err(DatabaseError::NoSuchPath(dir.to_path_buf()));
        }
        let schema = ["database.dl", "schema.dl"]
            .iter()
            .map(|f| dir.join(f))
            .find(|p| p.is_file())
            .ok_or_else(|| DatabaseError::NotADatabase(dir.to_path_buf()))?;
        let manifest = read_manifest(dir)?;
        for (name, sum) in &manifest.files {
            let path = dir.join(name);
            let actual = std::fs::metadata(&path)
                .map_err(|_| DatabaseError::Missing(path.clone()))?
                .len();
            if actual != sum.size {
                return Err(DatabaseError::Truncated {
                    path,
                    expected: sum.size,
                    actual,
                });
            }
        }
        // The schema and the maps are read now: check them first.
        let mut db_files: Vec<&String> = manifest
            .files
            .keys()
            .filter(|n| n.ends_with(".map") || n.ends_with(".map.zst") || n.ends_with(".dl"))
            .collect();
        db_files.sort();
        for name in db_files {
            verify(dir, &manifest, name)?;
        }
        let parsed = parse_file(&schema)?;
        let prog = resolve(&parsed)?;
        let solver = Solver::new(prog)?;
        let n = solver.prog.relations.len();
        Ok(Database {
            dir: dir.to_path_buf(),
            manifest,
            solver,
            loaded: vec![false; n],
        })
    }

    /// Whether `rel` is one of the database's stored relations (rather
    /// than one added by a session).
    pub fn is_stored(&self, rel: RelId) -> bool {
        self.stored_file(&self.solver.prog.relations[rel].name)
            .is_some()
    }

    /// Whether a relation's contents are in memory.
    pub fn is_loaded(&self, rel: RelId) -> bool {
        self.loaded.get(rel).copied().unwrap_or(false)
    }

    /// The file holding a stored relation.
    pub fn stored_file_of(&self, rel: RelId) -> Option<String> {
        self.stored_file(&self.solver.prog.relations[rel].name)
    }

    /// Stores a relation a session derived into the database, so that
    /// later sessions can read it: `R.tuples`, its declaration in the
    /// schema, and its entry in the manifest. Returns the file written.
    pub fn store(&mut self, rel: RelId) -> Result<PathBuf, DatabaseError> {
        let Some(schema) = self.schema_path() else {
            return Err(DatabaseError::NoRelation {
                dir: self.dir.clone(),
                name: self.solver.prog.relations[rel].name.clone(),
                hint: " (a shell without a database cannot store relations; give .save a FILE)",
            });
        };
        self.ensure_loaded(rel)?;
        let r = &self.solver.prog.relations[rel];
        let name = r.name.clone();
        let file = format!("{name}.tuples");
        let path = self.dir.join(&file);
        self.solver.write_tuples_file(rel, &path)?;
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |source| DatabaseError::Io { path, source }
        };
        if self.stored_file(&name).is_none() {
            let attrs: Vec<String> = r
                .attrs
                .iter()
                .map(|a| format!("{}:{}", a.name, self.solver.prog.domains[a.domain].name))
                .collect();
            let mut text = std::fs::read_to_string(&schema).map_err(io(&schema))?;
            text.push_str(&format!(
                "\n# Stored from a session.\n{name} ({}) input\n",
                attrs.join(", ")
            ));
            manifest::write_atomically(&schema, text.as_bytes()).map_err(io(&schema))?;
            let schema_name = schema
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_default();
            let sum = checksum(&schema).map_err(io(&schema))?;
            self.manifest.files.insert(schema_name, sum);
        }
        // The relation's other stored forms give way to the new contents.
        for ext in STORED_FORMATS.iter().filter(|e| **e != "tuples") {
            let old_file = format!("{name}.{ext}");
            if self.manifest.files.remove(&old_file).is_some() {
                let old_path = self.dir.join(&old_file);
                std::fs::remove_file(&old_path).map_err(io(&old_path))?;
            }
        }
        let sum = checksum(&path).map_err(io(&path))?;
        self.manifest.files.insert(file, sum);
        let mpath = self.dir.join(MANIFEST);
        manifest::write_atomically(&mpath, self.manifest.to_text().as_bytes())
            .map_err(io(&mpath))?;
        Ok(path)
    }

    /// The file holding a stored relation.
    fn stored_file(&self, name: &str) -> Option<String> {
        STORED_FORMATS
            .iter()
            .map(|ext| format!("{name}.{ext}"))
            .find(|f| self.manifest.files.contains_key(f))
    }

    /// Replaces the program (a session added declarations or rules).
    /// Relations keep their contents by name, moved into the new variable
    /// layout, except those in `reset`, which start over: empty, or as
    /// stored if the database has them.
    /// Returns the previous state, for [`Database::restore`].
    pub fn replace_program(
        &mut self,
        prog: Program,
        reset: &dyn Fn(&str) -> bool,
    ) -> Result<Snapshot, DatabaseError> {
        let mut next = Solver::new(prog)?;
        let old = &self.solver;
        // Where each old variable goes in the new layout.
        let mut map = vec![0u16; old.layout.num_vars() as usize];
        for inst in old.layout.instances() {
            let Some(id) = next.layout.find_instance(inst.domain, inst.index) else {
                continue;
            };
            for (bit, v) in inst.vars.iter().enumerate() {
                map[v.to_index()] = next.layout.instance(id).vars[bit].to_index() as u16;
            }
        }
        let nv = next.layout.num_vars();
        let same_layout =
            nv == old.layout.num_vars() && map.iter().enumerate().all(|(k, v)| *v as usize == k);
        let mut loaded = vec![false; next.prog.relations.len()];
        for (rel, r) in next.prog.relations.iter().enumerate() {
            if reset(&r.name) {
                continue;
            }
            let Some(prev) = old.prog.relation_id(&r.name) else {
                continue;
            };
            let bdd = &self.solver.rels[prev];
            next.rels[rel] = if same_layout {
                bdd.clone()
            } else {
                relayout(bdd, &map, nv).map_err(|e| {
                    crate::datalog::error::Error::new(
                        crate::datalog::error::ErrorKind::Unsupported,
                        format!("internal relayout error: {e}"),
                    )
                })?
            };
            loaded[rel] = self.loaded[prev];
        }
        next.cancel = self.solver.cancel.clone();
        let solver = std::mem::replace(&mut self.solver, next);
        let loaded = std::mem::replace(&mut self.loaded, loaded);
        Ok(Snapshot { solver, loaded })
    }

    /// Goes back to the state before a [`Database::replace_program`].
    pub fn restore(&mut self, snapshot: Snapshot) {
        self.solver = snapshot.solver;
        self.loaded = snapshot.loaded;
    }

    /// The schema file the database was opened with (none for a scratch
    /// database).
    pub fn schema_path(&self) -> Option<PathBuf> {
        if self.is_scratch() {
            return None;
        }
        ["database.dl", "schema.dl"]
            .iter()
            .map(|f| self.dir.join(f))
            .find(|p| p.is_file())
    }

    /// An empty database with no directory of its own: a shell started
    /// without one. Input relations declared in it are read from `dir`.
    pub fn scratch(dir: &Path) -> Result<Database, DatabaseError> {
        let mut prog = Program::default();
        prog.base_dir = dir.to_path_buf();
        Ok(Database {
            dir: dir.to_path_buf(),
            manifest: Manifest::default(),
            solver: Solver::new(prog)?,
            loaded: Vec::new(),
        })
    }

    /// Whether this is a scratch database.
    pub fn is_scratch(&self) -> bool {
        self.manifest.format.is_empty()
    }

    /// Whether the database has a relation.
    pub fn has(&self, name: &str) -> bool {
        self.solver.prog.relation_id(name).is_some()
    }

    /// A relation's id, loading it on first use.
    pub fn load(&mut self, name: &str) -> Result<RelId, DatabaseError> {
        let rel = self.relation_id(name)?;
        self.ensure_loaded(rel)?;
        Ok(rel)
    }

    /// A relation's id, or an error naming the database.
    fn relation_id(&self, name: &str) -> Result<RelId, DatabaseError> {
        self.solver
            .prog
            .relation_id(name)
            .ok_or_else(|| DatabaseError::NoRelation {
                dir: self.dir.clone(),
                name: name.to_string(),
                hint: if self.manifest.command == "facts" {
                    " (it holds facts only: run `refract analyze`)"
                } else {
                    ""
                },
            })
    }

    /// Loads a stored relation if it is not loaded yet (other relations
    /// need nothing).
    pub fn ensure_loaded(&mut self, rel: RelId) -> Result<(), DatabaseError> {
        if self.loaded[rel] {
            return Ok(());
        }
        let r = &self.solver.prog.relations[rel];
        let name = r.name.clone();
        let declared_by_schema = r
            .loc
            .as_ref()
            .is_some_and(|l| Some(l.file.as_path()) == self.schema_path().as_deref());
        if let Some(file) = self.stored_file(&name) {
            verify(&self.dir, &self.manifest, &file)?;
            let dir = self.dir.clone();
            self.solver.load_input(rel, Some(&dir))?;
        } else if declared_by_schema && r.options.input {
            // The schema promises it, the manifest does not list it.
            let path = STORED_FORMATS
                .iter()
                .map(|ext| self.dir.join(format!("{name}.{ext}")))
                .find(|p| p.is_file());
            return Err(match path {
                Some(p) => DatabaseError::Unlisted(p),
                None => DatabaseError::Missing(self.dir.join(format!("{name}.bdd"))),
            });
        } else if r.options.input || r.options.input_tuples {
            // Declared in a session or script: read from the working
            // directory, like `refract run`.
            let cwd = std::env::current_dir().map_err(|source| DatabaseError::Io {
                path: PathBuf::from("."),
                source,
            })?;
            self.solver.load_input(rel, Some(&cwd))?;
        }
        self.loaded[rel] = true;
        Ok(())
    }

    /// Marks a relation loaded as it is (empty after
    /// [`Database::replace_program`] reset it): its stored tuples are not
    /// read, because the session derives it again from nothing.
    pub fn start_empty(&mut self, rel: RelId) {
        self.loaded[rel] = true;
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

    /// The tuples of a relation whose attribute `column` holds one of
    /// `keys`, sorted. A relation stored as `.tuples` and not loaded yet
    /// is filtered as its file is read, without building its BDD: a report
    /// on the whole JDK needs a few hundred of its million source
    /// locations, which took 21 s to encode.
    pub fn tuples_with(
        &mut self,
        name: &str,
        column: usize,
        keys: &BTreeSet<u64>,
    ) -> Result<Vec<Vec<u64>>, DatabaseError> {
        let rel = self.relation_id(name)?;
        let keep = |row: &[u64]| row.get(column).is_some_and(|v| keys.contains(v));
        if !self.loaded[rel] {
            if let Some(file) = (self.stored_file(name))
                .filter(|f| f.ends_with(".tuples") || f.ends_with(".tuples.zst"))
            {
                verify(&self.dir, &self.manifest, &file)?;
                let path = self.dir.join(&file);
                if let Some(rows) = self.solver.read_tuples_rows(rel, &path, &keep)? {
                    return Ok(rows);
                }
            }
        }
        self.ensure_loaded(rel)?;
        let blocks = self.solver.blocks(rel);
        let Some(&block) = blocks.get(column) else {
            return Ok(Vec::new());
        };
        let keys: Vec<[u64; 1]> = keys.iter().map(|&k| [k]).collect();
        let selected = bdd::and(
            &self.solver.rels[rel],
            &relation_from_tuples(self.solver.layout.num_vars(), &[block], &keys),
        );
        Ok(sorted_tuples(&selected, &blocks))
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

    /// An option the database was written with (`variant`, `main`, ...).
    pub fn option(&self, key: &str) -> Option<&str> {
        self.manifest.option(key)
    }
}

/// Reads and checks the manifest of `dir`.
fn read_manifest(dir: &Path) -> Result<Manifest, DatabaseError> {
    let path = dir.join(MANIFEST);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(DatabaseError::Incomplete(dir.to_path_buf()))
        }
        Err(source) => return Err(DatabaseError::Io { path, source }),
    };
    Manifest::parse(&text).map_err(|p| match p {
        ManifestProblem::BadLine(line) => DatabaseError::BadManifest { path, line },
        ManifestProblem::NoFormat => DatabaseError::BadManifest { path, line: 1 },
        ManifestProblem::Format(found) => DatabaseError::Version {
            dir: dir.to_path_buf(),
            found,
        },
    })
}

/// Checks a file of the database against its manifest entry.
fn verify(dir: &Path, manifest: &Manifest, name: &str) -> Result<(), DatabaseError> {
    let path = dir.join(name);
    let Some(expected) = manifest.files.get(name) else {
        return Err(DatabaseError::Unlisted(path));
    };
    let actual = checksum(&path).map_err(|source| DatabaseError::Io {
        path: path.clone(),
        source,
    })?;
    if actual.size != expected.size {
        return Err(DatabaseError::Truncated {
            path,
            expected: expected.size,
            actual: actual.size,
        });
    }
    if actual.sha256 != expected.sha256 {
        return Err(DatabaseError::Corrupt(path));
    }
    Ok(())
}
