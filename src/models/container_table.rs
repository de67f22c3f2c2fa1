//! The table of the container model, `queries/models/containers.tsv`:
//! which classes are collections, views and maps, and what each method
//! name of the collection API does. [`super::containers`] answers calls
//! by it; the file's header documents every role.

use fxhash::{FxHashMap, FxHashSet};
use std::sync::OnceLock;

pub use super::TableError;

/// The table as shipped, compiled in.
pub const TEXT: &str = include_str!("../../queries/models/containers.tsv");

/// The file's name, for errors.
const FILE: &str = "queries/models/containers.tsv";

/// A functional interface that the collection API takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    /// The interface (`java.util.function.BiFunction`).
    pub class: String,
    /// Its method (`apply`).
    pub name: String,
    /// The method's erased descriptor.
    pub desc: String,
    /// How many of the collection's contents it is called with.
    pub arity: usize,
    /// Whether a storing call stores what it returns.
    pub stored: bool,
}

/// The parsed table (see the file's header for the roles).
#[derive(Debug, Default)]
pub struct Table {
    collections: FxHashSet<String>,
    views: FxHashSet<String>,
    supertypes: FxHashSet<String>,
    maps: FxHashSet<String>,
    factories: FxHashMap<String, FxHashSet<String>>,
    writes_through: FxHashMap<String, FxHashSet<String>>,
    stores: FxHashSet<String>,
    keyed: FxHashSet<String>,
    same_kind: FxHashSet<String>,
    key_views: FxHashSet<String>,
    entry_views: FxHashSet<String>,
    defaults: FxHashMap<String, usize>,
    stores_results: FxHashSet<String>,
    functions: Vec<Function>,
    class_of: Vec<(String, String, String)>,
}

/// The compiled-in table, parsed once. It is part of the program, and
/// `the_shipped_table_parses` tests it; a row it cannot read is a bug
/// of the build, not of any input.
pub fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| match Table::parse(TEXT, FILE) {
        Ok(t) => t,
        Err(e) => panic!("the compiled-in container table is invalid: {e}"),
    })
}

impl Table {
    /// Parses a table in the format of `queries/models/containers.tsv`.
    pub fn parse(text: &str, file: &str) -> Result<Table, TableError> {
        let mut t = Table::default();
        super::read_rows(text, file, |fields| t.add(fields))?;
        Ok(t)
    }

    /// Adds one row, split at its tabs.
    fn add(&mut self, f: &[&str]) -> Result<(), String> {
        let arity = |n: usize| {
            if f.len() == n {
                Ok(())
            } else {
                Err(format!(
                    "`{}` takes {} fields after the role, found {}",
                    f[0],
                    n - 1,
                    f.len() - 1
                ))
            }
        };
        let owned = |s: &str| s.to_string();
        match f[0] {
            role @ ("collection" | "view" | "supertype") => {
                let map = match f.get(2) {
                    None if f.len() == 2 => false,
                    Some(&"map") if f.len() == 3 => true,
                    _ => return Err(format!("`{role}` takes a class and an optional `map`")),
                };
                let set = match role {
                    "collection" => &mut self.collections,
                    "view" => &mut self.views,
                    _ => &mut self.supertypes,
                };
                set.insert(owned(f[1]));
                if map {
                    self.maps.insert(owned(f[1]));
                }
            }
            role @ ("factory" | "writes-through") => {
                arity(3)?;
                let map = if role == "factory" {
                    &mut self.factories
                } else {
                    &mut self.writes_through
                };
                map.entry(owned(f[1])).or_default().insert(owned(f[2]));
            }
            role @ ("stores" | "keyed" | "same-kind" | "key-view" | "entry-view"
            | "stores-results") => {
                arity(2)?;
                let set = match role {
                    "stores" => &mut self.stores,
                    "keyed" => &mut self.keyed,
                    "same-kind" => &mut self.same_kind,
                    "key-view" => &mut self.key_views,
                    "entry-view" => &mut self.entry_views,
                    _ => &mut self.stores_results,
                };
                set.insert(owned(f[1]));
            }
            "default" => {
                arity(3)?;
                let position = f[2]
                    .parse()
                    .map_err(|_| format!("`default`'s position {:?} is not a number", f[2]))?;
                self.defaults.insert(owned(f[1]), position);
            }
            "function" => {
                arity(6)?;
                let arity = f[4]
                    .parse()
                    .map_err(|_| format!("`function`'s arity {:?} is not a number", f[4]))?;
                let stored = match f[5] {
                    "stored" => true,
                    "-" => false,
                    other => {
                        return Err(format!("`function` ends in `stored` or `-`, not {other:?}"))
                    }
                };
                self.functions.push(Function {
                    class: owned(f[1]),
                    name: owned(f[2]),
                    desc: owned(f[3]),
                    arity,
                    stored,
                });
            }
            "class-of" => {
                arity(4)?;
                self.class_of.push((owned(f[1]), owned(f[2]), owned(f[3])));
            }
            other => return Err(format!("unknown role {other:?}")),
        }
        Ok(())
    }

    /// Whether the instance methods of `class` are summarised.
    pub fn is_collection(&self, class: &str) -> bool {
        self.collections.contains(class)
    }

    /// Whether `class` is an interface that views are typed as.
    pub fn is_view(&self, class: &str) -> bool {
        self.views.contains(class)
    }

    /// Whether `class` is a supertype of the collections whose calls are
    /// answered.
    pub fn is_supertype(&self, class: &str) -> bool {
        self.supertypes.contains(class)
    }

    /// Whether calls through `class` are answered at the call site.
    pub fn is_container_type(&self, class: &str) -> bool {
        self.is_collection(class) || self.is_view(class) || self.is_supertype(class)
    }

    /// Whether `class` is a map's type.
    pub fn is_map(&self, class: &str) -> bool {
        self.maps.contains(class)
    }

    /// Whether `class.name` is a factory of a collection of its own.
    pub fn is_factory(&self, class: &str, name: &str) -> bool {
        self.factories.get(class).is_some_and(|n| n.contains(name))
    }

    /// Whether the factory `class.name` makes a view of its array.
    pub fn writes_through(&self, class: &str, name: &str) -> bool {
        self.writes_through
            .get(class)
            .is_some_and(|n| n.contains(name))
    }

    /// Whether a method of this name stores its arguments.
    pub fn stores(&self, name: &str) -> bool {
        self.stores.contains(name)
    }

    /// Whether a method of this name takes a key first.
    pub fn is_keyed(&self, name: &str) -> bool {
        self.keyed.contains(name)
    }

    /// Whether a method of this name returns (a view like) its receiver.
    pub fn is_same_kind(&self, name: &str) -> bool {
        self.same_kind.contains(name)
    }

    /// Whether a method of this name returns a view of the keys.
    pub fn is_key_view(&self, name: &str) -> bool {
        self.key_views.contains(name)
    }

    /// Whether a method of this name returns a view of the entries.
    pub fn is_entry_view(&self, name: &str) -> bool {
        self.entry_views.contains(name)
    }

    /// The position of the argument a read of this name returns when the
    /// key is absent.
    pub fn default_argument(&self, name: &str) -> Option<usize> {
        self.defaults.get(name).copied()
    }

    /// Whether a call of this name stores what its function returns.
    pub fn stores_results(&self, name: &str) -> bool {
        self.stores_results.contains(name)
    }

    /// The functional interface `class`, if the API takes it.
    pub fn function(&self, class: &str) -> Option<&Function> {
        self.functions.iter().find(|f| f.class == class)
    }

    /// Whether `(class, name, desc)` is the method of a functional
    /// interface the API takes.
    pub fn is_function_method(&self, class: &str, name: &str, desc: &str) -> bool {
        self.functions
            .iter()
            .any(|f| (f.class.as_str(), f.name.as_str(), f.desc.as_str()) == (class, name, desc))
    }

    /// Whether `(class, name, desc)` gives the Class object of its
    /// receiver, kept in summaries.
    pub fn is_class_of(&self, class: &str, name: &str, desc: &str) -> bool {
        self.class_of
            .iter()
            .any(|(c, n, d)| (c.as_str(), n.as_str(), d.as_str()) == (class, name, desc))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_table_parses() {
        let t = Table::parse(TEXT, FILE).unwrap();
        assert_eq!(t.collections.len(), 27);
        assert_eq!(t.views.len(), 16);
        assert_eq!(t.supertypes.len(), 11);
        assert_eq!(t.factories.values().map(|n| n.len()).sum::<usize>(), 20);
        assert_eq!(t.stores.len(), 25);
        assert_eq!(t.functions.len(), 9);
        assert!(t.is_map("java.util.Properties") && t.is_map("java.util.AbstractMap"));
        assert!(!t.is_map("java.util.Dictionary") && !t.is_map("java.util.Map$Entry"));
        assert!(t.writes_through("java.util.Arrays", "asList"));
        assert_eq!(t.default_argument("getOrDefault"), Some(1));
        let f = t.function("java.util.function.BiFunction").unwrap();
        assert_eq!((f.arity, f.stored), (2, true));
        assert!(t.is_class_of("java.lang.Object", "getClass", "()Ljava/lang/Class;"));
    }

    #[test]
    fn a_bad_row_is_refused_with_its_line() {
        let err = |text: &str| Table::parse(text, "t.tsv").unwrap_err().to_string();
        assert_eq!(
            err("# a comment\n\nstores\tput\nlists\tjava.util.List\n"),
            "t.tsv:4: unknown role \"lists\""
        );
        assert_eq!(
            err("factory\tjava.util.List\n"),
            "t.tsv:1: `factory` takes 2 fields after the role, found 1"
        );
        assert_eq!(
            err("view\tjava.util.Map\tmaps\n"),
            "t.tsv:1: `view` takes a class and an optional `map`"
        );
        assert_eq!(
            err("function\tC\tf\t()V\tone\t-\n"),
            "t.tsv:1: `function`'s arity \"one\" is not a number"
        );
        assert_eq!(
            err("default\tgetOrDefault\tx\n"),
            "t.tsv:1: `default`'s position \"x\" is not a number"
        );
    }
}
