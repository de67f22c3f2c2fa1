//! Specification files: which classes, methods and fields a reflective
//! call site yields, supplied by the user (`--spec`; the `sound` variant
//! always reads one).
//!
//! Two formats are accepted, line by line (`#` starts a comment):
//!
//! - the paper's Fig. 3: `loadImpl() @ 43 InetAddress.java:1231 =>
//!   java.net.Inet4AddressImpl` — method name, bytecode index, and
//!   optionally source file and line; the target is a class;
//! - the TSV of `refract export targets`: `caller_class caller_method
//!   caller_desc bci line api target`, so that an exported list can be
//!   edited and fed back. The API label says what the target is:
//!   - a class at `Class.forName`, `ClassLoader.loadClass`,
//!     `MethodHandles.Lookup.findClass` and `Class.newInstance`, and at
//!     the array lookups (`Class.getMethods`, `Class.getDeclaredFields`,
//!     ...) the class whose members the array holds;
//!   - a method (`a.B.m(I)V`, or `a.B.m` for every method of that name)
//!     at `Method.invoke`, `Class.getMethod`, `Class.getDeclaredMethod`,
//!     and a constructor (`a.B.<init>(I)V`, `a.B.<init>`) at
//!     `Constructor.newInstance`, `Class.getConstructor` and
//!     `Class.getDeclaredConstructor`;
//!   - a field (`a.B.f`) at `Field.get`, `Field.set`, `Class.getField`
//!     and `Class.getDeclaredField`.
//!
//!   Lines of other APIs are accepted and ignored.
//!
//! A site that a line names takes its targets from the specification
//! alone: the rules of `casts` and `infer` infer nothing there
//! (`specifiedSite`, `queries/reflection.dl`).

use crate::classfile::descriptor::parse_method_signature;
use crate::facts::extract::FactsBuilder;
use crate::facts::hierarchy::ClassNode;
use std::collections::HashMap;
use std::path::Path;

/// One entry: which site (by its description) yields which class or
/// member.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecEntry {
    /// 1-based line in the file.
    pub line: usize,
    /// The site.
    pub site: SiteRef,
    /// What the site yields.
    pub target: SpecTarget,
    /// The API label of the line (`Method.invoke`), where it gives one;
    /// the site must call that API.
    pub api: Option<String>,
    /// The line as the user wrote it (without comment and blanks), for
    /// messages.
    pub text: String,
    /// From a trace of a run: a class or site the class path lacks (a
    /// JDK class under `--jdk none`, a class generated at run time) is
    /// passed over rather than refused.
    pub from_trace: bool,
}

/// What a specification line says a site yields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecTarget {
    /// A class, by binary name.
    Class(String),
    /// A method or constructor of a class: by name, and by descriptor
    /// where the line gives one.
    Method {
        /// The declaring class, by binary name.
        class: String,
        /// The name (`<init>` for a constructor).
        name: String,
        /// The JVM descriptor.
        desc: Option<String>,
    },
    /// A field of a class.
    Field {
        /// The declaring class, by binary name.
        class: String,
        /// The name.
        name: String,
    },
}

impl SpecTarget {
    /// The target of a line of API `api`, written as the export writes it;
    /// `None` for an API whose lines are ignored.
    fn of(api: &str, target: &str) -> Option<SpecTarget> {
        let member = |t: &str| {
            t.rsplit_once('.')
                .map(|(c, n)| (c.to_string(), n.to_string()))
        };
        match api {
            "Class.forName"
            | "ClassLoader.loadClass"
            | "MethodHandles.Lookup.findClass"
            | "Class.newInstance"
            | "Class.getMethods"
            | "Class.getDeclaredMethods"
            | "Class.getFields"
            | "Class.getDeclaredFields"
            | "Class.getConstructors"
            | "Class.getDeclaredConstructors" => Some(SpecTarget::Class(target.to_string())),
            "Method.invoke"
            | "Class.getMethod"
            | "Class.getDeclaredMethod"
            | "Constructor.newInstance"
            | "Class.getConstructor"
            | "Class.getDeclaredConstructor" => {
                let (head, desc) = match target.find('(') {
                    Some(k) => (&target[..k], Some(target[k..].to_string())),
                    None => (target, None),
                };
                let (class, name) = member(head)?;
                Some(SpecTarget::Method { class, name, desc })
            }
            "Field.get" | "Field.set" | "Class.getField" | "Class.getDeclaredField" => {
                let (class, name) = member(target)?;
                Some(SpecTarget::Field { class, name })
            }
            _ => None,
        }
    }

    /// What a specification line of API `api` names, spelled for a user
    /// to fill in (`refract report --unsound`); `None` for an API whose
    /// lines are ignored.
    pub fn blank(api: &str) -> Option<&'static str> {
        match SpecTarget::of(api, "a.B")? {
            SpecTarget::Class(_) => Some("<class>"),
            SpecTarget::Method { .. } => Some("<class>.<method>(<descriptor>)"),
            SpecTarget::Field { .. } => Some("<class>.<field>"),
        }
    }

    /// The class that declares the target (or is it).
    fn class(&self) -> &str {
        match self {
            SpecTarget::Class(c) => c,
            SpecTarget::Method { class, .. } | SpecTarget::Field { class, .. } => class,
        }
    }
}

/// A specification resolved against the class path: pairs of the `I`
/// domain and the `T`, `M` or `F` domain.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Resolved {
    /// The classes a class-by-name or `Class.newInstance` site yields
    /// (`specClass`).
    pub classes: Vec<(u32, u32)>,
    /// The methods and constructors a member site yields (`specMethod`).
    pub methods: Vec<(u32, u32)>,
    /// The fields a member site yields (`specField`).
    pub fields: Vec<(u32, u32)>,
}

/// How a specification names a call site.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SiteRef {
    /// Fig. 3: method name, bci, and optionally source file and line.
    Short {
        /// Method name.
        method: String,
        /// Bytecode index.
        bci: u32,
        /// Source file and line.
        file_line: Option<(String, u32)>,
    },
    /// A TamiFlex log's caller: class, method and source line, no bci.
    ByLine {
        /// Binary class name.
        class: String,
        /// Method name.
        method: String,
        /// Source line, if the log gives one.
        line: Option<u32>,
    },
    /// Export format: class, method, descriptor, bci.
    Full {
        /// Binary class name.
        class: String,
        /// Method name.
        method: String,
        /// JVM descriptor.
        desc: String,
        /// Bytecode index.
        bci: u32,
    },
}

/// Parses specification text; `name` labels errors. Besides the paper's
/// Fig. 3 lines and the export's TSV, a trace of a run is a
/// specification: reftrace's TSV (a header of other columns) and
/// TamiFlex's `refl.log`, as Doop's `--tamiflex` and Tai-e's
/// `reflection-log` read them. Their class-valued edges (`forName`,
/// `loadClass`, `newInstance`) become entries; a `forName` that threw
/// does not.
pub fn parse(text: &str, name: &str) -> Result<Vec<SpecEntry>, String> {
    let first = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .find(|l| !l.is_empty())
        .unwrap_or("");
    let is_export = first == super::export::HEADER;
    // A TamiFlex line has semicolons and no tab; the export's lines have
    // tabs, and semicolons in any descriptor with an object type.
    let is_trace = (first.starts_with("caller_class\t") && !is_export)
        || (first.contains(';') && !first.contains("=>") && !first.contains('\t'));
    if is_trace {
        return from_trace(text, name);
    }
    let mut out = Vec::new();
    for (k, raw) in text.lines().enumerate() {
        let line = k + 1;
        let l = raw.split('#').next().unwrap_or("").trim();
        if l.is_empty() || l.starts_with("caller_class\t") {
            continue;
        }
        let err = |what: &str| format!("{name}:{line}: {what}: {raw:?}");
        if let Some((site, class)) = l.split_once("=>") {
            let mut words = site.split_whitespace();
            let method = words.next().ok_or_else(|| err("missing method"))?;
            let method = method.strip_suffix("()").unwrap_or(method).to_string();
            if words.next() != Some("@") {
                return Err(err("expected `method() @ bci [File.java:line] => class`"));
            }
            let bci = words
                .next()
                .and_then(|b| b.parse().ok())
                .ok_or_else(|| err("bad bytecode index"))?;
            let file_line = match words.next() {
                Some(fl) => {
                    let (f, l) = fl
                        .rsplit_once(':')
                        .ok_or_else(|| err("expected File.java:line"))?;
                    Some((
                        f.to_string(),
                        l.parse().map_err(|_| err("bad line number"))?,
                    ))
                }
                None => None,
            };
            out.push(SpecEntry {
                line,
                site: SiteRef::Short {
                    method,
                    bci,
                    file_line,
                },
                target: SpecTarget::Class(class.trim().to_string()),
                api: None,
                text: l.to_string(),
                from_trace: false,
            });
            continue;
        }
        let cols: Vec<&str> = l.split('\t').collect();
        if cols.len() != 7 {
            return Err(err("expected `site => class` or 7 tab-separated columns"));
        }
        let bci = cols[3].parse().map_err(|_| err("bad bytecode index"))?;
        let Some(target) = SpecTarget::of(cols[5], cols[6]) else {
            continue;
        };
        out.push(SpecEntry {
            line,
            site: SiteRef::Full {
                class: cols[0].to_string(),
                method: cols[1].to_string(),
                desc: cols[2].to_string(),
                bci,
            },
            target,
            api: Some(cols[5].to_string()),
            text: l.replace('\t', " "),
            from_trace: false,
        });
    }
    Ok(out)
}

/// The edges of a trace as specification entries: those whose target is
/// a class, a method or a field, as in the export ([`SpecTarget::of`]).
fn from_trace(text: &str, name: &str) -> Result<Vec<SpecEntry>, String> {
    use super::trace::{parse as parse_trace, Caller};
    let edges = parse_trace(text, Path::new(name)).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for e in edges {
        let Some(target) = SpecTarget::of(&e.api, &e.target).filter(|_| !e.failed) else {
            continue;
        };
        let site = match &e.caller {
            Caller::Exact {
                class,
                method,
                desc,
                bci,
            } => SiteRef::Full {
                class: class.clone(),
                method: method.clone(),
                desc: desc.clone(),
                bci: *bci as u32,
            },
            Caller::ByLine {
                class,
                method,
                line,
            } => SiteRef::ByLine {
                class: class.clone(),
                method: method.clone(),
                line: line.map(|l| l as u32),
            },
        };
        out.push(SpecEntry {
            line: e.line,
            text: format!("{} {} {}", e.caller, e.api, e.target),
            site,
            target,
            api: Some(e.api),
            from_trace: true,
        });
    }
    Ok(out)
}

/// The members that `declared` finds in `node`, or else in the nearest
/// supertype that declares any: a line may name a member by a subclass,
/// as `Class.getField` and `getMethod` find it and as `refract export
/// targets` prints a lookup's result (`ColorEditor.ABORT` for
/// `ImageObserver.ABORT`). The supertypes are searched breadth first,
/// each class's superclass before its interfaces.
fn inherited(
    b: &FactsBuilder,
    node: &ClassNode,
    declared: impl Fn(&ClassNode) -> Vec<u32>,
) -> Vec<u32> {
    let mut queue = std::collections::VecDeque::from([node]);
    let mut seen = std::collections::HashSet::from([node.name.as_str()]);
    while let Some(n) = queue.pop_front() {
        let ids = declared(n);
        if !ids.is_empty() {
            return ids;
        }
        for s in n.super_name.iter().chain(&n.interfaces) {
            if let Some(next) = b.hierarchy.get(s) {
                if seen.insert(next.name.as_str()) {
                    queue.push_back(next);
                }
            }
        }
    }
    Vec::new()
}

/// Reads a specification file and resolves it against the class path.
/// Unknown sites, classes and members are errors (except in a trace of a
/// run, which may name what the class path lacks).
pub fn resolve_file(path: &Path, b: &FactsBuilder) -> Result<Resolved, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let entries = parse(&text, &path.display().to_string())?;
    // The call sites by method name and bytecode index, which both formats
    // give: each entry then checks a handful of candidates rather than
    // every site of the program (millions with the JDK).
    let mut names: HashMap<u32, Option<String>> = HashMap::new();
    let mut sites: HashMap<(String, u32), Vec<u32>> = HashMap::new();
    for i in 0..b.site_count() as u32 {
        let (m, bci, _) = b.site_info(i);
        let name = names.entry(m).or_insert_with(|| {
            parse_method_signature(b.methods.name(m)).map(|s| s.name.to_string())
        });
        if let Some(name) = name {
            sites.entry((name.clone(), bci)).or_default().push(i);
        }
    }
    // TamiFlex callers have no bytecode index: their sites by method name.
    let mut by_name: HashMap<String, Vec<u32>> = HashMap::new();
    if entries
        .iter()
        .any(|e| matches!(e.site, SiteRef::ByLine { .. }))
    {
        for ((n, _), is) in &sites {
            by_name.entry(n.clone()).or_default().extend(is);
        }
    }
    let mut out = Resolved::default();
    for e in entries {
        let fail = |what: String| format!("{}:{}: {what}", path.display(), e.line);
        let class = e.target.class();
        let Some(node) = b.hierarchy.get(class) else {
            if e.from_trace {
                continue;
            }
            return Err(fail(format!("class {class} is not on the class path")));
        };
        // What the line names: a type, or the members that fit it.
        let (rows, ids): (&mut Vec<(u32, u32)>, Vec<u32>) = match &e.target {
            SpecTarget::Class(c) => match b.types.get(c) {
                Some(t) => (&mut out.classes, vec![t]),
                None if e.from_trace => continue,
                None => return Err(fail(format!("class {c} is not on the class path"))),
            },
            SpecTarget::Method { name, desc, .. } => {
                let declared = |n: &ClassNode| -> Vec<u32> {
                    (n.methods.iter())
                        .filter(|m| m.name == *name && desc.as_ref().is_none_or(|d| *d == m.desc))
                        .map(|m| m.id)
                        .collect()
                };
                // Constructors are not inherited.
                let ids = if name == "<init>" {
                    declared(node)
                } else {
                    inherited(b, node, declared)
                };
                (&mut out.methods, ids)
            }
            SpecTarget::Field { name, .. } => {
                let declared = |n: &ClassNode| -> Vec<u32> {
                    (n.fields.iter())
                        .filter(|f| f.name == *name)
                        .map(|f| f.id)
                        .collect()
                };
                (&mut out.fields, inherited(b, node, declared))
            }
        };
        if ids.is_empty() {
            if e.from_trace {
                continue;
            }
            return Err(fail(format!(
                "class {class} declares no member `{}`",
                e.text_target()
            )));
        }
        let candidates: &[u32] = match &e.site {
            SiteRef::Short { method, bci, .. } | SiteRef::Full { method, bci, .. } => sites
                .get(&(method.clone(), *bci))
                .map_or(&[][..], Vec::as_slice),
            SiteRef::ByLine { method, .. } => by_name.get(method).map_or(&[][..], Vec::as_slice),
        };
        let mut found = false;
        for &i in candidates {
            let api_fits = e.api.as_ref().is_none_or(|api| {
                let called = b.methods.name(b.site_target(i));
                crate::facts::reflection_api::label_of(called) == Some(api.as_str())
            });
            if api_fits && site_matches(b, i, &e.site) {
                rows.extend(ids.iter().map(|&x| (i, x)));
                found = true;
            }
        }
        if !found && !e.from_trace {
            return Err(fail(format!(
                "no call site of the class path matches `{}`",
                e.text
            )));
        }
    }
    for rows in [&mut out.classes, &mut out.methods, &mut out.fields] {
        rows.sort_unstable();
        rows.dedup();
    }
    Ok(out)
}

impl SpecEntry {
    /// The member the line names, as written.
    fn text_target(&self) -> String {
        match &self.target {
            SpecTarget::Class(c) => c.clone(),
            SpecTarget::Method { name, desc, .. } => {
                format!("{name}{}", desc.as_deref().unwrap_or(""))
            }
            SpecTarget::Field { name, .. } => name.clone(),
        }
    }
}

fn site_matches(b: &FactsBuilder, i: u32, site: &SiteRef) -> bool {
    let (m, bci, line) = b.site_info(i);
    let Some(sig) = parse_method_signature(b.methods.name(m)) else {
        return false;
    };
    match site {
        SiteRef::Short {
            method,
            bci: want,
            file_line,
        } => {
            *want == bci
                && sig.name == *method
                && file_line.as_ref().is_none_or(|(f, l)| {
                    *l == line
                        && b.types
                            .get(&sig.class)
                            .and_then(|t| b.source_files.get(&t))
                            .is_some_and(|sf| sf == f)
                })
        }
        SiteRef::ByLine {
            class,
            method,
            line: want,
        } => sig.class == *class && sig.name == *method && want.is_none_or(|l| l == line),
        SiteRef::Full {
            class,
            method,
            desc,
            bci: want,
        } => {
            *want == bci && sig.class == *class && sig.name == *method && sig.descriptor() == *desc
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_both_formats() {
        let text = "# spec\nloadImpl() @ 43 InetAddress.java:1231 => java.net.Inet4AddressImpl\n\
                    Main\tmain\t([Ljava/lang/String;)V\t4\t4\tClass.forName\ta.B\n\
                    Main\tmain\t([Ljava/lang/String;)V\t9\t5\tMethod.invoke\ta.B.m()V\n";
        let e = parse(text, "s").unwrap();
        assert_eq!(e.len(), 3);
        assert_eq!(
            e[0].site,
            SiteRef::Short {
                method: "loadImpl".into(),
                bci: 43,
                file_line: Some(("InetAddress.java".into(), 1231))
            }
        );
        assert_eq!(e[1].target, SpecTarget::Class("a.B".into()));
        assert_eq!(
            e[2].target,
            SpecTarget::Method {
                class: "a.B".into(),
                name: "m".into(),
                desc: Some("()V".into())
            }
        );
        assert_eq!(
            parse("x @ y => z", "s").unwrap_err(),
            "s:1: bad bytecode index: \"x @ y => z\""
        );
    }

    /// A file of export lines alone, without the header, is not taken
    /// for a TamiFlex log because its descriptors have semicolons.
    #[test]
    fn export_lines_without_a_header_are_not_a_tamiflex_log() {
        let text = "Main\tmain\t([Ljava/lang/String;)V\t4\t4\tClass.forName\ta.B\n";
        let e = parse(text, "s").unwrap();
        assert_eq!(e.len(), 1);
        assert_eq!(
            e[0].site,
            SiteRef::Full {
                class: "Main".into(),
                method: "main".into(),
                desc: "([Ljava/lang/String;)V".into(),
                bci: 4
            }
        );
        assert_eq!(e[0].target, SpecTarget::Class("a.B".into()));
    }
}
