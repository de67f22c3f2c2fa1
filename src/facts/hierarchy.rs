//! The class hierarchy: supertypes, method and field resolution (JVMS
//! §5.4.3) and virtual dispatch tables.

use crate::classfile::descriptor::element_type;
use crate::classfile::model::access;
use fxhash::{FxHashMap, FxHashSet};
use std::sync::Arc;

/// A declared method as the hierarchy knows it.
#[derive(Clone, Debug)]
pub struct MethodEntry {
    /// Name.
    pub name: String,
    /// JVM descriptor.
    pub desc: String,
    /// Access flags.
    pub access: u16,
    /// Its `M` element.
    pub id: u32,
    /// The `N` element of its sub-signature.
    pub key: u32,
}

/// A declared field.
#[derive(Clone, Debug)]
pub struct FieldEntry {
    /// Name.
    pub name: String,
    /// JVM descriptor.
    pub desc: String,
    /// Access flags.
    pub access: u16,
    /// Its `F` element.
    pub id: u32,
}

/// A class or interface in the hierarchy.
#[derive(Clone, Debug)]
pub struct ClassNode {
    /// Binary name.
    pub name: String,
    /// Superclass.
    pub super_name: Option<String>,
    /// Direct superinterfaces.
    pub interfaces: Vec<String>,
    /// Access flags.
    pub access: u16,
    /// Declared methods.
    pub methods: Vec<MethodEntry>,
    /// Declared fields.
    pub fields: Vec<FieldEntry>,
}

impl ClassNode {
    /// Whether it is an interface.
    pub fn is_interface(&self) -> bool {
        self.access & access::INTERFACE != 0
    }
    /// Whether objects of exactly this class can exist.
    pub fn is_concrete(&self) -> bool {
        self.access & (access::INTERFACE | access::ABSTRACT) == 0
    }
}

/// A dispatch table: sub-signature (`N` element) → method (`M` element).
pub type DispatchTable = FxHashMap<u32, u32>;

/// All known classes.
#[derive(Default)]
pub struct Hierarchy {
    classes: FxHashMap<String, ClassNode>,
    tables: FxHashMap<String, Arc<DispatchTable>>,
}

const OBJECT: &str = "java.lang.Object";

/// The classes the JVM would refuse with `ClassCircularityError`: those
/// whose superclasses or superinterfaces lead back to themselves, and
/// those that extend or implement such a class. `supers` maps each class
/// (its first definition on the class path) to its superclass and
/// superinterfaces. Returns each refused class with the reason.
///
/// Every walk of the hierarchy assumes it is acyclic, so these classes
/// are taken out before the hierarchy is built (fuzzed class files made
/// `refract facts` loop for ever on them). The walk here is iterative and
/// visits each class once: O(classes + edges).
pub fn circular_classes(supers: &FxHashMap<&str, Vec<&str>>) -> Vec<(String, String)> {
    // 0: unseen, 1: on the current path, 2: acyclic, 3: refused.
    let mut state: FxHashMap<&str, u8> = FxHashMap::default();
    let mut refused: Vec<(String, String)> = Vec::new();
    let mut names: Vec<&str> = supers.keys().copied().collect();
    names.sort_unstable();
    for &start in &names {
        if state.contains_key(start) {
            continue;
        }
        // An explicit DFS: (class, index of the next supertype to visit).
        let mut path: Vec<(&str, usize)> = vec![(start, 0)];
        state.insert(start, 1);
        while let Some(&mut (c, ref mut next)) = path.last_mut() {
            let sups = supers.get(c).map_or(&[][..], Vec::as_slice);
            if let Some(&s) = sups.get(*next) {
                *next += 1;
                match state.get(s).copied() {
                    _ if !supers.contains_key(s) => {}
                    None => {
                        state.insert(s, 1);
                        path.push((s, 0));
                    }
                    Some(1) => {
                        // A cycle: every class on the path from `s` on.
                        let from = path.iter().position(|(p, _)| *p == s).unwrap_or(0);
                        let cycle: Vec<&str> = path[from..].iter().map(|(p, _)| *p).collect();
                        for &p in &cycle {
                            state.insert(p, 3);
                        }
                    }
                    Some(3) => {
                        state.insert(c, 3);
                    }
                    _ => {}
                }
                continue;
            }
            path.pop();
            let done = if state.get(c) == Some(&3) { 3 } else { 2 };
            state.insert(c, done);
            if done == 3 {
                if let Some((parent, _)) = path.last() {
                    state.insert(parent, 3);
                }
            }
        }
    }
    for &c in &names {
        if state.get(c) != Some(&3) {
            continue;
        }
        let sups = &supers[c];
        let reason = if sups.contains(&c) {
            format!("ClassCircularityError: {c} is its own supertype")
        } else {
            let via: Vec<&str> = sups
                .iter()
                .copied()
                .filter(|s| state.get(s) == Some(&3))
                .collect();
            format!(
                "ClassCircularityError: {c} extends or implements {}, whose supertypes lead back in a cycle",
                via.join(", ")
            )
        };
        refused.push((c.to_string(), reason));
    }
    refused
}

impl Hierarchy {
    /// Adds a class (the first definition of a name wins).
    pub fn add(&mut self, node: ClassNode) -> bool {
        if self.classes.contains_key(&node.name) {
            return false;
        }
        self.classes.insert(node.name.clone(), node);
        true
    }

    /// A class by name.
    pub fn get(&self, name: &str) -> Option<&ClassNode> {
        self.classes.get(name)
    }

    /// Direct supertypes of a reference type (JLS §4.10.3 for arrays):
    /// `S[]` for each direct supertype `S` of `T` is one of `T[]`, and
    /// `Object[]` and the arrays of primitives have `Object`, `Cloneable`
    /// and `Serializable` (their closure reaches these from any array). A
    /// class missing from the class path is taken to extend Object.
    ///
    /// The dimensions are stripped at once, so a type of 255 dimensions
    /// (the JVM's limit) costs one pass over its name, not a recursion per
    /// dimension (which made one such class take minutes).
    pub fn direct_supertypes(&self, t: &str) -> Vec<String> {
        let mut element = t;
        let mut dims = 0;
        while let Some(e) = element_type(element) {
            element = e;
            dims += 1;
        }
        if dims > 0 {
            let is_ref = crate::classfile::descriptor::is_reference(element);
            if !is_ref || element == OBJECT {
                let suffix = "[]".repeat(dims - 1);
                return [OBJECT, "java.lang.Cloneable", "java.io.Serializable"]
                    .iter()
                    .map(|s| format!("{s}{suffix}"))
                    .collect();
            }
            let suffix = "[]".repeat(dims);
            return self
                .direct_supertypes(element)
                .into_iter()
                .map(|s| s + &suffix)
                .collect();
        }
        match self.classes.get(t) {
            Some(c) => {
                let mut out: Vec<String> = c.super_name.iter().cloned().collect();
                out.extend(c.interfaces.iter().cloned());
                if out.is_empty() && t != OBJECT {
                    out.push(OBJECT.to_string());
                }
                out
            }
            None if t == OBJECT => Vec::new(),
            None => vec![OBJECT.to_string()],
        }
    }

    /// Every supertype of `t`, itself included.
    pub fn all_supertypes(&self, t: &str) -> Vec<String> {
        let mut seen: FxHashSet<String> = FxHashSet::default();
        let mut stack = vec![t.to_string()];
        let mut out = Vec::new();
        while let Some(x) = stack.pop() {
            if !seen.insert(x.clone()) {
                continue;
            }
            stack.extend(self.direct_supertypes(&x));
            out.push(x);
        }
        out
    }

    /// Resolves a method reference (JVMS §5.4.3.3/4): the class and its
    /// superclasses, then its superinterfaces.
    pub fn resolve_method(&self, class: &str, name: &str, desc: &str) -> Option<u32> {
        let class = if element_type(class).is_some() {
            OBJECT
        } else {
            class
        };
        let mut c = Some(class);
        while let Some(cn) = c.and_then(|n| self.classes.get(n)) {
            if let Some(m) = cn.methods.iter().find(|m| m.name == name && m.desc == desc) {
                return Some(m.id);
            }
            c = cn.super_name.as_deref();
        }
        let mut seen = FxHashSet::default();
        let mut queue: std::collections::VecDeque<String> = self.interfaces_of_chain(class).into();
        while let Some(i) = queue.pop_front() {
            if !seen.insert(i.clone()) {
                continue;
            }
            if let Some(cn) = self.classes.get(&i) {
                if let Some(m) = cn.methods.iter().find(|m| m.name == name && m.desc == desc) {
                    return Some(m.id);
                }
                queue.extend(cn.interfaces.iter().cloned());
            }
        }
        None
    }

    fn interfaces_of_chain(&self, class: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut c = Some(class);
        while let Some(cn) = c.and_then(|n| self.classes.get(n)) {
            out.extend(cn.interfaces.iter().cloned());
            c = cn.super_name.as_deref();
        }
        out
    }

    /// Resolves a field reference (JVMS §5.4.3.2): the class, its
    /// superinterfaces, then its superclass, recursively.
    pub fn resolve_field(&self, class: &str, name: &str, desc: &str) -> Option<u32> {
        self.resolve_field_in(class, name, desc, 0)
    }

    fn resolve_field_in(&self, class: &str, name: &str, desc: &str, depth: u32) -> Option<u32> {
        if depth > 64 {
            return None;
        }
        let cn = self.classes.get(class)?;
        if let Some(f) = cn.fields.iter().find(|f| f.name == name && f.desc == desc) {
            return Some(f.id);
        }
        for i in &cn.interfaces {
            if let Some(f) = self.resolve_field_in(i, name, desc, depth + 1) {
                return Some(f);
            }
        }
        cn.super_name
            .as_deref()
            .and_then(|s| self.resolve_field_in(s, name, desc, depth + 1))
    }

    /// The virtual dispatch table of a class: for each instance method
    /// sub-signature visible on it, the method that runs. Concrete
    /// methods of the class and its superclasses come first; default
    /// methods of superinterfaces fill the rest. Private methods are not
    /// dispatched (calls to them are bound statically).
    pub fn dispatch_table(&mut self, class: &str) -> Arc<DispatchTable> {
        if let Some(t) = self.tables.get(class) {
            return t.clone();
        }
        // The superclass chain up to the first class whose table is known.
        let mut chain = vec![class.to_string()];
        let mut seen = FxHashSet::default();
        seen.insert(class.to_string());
        let mut base = Arc::new(DispatchTable::default());
        while let Some(last) = chain.last() {
            match self.classes.get(last).and_then(|c| c.super_name.clone()) {
                Some(s) => {
                    if let Some(t) = self.tables.get(&s) {
                        base = t.clone();
                        break;
                    }
                    if !seen.insert(s.clone()) {
                        break;
                    }
                    chain.push(s);
                }
                None => break,
            }
        }
        let mut table = (*base).clone();
        for name in chain.iter().rev() {
            if let Some(cn) = self.classes.get(name) {
                for m in &cn.methods {
                    if m.access & (access::STATIC | access::ABSTRACT | access::PRIVATE) == 0
                        && !m.name.starts_with('<')
                    {
                        table.insert(m.key, m.id);
                    }
                }
                for (key, id) in self.default_methods(&cn.interfaces) {
                    table.entry(key).or_insert(id);
                }
            }
            self.tables.insert(name.clone(), Arc::new(table.clone()));
        }
        self.tables.get(class).cloned().unwrap_or(base)
    }

    fn default_methods(&self, interfaces: &[String]) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        let mut seen = FxHashSet::default();
        let mut queue: std::collections::VecDeque<&str> =
            interfaces.iter().map(String::as_str).collect();
        while let Some(i) = queue.pop_front() {
            if !seen.insert(i) {
                continue;
            }
            if let Some(cn) = self.classes.get(i) {
                for m in &cn.methods {
                    if m.access & (access::STATIC | access::ABSTRACT | access::PRIVATE) == 0
                        && !m.name.starts_with('<')
                    {
                        out.push((m.key, m.id));
                    }
                }
                queue.extend(cn.interfaces.iter().map(String::as_str));
            }
        }
        out
    }

    /// All class names.
    pub fn names(&self) -> impl Iterator<Item = &String> {
        self.classes.keys()
    }
}

#[cfg(test)]
mod circularity_tests {
    use super::*;

    fn check(edges: &[(&'static str, &[&'static str])]) -> Vec<String> {
        let supers: FxHashMap<&str, Vec<&str>> =
            edges.iter().map(|(c, s)| (*c, s.to_vec())).collect();
        circular_classes(&supers)
            .into_iter()
            .map(|(c, _)| c)
            .collect()
    }

    #[test]
    fn cycles_and_what_extends_them_are_refused() {
        assert_eq!(check(&[("A", &["A"])]), ["A"]);
        assert_eq!(
            check(&[("A", &["B"]), ("B", &["A"]), ("C", &["B"]), ("D", &["E"])]),
            ["A", "B", "C"]
        );
        // Interfaces too, and a diamond is no cycle.
        assert_eq!(
            check(&[("I", &["J"]), ("J", &["K"]), ("K", &["I"])]),
            ["I", "J", "K"]
        );
        assert!(check(&[("A", &["B", "I"]), ("B", &["I"]), ("I", &[])]).is_empty());
        // A long chain (no recursion depth limit).
        let names: Vec<String> = (0..100_000).map(|k| format!("C{k}")).collect();
        let supers: FxHashMap<&str, Vec<&str>> = names
            .iter()
            .enumerate()
            .map(|(k, n)| {
                (
                    n.as_str(),
                    names.get(k + 1).map(String::as_str).into_iter().collect(),
                )
            })
            .collect();
        assert!(circular_classes(&supers).is_empty());
    }
}
