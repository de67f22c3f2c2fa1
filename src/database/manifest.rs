//! A database's manifest, `metadata.tsv`: the format version, the tool
//! version, how the database was made (command, options, inputs with their
//! checksums, timings) and every file of the database with its size and
//! SHA-256.
//!
//! The manifest is written last, just before the staged directory is
//! renamed into place, so a directory without one is incomplete. Opening a
//! database checks the format and every file's size (a truncated file is
//! caught at once); a file's checksum is checked when the file is read.
//!
//! ```text
//! format    refract-db 2
//! refract   0.1.0
//! command   analyze
//! created   1795392000
//! option    variant   points-to
//! input     app.jar   18203   9f86d08...
//! timing    solve     1.234
//! file      vP.bdd    5123    2c26b46...
//! ```

use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// The format this build writes: version 2 stores relations as compact
/// BDDs and maps compressed ([`crate::io::compact`],
/// [`crate::io::map`]).
pub const FORMAT: &str = "refract-db 2";
/// The formats this build reads: its own, and version 1 (JavaBDD text
/// dumps and plain maps), which the same readers take.
pub const READABLE: [&str; 2] = ["refract-db 1", FORMAT];
/// How every manifest begins, whatever its format version: what marks a
/// directory as a refract database.
pub const FORMAT_PREFIX: &str = "format\trefract-db";
/// The manifest's file name.
pub const MANIFEST: &str = "metadata.tsv";

/// A file's size and SHA-256 (lower-case hex).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileSum {
    /// Size in bytes.
    pub size: u64,
    /// SHA-256 as hex.
    pub sha256: String,
}

/// The size and SHA-256 of a file, read in one streaming pass.
pub fn checksum(path: &Path) -> io::Result<FileSum> {
    let mut f = std::fs::File::open(path)?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    let mut size = 0u64;
    loop {
        let n = f.read(&mut buf)?;
        if n == 0 {
            break;
        }
        size += n as u64;
        h.update(&buf[..n]);
    }
    let mut hex = String::with_capacity(64);
    for b in h.finalize().iter() {
        let _ = write!(hex, "{b:02x}");
    }
    Ok(FileSum { size, sha256: hex })
}

/// The checksum of an input: a file's own, or for a directory the hash of
/// its files' relative paths and checksums, in sorted order.
pub fn input_checksum(path: &Path) -> io::Result<FileSum> {
    if !path.is_dir() {
        return checksum(path);
    }
    let mut files = Vec::new();
    let mut seen = std::collections::HashSet::new();
    seen.insert(path.canonicalize()?);
    collect_files(path, path, &mut seen, &mut files)?;
    files.sort();
    let mut h = Sha256::new();
    let mut size = 0;
    for rel in &files {
        let sum = checksum(&path.join(rel))?;
        size += sum.size;
        h.update(rel.to_string_lossy().as_bytes());
        h.update([0]);
        h.update(sum.sha256.as_bytes());
        h.update([b'\n']);
    }
    let mut hex = String::with_capacity(64);
    for b in h.finalize().iter() {
        let _ = write!(hex, "{b:02x}");
    }
    Ok(FileSum { size, sha256: hex })
}

/// The files below `dir`, relative to `root`, each real directory walked
/// once: a symbolic link to a directory already walked (a loop) is not
/// followed (the class-path reader warns about it).
fn collect_files(
    root: &Path,
    dir: &Path,
    seen: &mut std::collections::HashSet<PathBuf>,
    out: &mut Vec<PathBuf>,
) -> io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let p = entry?.path();
        if p.is_dir() {
            if seen.insert(p.canonicalize()?) {
                collect_files(root, &p, seen, out)?;
            }
        } else if let Ok(rel) = p.strip_prefix(root) {
            out.push(rel.to_path_buf());
        }
    }
    Ok(())
}

/// The manifest being assembled for a database under construction.
#[derive(Clone, Debug)]
pub struct ManifestBuilder {
    text: String,
}

impl ManifestBuilder {
    /// A manifest for a database written by `command` (`facts`, `analyze`).
    pub fn new(command: &str) -> Self {
        let created = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let mut text = String::new();
        let _ = writeln!(text, "format\t{FORMAT}");
        let _ = writeln!(text, "refract\t{}", env!("CARGO_PKG_VERSION"));
        let _ = writeln!(text, "command\t{command}");
        let _ = writeln!(text, "created\t{created}");
        ManifestBuilder { text }
    }

    /// Records an option of the run.
    pub fn option(&mut self, key: &str, value: &str) -> &mut Self {
        let _ = writeln!(self.text, "option\t{key}\t{}", clean(value));
        self
    }

    /// Records an input (file or directory) with its checksum.
    pub fn input(&mut self, path: &Path) -> io::Result<&mut Self> {
        let sum = input_checksum(path)?;
        let _ = writeln!(
            self.text,
            "input\t{}\t{}\t{}",
            clean(&path.display().to_string()),
            sum.size,
            sum.sha256
        );
        Ok(self)
    }

    /// Records a duration in seconds.
    pub fn timing(&mut self, key: &str, seconds: f64) -> &mut Self {
        let _ = writeln!(self.text, "timing\t{key}\t{seconds:.3}");
        self
    }

    /// Lists every file of `dir` with its checksum and writes the
    /// manifest into `dir`.
    pub fn finish(&self, dir: &Path) -> io::Result<()> {
        use rayon::prelude::*;
        let mut names: Vec<String> = Vec::new();
        for entry in std::fs::read_dir(dir)? {
            let entry = entry?;
            if !entry.file_type()?.is_file() {
                continue;
            }
            let name = entry.file_name().to_string_lossy().into_owned();
            if name != MANIFEST {
                names.push(name);
            }
        }
        names.sort();
        let sums: Vec<FileSum> = names
            .par_iter()
            .map(|n| checksum(&dir.join(n)))
            .collect::<io::Result<_>>()?;
        let mut text = self.text.clone();
        for (n, s) in names.iter().zip(&sums) {
            let _ = writeln!(text, "file\t{n}\t{}\t{}", s.size, s.sha256);
        }
        write_atomically(&dir.join(MANIFEST), text.as_bytes())
    }
}

/// Keeps a value on one manifest line.
fn clean(s: &str) -> String {
    s.replace(['\t', '\n', '\r'], " ")
}

/// Writes `path` through a temporary sibling and a rename.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".tmp-{}", std::process::id()));
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path)
}

/// Why a manifest is unusable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ManifestProblem {
    /// A line that does not parse.
    BadLine(usize),
    /// No `format` line.
    NoFormat,
    /// Another format version.
    Format(String),
}

/// A manifest read back.
#[derive(Clone, Debug, Default)]
pub struct Manifest {
    /// `format` (`refract-db 2`).
    pub format: String,
    /// The version of refract that wrote it.
    pub tool_version: String,
    /// The command that wrote it.
    pub command: String,
    /// Options in order, as `(key, value)`.
    pub options: Vec<(String, String)>,
    /// Inputs: path and checksum.
    pub inputs: Vec<(String, FileSum)>,
    /// Timings in seconds.
    pub timings: Vec<(String, String)>,
    /// The database's files.
    pub files: BTreeMap<String, FileSum>,
    /// Lines kept as they are (other keys), for rewriting.
    extra: Vec<String>,
}

impl Manifest {
    /// Parses manifest text.
    pub fn parse(text: &str) -> Result<Manifest, ManifestProblem> {
        let mut m = Manifest::default();
        for (k, line) in text.lines().enumerate() {
            if line.is_empty() {
                continue;
            }
            let f: Vec<&str> = line.split('\t').collect();
            let bad = || ManifestProblem::BadLine(k + 1);
            let sum = |size: &str, sha: &str| -> Result<FileSum, ManifestProblem> {
                Ok(FileSum {
                    size: size.parse().map_err(|_| bad())?,
                    sha256: sha.to_string(),
                })
            };
            match (f[0], f.len()) {
                ("format", 2) => m.format = f[1].to_string(),
                ("refract", 2) => m.tool_version = f[1].to_string(),
                ("command", 2) => m.command = f[1].to_string(),
                ("option", 3) => m.options.push((f[1].to_string(), f[2].to_string())),
                ("input", 4) => m.inputs.push((f[1].to_string(), sum(f[2], f[3])?)),
                ("timing", 3) => m.timings.push((f[1].to_string(), f[2].to_string())),
                ("file", 4) => {
                    m.files.insert(f[1].to_string(), sum(f[2], f[3])?);
                }
                ("format" | "refract" | "command" | "option" | "input" | "timing" | "file", _) => {
                    return Err(bad())
                }
                _ => m.extra.push(line.to_string()),
            }
        }
        if m.format.is_empty() {
            return Err(ManifestProblem::NoFormat);
        }
        if !READABLE.contains(&m.format.as_str()) {
            return Err(ManifestProblem::Format(m.format));
        }
        Ok(m)
    }

    /// The first value of an option.
    pub fn option(&self, key: &str) -> Option<&str> {
        self.options
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The manifest as text.
    pub fn to_text(&self) -> String {
        let mut t = String::new();
        let _ = writeln!(t, "format\t{}", self.format);
        let _ = writeln!(t, "refract\t{}", self.tool_version);
        let _ = writeln!(t, "command\t{}", self.command);
        for l in &self.extra {
            let _ = writeln!(t, "{l}");
        }
        for (k, v) in &self.options {
            let _ = writeln!(t, "option\t{k}\t{v}");
        }
        for (p, s) in &self.inputs {
            let _ = writeln!(t, "input\t{p}\t{}\t{}", s.size, s.sha256);
        }
        for (k, v) in &self.timings {
            let _ = writeln!(t, "timing\t{k}\t{v}");
        }
        for (n, s) in &self.files {
            let _ = writeln!(t, "file\t{n}\t{}\t{}", s.size, s.sha256);
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_manifest_reads_back() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.map"), "x\ny\n").unwrap();
        let mut b = ManifestBuilder::new("facts");
        b.option("jdk", "none").timing("solve", 1.5);
        b.finish(dir.path()).unwrap();
        let m =
            Manifest::parse(&std::fs::read_to_string(dir.path().join(MANIFEST)).unwrap()).unwrap();
        assert_eq!(m.command, "facts");
        assert_eq!(m.option("jdk"), Some("none"));
        assert_eq!(m.files["a.map"].size, 4);
        assert_eq!(
            m.files["a.map"].sha256,
            checksum(&dir.path().join("a.map")).unwrap().sha256
        );
        let again = Manifest::parse(&m.to_text()).unwrap();
        assert_eq!(again.files, m.files);
    }

    #[test]
    fn other_formats_and_bad_lines_are_reported() {
        assert_eq!(
            Manifest::parse("format\trefract-db 0\n").unwrap_err(),
            ManifestProblem::Format("refract-db 0".into())
        );
        assert_eq!(
            Manifest::parse("refract\t1\n").unwrap_err(),
            ManifestProblem::NoFormat
        );
        // Version 1 (text dumps, plain maps) is still read.
        assert_eq!(
            Manifest::parse("format\trefract-db 1\n").unwrap().format,
            "refract-db 1"
        );
        assert_eq!(
            Manifest::parse("format\trefract-db 1\nfile\tx\tnot-a-size\tab\n").unwrap_err(),
            ManifestProblem::BadLine(2)
        );
    }

    #[test]
    fn sha256_of_known_text() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("abc");
        std::fs::write(&p, "abc").unwrap();
        assert_eq!(
            checksum(&p).unwrap().sha256,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
