//! The class path: jars, `.jmod` files, class directories and single
//! `.class` files, read into raw class-file bytes.
//!
//! Entries are read in class-path order; when two entries define the same
//! class, the first one wins (as the JVM's class loader would have it).

pub mod jdk;

use std::collections::HashSet;
use std::fs;
use std::io::{Cursor, Read};
use std::path::{Path, PathBuf};

/// Something that could not be read. Reading goes on; these are reported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadProblem {
    /// The class-path entry (jar, jmod, directory or file).
    pub file: PathBuf,
    /// The member inside an archive, if any.
    pub entry: Option<String>,
    /// What went wrong.
    pub reason: String,
}

impl std::fmt::Display for LoadProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.entry {
            Some(e) => write!(f, "{}!{}: {}", self.file.display(), e, self.reason),
            None => write!(f, "{}: {}", self.file.display(), self.reason),
        }
    }
}

/// The raw bytes of one class file and where they came from.
#[derive(Clone, Debug)]
pub struct ClassBytes {
    /// The class-path entry.
    pub file: PathBuf,
    /// The member inside an archive (`None` for a plain `.class` file).
    pub entry: Option<String>,
    /// Whether the entry is part of the JDK (library) rather than the
    /// application.
    pub is_library: bool,
    /// The class file.
    pub bytes: Vec<u8>,
}

impl ClassBytes {
    /// A description of the location, `file!entry`.
    pub fn location(&self) -> String {
        match &self.entry {
            Some(e) => format!("{}!{}", self.file.display(), e),
            None => self.file.display().to_string(),
        }
    }
}

/// One entry of the class path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassPathEntry {
    /// The file or directory.
    pub path: PathBuf,
    /// Whether it belongs to the JDK.
    pub is_library: bool,
}

/// An ordered class path.
#[derive(Clone, Debug, Default)]
pub struct ClassPath {
    /// The entries, first wins.
    pub entries: Vec<ClassPathEntry>,
}

/// Everything read from a class path.
#[derive(Debug, Default)]
pub struct ReadClassPath {
    /// The class files, in class-path order. Entries that define a class
    /// already defined earlier are still listed here; the class reader
    /// drops the later ones by class name.
    pub classes: Vec<ClassBytes>,
    /// What could not be read.
    pub problems: Vec<LoadProblem>,
}

impl ClassPath {
    /// Adds application entries.
    pub fn push_application(&mut self, path: impl Into<PathBuf>) {
        self.entries.push(ClassPathEntry {
            path: path.into(),
            is_library: false,
        });
    }

    /// Adds library (JDK) entries.
    pub fn push_library(&mut self, path: impl Into<PathBuf>) {
        self.entries.push(ClassPathEntry {
            path: path.into(),
            is_library: true,
        });
    }

    /// Reads every class file of every entry. Unreadable entries become
    /// [`LoadProblem`]s; only a missing entry given by the user is an
    /// error, reported as a problem too so the caller decides.
    pub fn read(&self) -> ReadClassPath {
        let mut out = ReadClassPath::default();
        for e in &self.entries {
            read_entry(&e.path, e.is_library, &mut out);
        }
        out
    }
}

fn problem(out: &mut ReadClassPath, file: &Path, entry: Option<String>, reason: String) {
    out.problems.push(LoadProblem {
        file: file.to_path_buf(),
        entry,
        reason,
    });
}

fn read_entry(path: &Path, is_library: bool, out: &mut ReadClassPath) {
    let meta = match fs::metadata(path) {
        Ok(m) => m,
        Err(e) => return problem(out, path, None, format!("cannot read: {e}")),
    };
    if meta.is_dir() {
        let mut files = Vec::new();
        collect_class_files(path, &mut files, out);
        files.sort();
        for f in files {
            match fs::read(&f) {
                Ok(bytes) => out.classes.push(ClassBytes {
                    file: f,
                    entry: None,
                    is_library,
                    bytes,
                }),
                Err(e) => problem(out, &f, None, format!("cannot read: {e}")),
            }
        }
        return;
    }
    let bytes = match fs::read(path) {
        Ok(b) => b,
        Err(e) => return problem(out, path, None, format!("cannot read: {e}")),
    };
    if bytes.starts_with(&[0xCA, 0xFE, 0xBA, 0xBE]) {
        out.classes.push(ClassBytes {
            file: path.to_path_buf(),
            entry: None,
            is_library,
            bytes,
        });
    } else if bytes.starts_with(b"JM\x01\x00") {
        // A jmod is a zip archive after a 4-byte header; classes live
        // under `classes/`.
        read_zip(path, &bytes[4..], Some("classes/"), is_library, out);
    } else if bytes.starts_with(b"PK") {
        read_zip(path, &bytes, None, is_library, out);
    } else {
        problem(
            out,
            path,
            None,
            "not a jar, jmod, class file or directory".to_string(),
        );
    }
}

fn collect_class_files(dir: &Path, files: &mut Vec<PathBuf>, out: &mut ReadClassPath) {
    let rd = match fs::read_dir(dir) {
        Ok(rd) => rd,
        Err(e) => return problem(out, dir, None, format!("cannot list: {e}")),
    };
    for ent in rd.flatten() {
        let p = ent.path();
        match ent.file_type() {
            Ok(t) if t.is_dir() => collect_class_files(&p, files, out),
            Ok(_) if p.extension().is_some_and(|x| x == "class") => files.push(p),
            _ => {}
        }
    }
}

fn read_zip(
    path: &Path,
    data: &[u8],
    prefix: Option<&str>,
    is_library: bool,
    out: &mut ReadClassPath,
) {
    let mut archive = match zip::ZipArchive::new(Cursor::new(data)) {
        Ok(a) => a,
        Err(e) => return problem(out, path, None, format!("broken archive: {e}")),
    };
    let mut seen = HashSet::new();
    for i in 0..archive.len() {
        let mut file = match archive.by_index(i) {
            Ok(f) => f,
            Err(e) => {
                problem(
                    out,
                    path,
                    Some(format!("#{i}")),
                    format!("broken entry: {e}"),
                );
                continue;
            }
        };
        let name = file.name().to_string();
        if !name.ends_with(".class") || file.is_dir() {
            continue;
        }
        if let Some(p) = prefix {
            if !name.starts_with(p) {
                continue;
            }
        }
        // Multi-release jars keep versioned copies under META-INF/versions;
        // the base entry is the one the analysis sees.
        if name.starts_with("META-INF/") {
            continue;
        }
        if !seen.insert(name.clone()) {
            continue;
        }
        let mut bytes = Vec::with_capacity((file.size() as usize).min(1 << 24));
        if let Err(e) = file.read_to_end(&mut bytes) {
            problem(out, path, Some(name), format!("cannot inflate: {e}"));
            continue;
        }
        out.classes.push(ClassBytes {
            file: path.to_path_buf(),
            entry: Some(name),
            is_library,
            bytes,
        });
    }
}
