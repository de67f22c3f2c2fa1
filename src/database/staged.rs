//! Writing a database atomically: it is built under a temporary name beside
//! its destination, its manifest is written last, and only then is it
//! renamed into place. A run that stops half way leaves nothing that looks
//! like a database, and an older database at the destination survives
//! until the new one is complete.

use super::manifest::ManifestBuilder;
use std::io;
use std::path::{Path, PathBuf};

/// A database under construction.
pub struct StagedDatabase {
    tmp: PathBuf,
    target: PathBuf,
    committed: bool,
}

impl StagedDatabase {
    /// Creates an empty staging directory for the database `dir`.
    pub fn create(dir: &Path) -> io::Result<StagedDatabase> {
        let parent = dir
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        std::fs::create_dir_all(parent)?;
        let file_name = dir.file_name().ok_or_else(|| {
            io::Error::new(io::ErrorKind::InvalidInput, "database path has no name")
        })?;
        let tmp: PathBuf = parent.join(format!(
            ".{}.tmp-{}",
            file_name.to_string_lossy(),
            std::process::id()
        ));
        if tmp.exists() {
            std::fs::remove_dir_all(&tmp)?;
        }
        std::fs::create_dir(&tmp)?;
        Ok(StagedDatabase {
            tmp,
            target: dir.to_path_buf(),
            committed: false,
        })
    }

    /// Where the database is being written.
    pub fn path(&self) -> &Path {
        &self.tmp
    }

    /// Writes the manifest and moves the database into place, replacing
    /// an older one.
    pub fn commit(mut self, manifest: &ManifestBuilder) -> io::Result<()> {
        manifest.finish(&self.tmp)?;
        let dir = self.target.clone();
        if dir.exists() {
            let mut old = dir.clone().into_os_string();
            old.push(format!(".old-{}", std::process::id()));
            let old = PathBuf::from(old);
            std::fs::rename(&dir, &old)?;
            std::fs::rename(&self.tmp, &dir)?;
            std::fs::remove_dir_all(&old)?;
        } else {
            std::fs::rename(&self.tmp, &dir)?;
        }
        self.committed = true;
        Ok(())
    }
}

impl Drop for StagedDatabase {
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_dir_all(&self.tmp);
        }
    }
}
