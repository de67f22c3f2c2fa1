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
