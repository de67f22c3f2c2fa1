//! `refract check`: an analysed database measured against dynamic
//! traces of real runs ([`super::trace`]). Every edge a run took must be
//! in a sound static answer; the recall per API is the share of traced
//! edges the analysis found, and every missed edge gets its reason:
//!
//! - the API has no model in the analysis;
//! - the call site is not in the class path the database was built from;
//! - the site is there but the call graph does not reach it;
//! - the site is reachable but unresolved (no target);
//! - the site is resolved, to other targets only.
//!
//! The precision proxy is the number of static targets at the traced
//! sites against the edges the runs took there, in all and site by site
//! ([`Spread`]): the widest sites are where precision is lost.
//!
//! Edges to classes the JVM generates at run time (`$$Lambda`, `$Proxy`)
//! are counted apart, as no static analysis can name them, and so are
//! edges to members of classes that the class path lacks (outside the
//! JDK): the program defined them from bytes during the run (jython's
//! compiled scripts, `StringIO$py`; jnr-ffi's generated stubs), or the
//! database was built from a class path without them. So are
//! edges inside the JDK's collection classes that the call graph does not
//! reach because the container model (`src/models/containers.rs`)
//! answers the calls into them at their callers: `HashMap$KeySet.toArray`
//! makes its array by `Array.newInstance`, but the model gives the caller
//! the array it passed, holding the elements, and makes no `KeySet`. So are
//! calls that threw: a `forName` the trace marks failed, and a member
//! lookup (`getMethod("__get__")`) of a name that the receiver's class
//! and its supertypes in the class path do not declare, which throws
//! `NoSuchMethodException` or `NoSuchFieldException`, and a constructor
//! lookup that the class has no constructor for. A caller is a JDK caller when its method
//! is not one of the application's (`applicationMethod`); a caller the
//! database does not hold is judged by its package.

use super::results::{target_text, Results, Site, APIS};
use super::trace::{Caller, TracedEdge};
use crate::classfile::descriptor::parse_method_signature;
use crate::database::{Database, DatabaseError};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Why a traced edge is not in the static answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Missed {
    /// The analysis has no model of the API.
    NotModelled,
    /// No such call site in the database's class path.
    NotInClassPath,
    /// The site exists, but the call graph does not reach it.
    NotReachable,
    /// The site is reachable, with no target.
    Unresolved,
    /// The site is resolved, to other targets only.
    OtherTargets,
}

impl Missed {
    /// The reason in words.
    pub fn text(self) -> &'static str {
        match self {
            Missed::NotModelled => "the API has no model",
            Missed::NotInClassPath => "the call site is not in the class path",
            Missed::NotReachable => "the site is not reachable in the static call graph",
            Missed::Unresolved => "the site is reachable but unresolved",
            Missed::OtherTargets => "the site is resolved to other targets only",
        }
    }

    /// A short label, for TSV and JSON.
    pub fn label(self) -> &'static str {
        match self {
            Missed::NotModelled => "not-modelled",
            Missed::NotInClassPath => "not-in-class-path",
            Missed::NotReachable => "not-reachable",
            Missed::Unresolved => "unresolved",
            Missed::OtherTargets => "other-targets",
        }
    }
}

/// What became of one traced edge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The analysis found it.
    Found,
    /// It was missed, for this reason.
    Missed(Missed),
    /// Its target is a class generated at run time.
    Generated,
    /// Its target is a member of a class (or a class) that the class path
    /// lacks and that is not the JDK's: defined from bytes at run time,
    /// or missing from the class path given.
    ClassAbsent,
    /// Its caller is code of a JDK collection class (a `Collection` or a
    /// `Map`) that the call graph does not reach, because the container
    /// model answers the calls into it where they are made.
    Summarised,
    /// The call threw (`forName` of a class that does not exist, a
    /// lookup of a member that does not exist).
    Failed,
}

/// One traced edge, judged.
#[derive(Clone, Debug)]
pub struct Judged {
    /// The edge.
    pub edge: TracedEdge,
    /// Its outcome.
    pub outcome: Outcome,
    /// Whether the caller is in the JDK.
    pub jdk_caller: bool,
    /// How many static sites a TamiFlex caller matched (more than one:
    /// several calls of the API on that line).
    pub matched_sites: usize,
}

/// Found and traced edges.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Count {
    /// Found by the analysis.
    pub found: usize,
    /// Taken by the run.
    pub traced: usize,
}

impl Count {
    /// `found/traced`, or `-` when nothing was traced.
    pub fn ratio(self) -> String {
        if self.traced == 0 {
            "-".into()
        } else {
            format!("{:.2}", self.found as f64 / self.traced as f64)
        }
    }
}

/// The whole comparison.
#[derive(Clone, Debug, Default)]
pub struct Check {
    /// Every traced edge, judged.
    pub edges: Vec<Judged>,
    /// Per API: (application callers, JDK callers).
    pub per_api: BTreeMap<String, (Count, Count)>,
    /// Traced sites found among the static sites.
    pub matched_sites: usize,
    /// Traced sites in all.
    pub traced_sites: usize,
    /// Static targets at the traced sites that the analysis reaches.
    pub static_edges: usize,
    /// Traced edges at those sites.
    pub traced_edges_at_matched: usize,
    /// Every traced site that the analysis reaches, with its static
    /// targets against the run's edges there, widest first.
    pub spreads: Vec<Spread>,
}

/// A reachable traced site: how many targets the analysis gives it
/// against how many edges the run took there (the precision proxy of
/// SOLAR and Doop, site by site).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spread {
    /// The site, as an exact caller (`a.B.run(I)V @ 7`).
    pub site: String,
    /// Its API label.
    pub api: &'static str,
    /// Its static targets.
    pub static_targets: usize,
    /// The traced edges there.
    pub traced: usize,
    /// Whether the site's method is the JDK's (not the application's).
    pub jdk_caller: bool,
}

impl Spread {
    /// Whether the analysis gives the site more targets than the run
    /// took.
    pub fn imprecise(&self) -> bool {
        self.static_targets > self.traced
    }
}

/// The static edges at some of the traced sites against the run's edges
/// there.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Width {
    /// The analysis's targets at those sites.
    pub static_edges: usize,
    /// The run's edges there.
    pub traced: usize,
}

impl Check {
    /// The static edges at the traced sites against the run's edges
    /// there, for application callers and JDK callers. A site of the
    /// JDK's shared code (`Arrays.copyOf`, a provider's `getImplClass`)
    /// serves every caller of the program and the JDK, while the run took
    /// the few edges its input needed, so the two parts tell different
    /// stories.
    pub fn static_by_caller(&self) -> (Width, Width) {
        let (mut app, mut jdk) = (Width::default(), Width::default());
        for p in &self.spreads {
            let w = if p.jdk_caller { &mut jdk } else { &mut app };
            w.static_edges += p.static_targets;
            w.traced += p.traced;
        }
        (app, jdk)
    }

    /// Found and traced over every API and caller.
    pub fn total(&self) -> Count {
        let mut c = Count::default();
        for (a, j) in self.per_api.values() {
            c.found += a.found + j.found;
            c.traced += a.traced + j.traced;
        }
        c
    }
}

/// A static site as the trace names it.
struct StaticSite<'a> {
    site: &'a Site,
    /// The site as an exact caller.
    label: String,
    reachable: bool,
    /// The targets as the export writes them.
    targets: BTreeSet<String>,
}

/// The static sites of the results, indexed by exact caller and by
/// (class, method) with their lines, as traces name them.
struct SiteIndex<'a> {
    /// The sites, reachable ones first.
    sites: Vec<StaticSite<'a>>,
    /// By (class, method, descriptor, bci).
    exact: HashMap<(String, String, String, u64), Vec<usize>>,
    /// By (class, method): (line, site).
    by_line: HashMap<(String, String), Vec<(u64, usize)>>,
}

impl<'a> SiteIndex<'a> {
    /// Indexes the reachable and unreachable sites of `r`.
    fn build(db: &mut Database, r: &'a Results) -> SiteIndex<'a> {
        let mut index = SiteIndex {
            sites: Vec::new(),
            exact: HashMap::new(),
            by_line: HashMap::new(),
        };
        for (reachable, list) in [(true, &r.sites), (false, &r.unreachable)] {
            for s in list {
                let Some(sig) = parse_method_signature(&db.name("M", s.caller)) else {
                    continue;
                };
                let k = index.sites.len();
                index
                    .exact
                    .entry((sig.class.clone(), sig.name.clone(), sig.descriptor(), s.bci))
                    .or_default()
                    .push(k);
                index
                    .by_line
                    .entry((sig.class.clone(), sig.name.clone()))
                    .or_default()
                    .push((s.line, k));
                let label = Caller::Exact {
                    class: sig.class.clone(),
                    method: sig.name.clone(),
                    desc: sig.descriptor(),
                    bci: s.bci,
                }
                .to_string();
                index.sites.push(StaticSite {
                    site: s,
                    label,
                    reachable,
                    targets: s.targets.iter().map(|&t| target_text(db, t)).collect(),
                });
            }
        }
        index
    }

    /// The static sites of `api` at `caller`: the one at its bci, or
    /// those on its line (every line of the method when the trace gives
    /// none).
    fn candidates(&self, caller: &Caller, api: &str) -> Vec<usize> {
        let all: Vec<usize> = match caller {
            Caller::Exact {
                class,
                method,
                desc,
                bci,
            } => self
                .exact
                .get(&(class.clone(), method.clone(), desc.clone(), *bci))
                .cloned()
                .unwrap_or_default(),
            Caller::ByLine {
                class,
                method,
                line,
            } => self
                .by_line
                .get(&(class.clone(), method.clone()))
                .into_iter()
                .flatten()
                .filter(|(l, _)| line.is_none_or(|want| *l == want))
                .map(|(_, k)| *k)
                .collect(),
        };
        all.into_iter()
            .filter(|&k| self.sites[k].site.api == api)
            .collect()
    }

    /// What became of a traced edge at its static `candidates` (neither
    /// failed nor generated, of a modelled API): found, or why not. The
    /// reachable candidates are counted in `matched`.
    fn judge(
        &self,
        edge: &TracedEdge,
        candidates: &[usize],
        matched: &mut BTreeMap<usize, usize>,
    ) -> Outcome {
        if candidates.is_empty() {
            return Outcome::Missed(Missed::NotInClassPath);
        }
        let reachable: Vec<usize> = candidates
            .iter()
            .copied()
            .filter(|&k| self.sites[k].reachable)
            .collect();
        if reachable.is_empty() {
            return Outcome::Missed(Missed::NotReachable);
        }
        for &k in &reachable {
            *matched.entry(k).or_default() += 1;
        }
        let found = reachable.iter().any(|&k| {
            let t = &self.sites[k].targets;
            t.contains(&edge.target) || edge.dispatched.iter().any(|d| t.contains(d))
        });
        if found {
            Outcome::Found
        } else if reachable.iter().all(|&k| self.sites[k].targets.is_empty()) {
            Outcome::Missed(Missed::Unresolved)
        } else {
            Outcome::Missed(Missed::OtherTargets)
        }
    }
}

/// Judges `edges` against the results of `db`.
pub fn check(
    db: &mut Database,
    r: &Results,
    edges: Vec<TracedEdge>,
) -> Result<Check, DatabaseError> {
    let index = SiteIndex::build(db, r);
    let sites = &index.sites;
    let app_methods: BTreeSet<u64> = db
        .tuples_if_present("applicationMethod")?
        .into_iter()
        .map(|t| t[0])
        .collect();
    let modelled: BTreeSet<&str> = APIS.iter().map(|a| a.0).collect();
    let mut missing = missing_members(db, &edges)?;
    missing.extend(missing_classes(db, &edges)?);
    let absent = absent_classes(db, &edges)?;
    let summarised = summarised_classes(db, &edges)?;
    let invokes_at = |e: &TracedEdge| -> Vec<u64> {
        match &e.caller {
            Caller::Exact { .. } => index
                .candidates(&e.caller, &e.api)
                .into_iter()
                .map(|k| sites[k].site.invoke)
                .collect(),
            Caller::ByLine { .. } => Vec::new(),
        }
    };
    missing.extend(missing_constructors(db, &edges, &invokes_at)?);
    // Whether static site `k` is in a method of the JDK's.
    let jdk_site = |k: usize| !app_methods.contains(&sites[k].site.caller);

    let mut out = Check::default();
    let mut traced_sites: BTreeSet<Caller> = BTreeSet::new();
    let mut matched: BTreeMap<usize, usize> = BTreeMap::new(); // static site -> traced edges there
    for (n, edge) in edges.into_iter().enumerate() {
        traced_sites.insert(edge.caller.clone());
        let candidates = index.candidates(&edge.caller, &edge.api);
        let jdk_caller = match candidates.first() {
            Some(&k) => jdk_site(k),
            None => is_jdk_class(edge.caller.class()),
        };
        let outcome = if edge.failed || missing.contains(&n) {
            Outcome::Failed
        } else if is_generated(&edge.target) {
            Outcome::Generated
        } else if absent.contains(&n) {
            Outcome::ClassAbsent
        } else if !modelled.contains(edge.api.as_str()) {
            Outcome::Missed(Missed::NotModelled)
        } else {
            match index.judge(&edge, &candidates, &mut matched) {
                Outcome::Missed(Missed::NotReachable)
                    if summarised.contains(edge.caller.class()) =>
                {
                    Outcome::Summarised
                }
                judged => judged,
            }
        };
        if matches!(outcome, Outcome::Found | Outcome::Missed(_)) {
            let e = out.per_api.entry(edge.api.clone()).or_default();
            let c = if jdk_caller { &mut e.1 } else { &mut e.0 };
            c.traced += 1;
            if outcome == Outcome::Found {
                c.found += 1;
            }
        }
        out.edges.push(Judged {
            matched_sites: candidates.len(),
            edge,
            outcome,
            jdk_caller,
        });
    }
    out.traced_sites = traced_sites.len();
    out.matched_sites = matched.len();
    out.static_edges = matched.keys().map(|&k| sites[k].targets.len()).sum();
    out.traced_edges_at_matched = matched.values().sum();
    out.spreads = matched
        .iter()
        .map(|(&k, &traced)| Spread {
            site: sites[k].label.clone(),
            api: sites[k].site.api,
            static_targets: sites[k].targets.len(),
            traced,
            jdk_caller: jdk_site(k),
        })
        .collect();
    out.spreads.sort_by(|a, b| {
        (b.static_targets.cmp(&a.static_targets))
            .then_with(|| (&a.site, a.api).cmp(&(&b.site, b.api)))
    });
    Ok(out)
}

/// The indexes in `edges` of the member lookups by name
/// (`Class.getMethod`, `getField` and their declared forms) whose traced
/// target, `Class.name`, names a class of
/// the database that has no member of that name: neither declared by it
/// nor, for the public lookups, by a supertype. Such a lookup threw, and
/// the run took no edge. Lookups on classes the database does not hold
/// are not judged.
fn missing_members(
    db: &mut Database,
    edges: &[TracedEdge],
) -> Result<BTreeSet<usize>, DatabaseError> {
    // edge -> (class, member name, methods or fields, declared only)
    let mut asked: BTreeMap<usize, (u64, String, bool, bool)> = BTreeMap::new();
    for (n, e) in edges.iter().enumerate() {
        let (methods, declared) = match e.api.as_str() {
            "Class.getMethod" => (true, false),
            "Class.getDeclaredMethod" => (true, true),
            "Class.getField" => (false, false),
            "Class.getDeclaredField" => (false, true),
            _ => continue,
        };
        let Some((class, name)) = e.target.rsplit_once('.') else {
            continue;
        };
        if let Some(t) = db.id("T", class) {
            asked.insert(n, (t, name.to_string(), methods, declared));
        }
    }
    let mut out = BTreeSet::new();
    if asked.is_empty() {
        return Ok(out);
    }
    // Each asked class with its supertypes (aT(super, sub)).
    let classes: BTreeSet<u64> = asked.values().map(|a| a.0).collect();
    let mut supers: BTreeMap<u64, BTreeSet<u64>> =
        classes.iter().map(|&t| (t, BTreeSet::from([t]))).collect();
    for t in rows_with(db, "aT", 1, &classes)? {
        if let Some(set) = supers.get_mut(&t[1]) {
            set.insert(t[0]);
        }
    }
    let wanted: BTreeSet<u64> = supers.values().flatten().copied().collect();
    // The names each of those classes declares, methods and fields apart.
    let mut declares: HashMap<(u64, bool), BTreeSet<String>> = HashMap::new();
    for (rel, domain, methods) in [("declaresMethod", "M", true), ("declaresField", "F", false)] {
        for t in rows_with(db, rel, 0, &wanted)? {
            let member = db.name(domain, t[1]);
            if let Some(name) = member_name(&member) {
                declares.entry((t[0], methods)).or_default().insert(name);
            }
        }
    }
    let declares_name = |h: u64, methods: bool, name: &str| {
        declares
            .get(&(h, methods))
            .is_some_and(|names| names.contains(name))
    };
    for (n, (t, name, methods, declared)) in asked {
        let found = if declared {
            declares_name(t, methods, &name)
        } else {
            supers[&t].iter().any(|&h| declares_name(h, methods, &name))
        };
        if !found {
            out.insert(n);
        }
    }
    Ok(out)
}

/// The indexes in `edges` of the constructor lookups
/// (`Class.getConstructor`, `getDeclaredConstructor`; the trace names
/// only the class, `C.<init>`) whose class, in the database, has no
/// constructor the lookup can return: `getConstructor` finds only public
/// ones, an interface has none, and a site that passes its parameter
/// types as constants (`actualArrayTypes`, at every static site of the
/// caller's bytecode index, found by `invokes_at`) finds only a
/// constructor with that list. Such a lookup threw
/// `NoSuchMethodException` (ant asks every attribute type for a
/// `(Project, String)` constructor, then for a `(String)` one), and the
/// run took no edge. Classes the database does not hold are not judged.
fn missing_constructors(
    db: &mut Database,
    edges: &[TracedEdge],
    invokes_at: &dyn Fn(&TracedEdge) -> Vec<u64>,
) -> Result<BTreeSet<usize>, DatabaseError> {
    // edge -> (class, public only, the sites' invokes)
    let mut asked: BTreeMap<usize, (u64, bool, Vec<u64>)> = BTreeMap::new();
    for (n, e) in edges.iter().enumerate() {
        let public_only = match e.api.as_str() {
            "Class.getConstructor" => true,
            "Class.getDeclaredConstructor" => false,
            _ => continue,
        };
        let Some(class) = e.target.strip_suffix(".<init>") else {
            continue;
        };
        if let Some(t) = db.id("T", class) {
            asked.insert(n, (t, public_only, invokes_at(e)));
        }
    }
    let mut out = BTreeSet::new();
    if asked.is_empty() {
        return Ok(out);
    }
    let classes: BTreeSet<u64> = asked.values().map(|a| a.0).collect();
    let mut ctors: BTreeMap<u64, Vec<u64>> = BTreeMap::new();
    for t in rows_with(db, "constructor", 0, &classes)? {
        ctors.entry(t[0]).or_default().push(t[1]);
    }
    let methods: BTreeSet<u64> = ctors.values().flatten().copied().collect();
    let public_id = db.id("MOD", "public");
    let public: BTreeSet<u64> = rows_with(db, "methodModifier", 0, &methods)?
        .into_iter()
        .filter(|t| Some(t[1]) == public_id)
        .map(|t| t[0])
        .collect();
    let params: BTreeMap<u64, u64> = rows_with(db, "methodParams", 0, &methods)?
        .into_iter()
        .map(|t| (t[0], t[1]))
        .collect();
    let invokes: BTreeSet<u64> = asked.values().flat_map(|a| a.2.clone()).collect();
    let mut lists: BTreeMap<u64, BTreeSet<u64>> = BTreeMap::new();
    for t in rows_with(db, "actualArrayTypes", 0, &invokes)? {
        if t[1] == 1 {
            lists.entry(t[0]).or_default().insert(t[2]);
        }
    }
    for (n, (t, public_only, invokes)) in asked {
        // The lists the sites admit, if every site names its own.
        let named = !invokes.is_empty() && invokes.iter().all(|i| lists.contains_key(i));
        let admitted: Option<BTreeSet<u64>> =
            named.then(|| invokes.iter().flat_map(|i| &lists[i]).copied().collect());
        let returns = |m: &u64| {
            (!public_only || public.contains(m))
                && admitted
                    .as_ref()
                    .is_none_or(|a| params.get(m).is_some_and(|p| a.contains(p)))
        };
        if !ctors.get(&t).is_some_and(|ms| ms.iter().any(returns)) {
            out.insert(n);
        }
    }
    Ok(out)
}

/// The indexes in `edges` of the loads of a class by name
/// (`Class.forName`, `ClassLoader.loadClass`, `Lookup.findClass`) whose
/// traced target is a class the database's class path does not define:
/// such a call threw `ClassNotFoundException`, and the run took no edge.
/// `ResourceBundle.getBundle` tries a class before a `.properties` file
/// of each candidate name (`ResourceBundle$Control.newBundle0`, one
/// `loadClass` per name), and a tracer marks only a failed `forName`.
/// Array classes (`[Ljava.lang.String;`) and the classes the JVM
/// generates (`$Proxy`, `$$Lambda`, counted apart) are not judged.
fn missing_classes(
    db: &mut Database,
    edges: &[TracedEdge],
) -> Result<BTreeSet<usize>, DatabaseError> {
    const BY_NAME: &[&str] = &[
        "Class.forName",
        "ClassLoader.loadClass",
        "MethodHandles.Lookup.findClass",
    ];
    let asked: Vec<(usize, Option<u64>)> = (edges.iter().enumerate())
        .filter(|(_, e)| BY_NAME.contains(&e.api.as_str()))
        .filter(|(_, e)| !e.target.starts_with('[') && !e.target.ends_with("[]"))
        .filter(|(_, e)| !is_generated(&e.target))
        .map(|(n, e)| (n, db.id("T", &e.target)))
        .collect();
    undefined(db, asked)
}

/// Of the `asked` edges, each with its class (a `T` element, `None` for a
/// name the database does not hold), the indexes of those whose class
/// the database's class path does not define: a class is defined when it
/// declares a method (every class has a constructor) or has modifiers
/// (every interface is abstract).
fn undefined(
    db: &mut Database,
    asked: Vec<(usize, Option<u64>)>,
) -> Result<BTreeSet<usize>, DatabaseError> {
    let named: BTreeSet<u64> = asked.iter().filter_map(|a| a.1).collect();
    let mut defined: BTreeSet<u64> = BTreeSet::new();
    if !named.is_empty() {
        for rel in ["declaresMethod", "classModifier"] {
            defined.extend(rows_with(db, rel, 0, &named)?.into_iter().map(|t| t[0]));
        }
    }
    Ok(asked
        .into_iter()
        .filter(|(_, t)| t.is_none_or(|t| !defined.contains(&t)))
        .map(|(n, _)| n)
        .collect())
}

/// The indexes in `edges` of the edges (other than the loads by name,
/// see [`missing_classes`]) whose target belongs to a class the
/// database's class path does not define and that is not the JDK's: the
/// class was defined from bytes during the run (a script compiled to
/// bytecode, a generated stub), so no analysis of the class path can name
/// it. The JDK's classes are not judged (a database built without the
/// JDK lacks them all), nor are primitive and array types.
fn absent_classes(
    db: &mut Database,
    edges: &[TracedEdge],
) -> Result<BTreeSet<usize>, DatabaseError> {
    let asked: Vec<(usize, Option<u64>)> = (edges.iter().enumerate())
        .filter(|(_, e)| !is_generated(&e.target))
        .filter_map(|(n, e)| target_class(&e.api, &e.target).map(|c| (n, c)))
        .filter(|(_, c)| c.contains('.') && !c.ends_with("[]") && !is_jdk_class(c))
        .map(|(n, c)| (n, db.id("T", c)))
        .collect();
    undefined(db, asked)
}

/// The callers' classes, of those of `edges`, whose code the container
/// model answers at its callers: the JDK's classes that implement
/// `java.util.Collection` or `java.util.Map` (the views and immutable
/// collections among them), when the database was analysed with the
/// model. The model makes no object of a view's class or an immutable
/// collection's (a view is an object of its own at the call site, typed
/// as the method declares), so their code is reached only where an
/// unmodelled caller makes one.
fn summarised_classes(
    db: &mut Database,
    edges: &[TracedEdge],
) -> Result<BTreeSet<String>, DatabaseError> {
    let off = db.option("no-model").unwrap_or("");
    if off.split(',').any(|m| m == "containers") {
        return Ok(BTreeSet::new());
    }
    let roots: BTreeSet<u64> = ["java.util.Collection", "java.util.Map"]
        .iter()
        .filter_map(|c| db.id("T", c))
        .collect();
    let callers: BTreeMap<u64, &str> = (edges.iter())
        .map(|e| e.caller.class())
        .filter(|c| is_jdk_class(c))
        .filter_map(|c| db.id("T", c).map(|t| (t, c)))
        .collect();
    if roots.is_empty() || callers.is_empty() {
        return Ok(BTreeSet::new());
    }
    let keys: BTreeSet<u64> = callers.keys().copied().collect();
    // aT(super, sub): the callers' supertypes.
    Ok(rows_with(db, "aT", 1, &keys)?
        .into_iter()
        .filter(|t| roots.contains(&t[0]))
        .filter_map(|t| callers.get(&t[1]).map(|c| c.to_string()))
        .collect())
}

/// The class a traced target belongs to, as reftrace writes targets:
/// `Receiver.name` for the member lookups, `Decl.name(desc)ret` for
/// `Method.invoke` and `Constructor.newInstance`, `Decl.field` for the
/// `Field` accessors, the class itself for the APIs that take or make
/// one. `None` for the loads by name, and for APIs whose target is no
/// class of the program's.
fn target_class<'a>(api: &str, target: &'a str) -> Option<&'a str> {
    match api {
        "Class.getMethod"
        | "Class.getDeclaredMethod"
        | "Class.getField"
        | "Class.getDeclaredField"
        | "Class.getConstructor"
        | "Class.getDeclaredConstructor"
        | "Field.get"
        | "Field.set" => target.rsplit_once('.').map(|x| x.0),
        "Method.invoke" | "Method.invoke.dispatch" | "Constructor.newInstance" => {
            target.split('(').next()?.rsplit_once('.').map(|x| x.0)
        }
        "Class.getMethods"
        | "Class.getDeclaredMethods"
        | "Class.getFields"
        | "Class.getDeclaredFields"
        | "Class.getConstructors"
        | "Class.getDeclaredConstructors"
        | "Class.newInstance"
        | "Array.newInstance"
        | "Proxy.newProxyInstance" => Some(target),
        _ => None,
    }
}

/// The tuples of relation `rel` whose `column` is one of `keys`, none if
/// the database lacks the relation: only those rows are read.
fn rows_with(
    db: &mut Database,
    rel: &str,
    column: usize,
    keys: &BTreeSet<u64>,
) -> Result<Vec<Vec<u64>>, DatabaseError> {
    if db.has(rel) {
        db.tuples_with(rel, column, keys)
    } else {
        Ok(Vec::new())
    }
}

/// The member name of a method or field signature
/// (`<a.B: void run(int)>` is `run`, `<a.B: int count>` is `count`).
fn member_name(signature: &str) -> Option<String> {
    let rest = signature.strip_prefix('<')?.strip_suffix('>')?;
    let (_, member) = rest.split_once(": ")?;
    let before_params = member.split('(').next()?;
    before_params.rsplit(' ').next().map(str::to_string)
}

/// A class the JVM makes at run time: lambdas and proxies.
fn is_generated(name: &str) -> bool {
    name.contains("$$Lambda") || name.contains("$Proxy") || name.contains("/0x")
}

/// A JDK class, by its package (for callers the database does not hold).
fn is_jdk_class(class: &str) -> bool {
    [
        "java.",
        "javax.",
        "jdk.",
        "sun.",
        "com.sun.",
        "org.w3c.dom.",
        "org.xml.sax.",
        "org.ietf.jgss.",
    ]
    .iter()
    .any(|p| class.starts_with(p))
}

/// How many of the widest imprecise sites the text report lists (the
/// JSON report has every site).
const WIDEST_SHOWN: usize = 10;

/// The report as text: recall per API for application and JDK callers,
/// the static edges at the traced sites, and every missed edge with its
/// reason.
pub fn render_text(c: &Check, trace_name: &str) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let with = |o: Outcome| c.edges.iter().filter(move |e| e.outcome == o);
    let generated = with(Outcome::Generated).count();
    let failed = with(Outcome::Failed).count();
    let absent_edges = with(Outcome::ClassAbsent).count();
    let summarised = with(Outcome::Summarised).count();
    let absent: BTreeSet<&str> = with(Outcome::ClassAbsent)
        .filter_map(|e| target_class(&e.edge.api, &e.edge.target))
        .collect();
    let _ = writeln!(
        s,
        "trace {trace_name}: {} edges at {} sites; {} of the sites are reachable in the database",
        c.edges.len(),
        c.traced_sites,
        c.matched_sites
    );
    if c.matched_sites == 0 && !c.edges.is_empty() {
        let _ = writeln!(
            s,
            "note: no traced site is a reachable site of this database (a trace of another program?)"
        );
    }
    // The API column is as wide as its longest label
    // (`Class.getDeclaredConstructor`).
    let w = c.per_api.keys().map(|a| a.len()).max().unwrap_or(0).max(24);
    let _ = writeln!(
        s,
        "\n{:<w$} {:>12} {:>6} {:>12} {:>6}",
        "api", "application", "recall", "jdk", "recall"
    );
    for (api, (a, j)) in &c.per_api {
        let _ = writeln!(
            s,
            "{api:<w$} {:>12} {:>6} {:>12} {:>6}",
            format!("{}/{}", a.found, a.traced),
            a.ratio(),
            format!("{}/{}", j.found, j.traced),
            j.ratio()
        );
    }
    let t = c.total();
    let _ = writeln!(
        s,
        "{:<w$} {:>12} {:>6}",
        "all",
        format!("{}/{}", t.found, t.traced),
        t.ratio()
    );
    let _ = writeln!(
        s,
        "\nstatic edges at the traced sites: {} (the run took {} there)",
        c.static_edges, c.traced_edges_at_matched
    );
    let (app, jdk) = c.static_by_caller();
    let _ = writeln!(
        s,
        "  application callers: {} (the run took {}); JDK callers: {} (the run took {})",
        app.static_edges, app.traced, jdk.static_edges, jdk.traced
    );
    let imprecise: Vec<&Spread> = c.spreads.iter().filter(|p| p.imprecise()).collect();
    if !imprecise.is_empty() {
        let shown = imprecise.len().min(WIDEST_SHOWN);
        let _ = writeln!(
            s,
            "sites with more static targets than the run took: {}; the widest {shown} (static / traced):",
            imprecise.len()
        );
        for p in &imprecise[..shown] {
            let _ = writeln!(
                s,
                "  {:>6} / {:<3} {}  {}",
                p.static_targets, p.traced, p.site, p.api
            );
        }
    }
    let _ = writeln!(
        s,
        "generated at run time ($$Lambda, $Proxy): {generated}; calls that threw (a missing class or member): {failed}"
    );
    if absent_edges > 0 {
        let classes = if absent.len() == 1 {
            "class"
        } else {
            "classes"
        };
        let _ = writeln!(
            s,
            "edges to classes the class path lacks (defined from bytes during the run, or missing from the class path): {absent_edges}, into {} {classes}",
            absent.len()
        );
    }
    if summarised > 0 {
        let _ = writeln!(
            s,
            "edges in the JDK's collection code, which the container model answers at its callers: {summarised}"
        );
    }
    let missed: Vec<&Judged> = c
        .edges
        .iter()
        .filter(|e| matches!(e.outcome, Outcome::Missed(_)))
        .collect();
    if !missed.is_empty() {
        let _ = writeln!(s, "\nmissed edges ({}):", missed.len());
        for e in missed {
            let Outcome::Missed(why) = e.outcome else {
                continue;
            };
            let several = if e.matched_sites > 1 {
                format!(" (the line holds {} such sites)", e.matched_sites)
            } else {
                String::new()
            };
            let _ = writeln!(
                s,
                "  {}  {}  {}: {}{several}",
                e.edge.caller,
                e.edge.api,
                e.edge.target,
                why.text()
            );
        }
    }
    s
}

/// One row per traced edge: the caller as the trace gave it (`-` for
/// what its format lacks), the api, the target, the caller's kind and
/// the outcome.
pub fn render_tsv(c: &Check) -> String {
    let mut s = String::from(
        "caller_class\tcaller_method\tcaller_desc\tbci\tline\tapi\ttarget\tcaller_kind\toutcome\n",
    );
    for e in &c.edges {
        let caller = match &e.edge.caller {
            Caller::Exact {
                class,
                method,
                desc,
                bci,
            } => format!("{class}\t{method}\t{desc}\t{bci}\t-"),
            Caller::ByLine {
                class,
                method,
                line,
            } => format!(
                "{class}\t{method}\t-\t-\t{}",
                line.map_or_else(|| "-".to_string(), |l| l.to_string())
            ),
        };
        s.push_str(&format!(
            "{}\t{}\t{}\t{}\t{}\n",
            caller,
            e.edge.api,
            e.edge.target,
            if e.jdk_caller { "jdk" } else { "application" },
            outcome_label(&e.outcome)
        ));
    }
    s
}

fn outcome_label(o: &Outcome) -> &'static str {
    match o {
        Outcome::Found => "found",
        Outcome::Missed(m) => m.label(),
        Outcome::Generated => "generated",
        Outcome::ClassAbsent => "class-absent",
        Outcome::Summarised => "summarised",
        Outcome::Failed => "failed",
    }
}

/// The summary and the edges as JSON.
pub fn render_json(c: &Check) -> String {
    let q = |s: &str| {
        let mut o = String::from("\"");
        for ch in s.chars() {
            match ch {
                '"' => o.push_str("\\\""),
                '\\' => o.push_str("\\\\"),
                c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
                c => o.push(c),
            }
        }
        o.push('"');
        o
    };
    let t = c.total();
    let apis: Vec<String> = c
        .per_api
        .iter()
        .map(|(api, (a, j))| {
            format!(
                "{}: {{\"application\": {{\"found\": {}, \"traced\": {}}}, \"jdk\": {{\"found\": {}, \"traced\": {}}}}}",
                q(api),
                a.found,
                a.traced,
                j.found,
                j.traced
            )
        })
        .collect();
    let edges: Vec<String> = c
        .edges
        .iter()
        .map(|e| {
            format!(
                "{{\"caller\": {}, \"api\": {}, \"target\": {}, \"jdk_caller\": {}, \"outcome\": {}}}",
                q(&e.edge.caller.to_string()),
                q(&e.edge.api),
                q(&e.edge.target),
                e.jdk_caller,
                q(outcome_label(&e.outcome))
            )
        })
        .collect();
    let sites: Vec<String> = c
        .spreads
        .iter()
        .map(|p| {
            format!(
                "{{\"site\": {}, \"api\": {}, \"static_targets\": {}, \"traced\": {}, \"jdk_caller\": {}}}",
                q(&p.site),
                q(p.api),
                p.static_targets,
                p.traced,
                p.jdk_caller
            )
        })
        .collect();
    let (app, jdk) = c.static_by_caller();
    format!(
        "{{\"found\": {}, \"traced\": {}, \"traced_sites\": {}, \"matched_sites\": {}, \"static_edges\": {}, \"static_edges_by_caller\": {{\"application\": {{\"static\": {}, \"traced\": {}}}, \"jdk\": {{\"static\": {}, \"traced\": {}}}}}, \"apis\": {{{}}}, \"sites\": [{}], \"edges\": [{}]}}\n",
        t.found,
        t.traced,
        c.traced_sites,
        c.matched_sites,
        c.static_edges,
        app.static_edges,
        app.traced,
        jdk.static_edges,
        jdk.traced,
        apis.join(", "),
        sites.join(", "),
        edges.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::{member_name, target_class};

    #[test]
    fn a_traced_target_belongs_to_its_class() {
        let class = |api, target| target_class(api, target);
        assert_eq!(class("Class.getMethod", "a.B$C.run"), Some("a.B$C"));
        assert_eq!(
            class("Class.getConstructor", "abc$py.<init>"),
            Some("abc$py")
        );
        assert_eq!(
            class("Method.invoke", "a.B.run(Ljava/lang/String;)V"),
            Some("a.B")
        );
        assert_eq!(
            class(
                "Constructor.newInstance",
                "a.B$$0.<init>([Ljava/lang/Object;)V"
            ),
            Some("a.B$$0")
        );
        assert_eq!(class("Field.get", "a.B.count"), Some("a.B"));
        assert_eq!(class("Class.getMethods", "a.B"), Some("a.B"));
        assert_eq!(class("Array.newInstance", "int"), Some("int"));
        assert_eq!(class("Class.forName", "a.B"), None);
    }

    #[test]
    fn member_names_of_method_and_field_signatures() {
        assert_eq!(
            member_name("<a.B$C: void run(int,java.lang.String)>").as_deref(),
            Some("run")
        );
        assert_eq!(member_name("<a.B: int count>").as_deref(), Some("count"));
        assert_eq!(
            member_name("<a.B: void <init>()>").as_deref(),
            Some("<init>")
        );
        assert_eq!(member_name("a.B.run"), None);
    }
}
