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
//! of the class path (`resourceNamed`) is a name too, and so is one that
//! completes a concatenation into a name (`completesType`,
//! `completesMethod`, `completesField`), with the concatenation
//! (`completedBy`), and so is the key of a properties file's value that names a class
//! (`resourceProperty`).
//!
//! A text that looks like a qualified class name (`com.apple.eawt.App`)
//! stays distinct even when no such class is on the class path, so that
//! a report can still say which missing class a site asks for.

use super::extract::{FactsBuilder, R};
use super::schema::RELATIONS;
use fxhash::FxHashSet;

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

/// The groups of heap objects that are one object: the string constants
/// that name no class, method, field or resource (and do not look like a
/// class name), merged into [`MERGED_STRINGS`], and the concatenations
/// whose known text fits no name (`partialType` and the like; see
/// [`super::partial_names`]), merged into [`MERGED_CONCATS`]. The merge
/// itself is [`super::heap_abstraction::merge_heaps`].
pub(super) fn unnamed_strings(b: &FactsBuilder) -> Vec<(Vec<u32>, String)> {
    let named = |b: &FactsBuilder, rels: &[R]| -> FxHashSet<u32> {
        let mut named = FxHashSet::default();
        for &r in rels {
            let arity = RELATIONS[r as usize].attrs.len();
            named.extend(b.rels[r as usize].chunks(arity).map(|t| t[0]));
        }
        named
    };
    let mut constants = named(
        b,
        &[
            R::StringType,
            R::StringMethod,
            R::StringField,
            R::ResourceNamed,
        ],
    );
    // The constants that complete a concatenation into a name (`"Upp"` in
    // `"r." + kind + "er"`; `"font-size"`, which xalan's setters spell
    // `setFontSize`). And the keys of properties files whose values name
    // classes.
    for r in [
        R::CompletesType,
        R::CompletesMethod,
        R::CompletesField,
        R::ResourceProperty,
    ] {
        constants.extend(b.rels[r as usize].chunks(3).map(|t| t[1]));
    }
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
            R::CompletedBy,
            R::PartialOverBudget,
        ],
    );
    let concats: Vec<u32> = (b.concat_heaps.iter())
        .copied()
        .filter(|h| !partial.contains(h))
        .collect();
    vec![
        (strings, MERGED_STRINGS.to_string()),
        (concats, MERGED_CONCATS.to_string()),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

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
