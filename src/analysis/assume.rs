//! `--assume LEVEL`: the assumption under which the call graph is sound,
//! after Sawin, Edwards and Rountev's hierarchy for dynamic features
//! (seed 003). The rules that complete the sites the level does not
//! trust are `queries/reflection-assume.dl`; this module picks the level
//! and checks it against the variant.

use super::Variant;
use std::fmt;
use std::str::FromStr;

/// What reflection may do where the analysis cannot say, from the most
/// conservative assumption to the most trusting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Assume {
    /// Class loaders do not change the classes they load; nothing else
    /// is trusted: every reflective site may load any class and reach any
    /// member of the classes it looks at.
    BehavedLoaders,
    /// Besides, reflection respects access control: every site may load
    /// any class, but reaches only the members its caller may access.
    Encapsulation,
    /// Besides, casts of reflectively created objects hold: the variant's
    /// resolution is trusted, and only open sites are completed.
    Casts,
    /// Besides, the strings that reach a site name classes that exist.
    Strings,
    /// Besides, the environment the models read (the class path's files,
    /// the JDK's configuration) is the run's.
    Env,
}

impl Assume {
    /// Every level, from the most conservative.
    pub const ALL: [Assume; 5] = [
        Assume::BehavedLoaders,
        Assume::Encapsulation,
        Assume::Casts,
        Assume::Strings,
        Assume::Env,
    ];

    /// The name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Assume::BehavedLoaders => "behaved-loaders",
            Assume::Encapsulation => "encapsulation",
            Assume::Casts => "casts",
            Assume::Strings => "strings",
            Assume::Env => "env",
        }
    }

    /// The rules that complete what the level does not trust, for
    /// `variant`: the rule file, then the facts that set the level.
    /// An error says why the level does not fit the variant.
    pub fn rules(self, variant: Variant) -> Result<String, String> {
        match (self, variant) {
            (_, Variant::None) => {
                return Err(format!(
                    "--assume {self} needs a variant that resolves reflection \
                     (--reflection none ignores it)"
                ))
            }
            (Assume::Casts, v) if !matches!(v, Variant::Casts | Variant::Infer) => {
                return Err(format!(
                    "--assume casts trusts the casts of created objects, which \
                     --reflection {v} does not use: use --reflection casts or infer"
                ))
            }
            _ => {}
        }
        let mut text = String::from(RULES);
        if self <= Assume::Encapsulation {
            text.push_str("assumeEverySite().\n");
        }
        if self == Assume::BehavedLoaders {
            text.push_str("assumeAnyMember().\n");
        }
        if variant == Variant::Infer {
            text.push_str("readsPartialNames().\n");
        }
        Ok(text)
    }
}

/// The completion's rules (`queries/reflection-assume.dl`).
const RULES: &str = include_str!("../../queries/reflection-assume.dl");

impl fmt::Display for Assume {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Assume {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Assume::ALL
            .into_iter()
            .find(|a| a.name() == s)
            .ok_or_else(|| {
                format!(
                    "unknown assumption {s:?} (behaved-loaders, encapsulation, casts, strings, env)"
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_parse_by_name_and_order_from_the_most_conservative() {
        for a in Assume::ALL {
            assert_eq!(a.name().parse::<Assume>(), Ok(a));
        }
        assert!(Assume::BehavedLoaders < Assume::Env);
        assert!("sound".parse::<Assume>().is_err());
    }

    #[test]
    fn the_conservative_levels_complete_every_site_and_casts_needs_casts() {
        let behaved = Assume::BehavedLoaders.rules(Variant::PointsTo).unwrap();
        assert!(behaved.ends_with("assumeEverySite().\nassumeAnyMember().\n"));
        let encap = Assume::Encapsulation.rules(Variant::PointsTo).unwrap();
        assert!(encap.ends_with("assumeEverySite().\n"));
        let env = Assume::Env.rules(Variant::Infer).unwrap();
        assert!(env.ends_with("reflection-assume.dl\n") || env.ends_with("readsPartialNames().\n"));
        assert!(!env.contains("assumeEverySite()."));
        assert!(Assume::Casts.rules(Variant::PointsTo).is_err());
        assert!(Assume::Casts.rules(Variant::Casts).is_ok());
        assert!(Assume::Strings.rules(Variant::None).is_err());
    }
}
