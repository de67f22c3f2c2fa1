//! The names a computed string may be: Doop's substring analysis (seed
//! 001, section 3.2), matched against the class path.
//!
//! A concatenation whose text starts or ends with constant text
//! (`"org.apache.fop.render." + kind + "Renderer"`, `"set" + property`)
//! may name any class, method or field whose name starts and ends so. The
//! front end knows the concatenations' constant text
//! ([`crate::ir::string_builders::concat_affixes`]) and the class path's
//! names, so it lists the fits here, as it lists the names a constant
//! string is (`stringType`); the analysis decides which of them a
//! reflective call uses (`queries/reflection-infer.dl`).
//!
//! As in Doop, a name fits among the application's classes and members
//! first, and among the library's only when nothing of the application
//! fits: `"set" + attribute` fits 1,082 methods of xalan, and about
//! 11,500 of JDK 17, past the budget below. A
//! prefix or suffix that fits too many names says little about the name:
//! past [`CLASS_BUDGET`] classes or [`MEMBER_BUDGET`] members, the
//! concatenation fits none (`partialOverBudget`: `refract report` says so
//! at the sites it reaches), and the count is in the summary
//! (`partial_over_budget`).
//!
//! The same indexes list the members that pass each test of names
//! ([`crate::ir::member_tests`]: `filterMethod`, `filterField`), of the
//! application and the library alike and without a budget: a filter only
//! narrows what a placeholder already stands for.

use super::extract::{FactsBuilder, R};
use crate::ir::member_tests::{NameMatch, Passes};
use crate::ir::string_builders::{fold_letters, Affixes, Completion};
use fxhash::{FxHashMap, FxHashSet};

/// The most classes one concatenation may name.
pub const CLASS_BUDGET: usize = 200;

/// The most methods, or fields, one concatenation may name.
pub const MEMBER_BUDGET: usize = 5_000;

/// Names, sorted forwards and backwards, for prefix and suffix ranges.
struct NameIndex<T> {
    /// `(name, item)`, by name.
    forward: Vec<(String, T)>,
    /// `(reversed name, index into forward)`, by reversed name.
    backward: Vec<(String, usize)>,
}

impl<T> NameIndex<T> {
    fn new(mut items: Vec<(String, T)>) -> Self {
        items.sort_by(|a, b| a.0.cmp(&b.0));
        let mut backward: Vec<(String, usize)> = (items.iter().enumerate())
            .map(|(k, (n, _))| (n.chars().rev().collect(), k))
            .collect();
        backward.sort_unstable();
        NameIndex {
            forward: items,
            backward,
        }
    }

    /// The items whose names fit (see [`Self::fits_named`]).
    fn fits(&self, a: &Affixes) -> Vec<&T> {
        self.fits_named(a).into_iter().map(|(_, t)| t).collect()
    }

    /// The items whose names fit, with their names: equal to the text of
    /// an exact concatenation, else starting with its prefix and ending
    /// with its suffix, with room for the unknown part between them.
    fn fits_named(&self, a: &Affixes) -> Vec<(&str, &T)> {
        let fits = |name: &str| a.fits(&a.prefix, name);
        if a.exact || !a.prefix.is_empty() {
            self.forward[starting(&self.forward, &a.prefix)]
                .iter()
                .filter(|(n, _)| fits(n))
                .map(|(n, t)| (n.as_str(), t))
                .collect()
        } else {
            let reversed: String = a.suffix.chars().rev().collect();
            let mut out: Vec<usize> = self.backward[starting(&self.backward, &reversed)]
                .iter()
                .map(|(_, k)| *k)
                .collect();
            out.sort_unstable();
            out.into_iter()
                .filter(|&k| fits(&self.forward[k].0))
                .map(|k| (self.forward[k].0.as_str(), &self.forward[k].1))
                .collect()
        }
    }
}

/// The positions of the names that start with `start` in a list sorted
/// by name.
fn starting<X>(sorted: &[(String, X)], start: &str) -> std::ops::Range<usize> {
    let lo = sorted.partition_point(|(n, _)| n.as_str() < start);
    let hi = lo + sorted[lo..].partition_point(|(n, _)| n.starts_with(start));
    lo..hi
}

/// Whether `text` can be part of a binary class name.
fn class_fragment(text: &str) -> bool {
    text.chars()
        .all(|c| c.is_alphanumeric() || matches!(c, '_' | '$' | '.'))
}

/// Whether a concatenation's known text is only the package its name
/// starts with (`"java.net." + impl`): it fits every class of the package
/// alike, whichever the unknown part names.
fn package_only(a: &Affixes) -> bool {
    !a.exact && a.suffix.is_empty() && a.prefix.ends_with('.')
}

/// Whether a concatenation's known text is only how its name ends, within
/// a simple name (`name + "Provider"`): it fits classes of every package
/// alike. A known end that is a whole simple name (`pkg +
/// ".BreakIteratorInfo"`, `pkg + "$Handler"`) names one class a package.
fn suffix_only(a: &Affixes) -> bool {
    !a.exact && a.prefix.is_empty() && !a.suffix.starts_with(['.', '$'])
}

/// Whether `text` can be part of a member name.
fn member_fragment(text: &str) -> bool {
    text.chars()
        .all(|c| c.is_alphanumeric() || matches!(c, '_' | '$'))
}

/// The application's items among `fit`, or all of them when none is the
/// application's.
fn application_first(fit: Vec<&(u32, bool)>) -> Vec<u32> {
    let fit = fit.into_iter().map(|t| ((), t)).collect();
    application_first_named(fit)
        .into_iter()
        .map(|(_, x)| x)
        .collect()
}

/// [`application_first`] of items that carry their names.
fn application_first_named<N>(fit: Vec<(N, &(u32, bool))>) -> Vec<(N, u32)> {
    let application = fit.iter().any(|(_, (_, library))| !library);
    (fit.into_iter())
        .filter(|(_, (_, library))| !application || !library)
        .map(|(n, (x, _))| (n, *x))
        .collect()
}

/// The class path's methods and fields (not constructors), by name, each
/// with whether it is the library's.
struct MemberNames {
    methods: NameIndex<(u32, bool)>,
    fields: NameIndex<(u32, bool)>,
}

impl MemberNames {
    fn new(b: &FactsBuilder) -> Self {
        let application: FxHashSet<&str> = (b.declared.iter())
            .filter(|&&(_, library)| !library)
            .map(|&(t, _)| b.types.name(t))
            .collect();
        let mut methods = Vec::new();
        let mut fields = Vec::new();
        for c in b.hierarchy.names() {
            if let Some(node) = b.hierarchy.get(c) {
                let library = !application.contains(c.as_str());
                let own = node.methods.iter().filter(|m| !m.name.starts_with('<'));
                methods.extend(own.map(|m| (m.name.clone(), (m.id, library))));
                fields.extend((node.fields.iter()).map(|f| (f.name.clone(), (f.id, library))));
            }
        }
        MemberNames {
            methods: NameIndex::new(methods),
            fields: NameIndex::new(fields),
        }
    }
}

/// Records that concatenation `h`'s known text fits more names than the
/// budget allows (`partialOverBudget`, and the summary's count), so that
/// `refract report` can say why its sites stay unknown.
fn over_budget(b: &mut FactsBuilder, h: u32) {
    b.stats.partial_over_budget += 1;
    b.add(R::PartialOverBudget, &[h]);
}

/// Lists, for each concatenation with known text, the classes, methods
/// and fields whose names fit it (`partialType`, `partialMethod`,
/// `partialField`), and for each name filter the members whose names
/// pass it (`filterMethod`, `filterField`).
pub fn match_partial_names(b: &mut FactsBuilder) {
    let texts = std::mem::take(&mut b.concat_texts);
    let filters = std::mem::take(&mut b.name_filters);
    let completions = std::mem::take(&mut b.concat_completions);
    if texts.is_empty() && filters.is_empty() && completions.is_empty() {
        return;
    }
    let classes = NameIndex::new(
        (b.declared.iter())
            .map(|&(t, library)| (b.types.name(t).to_string(), (t, library)))
            .collect(),
    );
    let members = MemberNames::new(b);
    for (h, a) in &texts {
        let known = a.prefix.len() + a.suffix.len();
        if (a.exact || known >= 2) && class_fragment(&a.prefix) && class_fragment(&a.suffix) {
            let chosen = application_first(classes.fits(a));
            if chosen.len() > CLASS_BUDGET {
                over_budget(b, *h);
            } else if !chosen.is_empty() {
                for t in chosen {
                    b.add(R::PartialType, &[*h, t]);
                }
                if package_only(a) {
                    b.add(R::PartialPackage, &[*h]);
                }
                if suffix_only(a) {
                    b.add(R::PartialSuffix, &[*h]);
                }
            }
        }
        let member = a.exact || a.prefix.len() >= 2 || a.suffix.len() >= 3;
        if member && member_fragment(&a.prefix) && member_fragment(&a.suffix) {
            for (index, rel) in [
                (&members.methods, R::PartialMethod),
                (&members.fields, R::PartialField),
            ] {
                let mut fit = application_first(index.fits(a));
                if fit.len() > MEMBER_BUDGET {
                    over_budget(b, *h);
                    continue;
                }
                fit.sort_unstable();
                for m in fit {
                    b.add(rel, &[*h, m]);
                }
            }
        }
    }
    if !completions.is_empty() {
        complete_names(b, &classes, &members, &completions);
    }
    for (h, test) in &filters {
        // A filter lets through every member that passes, the
        // application's and the library's alike, and has no budget: it
        // only ever narrows what a placeholder stands for.
        let (index, rel) = if test.member_class == "java.lang.reflect.Field" {
            (&members.fields, R::FilterField)
        } else {
            (&members.methods, R::FilterMethod)
        };
        let mut pass: Vec<u32> = Vec::new();
        for passes in &test.any_of {
            let Passes::Name { how, text } = passes else {
                continue;
            };
            let text = text.clone();
            let a = match how {
                NameMatch::Prefix => Affixes {
                    prefix: text,
                    suffix: String::new(),
                    exact: false,
                },
                NameMatch::Suffix => Affixes {
                    prefix: String::new(),
                    suffix: text,
                    exact: false,
                },
                NameMatch::Exact => Affixes {
                    prefix: text,
                    suffix: String::new(),
                    exact: true,
                },
            };
            pass.extend(index.fits(&a).into_iter().map(|(m, _)| *m));
        }
        pass.sort_unstable();
        pass.dedup();
        for m in pass {
            b.add(rel, &[*h, m]);
        }
    }
}

/// Lists, for each concatenation that one string completes
/// ([`Completion`]), the classes, methods and fields it names where the
/// string is a constant (`completesType`, `completesMethod`,
/// `completesField`): a name that starts with one of its heads and ends
/// with its tail, and whose text between them is the constant's (where
/// the string stands whole; past its first characters where the
/// completion skips them, [`Completion::skip`]: `"set" +
/// getter.getName().substring(3)` and the constant `getLabel` name
/// `setLabel`) or has the constant's letters, case and separators set
/// aside ([`fold_letters`], where the name spells it). The
/// candidates are those the heads and tail fit, the application's first
/// and within the budget, as for the concatenations' affixes. Only
/// spelled names name members alone: no class name is spelled a letter
/// at a time. Where no known text surrounds a string past its first
/// characters (`Character.toLowerCase(name.charAt(3)) +
/// name.substring(4)`, a getter's property), the candidates are the
/// members named by the rest of a constant ([`named_by_rest`]).
///
/// The methods are also listed where the string is a field's name
/// (`completesMethodByField`): `"set" + capitalize(f.getName())` names
/// `setHost` for a field `host`, as bean copiers and configuration
/// readers write it. The field's name is matched by its letters even
/// where the completion stands whole: it usually reaches it through a
/// helper (`capitalize(s)`), whose result is the whole part. The analysis
/// joins those rows with the Field metaobjects whose names reach the
/// concatenation.
fn complete_names(
    b: &mut FactsBuilder,
    classes: &NameIndex<(u32, bool)>,
    members: &MemberNames,
    completions: &[(u32, Completion)],
) {
    // The constants by their letters, for spelled names only.
    let mut by_letters: FxHashMap<String, Vec<u32>> = FxHashMap::default();
    if completions.iter().any(|(_, l)| !l.whole) {
        for (text, &h) in &b.string_heaps {
            let key = fold_letters(text);
            if !key.is_empty() {
                by_letters.entry(key).or_default().push(h);
            }
        }
    }
    // The constants by their text past their first characters, for each
    // number of them that a completion skips (`"set" +
    // getter.getName().substring(3)`), and whether its first letter is
    // recased (the key then in lower case: [`rest_key`]).
    let mut by_rest: FxHashMap<RestKey, Vec<u32>> = FxHashMap::default();
    let mut skips: Vec<(u32, bool)> = (completions.iter())
        .filter(|(_, l)| l.whole && l.skip > 0)
        .map(|(_, l)| (l.skip, l.recased))
        .collect();
    skips.sort_unstable();
    skips.dedup();
    for &(k, recased) in &skips {
        for (text, &h) in &b.string_heaps {
            if let Some((at, _)) = text.char_indices().nth(k as usize) {
                by_rest
                    .entry(rest_key(k, recased, &text[at..]))
                    .or_default()
                    .push(h);
            }
        }
    }
    by_rest.values_mut().for_each(|hs| hs.sort_unstable());
    let mut fields_by_letters: FxHashMap<String, Vec<u32>> = FxHashMap::default();
    for (name, (f, _)) in &members.fields.forward {
        // A name of no letters (`$`) would complete into the known text
        // alone.
        let key = fold_letters(name);
        if !key.is_empty() {
            fields_by_letters.entry(key).or_default().push(*f);
        }
    }
    let mut by_field: Vec<(u32, u32, u32)> = Vec::new();
    for (index, rel, budget) in [
        (classes, R::CompletesType, CLASS_BUDGET),
        (&members.methods, R::CompletesMethod, MEMBER_BUDGET),
        (&members.fields, R::CompletesField, MEMBER_BUDGET),
    ] {
        let mut rows: Vec<(u32, u32, u32)> = Vec::new();
        // The members by name, as [`named_by_rest`] looks them up, built
        // for the first completion that needs them.
        let mut by_first_letter: FxHashMap<bool, MembersByName> = FxHashMap::default();
        for (h, l) in completions {
            if rel == R::CompletesType && !l.whole {
                continue;
            }
            if l.heads.iter().all(String::is_empty) && l.tail.is_empty() {
                // Past its first characters alone (a getter's property):
                // the members named by the rest of a constant, whatever
                // the budget, since each constant names its own.
                if rel != R::CompletesType {
                    let names = (by_first_letter.entry(l.recased))
                        .or_insert_with(|| members_by_rest(index, l.recased));
                    rows.extend(named_by_rest(names, &by_rest, *h, l));
                }
                continue;
            }
            for head in &l.heads {
                let a = Affixes {
                    prefix: head.clone(),
                    suffix: l.tail.clone(),
                    exact: false,
                };
                // Past the budget only the summary counts it: the
                // concatenation's own affixes decide `partialOverBudget`.
                let fit = application_first_named(index.fits_named(&a));
                if fit.len() > budget {
                    b.stats.partial_over_budget += 1;
                    continue;
                }
                for (name, m) in fit {
                    let middle = &name[head.len()..name.len() - l.tail.len()];
                    let texts: &[u32] = if l.whole && l.skip > 0 {
                        (by_rest.get(&rest_key(l.skip, l.recased, middle)))
                            .map_or(&[], Vec::as_slice)
                    } else if l.whole {
                        b.string_heaps.get(middle).map_or(&[], std::slice::from_ref)
                    } else {
                        by_letters
                            .get(&fold_letters(middle))
                            .map_or(&[], Vec::as_slice)
                    };
                    rows.extend(texts.iter().map(|&s| (*h, s, m)));
                    if rel == R::CompletesMethod && l.skip == 0 {
                        let fields = fields_by_letters.get(&fold_letters(middle));
                        by_field.extend(fields.into_iter().flatten().map(|&f| (*h, f, m)));
                    }
                }
            }
        }
        rows.sort_unstable();
        rows.dedup();
        for (h, s, m) in rows {
            b.add(rel, &[h, s, m]);
        }
    }
    by_field.sort_unstable();
    by_field.dedup();
    for (h, f, m) in by_field {
        b.add(R::CompletesMethodByField, &[h, f, m]);
    }
    complete_by_class_names(b, classes, completions);
}

/// What a constant's text past its first `k` characters is looked up by:
/// `k`, whether the first letter is recased, and the text, with its first
/// letter in lower case where it is.
type RestKey = (u32, bool, String);

/// The [`RestKey`] of `rest`, the text past the first `k` characters.
fn rest_key(k: u32, recased: bool, rest: &str) -> RestKey {
    (k, recased, name_key(recased, rest))
}

/// A name as recased completions compare it: its first letter in lower
/// case where `recased`, else as it stands.
fn name_key(recased: bool, name: &str) -> String {
    if !recased {
        return name.to_string();
    }
    let mut chars = name.chars();
    (chars.next().into_iter())
        .flat_map(char::to_lowercase)
        .chain(chars)
        .collect()
}

/// Members by name (its first letter in lower case, for recased
/// completions), each with whether it is the library's.
type MembersByName<'a> = FxHashMap<String, Vec<&'a (u32, bool)>>;

/// The members of `index` by name, as [`rest_key`] keys the constants.
fn members_by_rest(index: &NameIndex<(u32, bool)>, recased: bool) -> MembersByName<'_> {
    let mut by_name = MembersByName::default();
    for (name, m) in &index.forward {
        by_name.entry(name_key(recased, name)).or_default().push(m);
    }
    by_name
}

/// The rows `(h, constant, member)` of completion `l` of concatenation
/// `h`, which has no known text around its source: for each constant
/// past `l.skip` characters, the members of that name (its first letter's
/// case set aside where `l.recased`). As for affixes, the application's
/// members come first: where any of them is so named, the library's are
/// not (the property of the fixture `SameNames`, analysed with the
/// fixtures' directory against the whole JDK, had 250,397 rows of fields,
/// and has 977 of the fixtures' own).
fn named_by_rest(
    by_name: &MembersByName,
    by_rest: &FxHashMap<RestKey, Vec<u32>>,
    h: u32,
    l: &Completion,
) -> Vec<(u32, u32, u32)> {
    let mut found: Vec<(u32, &(u32, bool))> = Vec::new();
    for ((k, recased, text), constants) in by_rest {
        if (*k, *recased) != (l.skip, l.recased) {
            continue;
        }
        if let Some(named) = by_name.get(text) {
            found.extend(
                constants
                    .iter()
                    .flat_map(|&s| named.iter().map(move |&m| (s, m))),
            );
        }
    }
    (application_first_named(found).into_iter())
        .map(|(s, m)| (h, s, m))
        .collect()
}

/// Lists, for each concatenation completed by a class's name
/// (`type.getName() + "BeanInfo"`, `"impl." + type.getSimpleName() +
/// "Impl"`: [`Completion::class_name`]), the classes it names where the
/// source holds a given class's binary name (`completesTypeByName`) or
/// simple name (`completesTypeBySimpleName`): each class whose name
/// starts with a head and ends with the tail, with a class's name
/// between them. There is no budget: the Class objects that reach the
/// call choose among the rows, and each class completes a name one way.
fn complete_by_class_names(
    b: &mut FactsBuilder,
    classes: &NameIndex<(u32, bool)>,
    completions: &[(u32, Completion)],
) {
    let by_class: Vec<&(u32, Completion)> = (completions.iter())
        .filter(|(_, l)| l.class_name && l.whole && l.skip == 0)
        .collect();
    if by_class.is_empty() {
        return;
    }
    let mut named: FxHashMap<&str, u32> = FxHashMap::default();
    let mut simply: FxHashMap<&str, Vec<u32>> = FxHashMap::default();
    for (name, (t, _)) in &classes.forward {
        named.insert(name, *t);
        if let Some(simple) = simple_name(name) {
            simply.entry(simple).or_default().push(*t);
        }
    }
    let mut by_name: Vec<(u32, u32, u32)> = Vec::new();
    let mut by_simple: Vec<(u32, u32, u32)> = Vec::new();
    for (h, l) in by_class {
        for head in &l.heads {
            let a = Affixes {
                prefix: head.clone(),
                suffix: l.tail.clone(),
                exact: false,
            };
            for (name, (t, _)) in classes.fits_named(&a) {
                let middle = &name[head.len()..name.len() - l.tail.len()];
                if let Some(&c) = named.get(middle) {
                    by_name.push((*h, c, *t));
                }
                let simple = simply.get(middle).map_or(&[][..], Vec::as_slice);
                by_simple.extend(simple.iter().map(|&c| (*h, c, *t)));
            }
        }
    }
    for (rel, mut rows) in [
        (R::CompletesTypeByName, by_name),
        (R::CompletesTypeBySimpleName, by_simple),
    ] {
        rows.sort_unstable();
        rows.dedup();
        for (h, c, t) in rows {
            b.add(rel, &[h, c, t]);
        }
    }
}

/// The simple name of the class of binary name `name`, as
/// `Class.getSimpleName()` gives it: past the package, past the
/// enclosing classes (`a.B$C` is `C`), and past a local class's number
/// (`a.B$1Local` is `Local`); `None` for an anonymous class (`a.B$1`).
/// A top-level class with `$` in its name is read as nested, as the
/// class path's names alone cannot tell.
fn simple_name(name: &str) -> Option<&str> {
    let own = name.rsplit(['.', '$']).next().unwrap_or(name);
    let own = own.trim_start_matches(|c: char| c.is_ascii_digit());
    (!own.is_empty()).then_some(own)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index() -> NameIndex<u32> {
        NameIndex::new(
            ["a.Base", "a.FooImpl", "a.BarImpl", "b.FooImpl", "a.Foo"]
                .iter()
                .enumerate()
                .map(|(k, n)| (n.to_string(), k as u32))
                .collect(),
        )
    }

    /// A concatenation's known text.
    fn a(prefix: &str, suffix: &str, exact: bool) -> Affixes {
        Affixes {
            prefix: prefix.into(),
            suffix: suffix.into(),
            exact,
        }
    }

    fn fits(prefix: &str, suffix: &str, exact: bool) -> Vec<u32> {
        let mut out: Vec<u32> = (index().fits(&a(prefix, suffix, exact)).into_iter())
            .copied()
            .collect();
        out.sort_unstable();
        out
    }

    #[test]
    fn simple_names_are_past_the_package_the_enclosing_class_and_a_local_number() {
        assert_eq!(simple_name("a.b.C"), Some("C"));
        assert_eq!(simple_name("a.B$C"), Some("C"));
        assert_eq!(simple_name("a.B$1Local"), Some("Local"));
        assert_eq!(simple_name("a.B$1"), None);
        assert_eq!(simple_name("Top"), Some("Top"));
    }

    #[test]
    fn names_fit_by_prefix_suffix_or_both() {
        assert_eq!(fits("a.", "Impl", false), vec![1, 2]);
        assert_eq!(fits("", "FooImpl", false), vec![1, 3]);
        assert_eq!(fits("a.Foo", "", false), vec![1, 4]);
        assert_eq!(fits("a.Foo", "", true), vec![4]);
        // The unknown part needs room: "a.Foo" + x + "Foo" is not "a.Foo".
        assert_eq!(fits("a.Foo", "Foo", false), Vec::<u32>::new());
    }

    #[test]
    fn a_name_known_only_by_its_package_is_told_apart() {
        assert!(package_only(&a("java.net.", "", false)));
        assert!(!package_only(&a("java.net.", "DatagramSocketImpl", false)));
        assert!(!package_only(&a(
            "sun.text.resources.FormatData",
            "",
            false
        )));
        assert!(!package_only(&a("", "Impl", false)));
        assert!(!package_only(&a("a.", "", true)));
    }

    #[test]
    fn a_name_known_only_by_its_end_is_told_apart() {
        assert!(suffix_only(&a("", "Provider", false)));
        assert!(!suffix_only(&a("", ".BreakIteratorInfo", false)));
        assert!(!suffix_only(&a("", "$Handler", false)));
        assert!(!suffix_only(&a("java.security.", "Spi", false)));
        assert!(!suffix_only(&a("java.net.", "", false)));
        assert!(!suffix_only(&a("", "", true)));
    }
}
