//! The five analysis versions of Livshits, Whaley and Lam (section 5.2),
//! and the Datalog program each runs. The rule files in `queries/` are
//! compiled into the binary.

use std::fmt;
use std::str::FromStr;

/// How reflective calls are resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Reflection is ignored.
    None,
    /// Constant strings within one method name classes.
    Local,
    /// The strings the name argument points to.
    PointsTo,
    /// Points-to, plus casts of newInstance results where names are unknown.
    Casts,
    /// Points-to, plus a user specification.
    Sound,
    /// Casts, plus inference: computed names, and placeholder members
    /// resolved where they are used (`queries/reflection-infer.dl`).
    Infer,
}

impl Variant {
    /// Every variant: the paper's, in its column order, then `infer`.
    pub const ALL: [Variant; 6] = [
        Variant::None,
        Variant::Local,
        Variant::PointsTo,
        Variant::Casts,
        Variant::Sound,
        Variant::Infer,
    ];

    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Variant::None => "none",
            Variant::Local => "local",
            Variant::PointsTo => "points-to",
            Variant::Casts => "casts",
            Variant::Sound => "sound",
            Variant::Infer => "infer",
        }
    }

    /// The rule files, in order; `member_arrays` adds the rules that fill
    /// the arrays of `getMethods()` and the like, and `spec` the rules that
    /// read a specification file (`--spec`), to the variants that resolve
    /// reflection (`sound` always reads one); `probe` makes `infer`
    /// resolve only the placeholders whose signature is known in part
    /// (`--probe`). The points-to analysis's flow rules are those of
    /// `context`.
    pub fn rule_files(
        self,
        context: super::Context,
        member_arrays: bool,
        spec: bool,
        probe: bool,
    ) -> Vec<(&'static str, &'static str)> {
        let mut files = vec![
            ("pointsto.dl", POINTSTO),
            context.rule_file(),
            ("models/privileged.dl", PRIVILEGED),
            ("models/string-of.dl", STRING_OF),
            ("models/arraycopy.dl", ARRAYCOPY),
        ];
        match self {
            Variant::None => {}
            Variant::Local => files.extend([
                ("reflection.dl", REFLECTION),
                ("reflection-local.dl", LOCAL),
            ]),
            Variant::PointsTo => files.extend([
                ("reflection.dl", REFLECTION),
                ("reflection-strings.dl", STRINGS),
            ]),
            Variant::Casts => files.extend([
                ("reflection.dl", REFLECTION),
                ("reflection-strings.dl", STRINGS),
                ("reflection-casts.dl", CASTS),
            ]),
            Variant::Sound => files.extend([
                ("reflection.dl", REFLECTION),
                ("reflection-strings.dl", STRINGS),
            ]),
            Variant::Infer => files.extend([
                ("reflection.dl", REFLECTION),
                ("reflection-strings.dl", STRINGS),
                ("reflection-casts.dl", CASTS),
            ]),
        }
        if self != Variant::None {
            files.extend(MODELS);
        }
        // After the models: a field's line resolves the typed accessors
        // too (models/field-accessors.dl).
        if self == Variant::Sound || (spec && self != Variant::None) {
            files.push(("reflection-spec.dl", SPEC));
        }
        // After the models: it resolves the typed Field accessors too.
        if self == Variant::Infer {
            files.push(("reflection-infer.dl", INFER));
            files.push(if probe {
                ("reflection-probe.dl", PROBE)
            } else {
                ("reflection-infer-all.dl", INFER_ALL)
            });
        }
        let member_arrays = member_arrays && self != Variant::None;
        if member_arrays {
            files.push(("reflection-member-arrays.dl", MEMBER_ARRAYS));
        }
        // `infer`'s placeholders answer getParameterTypes() and the like
        // for the members they stand for (reflection-infer.dl, part 4).
        if member_arrays || self == Variant::Infer {
            files.push(("models/metaobjects.dl", METAOBJECTS));
        }
        files
    }
}

const POINTSTO: &str = include_str!("../../queries/pointsto.dl");
/// The methods the JVM calls with no call site in the program
/// (`queries/models/jvm-entry.dl`), read with `--roots jvm` in every
/// variant.
pub const JVM_ENTRY: (&str, &str) = (
    "models/jvm-entry.dl",
    include_str!("../../queries/models/jvm-entry.dl"),
);
/// AccessController.doPrivileged (`queries/models/privileged.dl`): part of
/// the points-to analysis, in every variant.
const PRIVILEGED: &str = include_str!("../../queries/models/privileged.dl");
/// String.valueOf(Object) and Objects.toString(Object) dispatch toString()
/// at their call sites (`queries/models/string-of.dl`): part of the
/// points-to analysis, in every variant.
const STRING_OF: &str = include_str!("../../queries/models/string-of.dl");
/// System.arraycopy copies at each call site (`queries/models/arraycopy.dl`):
/// part of the points-to analysis, in every variant.
const ARRAYCOPY: &str = include_str!("../../queries/models/arraycopy.dl");
const REFLECTION: &str = include_str!("../../queries/reflection.dl");
const LOCAL: &str = include_str!("../../queries/reflection-local.dl");
const STRINGS: &str = include_str!("../../queries/reflection-strings.dl");
const CASTS: &str = include_str!("../../queries/reflection-casts.dl");
const SPEC: &str = include_str!("../../queries/reflection-spec.dl");
const INFER: &str = include_str!("../../queries/reflection-infer.dl");
const INFER_ALL: &str = include_str!("../../queries/reflection-infer-all.dl");
const PROBE: &str = include_str!("../../queries/reflection-probe.dl");
const MEMBER_ARRAYS: &str = include_str!("../../queries/reflection-member-arrays.dl");
/// The models of the JDK's reflective APIs beyond the paper's
/// (`queries/models/`), in every variant that resolves reflection.
const MODELS: [(&str, &str); 15] = [
    (
        "models/api-bodies.dl",
        include_str!("../../queries/models/api-bodies.dl"),
    ),
    (
        "models/encapsulation.dl",
        include_str!("../../queries/models/encapsulation.dl"),
    ),
    (
        "models/field-accessors.dl",
        include_str!("../../queries/models/field-accessors.dl"),
    ),
    (
        "models/method-util.dl",
        include_str!("../../queries/models/method-util.dl"),
    ),
    (
        "models/arrays.dl",
        include_str!("../../queries/models/arrays.dl"),
    ),
    (
        "models/services.dl",
        include_str!("../../queries/models/services.dl"),
    ),
    (
        "models/resources.dl",
        include_str!("../../queries/models/resources.dl"),
    ),
    (
        "models/bundles.dl",
        include_str!("../../queries/models/bundles.dl"),
    ),
    (
        "models/proxies.dl",
        include_str!("../../queries/models/proxies.dl"),
    ),
    (
        "models/method-handles.dl",
        include_str!("../../queries/models/method-handles.dl"),
    ),
    (
        "models/var-handles.dl",
        include_str!("../../queries/models/var-handles.dl"),
    ),
    (
        "models/jvm-callbacks.dl",
        include_str!("../../queries/models/jvm-callbacks.dl"),
    ),
    (
        "models/annotations.dl",
        include_str!("../../queries/models/annotations.dl"),
    ),
    (
        "models/launcher.dl",
        include_str!("../../queries/models/launcher.dl"),
    ),
    (
        "models/configuration.dl",
        include_str!("../../queries/models/configuration.dl"),
    ),
];
/// The names of the models that `--no-model` switches off: the stems of
/// the files in `queries/models/` that every variant reads (privileged,
/// string-of, arraycopy) or that every variant resolving reflection reads.
pub const MODEL_NAMES: [&str; 18] = [
    "privileged",
    "string-of",
    "arraycopy",
    "api-bodies",
    "encapsulation",
    "field-accessors",
    "method-util",
    "arrays",
    "services",
    "resources",
    "bundles",
    "proxies",
    "method-handles",
    "var-handles",
    "jvm-callbacks",
    "annotations",
    "launcher",
    "configuration",
];

/// The model a rule file holds, by its name in [`Variant::rule_files`]
/// (`models/bundles.dl` holds `bundles`).
pub fn model_of(file: &str) -> Option<&str> {
    let stem = file.strip_prefix("models/")?.strip_suffix(".dl")?;
    MODEL_NAMES.contains(&stem).then_some(stem)
}

/// A model switched off: its relation declarations alone, so that the
/// rules of other files that read them still find them, empty. Every
/// declaration in `queries/` is one line (`name (attr:D, ...) [input]`),
/// and no fact or rule line is one (they end in `.`).
pub fn declarations_only(text: &str) -> String {
    let mut out = String::from("# (switched off by --no-model: declarations only)\n");
    for line in text.lines() {
        let declares = line.split_once(" (").is_some_and(|(name, _)| {
            !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_')
        }) && !line.trim_end().ends_with('.')
            && !line.contains(":-");
        if declares {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The Class objects that metaobjects give (`getParameterTypes()` and the
/// like), with `--member-arrays` and always under `infer`, whose
/// placeholders answer them for the members they stand for: SOLAR's
/// completion of the metaobjects. Under `infer` it costs the quick start
/// nothing measurable (0.995, two pairs) and xalan 1.05 (two pairs, within
/// a pair's spread); in the other variants it stays behind the flag until
/// it is timed on the real programs (hsqldb against the JDK reaches the
/// same 41,376 methods with it; see bench/RESULTS.md).
const METAOBJECTS: &str = include_str!("../../queries/models/metaobjects.dl");

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
                format!("unknown reflection variant {s:?} ({})", names.join(", "))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_switched_off_model_keeps_its_declarations_only() {
        let text = "# comment\nprivileged (method:M0, name:N0)\nserialReading ()\n\
                    privileged(\"<a.B: void c()>\", \"void run()\").\n\
                    modelledCall(i) :- privilegedSite(i, _).\n";
        assert_eq!(
            declarations_only(text),
            "# (switched off by --no-model: declarations only)\n\
             privileged (method:M0, name:N0)\nserialReading ()\n"
        );
    }

    #[test]
    fn every_model_is_a_file_that_some_variant_reads() {
        let files: Vec<&str> = (Variant::ALL.into_iter())
            .flat_map(|v| v.rule_files(Default::default(), false, false, false))
            .map(|(name, _)| name)
            .collect();
        for model in MODEL_NAMES {
            let file = format!("models/{model}.dl");
            assert!(files.contains(&file.as_str()), "{file}");
            assert_eq!(model_of(&file), Some(model));
        }
        assert_eq!(model_of("reflection.dl"), None);
        assert_eq!(model_of("models/metaobjects.dl"), None);
    }
}
