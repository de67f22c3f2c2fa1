//! bddbddb map files: one element name per line; line `i` names element `i`.
//! A map whose file name ends in `.zst` is zstd-compressed: databases store
//! theirs so (the whole JDK's `V.map`: 325 MB as text, 14 MB compressed).

use super::text_file::{self, TextWriter};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The names of a domain's elements. A map read from a file is parsed on
/// first use, and its name index built on the first lookup by name: a
/// database of the whole JDK holds 800 MB of maps, of which a report needs
/// none and an export of targets the small ones.
#[derive(Clone, Debug, Default)]
pub struct NameMap {
    file: Option<PathBuf>,
    names: OnceLock<Vec<String>>,
    index: OnceLock<HashMap<String, u64>>,
    error: OnceLock<String>,
}

impl PartialEq for NameMap {
    fn eq(&self, other: &Self) -> bool {
        self.names() == other.names()
    }
}

impl Eq for NameMap {}

impl NameMap {
    /// A map from a list of names (element `i` is `names[i]`).
    pub fn from_names(names: Vec<String>) -> Self {
        let map = NameMap::default();
        let _ = map.names.set(names);
        map
    }

    /// Parses map file text (CRLF tolerated).
    pub fn parse(text: &str) -> Self {
        NameMap::from_names(parse_lines(text))
    }

    /// A map file, read when a name is first needed. Fails now if the
    /// file does not exist; a failure to read it later leaves the map
    /// empty, with [`NameMap::error`] saying why.
    pub fn read(path: &Path) -> std::io::Result<Self> {
        std::fs::metadata(path)?;
        Ok(NameMap {
            file: Some(path.to_path_buf()),
            ..NameMap::default()
        })
    }

    /// Why the map file could not be read, if it could not.
    pub fn error(&self) -> Option<&str> {
        self.names();
        self.error.get().map(String::as_str)
    }

    /// Writes the map file (zstd-compressed if its name ends in `.zst`).
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        let mut out = TextWriter::create(path)?;
        for n in self.names() {
            out.line(n)?;
        }
        out.finish()
    }

    /// The element with this name (the first, if repeated).
    pub fn id(&self, name: &str) -> Option<u64> {
        self.index
            .get_or_init(|| {
                let names = self.names();
                let mut index = HashMap::with_capacity(names.len());
                for (i, n) in names.iter().enumerate() {
                    index.entry(n.clone()).or_insert(i as u64);
                }
                index
            })
            .get(name)
            .copied()
    }

    /// The name of element `id`.
    pub fn name(&self, id: u64) -> Option<&str> {
        self.names().get(id as usize).map(String::as_str)
    }

    /// The number of names.
    pub fn len(&self) -> usize {
        self.names().len()
    }

    /// Whether there are no names.
    pub fn is_empty(&self) -> bool {
        self.names().is_empty()
    }

    /// All names, in element order.
    pub fn names(&self) -> &[String] {
        self.names.get_or_init(|| {
            let Some(path) = &self.file else {
                return Vec::new();
            };
            match text_file::read(path) {
                Ok(text) => parse_lines(&text),
                Err(e) => {
                    let _ = self
                        .error
                        .set(format!("cannot read map file {}: {e}", path.display()));
                    Vec::new()
                }
            }
        })
    }
}

/// One name per line, CRLF tolerated.
fn parse_lines(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.trim_end_matches('\r').to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_map_file_is_read_on_first_use() {
        let dir = std::env::temp_dir().join(format!("refract-map-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("T.map");
        std::fs::write(&path, "a.A\r\nb.B\nb.B\n").unwrap();
        let map = NameMap::read(&path).unwrap();
        // Read now: later changes to the file are seen (nothing parsed yet).
        std::fs::write(&path, "a.A\nb.B\nb.B\nc.C\n").unwrap();
        assert_eq!(map.len(), 4);
        assert_eq!(map.name(3), Some("c.C"));
        assert_eq!(map.id("b.B"), Some(1));
        assert_eq!(map.error(), None);
        assert_eq!(map, NameMap::parse("a.A\nb.B\nb.B\nc.C"));

        let gone = NameMap::read(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert!(gone.is_empty());
        assert!(gone.error().unwrap().starts_with("cannot read map file"));
        assert!(NameMap::read(&path).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
