//! String constants that name nothing are one object.
//!
//! Every distinct string constant starts as a heap object of its own, so
//! that reflection sees which text reaches `Class.forName`. Only texts
//! that name a class, method or field can resolve a reflective call, and
//! for the rest the analysis only needs to know that *a* constant string
//! got there (which makes a site partially resolved, exactly as before).
//! Strings flow everywhere (messages, keys, formats): kept apart, they
//! were a third of the points-to tuples of a whole-JDK analysis. So, as
//! Doop does by default ("reflection-only string constants"), the
//! constants that name nothing become one object, `<string constant>`.
//!
//! Likewise the concatenations whose known prefix and suffix fit no name
//! become one object, `<computed string>`. A string that names a resource
//! of the class path (`resourceNamed`) is a name too.
//!
//! A text that looks like a qualified class name (`com.apple.eawt.App`)
//! stays distinct even when no such class is on the class path, so that
//! a report can still say which missing class a site asks for.

use super::extract::{FactsBuilder, R};
use super::schema::RELATIONS;
use fxhash::FxHashSet;

/// The widest input relation (checked by a test).
const MAX_ARITY: usize = 8;

/// The name of the merged object.
pub const MERGED_STRINGS: &str = "<string constant>";

/// The name of the merged concatenation: a string built at run time whose
/// known text names nothing.
pub const MERGED_CONCATS: &str = "<computed string>";

/// Whether `text` has the form of a qualified binary class name, or of
/// an array class name (`[Ljava.lang.String;`).
pub fn looks_like_class_name(text: &str) -> bool {
    let name = text.trim_start_matches('[');
    let name = name
        .strip_prefix('L')
        .and_then(|n| n.strip_suffix(';'))
        .filter(|_| name.len() < text.len())
        .unwrap_or(name);
    name.contains('.') && name.split('.').all(is_identifier)
}

/// Whether `part` has the form of a Java identifier (letters, digits,
/// `_` and `$`, not starting with a digit).
pub fn is_identifier(part: &str) -> bool {
    let mut chars = part.chars();
    chars
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

/// Merges the string constants that name no class, method, field or
/// resource (and do not look like a class name) into one heap object, and the
/// concatenations whose known text fits no name (`partialType` and the
/// like; see [`super::partial_names`]) into another, renumbering the heap
/// domain densely in every relation.
pub fn merge_unnamed_strings(b: &mut FactsBuilder) {
    let named = |b: &FactsBuilder, rels: &[R]| -> FxHashSet<u32> {
        let mut named = FxHashSet::default();
        for &r in rels {
            let arity = RELATIONS[r as usize].attrs.len();
            named.extend(b.rels[r as usize].chunks(arity).map(|t| t[0]));
        }
        named
    };
    let constants = named(
        b,
        &[
            R::StringType,
            R::StringMethod,
            R::StringField,
            R::ResourceNamed,
        ],
    );
    let strings: Vec<u32> = b
        .string_heaps
        .iter()
        .filter(|&(text, h)| !constants.contains(h) && !looks_like_class_name(text))
        .map(|(_, &h)| h)
        .collect();
    let partial = named(
        b,
        &[
            R::PartialType,
            R::PartialMethod,
            R::PartialField,
            R::ResourceNamed,
        ],
    );
    let concats: Vec<u32> = (b.concat_heaps.iter())
        .copied()
        .filter(|h| !partial.contains(h))
        .collect();
    merge_heaps(
        b,
        vec![(strings, MERGED_STRINGS), (concats, MERGED_CONCATS)],
    );
}

/// Merges each group of heap objects into its first (lowest) object,
/// renamed as given, and renumbers the heap domain densely in every
/// relation.
fn merge_heaps(b: &mut FactsBuilder, groups: Vec<(Vec<u32>, &str)>) {
    let mut is_merged = vec![false; b.heaps.len()];
    let mut is_representative = vec![false; b.heaps.len()];
    let mut representatives = Vec::new();
    for (mut group, name) in groups {
        if group.len() < 2 {
            continue;
        }
        group.sort_unstable();
        is_representative[group[0] as usize] = true;
        for &h in &group[1..] {
            is_merged[h as usize] = true;
        }
        representatives.push((group, name));
    }
    if representatives.is_empty() {
        return;
    }
    let mut new_id = vec![0u32; b.heaps.len()];
    let mut next = 0u32;
    for (h, id) in new_id.iter_mut().enumerate() {
        if !is_merged[h] {
            *id = next;
            next += 1;
        }
    }
    for (group, _) in &representatives {
        let merged_id = new_id[group[0] as usize];
        for &h in &group[1..] {
            new_id[h as usize] = merged_id;
        }
    }
    let heaps = std::mem::take(&mut b.heaps);
    b.heaps = heaps
        .into_iter()
        .enumerate()
        .filter(|&(h, _)| !is_merged[h])
        .map(|(_, name)| name)
        .collect();
    for (group, name) in &representatives {
        b.heaps[new_id[group[0] as usize] as usize] = name.to_string();
    }
    let exceptions = b.exception_heaps.values_mut().flatten();
    for h in (b
        .string_heaps
        .values_mut()
        .chain(b.class_heaps.values_mut()))
    .chain(exceptions)
    .chain(b.concat_heaps.iter_mut())
    .chain(b.bundle_files.iter_mut().map(|(_, _, h)| h))
    {
        *h = new_id[*h as usize];
    }
    for (schema, tuples) in RELATIONS.iter().zip(b.rels.iter_mut()) {
        let heap_columns: Vec<usize> = (schema.attrs.iter().enumerate())
            .filter(|(_, (_, d))| *d == "H")
            .map(|(k, _)| k)
            .collect();
        if heap_columns.is_empty() {
            continue;
        }
        let arity = schema.attrs.len();
        let mut seen: FxHashSet<[u32; MAX_ARITY]> = FxHashSet::default();
        let mut kept = Vec::with_capacity(tuples.len());
        for t in tuples.chunks(arity) {
            let mut buf = [0u32; MAX_ARITY];
            buf[..arity].copy_from_slice(t);
            let mut touched = false;
            for &k in &heap_columns {
                let h = buf[k] as usize;
                touched |= is_merged[h] || is_representative[h];
                buf[k] = new_id[h];
            }
            // Only tuples of the merged objects can repeat.
            if !touched || seen.insert(buf) {
                kept.extend_from_slice(&buf[..arity]);
            }
        }
        *tuples = kept;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_relation_fits_the_tuple_buffer() {
        assert!(RELATIONS.iter().all(|r| r.attrs.len() <= MAX_ARITY));
    }

    #[test]
    fn class_like_names() {
        for yes in [
            "a.B",
            "java.lang.String",
            "a.B$C",
            "[Ljava.lang.String;",
            "x.y_1",
        ] {
            assert!(looks_like_class_name(yes), "{yes}");
        }
        for no in [
            "",
            "B",
            "hello world",
            "a..B",
            ".a",
            "a.",
            "1a.b",
            "%s.%s",
            "[I",
            "a.b c",
        ] {
            assert!(!looks_like_class_name(no), "{no}");
        }
    }
}
