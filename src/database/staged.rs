//! Writing a database atomically and safely.
//!
//! A database is built under a temporary name beside its destination
//! (`.NAME.tmp-PID`, marked as refract's by a file [`MARKER`]), its
//! manifest is written last, and only then is it renamed into place. A run
//! that stops half way leaves nothing that looks like a database, and an
//! older database at the destination survives until the new one is
//! complete.
//!
//! What may be replaced is decided before any work, by
//! [`check_destination`]: nothing, an empty directory, or an existing
//! refract database (a directory whose manifest carries the format line).
//! Any other directory is replaced only with `--force`, and never a path
//! that is, or contains, one of the run's inputs. A regular file is never
//! replaced.
//!
//! Staging directories are removed when the write fails or is dropped, on
//! Ctrl-C ([`remove_live`], from the signal handler), and, for a process
//! that was killed, by the next run that stages into the same directory.

use super::manifest::{ManifestBuilder, FORMAT_PREFIX, MANIFEST};
use std::io::{self, Read as _};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The file that marks a staging directory as refract's own.
pub const MARKER: &str = ".refract-staging";

/// Why a destination may not be written.
#[derive(Debug, thiserror::Error)]
pub enum DestinationError {
    /// Something other than a directory is there.
    #[error("{0}: exists and is not a directory; a database is a directory, so choose another path with -o")]
    NotADirectory(PathBuf),
    /// A directory that is not a refract database.
    #[error("{0}: exists and is not a refract database (it has no {MANIFEST} with a format line); refract will not replace it: choose another path with -o, or pass --force to replace it")]
    NotADatabase(PathBuf),
    /// The destination is or holds an input of the run.
    #[error("{dest}: is or contains the input {input}; refract never replaces its own inputs, even with --force: choose another path with -o")]
    HoldsInput {
        /// The destination.
        dest: PathBuf,
        /// The input it holds.
        input: PathBuf,
    },
    /// The destination is a symbolic link.
    #[error("{0}: is a symbolic link; write the database to the directory itself, or choose another path with -o")]
    Link(PathBuf),
    /// The destination has no final name (`/`, `..`).
    #[error("{0}: not a path a database can be written to (it has no final name)")]
    NoName(PathBuf),
    /// Looking at the destination failed.
    #[error("{path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// The failure.
        source: io::Error,
    },
}

/// What is at a destination that [`check_destination`] accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Destination {
    /// Nothing: the database is new.
    New,
    /// An empty directory.
    Empty,
    /// A refract database, replaced by the new one.
    Database,
    /// Another directory, replaced because of `--force`.
    Forced,
}

/// Decides, before any work, whether a database may be written to `dest`:
/// see the module documentation. `inputs` are the run's input paths (class
/// path entries, jmods, specification files).
pub fn check_destination(
    dest: &Path,
    inputs: &[PathBuf],
    force: bool,
) -> Result<Destination, DestinationError> {
    if dest.file_name().is_none() {
        return Err(DestinationError::NoName(dest.to_path_buf()));
    }
    let meta = match std::fs::symlink_metadata(dest) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Destination::New),
        Err(source) => {
            return Err(DestinationError::Io {
                path: dest.to_path_buf(),
                source,
            })
        }
    };
    if meta.file_type().is_symlink() {
        return Err(DestinationError::Link(dest.to_path_buf()));
    }
    if !meta.is_dir() {
        return Err(DestinationError::NotADirectory(dest.to_path_buf()));
    }
    let io_err = |source| DestinationError::Io {
        path: dest.to_path_buf(),
        source,
    };
    let canon = dest.canonicalize().map_err(io_err)?;
    for input in inputs {
        // An input that does not exist holds nothing to protect.
        let Ok(i) = input.canonicalize() else {
            continue;
        };
        if i.starts_with(&canon) {
            return Err(DestinationError::HoldsInput {
                dest: dest.to_path_buf(),
                input: input.clone(),
            });
        }
    }
    if is_database(dest) {
        return Ok(Destination::Database);
    }
    if std::fs::read_dir(dest).map_err(io_err)?.next().is_none() {
        return Ok(Destination::Empty);
    }
    if force {
        return Ok(Destination::Forced);
    }
    Err(DestinationError::NotADatabase(dest.to_path_buf()))
}

/// Whether `dir` is a refract database: its manifest's first line is the
/// format line (of any version).
pub fn is_database(dir: &Path) -> bool {
    use std::io::BufRead;
    let Ok(f) = std::fs::File::open(dir.join(MANIFEST)) else {
        return false;
    };
    let mut first = String::new();
    let mut r = io::BufReader::new(f).take(256);
    r.read_line(&mut first).is_ok() && first.starts_with(FORMAT_PREFIX)
}

/// The staging directories of this process that are not committed yet.
static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Removes this process's uncommitted staging directories: for a signal
/// handler about to end the process.
///
/// The run's other threads may still be writing into a directory while it
/// goes, and a file they create during `remove_dir_all` makes it fail
/// ("directory not empty"). So each directory is first renamed to a name
/// that nothing writes to (a write by its old path then fails), and that
/// name is removed.
pub fn remove_live() {
    let dirs = match LIVE.lock() {
        Ok(mut l) => std::mem::take(&mut *l),
        Err(p) => std::mem::take(&mut *p.into_inner()),
    };
    for d in dirs {
        remove_while_written(&d);
    }
}

/// Removes the staging directory `d`, which other threads may be writing
/// into (see [`remove_live`]).
fn remove_while_written(d: &Path) {
    // `.db.tmp-PID` becomes `.db.removed.tmp-PID`: still a staging
    // directory of this process, for `remove_stale` if we die here.
    let name = d.file_name().map(|n| n.to_string_lossy().into_owned());
    let doomed = match name.as_deref().and_then(|n| n.rsplit_once(".tmp-")) {
        Some((stem, pid)) => d.with_file_name(format!("{stem}.removed.tmp-{pid}")),
        None => d.to_path_buf(),
    };
    let gone = if std::fs::rename(d, &doomed).is_ok() {
        doomed
    } else {
        d.to_path_buf()
    };
    // A writer that holds the directory open may still add to it: retry.
    for _ in 0..10 {
        if std::fs::remove_dir_all(&gone).is_ok() || !gone.exists() {
            break;
        }
    }
}

fn forget_live(dir: &Path) {
    if let Ok(mut l) = LIVE.lock() {
        l.retain(|d| d != dir);
    }
}

/// A database under construction.
pub struct StagedDatabase {
    tmp: PathBuf,
    target: PathBuf,
    force: bool,
    committed: bool,
}

impl StagedDatabase {
    /// Creates an empty staging directory for the database `dir`, after
    /// removing the staging directories that killed runs left beside it.
    /// `force` is what [`check_destination`] was given; the destination is
    /// checked again at [`commit`](Self::commit).
    pub fn create(dir: &Path, force: bool) -> io::Result<StagedDatabase> {
        let parent = dir
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        std::fs::create_dir_all(parent)?;
        let file_name = dir
            .file_name()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "the path has no name"))?;
        remove_stale(parent);
        let tmp: PathBuf = parent.join(format!(
            ".{}.tmp-{}",
            file_name.to_string_lossy(),
            std::process::id()
        ));
        if tmp.exists() && tmp.join(MARKER).is_file() {
            std::fs::remove_dir_all(&tmp)?;
        }
        // Registered under the lock before it exists, so that a signal
        // between the two cannot leave it behind.
        {
            let mut live = LIVE.lock().unwrap_or_else(|p| p.into_inner());
            std::fs::create_dir(&tmp)?;
            live.push(tmp.clone());
        }
        std::fs::write(tmp.join(MARKER), format!("{}\n", std::process::id()))?;
        Ok(StagedDatabase {
            tmp,
            target: dir.to_path_buf(),
            force,
            committed: false,
        })
    }

    /// Where the database is being written.
    pub fn path(&self) -> &Path {
        &self.tmp
    }

    /// Writes the manifest and moves the database into place, replacing
    /// what [`check_destination`] allows (checked again now: the path may
    /// have changed during the run).
    pub fn commit(mut self, manifest: &ManifestBuilder) -> io::Result<()> {
        std::fs::remove_file(self.tmp.join(MARKER))?;
        manifest.finish(&self.tmp)?;
        let dir = self.target.clone();
        let at_dest = check_destination(&dir, &[], self.force)
            .map_err(|e| io::Error::new(io::ErrorKind::AlreadyExists, e.to_string()))?;
        // The live list stays locked while the database moves into place:
        // a signal handler's `remove_live` then waits for the move, and
        // never ends the process between the two renames, with the old
        // database moved aside and the new one not yet in its place.
        let mut live = LIVE.lock().unwrap_or_else(|p| p.into_inner());
        let mut old = None;
        if at_dest == Destination::New {
            std::fs::rename(&self.tmp, &dir)?;
        } else {
            let mut aside = dir.clone().into_os_string();
            aside.push(format!(".old-{}", std::process::id()));
            let aside = PathBuf::from(aside);
            std::fs::rename(&dir, &aside)?;
            if let Err(e) = std::fs::rename(&self.tmp, &dir) {
                // Put the old one back: nothing is lost.
                let _ = std::fs::rename(&aside, &dir);
                return Err(e);
            }
            old = Some(aside);
        }
        live.retain(|d| d != &self.tmp);
        drop(live);
        self.committed = true;
        if let Some(old) = old {
            std::fs::remove_dir_all(&old)?;
        }
        Ok(())
    }
}

impl Drop for StagedDatabase {
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_dir_all(&self.tmp);
            forget_live(&self.tmp);
        }
    }
}

/// Removes, in `parent`, the staging directories (`.NAME.tmp-PID` holding
/// [`MARKER`]) of processes that no longer exist. Where process ids
/// cannot be checked (no `/proc`), nothing is removed.
fn remove_stale(parent: &Path) {
    if !Path::new("/proc/self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let name = name.to_string_lossy();
        let Some(pid) = name
            .strip_prefix('.')
            .and_then(|n| n.rsplit_once(".tmp-"))
            .and_then(|(_, pid)| pid.parse::<u32>().ok())
        else {
            continue;
        };
        let path = e.path();
        let ours = e.file_type().is_ok_and(|t| t.is_dir()) && path.join(MARKER).is_file();
        if ours && pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_dir_all(&path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A signal's removal races the run's writers: the directory still goes.
    #[test]
    fn a_staging_directory_being_written_is_removed() {
        let t = tempfile::tempdir().unwrap();
        for round in 0..20 {
            let d = t.path().join(format!(".out.db.tmp-{round}"));
            std::fs::create_dir(&d).unwrap();
            let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
            let writer = {
                let (d, stop) = (d.clone(), stop.clone());
                std::thread::spawn(move || {
                    let mut i = 0u32;
                    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                        let _ = std::fs::write(d.join(format!("f{i}")), b"x");
                        i += 1;
                    }
                })
            };
            while std::fs::read_dir(&d).unwrap().count() < 50 {
                std::thread::yield_now();
            }
            remove_while_written(&d);
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
            writer.join().unwrap();
            let left: Vec<_> = std::fs::read_dir(t.path()).unwrap().flatten().collect();
            assert!(left.is_empty(), "round {round}: {left:?}");
        }
    }

    #[test]
    fn destinations_are_judged_before_any_work() {
        let t = tempfile::tempdir().unwrap();
        let new = t.path().join("new.db");
        assert_eq!(
            check_destination(&new, &[], false).unwrap(),
            Destination::New
        );
        let empty = t.path().join("empty");
        std::fs::create_dir(&empty).unwrap();
        assert_eq!(
            check_destination(&empty, &[], false).unwrap(),
            Destination::Empty
        );
        let notes = t.path().join("precious");
        std::fs::create_dir(&notes).unwrap();
        std::fs::write(notes.join("notes.txt"), "notes").unwrap();
        assert!(matches!(
            check_destination(&notes, &[], false),
            Err(DestinationError::NotADatabase(_))
        ));
        assert_eq!(
            check_destination(&notes, &[], true).unwrap(),
            Destination::Forced
        );
        let input = notes.join("notes.txt");
        assert!(matches!(
            check_destination(&notes, &[input], true),
            Err(DestinationError::HoldsInput { .. })
        ));
        let file = t.path().join("file");
        std::fs::write(&file, "x").unwrap();
        assert!(matches!(
            check_destination(&file, &[], true),
            Err(DestinationError::NotADirectory(_))
        ));
        let db = t.path().join("old.db");
        std::fs::create_dir(&db).unwrap();
        std::fs::write(db.join(MANIFEST), "format\trefract-db 1\n").unwrap();
        assert_eq!(
            check_destination(&db, &[], false).unwrap(),
            Destination::Database
        );
    }

    #[test]
    fn stale_staging_directories_of_dead_processes_are_removed() {
        let t = tempfile::tempdir().unwrap();
        // No process has id 4000000000 (Linux caps them far lower).
        let stale = t.path().join(".x.db.tmp-4000000000");
        std::fs::create_dir(&stale).unwrap();
        std::fs::write(stale.join(MARKER), "").unwrap();
        // Not ours: no marker.
        let foreign = t.path().join(".y.db.tmp-4000000001");
        std::fs::create_dir(&foreign).unwrap();
        let s = StagedDatabase::create(&t.path().join("z.db"), false).unwrap();
        assert!(!stale.exists());
        assert!(foreign.exists());
        assert!(s.path().is_dir());
        let p = s.path().to_path_buf();
        drop(s);
        assert!(!p.exists());
    }
}
