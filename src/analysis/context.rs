//! Context sensitivity: how the points-to analysis tells apart the calls
//! of one method, and the rule file each kind runs
//! (`queries/contexts/`).

use std::fmt;
use std::str::FromStr;

/// The contexts of the points-to analysis's flow rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Context {
    /// One set of objects per variable, one set of targets per call site
    /// (`queries/contexts/insensitive.dl`).
    #[default]
    Insensitive,
    /// A method called on an object runs in the context of the object's
    /// allocation site, a static method in its caller's; the heap has no
    /// context (`queries/contexts/1-object.dl`).
    OneObject,
    /// Every method runs in the context of the call site that called it,
    /// static or not; the heap has no context
    /// (`queries/contexts/1-call-site.dl`).
    OneCallSite,
    /// Every method runs in the context (call site, the caller's first
    /// element); an object has the first element of its allocating
    /// method's context as its heap context
    /// (`queries/contexts/2-call-site.dl`).
    TwoCallSite,
    /// A method called on an object runs in the context of the object
    /// and the object's heap context, a static method in its caller's;
    /// an object has the first element of its allocating method's
    /// context as its heap context (`queries/contexts/2-object.dl`).
    TwoObject,
    /// 2-object's contexts with each object replaced by the class that
    /// allocates it (`queries/contexts/2-type.dl`).
    TwoType,
    /// Whaley and Lam's cloning: every acyclic path of the call graph
    /// is a context, the paths of a cycle shared, numbered over the
    /// call graph of the analysis without contexts, which runs first;
    /// the heap has no context (`queries/contexts/cloning.dl`).
    Cloning,
}

impl Context {
    /// Every kind, in the order `--help` lists them.
    pub const ALL: [Context; 7] = [
        Context::Insensitive,
        Context::OneCallSite,
        Context::TwoCallSite,
        Context::OneObject,
        Context::TwoObject,
        Context::TwoType,
        Context::Cloning,
    ];

    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Context::Insensitive => "insensitive",
            Context::OneObject => "1-object",
            Context::OneCallSite => "1-call-site",
            Context::TwoCallSite => "2-call-site",
            Context::TwoObject => "2-object",
            Context::TwoType => "2-type",
            Context::Cloning => "cloning",
        }
    }

    /// Whether this kind's contexts are objects or their classes, among
    /// which `--context-scope` chooses.
    pub fn has_object_elements(self) -> bool {
        matches!(
            self,
            Context::OneObject | Context::TwoObject | Context::TwoType
        )
    }

    /// The flow rules of this kind: its file in `queries/contexts/`.
    pub fn rule_file(self) -> (&'static str, &'static str) {
        match self {
            Context::Insensitive => ("contexts/insensitive.dl", INSENSITIVE),
            Context::OneObject => ("contexts/1-object.dl", ONE_OBJECT),
            Context::OneCallSite => ("contexts/1-call-site.dl", ONE_CALL_SITE),
            Context::TwoCallSite => ("contexts/2-call-site.dl", TWO_CALL_SITE),
            Context::TwoObject => ("contexts/2-object.dl", TWO_OBJECT),
            Context::TwoType => ("contexts/2-type.dl", TWO_TYPE),
            Context::Cloning => ("contexts/cloning.dl", CLONING),
        }
    }
}

/// Which objects the object and type kinds make context elements of
/// (`--context-scope`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ContextScope {
    /// Every object (`queries/contexts/scope-all.dl`).
    #[default]
    All,
    /// The objects that the application allocates, and those that
    /// reflection creates of its classes; a method called on another
    /// object runs in the context of no object below its heap context
    /// (`queries/contexts/scope-application.dl`).
    Application,
}

impl ContextScope {
    /// Both scopes, in the order `--help` lists them.
    pub const ALL: [ContextScope; 2] = [ContextScope::All, ContextScope::Application];

    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            ContextScope::All => "all",
            ContextScope::Application => "application",
        }
    }

    /// The rules that choose the context elements under `context`, for
    /// the kinds whose contexts are objects or their classes (none for
    /// the others): the scope's file, and under `application` the
    /// calls on the other objects, which every object's being a context
    /// leaves empty.
    pub fn rule_files(self, context: Context) -> Vec<(&'static str, &'static str)> {
        if !context.has_object_elements() {
            return Vec::new();
        }
        let mut files = vec![match self {
            ContextScope::All => ("contexts/scope-all.dl", SCOPE_ALL),
            ContextScope::Application => ("contexts/scope-application.dl", SCOPE_APPLICATION),
        }];
        if self == ContextScope::Application {
            match context {
                Context::OneObject => files.push(("contexts/1-object-plain.dl", ONE_OBJECT_PLAIN)),
                Context::TwoObject => files.push(("contexts/2-object-plain.dl", TWO_OBJECT_PLAIN)),
                _ => {}
            }
        }
        files
    }
}

impl fmt::Display for ContextScope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ContextScope {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ContextScope::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = ContextScope::ALL.iter().map(|c| c.name()).collect();
                format!("unknown context scope {s:?} ({})", names.join(", "))
            })
    }
}

const SCOPE_ALL: &str = include_str!("../../queries/contexts/scope-all.dl");
const SCOPE_APPLICATION: &str = include_str!("../../queries/contexts/scope-application.dl");
const ONE_OBJECT_PLAIN: &str = include_str!("../../queries/contexts/1-object-plain.dl");
const TWO_OBJECT_PLAIN: &str = include_str!("../../queries/contexts/2-object-plain.dl");

/// The rules that `cloning` adds to the analysis without contexts that
/// runs before it: the call graph whose paths it numbers.
pub const CLONING_GRAPH: (&str, &str) = (
    "contexts/cloning-graph.dl",
    include_str!("../../queries/contexts/cloning-graph.dl"),
);

const INSENSITIVE: &str = include_str!("../../queries/contexts/insensitive.dl");
const ONE_OBJECT: &str = include_str!("../../queries/contexts/1-object.dl");
const ONE_CALL_SITE: &str = include_str!("../../queries/contexts/1-call-site.dl");
const TWO_CALL_SITE: &str = include_str!("../../queries/contexts/2-call-site.dl");
const TWO_OBJECT: &str = include_str!("../../queries/contexts/2-object.dl");
const TWO_TYPE: &str = include_str!("../../queries/contexts/2-type.dl");
const CLONING: &str = include_str!("../../queries/contexts/cloning.dl");

impl fmt::Display for Context {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Context {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Context::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Context::ALL.iter().map(|c| c.name()).collect();
                format!("unknown context kind {s:?} ({})", names.join(", "))
            })
    }
}
