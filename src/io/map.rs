//! bddbddb map files: one element name per line; line `i` names element `i`.

use std::collections::HashMap;
use std::io::Write;
use std::path::Path;

/// The names of a domain's elements.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NameMap {
    names: Vec<String>,
    index: HashMap<String, u64>,
}

impl NameMap {
    /// A map from a list of names (element `i` is `names[i]`).
    pub fn from_names(names: Vec<String>) -> Self {
        let mut index = HashMap::with_capacity(names.len());
        for (i, n) in names.iter().enumerate() {
            index.entry(n.clone()).or_insert(i as u64);
        }
        NameMap { names, index }
    }

    /// Parses map file text (CRLF tolerated).
    pub fn parse(text: &str) -> Self {
        NameMap::from_names(
            text.lines()
                .map(|l| l.trim_end_matches('\r').to_string())
                .collect(),
        )
    }

    /// Reads a map file.
    pub fn read(path: &Path) -> std::io::Result<Self> {
        Ok(NameMap::parse(&std::fs::read_to_string(path)?))
    }

    /// Writes the map file.
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
        for n in &self.names {
            writeln!(out, "{n}")?;
        }
        out.flush()
    }

    /// The element with this name (the first, if repeated).
    pub fn id(&self, name: &str) -> Option<u64> {
        self.index.get(name).copied()
    }

    /// The name of element `id`.
    pub fn name(&self, id: u64) -> Option<&str> {
        self.names.get(id as usize).map(String::as_str)
    }

    /// The number of names.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether there are no names.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// All names, in element order.
    pub fn names(&self) -> &[String] {
        &self.names
    }
}
