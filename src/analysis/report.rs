//! `refract report`: the paper's Fig. 6 (resolution of reflective call
//! sites) and Fig. 9 (call graph size) for one run.

use super::results::{method_text, Resolution, Results};
use crate::database::Database;
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
            "MethodHandles.Lookup.findClass",
        ],
    ),
    (
        "MethodHandle.invoke*",
        &["MethodHandle.invoke", "MethodHandle.invokeExact"],
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
    out
}

/// The imprecisely resolved sites, as SOLAR reports them: every site with
/// more than `limit` targets, most targets first, as `targets api
/// caller_class.method(desc) @ bci (line)`. A site whose metaobjects come
/// from a pool (a `Method` taken from `getMethods()` of the class of any
/// object, say) resolves to every member its lookup allows; these are the
/// sites where a specification, or a change to the program, pays most.
pub fn render_imprecise(db: &Database, r: &Results, limit: usize) -> String {
    // By number of targets (most first), then caller and bytecode index.
    let mut sites: Vec<(std::cmp::Reverse<usize>, String, u64, String)> = r
        .sites
        .iter()
        .filter(|s| s.targets.len() > limit)
        .map(|s| {
            let at = method_text(db.name("M", s.caller));
            let line = format!("{:<24} {at} @ {} (line {})", s.api, s.bci, s.line);
            (std::cmp::Reverse(s.targets.len()), at, s.bci, line)
        })
        .collect();
    sites.sort();
    let mut out = String::new();
    let _ = writeln!(out);
    let _ = writeln!(out, "imprecise sites (targets > {limit}): {}", sites.len());
    for (std::cmp::Reverse(n), _, _, line) in sites {
        let _ = writeln!(out, "{n:>8} {line}");
    }
    out
}

/// `n` with the noun that agrees with it: `1 class`, `2 classes`.
pub fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
