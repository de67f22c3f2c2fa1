//! Resource bundles' locale variants: the classes that
//! `ResourceBundle.Control.toBundleName(base, locale)` may name.
//!
//! A bundle class is named by its base name, or by the base name, `_` and
//! the locale: language, then script, country and variant, each after
//! another `_` (`Messages_en`, `FormatData_en_US_POSIX`,
//! `Messages_zh_Hant_TW`; JDK 17 `ResourceBundle.Control.toBundleName`).
//! Which locale a run uses is not in the program, so a base name may name
//! any of its variants. The front end lists, for each class of the class
//! path, the classes named so after it (`localeVariant`); the analysis
//! decides where a name is a bundle's base name (`queries/reflection.dl`).

use super::extract::{FactsBuilder, R};
use fxhash::FxHashMap;

/// Whether `suffix` (what follows `base_`) reads as a locale: a language
/// of two or three lower-case letters, then up to three more parts of
/// letters and digits (script, country, variant).
pub fn is_locale(suffix: &str) -> bool {
    let mut parts = suffix.split('_');
    let language = parts.next().unwrap_or("");
    let rest: Vec<&str> = parts.collect();
    (2..=3).contains(&language.len())
        && language.bytes().all(|c| c.is_ascii_lowercase())
        && rest.len() <= 3
        && (rest.iter()).all(|p| !p.is_empty() && p.bytes().all(|c| c.is_ascii_alphanumeric()))
}

/// The pairs (base, variant) among `names`: `variant` is `base`, `_` and
/// a locale.
fn variants<'a>(names: &[&'a str]) -> Vec<(&'a str, &'a str)> {
    let mut sorted = names.to_vec();
    sorted.sort_unstable();
    let mut out = Vec::new();
    for &base in &sorted {
        let start = format!("{base}_");
        let from = sorted.partition_point(|n| *n < start.as_str());
        for &name in sorted[from..].iter().take_while(|n| n.starts_with(&start)) {
            if is_locale(&name[start.len()..]) {
                out.push((base, name));
            }
        }
    }
    out
}

/// CLDR's parent locales (`child<TAB>parent` rows; `#` starts a comment),
/// from the JDK's CLDR data by `scripts/cldr-parents.py`.
const CLDR_PARENTS: &str = include_str!("../../queries/models/cldr-parents.tsv");

/// The rows of a table of two columns (`queries/models/*.tsv`): its lines
/// but comments and blank ones, split at their tab.
fn table_rows(table: &'static str) -> impl Iterator<Item = (&'static str, &'static str)> {
    (table.lines())
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .filter_map(|l| l.split_once('\t'))
}

/// The runs' `locales` with the CLDR parents of each and of each of its
/// shorter forms (`en_GB`: `en_001`; `en_AT`: `en_150`, then `en_001`).
/// The JDK's CLDR locale provider, its default, loads their bundles too
/// (`CLDRLocaleProviderAdapter.getCandidateLocales`), beside the locale's
/// shorter forms that [`loaded_in`] already counts.
fn with_cldr_parents(locales: &[String]) -> Vec<String> {
    let parents: FxHashMap<&str, &str> = table_rows(CLDR_PARENTS).collect();
    let mut out = locales.to_vec();
    let mut next = 0;
    while next < out.len() {
        let mut form = out[next].clone();
        loop {
            if let Some(&parent) = parents.get(form.as_str()) {
                if !out.iter().any(|l| l == parent) {
                    out.push(parent.to_string());
                }
            }
            match form.rfind('_') {
                Some(at) => form.truncate(at),
                None => break,
            }
        }
        next += 1;
    }
    out
}

/// `java.util.Locale`'s constants and their locales (`field<TAB>locale`
/// rows; `#` starts a comment).
const LOCALE_CONSTANTS: &str = include_str!("../../queries/models/locale-constants.tsv");

/// The locales of a run that is given `given` (`--locale`): those, the
/// locales of `Locale`'s constants that the application's code reads
/// (hsqldb formats its dates with `Locale.UK`, whatever the default
/// locale), the scripts that Chinese locales are looked up with
/// (`zh_TW`: `zh_Hant_TW`, `zh_Hant`; JDK 17
/// `ResourceBundle.Control.getCandidateLocales`), and their CLDR
/// parents ([`with_cldr_parents`]). Empty when `given` is (the run's
/// locale is not known).
///
/// Locales that the application builds (`new Locale("en", "GB")`,
/// `forLanguageTag`) and the constants that the JDK's own code reads
/// are not counted.
pub fn run_locales(b: &FactsBuilder, given: &[String]) -> Vec<String> {
    if given.is_empty() {
        return Vec::new();
    }
    let mut locales = given.to_vec();
    locales.extend(application_locales(b));
    let mut scripted = Vec::new();
    for l in &locales {
        scripted.extend(chinese_scripts(l));
    }
    locales.extend(scripted);
    let mut locales = with_cldr_parents(&locales);
    locales.sort();
    locales.dedup();
    locales
}

/// The forms with a script of a Chinese locale without one: `zh_TW`,
/// `zh_HK` and `zh_MO` are looked up as `zh_Hant_..` and `zh_Hant`,
/// others (`zh_CN`, `zh`) as `zh_Hans_..` and `zh_Hans`.
fn chinese_scripts(locale: &str) -> Vec<String> {
    let mut parts = locale.split('_');
    if parts.next() != Some("zh") {
        return Vec::new();
    }
    let region = parts.next().filter(|p| p.len() != 4);
    if region.is_none() && locale != "zh" {
        return Vec::new();
    }
    let script = match region {
        Some("TW" | "HK" | "MO") => "Hant",
        _ => "Hans",
    };
    let mut out = vec![format!("zh_{script}")];
    out.extend(region.map(|r| format!("zh_{script}_{r}")));
    out
}

/// The locales of `Locale`'s constants (`Locale.UK`) that an
/// application method reads (`staticField`).
fn application_locales(b: &FactsBuilder) -> Vec<String> {
    let constants: FxHashMap<String, &str> = table_rows(LOCALE_CONSTANTS)
        .map(|(field, locale)| {
            (
                format!("<java.util.Locale: java.util.Locale {field}>"),
                locale,
            )
        })
        .collect();
    let mut out: Vec<String> = (b.rels[R::StaticField as usize].chunks(2))
        .filter(|row| b.is_application_method(row[0]))
        .filter_map(|row| constants.get(b.fields.name(row[1])))
        .map(|l| l.to_string())
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Whether a bundle variant of locale `suffix` (`en`, `en_US`) is one
/// that a run in one of `locales` loads: `ResourceBundle.Control.
/// getCandidateLocales` tries the locale, then the locale without its
/// last part, down to the language (`en_US_POSIX`, `en_US`, `en`), and
/// the base bundle. So the variant's parts must begin the run's locale.
/// Scripts are matched as parts too (`zh_Hant_TW` loads `zh_Hant` and
/// `zh`); the JDK's special cases (`no_NO_NY`, `ja_JP_JP`) are not.
pub fn loaded_in(suffix: &str, locales: &[String]) -> bool {
    locales.iter().any(|l| {
        l == suffix
            || l.strip_prefix(suffix)
                .is_some_and(|rest| rest.starts_with('_'))
    })
}

/// The variants of `localeVariant` that a run in one of `locales` loads
/// (see [`loaded_in`]), as type numbers: all of them when `locales` is
/// empty (the run's locale is not known).
pub fn run_variants(b: &FactsBuilder, locales: &[String]) -> Vec<u32> {
    let mut out: Vec<u32> = (b.rels[R::LocaleVariant as usize].chunks(2))
        .filter(|pair| {
            let (base, variant) = (b.types.name(pair[0]), b.types.name(pair[1]));
            locales.is_empty()
                || variant
                    .strip_prefix(base)
                    .and_then(|s| s.strip_prefix('_'))
                    .is_some_and(|suffix| loaded_in(suffix, locales))
        })
        .map(|pair| pair[1])
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The locales that a class's name may be for: each `suffix` of its
/// simple name, after a `_`, that reads as a locale (`FormatData_en_US`:
/// `en_US`; `my_app_en`: `app_en` and `en`).
fn name_locales(name: &str) -> impl Iterator<Item = &str> {
    let simple = name.rsplit('.').next().unwrap_or(name);
    (simple.match_indices('_'))
        .map(move |(at, _)| &simple[at + 1..])
        .filter(|suffix| is_locale(suffix))
}

/// Whether class `name` is named for a locale that no run in `locales`
/// uses: its name's end reads as a locale, and as none that they load.
fn named_for_other_locale(name: &str, locales: &[String]) -> bool {
    let mut readings = name_locales(name).peekable();
    readings.peek().is_some() && readings.all(|l| !loaded_in(l, locales))
}

/// The declared classes named for a locale that no run in `locales`
/// uses (see [`loaded_in`]): every reading of the name's end as a locale
/// is another locale (`Messages_de_CH` and `FormatData_en_US_POSIX` in
/// an `en_US` run). None when `locales` is empty (the run's locale is
/// not known). Unlike `localeVariant`, no base class is needed: the
/// JDK's locale data keep their variants in other packages than their
/// base bundles (`sun.text.resources.cldr.ext.FormatData_ja` for
/// `sun.text.resources.cldr.FormatData`).
pub fn other_locale_classes(b: &FactsBuilder, locales: &[String]) -> Vec<u32> {
    if locales.is_empty() {
        return Vec::new();
    }
    let mut out: Vec<u32> = (b.declared.iter())
        .map(|&(t, _)| t)
        .filter(|&t| named_for_other_locale(b.types.name(t), locales))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The bundles of properties files (`bundleFile`) that a run in one of
/// `locales` loads (see [`loaded_in`]; the base bundle always), as heap
/// numbers: all of them when `locales` is empty.
pub fn run_bundles(b: &FactsBuilder, locales: &[String]) -> Vec<u32> {
    let mut out: Vec<u32> = (b.bundle_files.iter())
        .filter(|(_, locale, _)| {
            locales.is_empty() || locale.is_empty() || loaded_in(locale, locales)
        })
        .map(|&(_, _, bundle)| bundle)
        .collect();
    out.sort_unstable();
    out
}

/// Adds `localeVariant(base, variant)` for the declared classes.
pub fn list_locale_variants(b: &mut FactsBuilder) {
    let ids: FxHashMap<&str, u32> = (b.declared.iter())
        .map(|&(t, _)| (b.types.name(t), t))
        .collect();
    let names: Vec<&str> = ids.keys().copied().collect();
    let pairs: Vec<[u32; 2]> = (variants(&names).into_iter())
        .map(|(base, variant)| [ids[base], ids[variant]])
        .collect();
    for pair in pairs {
        b.add(R::LocaleVariant, &pair);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locales_are_a_language_then_script_country_and_variant() {
        for s in [
            "en",
            "en_US",
            "en_US_POSIX",
            "zh_Hant_TW",
            "fil",
            "ja_JP_JP",
        ] {
            assert!(is_locale(s), "{s}");
        }
        for s in [
            "",
            "e",
            "EN",
            "english",
            "en_",
            "en__US",
            "Impl",
            "en_US_a_b_c",
            "1",
        ] {
            assert!(!is_locale(s), "{s}");
        }
    }

    #[test]
    fn a_run_loads_the_variants_its_locale_begins_with() {
        let run = ["en_US".to_string(), "zh_Hant_TW".to_string()];
        for yes in ["en", "en_US", "zh", "zh_Hant", "zh_Hant_TW"] {
            assert!(loaded_in(yes, &run), "{yes}");
        }
        for no in ["de", "en_GB", "en_US_POSIX", "e", "zh_TW", "zh_Hans"] {
            assert!(!loaded_in(no, &run), "{no}");
        }
        assert!(!loaded_in("en", &[]));
    }

    #[test]
    fn cldr_parents_join_the_runs_locales() {
        let run =
            |l: &[&str]| with_cldr_parents(&l.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(run(&["en_US"]), ["en_US"]);
        assert_eq!(run(&["en_GB"]), ["en_GB", "en_001"]);
        assert_eq!(run(&["en_AT"]), ["en_AT", "en_150", "en_001"]);
        assert_eq!(run(&["es_MX", "en_001"]), ["es_MX", "en_001", "es_419"]);
        assert_eq!(run(&["zh_Hant_MO"]), ["zh_Hant_MO", "zh_Hant_HK"]);
        assert!(loaded_in("en_001", &run(&["en_GB"])));
        assert!(!loaded_in("en_001", &run(&["en_US"])));
        for (child, parent) in table_rows(CLDR_PARENTS) {
            assert!(is_locale(child) && is_locale(parent), "{child}\t{parent}");
        }
        assert_eq!(table_rows(CLDR_PARENTS).count(), 130);
    }

    #[test]
    fn chinese_locales_are_looked_up_with_their_script() {
        assert_eq!(chinese_scripts("zh_TW"), ["zh_Hant", "zh_Hant_TW"]);
        assert_eq!(chinese_scripts("zh_CN"), ["zh_Hans", "zh_Hans_CN"]);
        assert_eq!(chinese_scripts("zh"), ["zh_Hans"]);
        assert_eq!(chinese_scripts("zh_Hant_TW"), [] as [String; 0]);
        assert_eq!(chinese_scripts("en_US"), [] as [String; 0]);
        assert_eq!(table_rows(LOCALE_CONSTANTS).count(), 21);
        for (field, locale) in table_rows(LOCALE_CONSTANTS) {
            assert!(
                field.bytes().all(|c| c.is_ascii_uppercase() || c == b'_') && is_locale(locale),
                "{field}\t{locale}"
            );
        }
    }

    #[test]
    fn classes_of_other_locales_are_those_no_reading_of_whose_name_the_run_loads() {
        let readings = |name| name_locales(name).collect::<Vec<_>>();
        assert_eq!(readings("s.FormatData_en_US_POSIX"), ["en_US_POSIX"]);
        assert_eq!(readings("a.my_app_en"), ["app_en", "en"]);
        assert_eq!(readings("r.MessagesHelper"), [] as [&str; 0]);
        assert_eq!(readings("r.Outer$Inner_de"), ["de"]);
        let run = ["en_US".to_string()];
        let other = |name| named_for_other_locale(name, &run);
        assert!(other("r.Messages_de_CH"));
        assert!(other("s.FormatData_en_US_POSIX"));
        assert!(!other("r.Messages_en"));
        assert!(!other("a.my_app_en"));
        assert!(!other("r.Messages"));
    }

    #[test]
    fn variants_follow_their_base_name() {
        let names = [
            "r.Messages",
            "r.Messages_en",
            "r.Messages_de_CH",
            "r.Messages_Impl",
            "r.MessagesX_en",
            "s.FormatData",
            "s.FormatData_en_US_POSIX",
        ];
        assert_eq!(
            variants(&names),
            [
                ("r.Messages", "r.Messages_de_CH"),
                ("r.Messages", "r.Messages_en"),
                ("s.FormatData", "s.FormatData_en_US_POSIX"),
            ]
        );
    }
}
