//! Reflective call sites and their resolved targets, read from a
//! database that `refract analyze` wrote.

use crate::classfile::descriptor::{parse_field_signature, parse_method_signature};
use crate::database::{Database, DatabaseError};
use crate::facts::reflection_api as api;
use std::collections::{BTreeMap, BTreeSet};

/// The reflective APIs reported on, with the relation holding each
/// site's targets and the target's domain. A relation of two attributes
/// holds (site, target); one of three, (site, receiver class, target),
/// for lookups by name, whose target is written on the class the lookup
/// was made on (`Receiver.name`, as reftrace writes it). An API may have
/// several rows: a site's targets are those of all its relations (a
/// method handle's call runs a method or accesses a field).
pub const APIS: &[(&str, &str, &str)] = &[
    ("Class.forName", "classObjects", "T"),
    ("ClassLoader.loadClass", "classObjects", "T"),
    ("MethodHandles.Lookup.findClass", "classObjects", "T"),
    ("Class.newInstance", "newInstanceTargets", "T"),
    ("Constructor.newInstance", "ctorCall", "M"),
    ("Method.invoke", "invokeCall", "M"),
    ("Field.get", "fieldGet", "F"),
    ("Field.set", "fieldSet", "F"),
    ("Class.getMethod", "methodLookupAt", "M"),
    ("Class.getDeclaredMethod", "methodLookupAt", "M"),
    ("Class.getConstructor", "constructorLookupAt", "M"),
    ("Class.getDeclaredConstructor", "constructorLookupAt", "M"),
    ("Class.getField", "fieldLookupAt", "F"),
    ("Class.getDeclaredField", "fieldLookupAt", "F"),
    ("Class.getMethods", "memberArrayLookup", "T"),
    ("Class.getDeclaredMethods", "memberArrayLookup", "T"),
    ("Class.getFields", "memberArrayLookup", "T"),
    ("Class.getDeclaredFields", "memberArrayLookup", "T"),
    ("Class.getConstructors", "memberArrayLookup", "T"),
    ("Class.getDeclaredConstructors", "memberArrayLookup", "T"),
    ("Array.newInstance", "arrayNewInstance", "T"),
    ("Proxy.newProxyInstance", "proxyInterfaces", "T"),
    ("MethodHandles.Lookup.findVirtual", "handleLookup", "M"),
    ("MethodHandles.Lookup.findStatic", "handleLookup", "M"),
    ("MethodHandles.Lookup.findSpecial", "handleLookup", "M"),
    ("MethodHandles.Lookup.findConstructor", "handleLookup", "M"),
    ("MethodHandles.Lookup.unreflect", "handleLookup", "M"),
    ("MethodHandles.Lookup.unreflectSpecial", "handleLookup", "M"),
    (
        "MethodHandles.Lookup.unreflectConstructor",
        "handleLookup",
        "M",
    ),
    (
        "MethodHandles.Lookup.findGetter",
        "handleFieldLookupAt",
        "F",
    ),
    (
        "MethodHandles.Lookup.findSetter",
        "handleFieldLookupAt",
        "F",
    ),
    (
        "MethodHandles.Lookup.findStaticGetter",
        "handleFieldLookupAt",
        "F",
    ),
    (
        "MethodHandles.Lookup.findStaticSetter",
        "handleFieldLookupAt",
        "F",
    ),
    (
        "MethodHandles.Lookup.unreflectGetter",
        "handleFieldLookup",
        "F",
    ),
    (
        "MethodHandles.Lookup.unreflectSetter",
        "handleFieldLookup",
        "F",
    ),
    (
        "MethodHandles.Lookup.findVarHandle",
        "varHandleLookupAt",
        "F",
    ),
    (
        "MethodHandles.Lookup.findStaticVarHandle",
        "varHandleLookupAt",
        "F",
    ),
    (
        "MethodHandles.Lookup.unreflectVarHandle",
        "varHandleLookup",
        "F",
    ),
    ("MethodHandle.invoke", "handleCall", "M"),
    ("MethodHandle.invoke", "handleFieldCall", "F"),
    ("MethodHandle.invokeExact", "handleCall", "M"),
    ("MethodHandle.invokeExact", "handleFieldCall", "F"),
    ("MethodHandle.invokeWithArguments", "handleCall", "M"),
];

/// One resolved target of a site: an element of the API's target domain
/// and, for a lookup by name, the class it was looked up on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Target {
    /// Element of the target domain.
    pub element: u64,
    /// The receiver's class (`T` element) of a lookup by name.
    pub receiver: Option<u64>,
    /// The target domain (`APIS`' third column for the relation that
    /// held it).
    pub domain: &'static str,
}

/// How well a site is resolved (the columns of the paper's Fig. 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Resolution {
    /// Every source is known and yields targets.
    Full,
    /// Some targets, but some sources are unknown.
    Partial,
    /// No target.
    Unresolved,
}

/// A reachable reflective call site.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    /// `I` element.
    pub invoke: u64,
    /// API label (`Class.forName`, ...).
    pub api: &'static str,
    /// Caller (`M` element).
    pub caller: u64,
    /// Bytecode index.
    pub bci: u64,
    /// Source line.
    pub line: u64,
    /// The targets, sorted.
    pub targets: Vec<Target>,
    /// How well it is resolved.
    pub resolution: Resolution,
}

/// Everything a report or an export needs.
pub struct Results {
    /// The reachable reflective sites, by `I`.
    pub sites: Vec<Site>,
    /// The reflective call sites of the class path that the call graph
    /// does not reach (what `refract check` tells apart from sites that
    /// are not in the class path at all).
    pub unreachable: Vec<Site>,
    /// The reachable calls that define a class from bytes
    /// (`ClassLoader.defineClass` and the like): the class is made at run
    /// time, so no analysis resolves them.
    pub definitions: Vec<Site>,
    /// Methods in the call graph.
    pub methods: usize,
    /// Classes in the call graph.
    pub classes: usize,
    /// Specification points: (source site, forName site).
    pub spec_points: Vec<(u64, u64)>,
    /// The sites whose name may be a concatenation whose known text fits
    /// more names than the front end's budget (`overBudgetAt`, variant
    /// `infer`).
    pub over_budget: BTreeSet<u64>,
    /// The class-name sites whose name may come from an argument of the
    /// command line (`commandLineAt`).
    pub command_line: BTreeSet<u64>,
    /// The uses of metaobjects that `--probe` leaves unresolved, since
    /// nothing tells their member's name or signature (`probedOut`).
    pub probed_out: BTreeSet<u64>,
    /// The variant that ran (`points-to, member arrays` with
    /// `--member-arrays`).
    pub variant: String,
    /// With a specification (`--spec`): the `forName` sites it resolved
    /// where no string naming a class reaches the name argument
    /// (`specOnly`); `None` without one.
    pub spec_only: Option<usize>,
    /// With `--assume`: what the completion gave (see [`Completion`]).
    pub completion: Option<Completion>,
}

/// What `--assume LEVEL` completed (`queries/reflection-assume.dl`): the
/// sites it gave targets, and how many (site, target) pairs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Completion {
    /// The level.
    pub level: String,
    /// Class-name sites and the classes they were given.
    pub classes: (usize, usize),
    /// Lookups and member arrays, and the methods (constructors too) they
    /// were given.
    pub methods: (usize, usize),
    /// Lookups and member arrays, and the fields they were given.
    pub fields: (usize, usize),
}

/// The distinct sites (first column) of `rows`, and the number of rows.
fn sites_and_pairs(rows: &[Vec<u64>]) -> (usize, usize) {
    let sites: BTreeSet<u64> = rows.iter().map(|t| t[0]).collect();
    (sites.len(), rows.len())
}

/// Reads the results of an analysis from `db`.
pub fn read(db: &mut Database) -> Result<Results, DatabaseError> {
    // The methods the analysis reaches, and those the JVM runs whose
    // bodies a model stands for (`jvmRan`, queries/models/launcher.dl).
    let mut reach: BTreeSet<u64> = db.tuples("reach")?.into_iter().map(|t| t[0]).collect();
    reach.extend(db.tuples_if_present("jvmRan")?.into_iter().map(|t| t[0]));
    let classes = db.tuples("reachClass")?.len();
    let spec_points: Vec<(u64, u64)> = db
        .tuples_if_present("specPoint")?
        .into_iter()
        .map(|t| (t[0], t[1]))
        .collect();
    let probed_out: BTreeSet<u64> = (db.tuples_if_present("probedOut")?.into_iter())
        .map(|t| t[0])
        .collect();
    let calls = Calls::read(db)?;
    let targets = targets_by_site(db)?;
    let partial = partial_sites(db, &spec_points, &probed_out)?;
    let mut sites = Vec::new();
    let mut unreachable = Vec::new();
    let mut definitions = Vec::new();
    for &(i, m) in &calls.calls {
        let Some(&(caller, bci, line)) = calls.locs.get(&i) else {
            continue;
        };
        // The site with these targets, resolved fully, partly (a name
        // from outside the program reaches it too) or not at all.
        let site = |api, mut ts: Vec<Target>| {
            ts.sort_unstable();
            ts.dedup();
            let resolution = if ts.is_empty() {
                Resolution::Unresolved
            } else if partial.contains(&i) {
                Resolution::Partial
            } else {
                Resolution::Full
            };
            Site {
                invoke: i,
                api,
                caller,
                bci,
                line,
                targets: ts,
                resolution,
            }
        };
        if let Some(&label) = calls.definition_of.get(&m) {
            // A definition under a name the analysis knows has the class
            // path's class of that name (classNameArg in reflection.dl);
            // any other defines a class made during the run.
            if reach.contains(&caller) {
                let known = targets.get(&("classObjects", i)).cloned();
                let s = site(label, known.unwrap_or_default());
                if s.targets.is_empty() {
                    definitions.push(s);
                } else {
                    sites.push(s);
                }
            }
            continue;
        }
        let Some(&label) = calls.api_of.get(&m) else {
            continue;
        };
        if !reach.contains(&caller) {
            unreachable.push(site(label, Vec::new()));
            continue;
        }
        let ts = APIS
            .iter()
            .filter(|a| a.0 == label)
            .flat_map(|a| targets.get(&(a.1, i)).cloned().unwrap_or_default())
            .collect();
        sites.push(site(label, ts));
    }
    let (variant, spec_only, completion) = configuration(db)?;
    let over_budget = (db.tuples_if_present("overBudgetAt")?.into_iter())
        .map(|t| t[0])
        .collect();
    let command_line = (db.tuples_if_present("commandLineAt")?.into_iter())
        .map(|t| t[0])
        .collect();
    Ok(Results {
        completion,
        over_budget,
        command_line,
        probed_out,
        spec_only,
        sites,
        definitions,
        unreachable,
        methods: reach.len(),
        classes,
        spec_points,
        variant,
    })
}

/// The calls of the reflective API and of the methods that define
/// classes from bytes, with their locations.
struct Calls {
    /// Reflective API methods by M element, with their labels.
    api_of: BTreeMap<u64, &'static str>,
    /// The methods that define classes from bytes, with their labels.
    definition_of: BTreeMap<u64, &'static str>,
    /// (site, method called) for the calls of either kind.
    calls: Vec<(u64, u64)>,
    /// Each call's (caller, bci, line).
    locs: BTreeMap<u64, (u64, u64, u64)>,
}

impl Calls {
    /// Finds the calls in `db` (`Iref`, `Iloc`).
    fn read(db: &mut Database) -> Result<Calls, DatabaseError> {
        let mut api_of: BTreeMap<u64, &'static str> = BTreeMap::new();
        for sig in api::all_signatures() {
            if let (Some(label), Some(m)) = (api::label_of(sig), db.id("M", sig)) {
                api_of.insert(m, label);
            }
        }
        let mut definition_of: BTreeMap<u64, &'static str> = BTreeMap::new();
        for &(label, sig) in api::CLASS_DEFINITIONS {
            if let Some(m) = db.id("M", sig) {
                definition_of.insert(m, label);
            }
        }
        let api_methods: BTreeSet<u64> =
            api_of.keys().chain(definition_of.keys()).copied().collect();
        let calls: Vec<(u64, u64)> = db
            .tuples_with("Iref", 1, &api_methods)?
            .into_iter()
            .map(|t| (t[0], t[1]))
            .collect();
        let call_sites: BTreeSet<u64> = calls.iter().map(|t| t.0).collect();
        let mut locs: BTreeMap<u64, (u64, u64, u64)> = BTreeMap::new();
        for t in db.tuples_with("Iloc", 0, &call_sites)? {
            locs.insert(t[0], (t[1], t[2], t[3]));
        }
        Ok(Calls {
            api_of,
            definition_of,
            calls,
            locs,
        })
    }
}

/// The targets of each site, by the relation that holds them ([`APIS`])
/// and the site.
fn targets_by_site(
    db: &mut Database,
) -> Result<BTreeMap<(&'static str, u64), Vec<Target>>, DatabaseError> {
    let mut targets: BTreeMap<(&'static str, u64), Vec<Target>> = BTreeMap::new();
    let mut seen_rel = BTreeSet::new();
    for &(_, rel, domain) in APIS {
        if seen_rel.insert(rel) {
            for t in db.tuples_if_present(rel)? {
                let target = match t[..] {
                    [_, r, e] => Target {
                        element: e,
                        receiver: Some(r),
                        domain,
                    },
                    _ => Target {
                        element: t[1],
                        receiver: None,
                        domain,
                    },
                };
                targets.entry((rel, t[0])).or_default().push(target);
            }
        }
    }
    // The casts variant's classes for forName sites (the types newInstance
    // inferred from casts, kept at the newInstance site) count as the
    // forName site's targets.
    for t in db.tuples_if_present("castClasses")? {
        targets
            .entry(("classObjects", t[0]))
            .or_default()
            .push(Target {
                element: t[1],
                receiver: None,
                domain: "T",
            });
    }
    Ok(targets)
}

/// The sites resolved only partially: a string that names no class
/// reaches them, a specification point, an unknown receiver, or (variant
/// `infer`) a member whose name or class is unknown, resolved from its
/// uses (queries/reflection-infer.dl), or left unresolved there by
/// `--probe` (`probed_out`).
fn partial_sites(
    db: &mut Database,
    spec_points: &[(u64, u64)],
    probed_out: &BTreeSet<u64>,
) -> Result<BTreeSet<u64>, DatabaseError> {
    let names_class: BTreeSet<u64> = db.tuples("stringType")?.into_iter().map(|t| t[0]).collect();
    let mut partial: BTreeSet<u64> = BTreeSet::new();
    for t in db.tuples_if_present("nameSource")? {
        if !names_class.contains(&t[1]) {
            partial.insert(t[0]);
        }
    }
    partial.extend(spec_points.iter().map(|p| p.1));
    partial.extend(probed_out);
    for rel in [
        "unresolved",
        "unknownReceiver",
        "unknownName",
        "unknownClassAt",
        "invokedPlaceholder",
        "ctorPlaceholder",
        "fieldPlaceholder",
    ] {
        partial.extend(db.tuples_if_present(rel)?.into_iter().map(|t| t[0]));
    }
    Ok(partial)
}

/// The analysis's configuration as the report names it: the variant
/// (with member arrays, the context kind and the assumption level), the sites only the
/// specification resolved, and what `--assume` completed.
type Configuration = (String, Option<usize>, Option<Completion>);

/// Reads the [`Configuration`] from the manifest and the relations.
fn configuration(db: &mut Database) -> Result<Configuration, DatabaseError> {
    let mut variant = db.option("variant").unwrap_or("?").to_string();
    if db.option("member-arrays") == Some("on") {
        variant.push_str(", member arrays");
    }
    if db.option("probe") == Some("on") {
        variant.push_str(", probe");
    }
    if let Some(kind) = db.option("context") {
        variant.push_str(&format!(", context {kind}"));
    }
    if let Some(scope) = db.option("context-scope") {
        variant.push_str(&format!(" ({scope} objects)"));
    }
    let spec_only = if db.solver.prog.relation_id("specOnly").is_some() {
        Some(db.tuples("specOnly")?.len())
    } else {
        None
    };
    let completion = match db.option("assume") {
        Some(level) => Some(Completion {
            level: level.to_string(),
            classes: sites_and_pairs(&db.tuples("assumedClass")?),
            methods: sites_and_pairs(&db.tuples("assumedMethod")?),
            fields: sites_and_pairs(&db.tuples("assumedField")?),
        }),
        None => None,
    };
    if let Some(c) = &completion {
        variant.push_str(&format!(", assume {}", c.level));
    }
    Ok((variant, spec_only, completion))
}

/// A method as the export and the report print it, `Decl.name(desc)ret`
/// (a name that is not a Soot signature as it is).
pub fn method_text(signature: String) -> String {
    match parse_method_signature(&signature) {
        Some(s) => format!("{}.{}{}", s.class, s.name, s.descriptor()),
        None => signature,
    }
}

/// A target as the export prints it: a binary class name, a method as
/// `Decl.name(desc)ret`, or a field as `Decl.field`; a lookup by name as
/// `Receiver.name` (`Receiver.<init>` for a constructor).
pub fn target_text(db: &Database, target: Target) -> String {
    let domain = target.domain;
    let name = db.name(domain, target.element);
    if let Some(r) = target.receiver {
        let member = match domain {
            "M" => parse_method_signature(&name).map(|s| s.name),
            _ => parse_field_signature(&name).map(|(_, _, f)| f),
        };
        return format!("{}.{}", db.name("T", r), member.unwrap_or(name));
    }
    match domain {
        "M" => method_text(name),
        "F" => match parse_field_signature(&name) {
            Some((class, _, field)) => format!("{class}.{field}"),
            None => name,
        },
        _ => name,
    }
}
