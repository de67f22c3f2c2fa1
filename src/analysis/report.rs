//! `refract report`: the paper's Fig. 6 (resolution of reflective call
//! sites) and Fig. 9 (call graph size) for one run.

use super::export::tsv_line;
use super::results::{method_text, Resolution, Results, Site};
use crate::classfile::descriptor::parse_method_signature;
use crate::database::{Database, DatabaseError};
use crate::facts::partial_names::{CLASS_BUDGET, MEMBER_BUDGET};
use crate::facts::reflection_api as api;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// The rows of the resolution table, in order: a label and the APIs it
/// counts.
const ROWS: &[(&str, &[&str])] = &[
    ("Class.forName", &["Class.forName"]),
    ("ClassLoader.loadClass", &["ClassLoader.loadClass"]),
    ("Class.newInstance", &["Class.newInstance"]),
    ("Constructor.newInstance", &["Constructor.newInstance"]),
    ("Method.invoke", &["Method.invoke"]),
    ("Field.get/set", &["Field.get", "Field.set"]),
    (
        "Class.get*Method",
        &["Class.getMethod", "Class.getDeclaredMethod"],
    ),
    (
        "Class.get*Field",
        &["Class.getField", "Class.getDeclaredField"],
    ),
    (
        "Class.get*Constructor",
        &["Class.getConstructor", "Class.getDeclaredConstructor"],
    ),
    (
        "Class.get*s (arrays)",
        &[
            "Class.getMethods",
            "Class.getDeclaredMethods",
            "Class.getFields",
            "Class.getDeclaredFields",
            "Class.getConstructors",
            "Class.getDeclaredConstructors",
        ],
    ),
    ("Array.newInstance", &["Array.newInstance"]),
    ("Proxy.newProxyInstance", &["Proxy.newProxyInstance"]),
    (
        "Lookup.find*/unreflect*",
        &[
            "MethodHandles.Lookup.findVirtual",
            "MethodHandles.Lookup.findStatic",
            "MethodHandles.Lookup.findSpecial",
            "MethodHandles.Lookup.findConstructor",
            "MethodHandles.Lookup.unreflect",
            "MethodHandles.Lookup.unreflectSpecial",
            "MethodHandles.Lookup.unreflectConstructor",
            "MethodHandles.Lookup.findGetter",
            "MethodHandles.Lookup.findSetter",
            "MethodHandles.Lookup.findStaticGetter",
            "MethodHandles.Lookup.findStaticSetter",
            "MethodHandles.Lookup.unreflectGetter",
            "MethodHandles.Lookup.unreflectSetter",
            "MethodHandles.Lookup.findClass",
        ],
    ),
    (
        "MethodHandle.invoke*",
        &[
            "MethodHandle.invoke",
            "MethodHandle.invokeExact",
            "MethodHandle.invokeWithArguments",
        ],
    ),
];

/// Counts of sites: (total, fully, partially, unresolved).
pub fn counts(r: &Results, apis: &[&str]) -> (usize, usize, usize, usize) {
    let mut c = (0, 0, 0, 0);
    for s in r.sites.iter().filter(|s| apis.contains(&s.api)) {
        c.0 += 1;
        match s.resolution {
            Resolution::Full => c.1 += 1,
            Resolution::Partial => c.2 += 1,
            Resolution::Unresolved => c.3 += 1,
        }
    }
    c
}

/// The report text.
pub fn render(r: &Results) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "reflection variant: {}", r.variant);
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "{:<24} {:>6} {:>6} {:>6} {:>6}",
        "reflective sites", "total", "full", "partial", "unres."
    );
    for (label, apis) in ROWS {
        let (t, f, p, u) = counts(r, apis);
        let _ = writeln!(out, "{label:<24} {t:>6} {f:>6} {p:>6} {u:>6}");
    }
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "call graph: {}, {}",
        counted(r.classes, "class", "classes"),
        counted(r.methods, "method", "methods")
    );
    let points: std::collections::BTreeSet<u64> = r.spec_points.iter().map(|p| p.0).collect();
    let _ = writeln!(out, "specification points: {}", points.len());
    if let Some(n) = r.spec_only {
        let _ = writeln!(
            out,
            "resolved by the specification alone: {n} forName site{} (no string naming a class reaches {})",
            if n == 1 { "" } else { "s" },
            if n == 1 { "it" } else { "them" }
        );
    }
    if let Some(c) = &r.completion {
        let _ = writeln!(
            out,
            "completed under --assume {}: {} at {}, {} at {}, {} at {}",
            c.level,
            counted(c.classes.1, "class", "classes"),
            counted(c.classes.0, "class-name site", "class-name sites"),
            counted(c.methods.1, "method", "methods"),
            counted(c.methods.0, "member site", "member sites"),
            counted(c.fields.1, "field", "fields"),
            counted(c.fields.0, "member site", "member sites"),
        );
    }
    out
}

/// The imprecisely resolved sites, as SOLAR reports them: every site with
/// more than `limit` targets, most targets first, as `targets api
/// caller_class.method(desc) @ bci (line)`. A site whose metaobjects come
/// from a pool (a `Method` taken from `getMethods()` of the class of any
/// object, say) resolves to every member its lookup allows; these are the
/// sites where a specification, or a change to the program, pays most.
/// Each site is followed by the specification line to fill in (`spec:`,
/// as `--unsound` gives it): at a site the specification names, `casts`
/// and `infer` infer nothing (the constants that reach it still count).
pub fn render_imprecise(db: &Database, r: &Results, limit: usize) -> String {
    // By number of targets (most first), then caller and bytecode index;
    // each entry is the site's line and its specification line.
    let mut sites: Vec<(std::cmp::Reverse<usize>, String, u64, String)> = r
        .sites
        .iter()
        .filter(|s| s.targets.len() > limit)
        .map(|s| {
            let n = s.targets.len();
            let caller = db.name("M", s.caller);
            let at = method_text(caller.clone());
            let mut text = format!("{n:>8} {:<24} {at} @ {} (line {})\n", s.api, s.bci, s.line);
            if let Some(spec) = spec_blank(&caller, s) {
                let _ = writeln!(text, "           spec: {spec}");
            }
            (std::cmp::Reverse(n), at, s.bci, text)
        })
        .collect();
    sites.sort();
    let mut out = String::new();
    let _ = writeln!(out);
    let _ = writeln!(out, "imprecise sites (targets > {limit}): {}", sites.len());
    for (_, _, _, text) in sites {
        out.push_str(&text);
    }
    out
}

/// The specification line that names site `s` of method `caller`, with
/// its target left blank (`<class>`, `<class>.<field>`), where the
/// specification takes lines of the site's API.
fn spec_blank(caller: &str, s: &Site) -> Option<String> {
    let blank = super::spec::SpecTarget::blank(s.api)?;
    let sig = parse_method_signature(caller)?;
    Some(tsv_line(
        &sig.class,
        &sig.name,
        &sig.descriptor(),
        s.bci,
        s.line,
        s.api,
        blank,
    ))
}

/// `n` with the noun that agrees with it: `1 class`, `2 classes`.
pub fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Why a site is unsound, as the report words it.
fn unsound_reason(r: &Results, s: &Site, sources: &BTreeMap<u64, String>) -> String {
    let by_name = api::is_class_by_name_label(s.api);
    let mut from: Vec<&str> = r
        .spec_points
        .iter()
        .filter(|p| p.1 == s.invoke)
        .filter_map(|p| sources.get(&p.0).map(String::as_str))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let partly = if s.resolution == Resolution::Partial {
        "partly resolved; "
    } else {
        ""
    };
    if r.command_line.contains(&s.invoke) {
        from.insert(0, "the command line (main's arguments)");
    }
    let from = (!from.is_empty()).then(|| format!("the name comes from {}", from.join(", ")));
    if r.over_budget.contains(&s.invoke) {
        let budget = format!(
            "the known text of a concatenation that reaches the name fits more names than the budget allows ({CLASS_BUDGET} classes, {MEMBER_BUDGET} methods or fields), and names none of them"
        );
        return match from {
            Some(from) => format!("{partly}{budget}; {from}"),
            None => format!("{partly}{budget}"),
        };
    }
    if let Some(from) = from {
        return format!("{partly}{from}");
    }
    if r.probed_out.contains(&s.invoke) {
        return format!(
            "{partly}a metaobject reaches it whose member's name and signature nothing tells; --probe leaves it unresolved"
        );
    }
    match (by_name, s.resolution) {
        (true, Resolution::Unresolved) => "no string that names a class reaches the name".into(),
        (true, _) => format!("{partly}a name that names no class reaches it"),
        (false, Resolution::Unresolved) => "no resolved metaobject reaches it".into(),
        (false, _) => format!("{partly}an unknown metaobject reaches it"),
    }
}

/// The unsound sites, as SOLAR and Tai-e report them: every reachable
/// reflective site that is unresolved or only partly resolved, with the
/// reason, and every call that defines a class from bytes in the
/// application. For each site whose API a specification can resolve
/// (the class-by-name calls, `Class.newInstance`, and the lookups and
/// uses of single members: see [`super::spec`]), the line of a
/// specification file (`refract analyze --spec`, the TSV of `refract
/// export targets`) that resolves it, its target left blank for the user
/// to fill in (`<class>`, `<class>.<method>(<descriptor>)`,
/// `<class>.<field>`). Application sites come first; the JDK's follow.
pub fn render_unsound(db: &mut Database, r: &Results) -> Result<String, DatabaseError> {
    let application: BTreeSet<u64> = db
        .tuples_if_present("applicationMethod")?
        .into_iter()
        .map(|t| t[0])
        .collect();
    // Each specification point's source call, as `Class.method(desc) at
    // caller @ bci (line l)`.
    let source_sites: BTreeSet<u64> = r.spec_points.iter().map(|p| p.0).collect();
    let called: BTreeMap<u64, u64> = db
        .tuples_with("Iref", 0, &source_sites)?
        .into_iter()
        .map(|t| (t[0], t[1]))
        .collect();
    let sources: BTreeMap<u64, String> = db
        .tuples_with("Iloc", 0, &source_sites)?
        .into_iter()
        .filter_map(|t| {
            let callee = method_text(db.name("M", *called.get(&t[0])?));
            let caller = method_text(db.name("M", t[1]));
            Some((
                t[0],
                format!("{callee} at {caller} @ {} (line {})", t[2], t[3]),
            ))
        })
        .collect();

    let unsound: Vec<&Site> = r
        .sites
        .iter()
        .filter(|s| s.resolution != Resolution::Full)
        .collect();
    let defined: Vec<&Site> = r
        .definitions
        .iter()
        .filter(|s| application.contains(&s.caller))
        .collect();
    // The API column is as wide as its longest label.
    let width = unsound
        .iter()
        .chain(&defined)
        .map(|s| s.api.len())
        .max()
        .unwrap_or(0);
    // (JDK?, caller text, bci, entry lines)
    let mut entries: Vec<(bool, String, u64, Vec<String>)> = Vec::new();
    for s in unsound {
        let caller = db.name("M", s.caller);
        let at = method_text(caller.clone());
        let mut lines = vec![format!(
            "{:<width$} {at} @ {} (line {}): {}",
            s.api,
            s.bci,
            s.line,
            unsound_reason(r, s, &sources)
        )];
        if let Some(spec) = spec_blank(&caller, s) {
            lines.push(format!("  spec: {spec}"));
        }
        entries.push((!application.contains(&s.caller), at, s.bci, lines));
    }
    for s in defined {
        let at = method_text(db.name("M", s.caller));
        let line = format!(
            "{:<width$} {at} @ {} (line {}): the class is made at run time from bytes; no specification resolves it",
            s.api, s.bci, s.line
        );
        entries.push((false, at, s.bci, vec![line]));
    }
    entries.sort();
    let mut out = String::new();
    let _ = writeln!(out);
    let _ = writeln!(out, "unsound sites: {}", entries.len());
    let mut heading = None;
    for (jdk, _, _, lines) in entries {
        if heading != Some(jdk) {
            let _ = writeln!(
                out,
                "{}:",
                if jdk {
                    "in the JDK"
                } else {
                    "in the application"
                }
            );
            heading = Some(jdk);
        }
        for l in lines {
            let _ = writeln!(out, "  {l}");
        }
    }
    Ok(out)
}
