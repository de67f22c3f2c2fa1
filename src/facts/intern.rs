//! Interning names into dense domain elements.

use fxhash::FxHashMap;

/// Assigns each distinct name the next element number.
#[derive(Clone, Debug, Default)]
pub struct Interner {
    names: Vec<String>,
    index: FxHashMap<String, u32>,
}

impl Interner {
    /// An interner whose first elements are `names`.
    pub fn with(names: &[&str]) -> Self {
        let mut i = Interner::default();
        for n in names {
            i.intern(n);
        }
        i
    }

    /// The element of `name`, added if new.
    pub fn intern(&mut self, name: &str) -> u32 {
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        let i = self.names.len() as u32;
        self.names.push(name.to_string());
        self.index.insert(name.to_string(), i);
        i
    }

    /// The element of `name`, if present.
    pub fn get(&self, name: &str) -> Option<u32> {
        self.index.get(name).copied()
    }

    /// The name of element `i`.
    pub fn name(&self, i: u32) -> &str {
        &self.names[i as usize]
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// All names, by element.
    pub fn names(&self) -> &[String] {
        &self.names
    }
}
