//! Running an analysis: the facts go straight from memory into BDDs, the
//! rules of the chosen variant run, and facts, results, the program text
//! and metadata are written as one database.

use super::spec;
use super::variant::Variant;
use crate::bdd::relation_from_tuples;
use crate::classfile::model::access;
use crate::database::manifest::ManifestBuilder;
use crate::database::staged::StagedDatabase;
use crate::datalog::constants;
use crate::datalog::observer::SharedObserver;
use crate::datalog::parser::parse_str;
use crate::datalog::resolve::resolve;
use crate::datalog::solver::Solver;
use crate::datalog::views::{take_views, View};
use crate::facts::schema::RELATIONS;
use crate::facts::write::{
    domain_sizes, hold_constants, schema_text, tuples, write_maps_and_schema, write_relations,
    Summary,
};
use crate::facts::ProgramFacts;
use rayon::prelude::*;
use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What to analyse and how.
#[derive(Clone, Debug)]
pub struct AnalysisOptions {
    /// The reflection variant.
    pub variant: Variant,
    /// The contexts of the points-to analysis.
    pub context: super::Context,
    /// Which objects the object and type kinds make context elements of.
    pub context_scope: super::ContextScope,
    /// Classes whose `main` methods are roots.
    pub mains: Vec<String>,
    /// Every public method of the application's classes is a root.
    pub library_roots: bool,
    /// The methods the JVM calls with no call site in the program are
    /// roots (`queries/models/jvm-entry.dl`).
    pub jvm_roots: bool,
    /// A specification file (variant `sound`).
    pub spec: Option<PathBuf>,
    /// Fill the arrays of `getMethods()`, `getFields()`, `getConstructors()`
    /// and their `Declared` forms with the receiver classes' members (see
    /// `queries/reflection-member-arrays.dl`); off, they stay empty, as in
    /// the paper's implementation.
    pub member_arrays: bool,
    /// SOLAR's PROBE (`--probe`, variant `infer` only): placeholders are
    /// resolved at their uses only where their member's signature is
    /// known in part (`queries/reflection-probe.dl`).
    pub probe: bool,
    /// The assumption under which the call graph is to be sound
    /// (`queries/reflection-assume.dl`): the sites it does not trust get
    /// every target it allows. None: they stay as the variant leaves
    /// them, and `refract report` lists the unsound ones.
    pub assume: Option<super::Assume>,
    /// The locales of the runs (`en_US`): resource bundles load only
    /// their variants (`runVariant`, see `queries/models/bundles.dl`).
    /// Empty: every locale of the class path.
    pub locales: Vec<String>,
    /// Models of `queries/models/` switched off (see
    /// [`super::variant::MODEL_NAMES`]): their relations stay empty, so
    /// that a model's cost and gain can be measured on the same facts.
    pub models_off: Vec<String>,
    /// A BDD variable order (`.bddvarorder` form) that replaces the one
    /// the rules give; `REFRACT_VARORDER` sets it too.
    pub var_order: Option<String>,
    /// Told of the solve's strata and iterations as they go (the
    /// command line's progress line).
    pub observer: SharedObserver,
    /// Keep every relation in the solver that [`analyze`] returns. Off,
    /// the solve frees each relation once no stratum still to run reads
    /// it, after writing those the database stores
    /// ([`Solver::retire_final_relations`]), and the returned solver has
    /// them empty: the command line reads the database instead.
    pub keep_relations: bool,
}

/// Why an analysis could not run.
#[derive(Debug, thiserror::Error)]
pub enum AnalysisError {
    /// Writing the database failed. (The cause is the error's source, so
    /// that a chain printed with `{:#}` names it once.)
    #[error("cannot write the database")]
    Io(#[from] std::io::Error),
    /// The Datalog program failed (a bug in the rules, or damaged input).
    #[error(transparent)]
    Datalog(#[from] crate::datalog::error::Error),
    /// A `--main` class has no `public static void main(String[])`: the
    /// class, and a hint naming the application's classes that have one.
    #[error("--main {0}: the class path has no method <{0}: void main(java.lang.String[])>{1}")]
    NoMain(String, String),
    /// `--assume` does not fit the variant.
    #[error("{0}")]
    Assume(String),
    /// The contexts asked for do not fit the program.
    #[error("{0}")]
    Contexts(String),
    /// No roots were given or found.
    #[error("no entry points: pass --main CLASS, --roots library or --roots jvm")]
    NoRoots,
    /// The specification file is malformed.
    #[error("{0}")]
    Spec(String),
    /// Ctrl-C, or the memory budget, stopped the run outside the solver.
    #[error("{0}")]
    Interrupted(crate::interrupt::Interrupted),
}

/// Timings and sizes of a run.
#[derive(Clone, Debug, Default)]
pub struct AnalysisStats {
    /// Building the BDDs of the facts.
    pub load: Duration,
    /// Solving.
    pub solve: Duration,
    /// Number of root methods.
    pub roots: usize,
}

/// A hint for a `--main` class without a `main` method: the nearest of
/// the application's classes that have one (` (did you mean Invoke?)`),
/// or, when none is near, those classes (up to ten), or nothing.
fn main_hint(facts: &ProgramFacts, wanted: &str) -> String {
    let b = &facts.builder;
    let mut mains: Vec<&str> = b
        .declared
        .iter()
        .filter(|&&(_, is_library)| !is_library)
        .filter_map(|&(t, _)| b.hierarchy.get(b.types.name(t)))
        .filter(|node| {
            node.methods.iter().any(|m| {
                m.name == "main"
                    && m.desc == "([Ljava/lang/String;)V"
                    && m.access & access::STATIC != 0
            })
        })
        .map(|node| node.name.as_str())
        .collect();
    mains.sort_unstable();
    mains.dedup();
    let near = crate::datalog::quote::did_you_mean(wanted, mains.iter().copied());
    if !near.is_empty() || mains.is_empty() {
        return near;
    }
    let shown: Vec<&str> = mains.iter().take(10).copied().collect();
    let more = if mains.len() > shown.len() {
        format!(", and {} more", mains.len() - shown.len())
    } else {
        String::new()
    };
    format!(" (classes with a main method: {}{more})", shown.join(", "))
}

/// The root methods of the analysis.
pub fn roots(facts: &ProgramFacts, opts: &AnalysisOptions) -> Result<Vec<u32>, AnalysisError> {
    let b = &facts.builder;
    let mut out = Vec::new();
    for c in &opts.mains {
        let sig = format!("<{c}: void main(java.lang.String[])>");
        match b.methods.get(&sig) {
            Some(m) if b.hierarchy.get(c).is_some() => out.push(m),
            _ => return Err(AnalysisError::NoMain(c.clone(), main_hint(facts, c))),
        }
    }
    if opts.library_roots {
        for &(t, is_library) in &b.declared {
            if is_library {
                continue;
            }
            let Some(node) = b.hierarchy.get(b.types.name(t)) else {
                continue;
            };
            for m in &node.methods {
                if m.access & access::PUBLIC != 0 && m.access & access::ABSTRACT == 0 {
                    out.push(m.id);
                }
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    // The JVM's entry points are roots in the rules (jvm-entry.dl).
    if out.is_empty() && !opts.jvm_roots {
        return Err(AnalysisError::NoRoots);
    }
    Ok(out)
}

/// Runs the analysis and writes the database `db` (atomically: a failed
/// run leaves no database behind). The facts are consumed: they are freed
/// once loaded, before the solve. `manifest` holds the inputs; the run's
/// options and timings are added to it. Returns the solved engine (in
/// which the fact relations no rule reads, see [`relations_read`], are
/// empty, and, unless `opts` keeps them, so are the relations freed during
/// the solve once final: the database has those it stores), the summary
/// of the facts written as maps and tuples, and statistics. `force`:
/// replace a directory at `db` that is not a database (the caller has
/// checked the destination with
/// [`crate::database::staged::check_destination`]).
pub fn analyze(
    facts: ProgramFacts,
    opts: &AnalysisOptions,
    db: &Path,
    force: bool,
    manifest: ManifestBuilder,
) -> Result<(Solver, Summary, AnalysisStats), AnalysisError> {
    // The solver names the stratum it was in; a stop while the facts are
    // encoded is caught here. Either way the staged database is dropped.
    crate::interrupt::catch(|| analyze_unguarded(facts, opts, db, force, manifest))
        .map_err(AnalysisError::Interrupted)?
}

/// The analysis in its phases: the rules assembled, the constants they
/// name held in the domains, the maps and program staged, the facts
/// encoded, the rules solved, and the results and manifest written.
fn analyze_unguarded(
    mut facts: ProgramFacts,
    opts: &AnalysisOptions,
    db: &Path,
    force: bool,
    mut manifest: ManifestBuilder,
) -> Result<(Solver, Summary, AnalysisStats), AnalysisError> {
    let root_methods = roots(&facts, opts)?;
    let spec_rows = match &opts.spec {
        Some(path) => spec::resolve_file(path, &facts.builder).map_err(AnalysisError::Spec)?,
        None => spec::Resolved::default(),
    };
    let rules = rule_text(opts, opts.context)?;
    // `cloning` numbers the paths of the call graph that the analysis
    // without contexts finds, with the rules that read it off.
    let first = match opts.context {
        super::Context::Cloning => {
            let (name, graph) = super::context::CLONING_GRAPH;
            let mut text = rule_text(opts, super::Context::Insensitive)?;
            let _ = write!(text, "\n# ---- {name} ----\n{graph}");
            Some(text)
        }
        _ => None,
    };
    // Every constant the rules use is in the domains, whatever the class
    // path holds (a library type it never mentions, an argument position
    // beyond its longest parameter list).
    let schema = schema_text(&domain_sizes(&facts.builder));
    for text in std::iter::once(&rules).chain(&first) {
        let probe = format!("{schema}{text}");
        let used = constants::collect(&parse_str(&probe, "program.dl", Path::new("."))?);
        hold_constants(&mut facts.builder, &used);
    }
    let staged = StagedDatabase::create(db, force)?;
    let dir = staged.path().to_path_buf();
    let t = Instant::now();
    let domains = write_maps_and_schema(&facts.builder, &dir)?;
    crate::trace::phase("maps written", t);
    let schema = std::fs::read_to_string(dir.join("schema.dl"))?;
    let inputs = Inputs {
        facts: &facts,
        opts,
        roots: &root_methods,
        spec: &spec_rows,
        dir: &dir,
    };
    let t = Instant::now();
    let graph = match first {
        Some(rules) => Some(insensitive_call_graph(
            &inputs,
            &format!("{schema}{rules}"),
        )?),
        None => None,
    };
    let call_graph = graph.as_ref().map(|_| t.elapsed());
    let start = Instant::now();
    let mut text = schema;
    if let Some(g) = &graph {
        let _ = write!(
            text,
            "\n# The contexts of --context cloning: the most paths of the call graph\n\
             # that end in one method.\nC {}\n",
            g.contexts.max(2)
        );
    }
    text.push_str(&rules);
    // For experiments with variable orders: `--var-order` (or
    // REFRACT_VARORDER) replaces the order queries/pointsto.dl gives.
    let order = opts
        .var_order
        .clone()
        .or_else(|| std::env::var("REFRACT_VARORDER").ok());
    if let Some(order) = order {
        let _ = write!(text, "\n.bddvarorder {order}\n");
    }
    std::fs::write(dir.join("program.dl"), &text)?;
    let (mut solver, loaded) = prepare(&inputs, &text, true)?;
    if let Some(g) = &graph {
        g.load_into(&mut solver);
    }
    // The facts are on disk and in BDDs now: free their tuples and maps
    // (gigabytes for the whole JDK) before the solve.
    drop(facts);
    // Relations are freed as soon as no stratum still to run reads them;
    // those the database stores are written into it first.
    if !opts.keep_relations {
        let store: Vec<bool> = (solver.prog.relations.iter().enumerate())
            .map(|(rel, r)| {
                (r.options.output || r.options.input) && !loaded.unencoded.contains(&rel)
            })
            .collect();
        solver.retire_final_relations(&dir, |rel| store[rel]);
    }
    let load = start.elapsed();
    if crate::trace::enabled() {
        eprintln!("[trace] variable order {}", solver.layout.describe_order());
        eprintln!(
            "[trace] facts loaded into BDDs in {:.3}s",
            load.as_secs_f64()
        );
    }
    let start = Instant::now();
    solver.solve()?;
    let solve = start.elapsed();
    write_results(&solver, &dir, &loaded.unencoded)?;
    std::fs::write(dir.join("database.dl"), database_schema(&solver, &text))?;
    record_options(&mut manifest, opts)?;
    if let Some(t) = call_graph {
        manifest.timing("call graph", t.as_secs_f64());
    }
    manifest
        .timing("load", load.as_secs_f64())
        .timing("solve", solve.as_secs_f64());
    staged.commit(&manifest)?;
    let summary = Summary {
        domains,
        relations: loaded.written,
    };
    let stats = AnalysisStats {
        load,
        solve,
        roots: root_methods.len(),
    };
    Ok((solver, summary, stats))
}

/// What every solve of one analysis reads: the facts, the options, the
/// roots, the specification's rows and the staged database.
struct Inputs<'a> {
    facts: &'a ProgramFacts,
    opts: &'a AnalysisOptions,
    roots: &'a [u32],
    spec: &'a spec::Resolved,
    dir: &'a Path,
}

/// The solver of program `text` (schema and rules) with the facts and
/// the options' inputs loaded. `write_unread`: write the facts that no
/// rule reads into the staged database as tuples (only the solve whose
/// results are stored does).
fn prepare(
    inputs: &Inputs,
    text: &str,
    write_unread: bool,
) -> Result<(Solver, LoadedFacts), AnalysisError> {
    let parsed = parse_str(text, "program.dl", inputs.dir)?;
    let mut prog = resolve(&parsed)?;
    // The rules that copy a fact into another layout are built from the
    // facts' rows (`datalog::views`).
    let facts_of: Vec<Option<usize>> = (prog.relations.iter())
        .map(|r| RELATIONS.iter().position(|s| s.name == r.name))
        .collect();
    let copies = take_views(&mut prog, |rid| facts_of[rid].is_some());
    let mut solver = Solver::new(prog)?;
    solver.observer = inputs.opts.observer.0.clone();
    let dir = write_unread.then_some(inputs.dir);
    let loaded = load_facts(&mut solver, inputs.facts, &copies, &facts_of, dir)?;
    let rows = analysis_inputs(
        &solver,
        inputs.facts,
        inputs.opts,
        inputs.roots,
        inputs.spec,
    );
    let nv = solver.layout.num_vars();
    for (rid, rows) in rows {
        solver.rels[rid] = relation_from_tuples(nv, &solver.blocks(rid), &rows);
    }
    Ok((solver, loaded))
}

/// The call graph of the analysis without contexts, whose paths
/// `--context cloning` numbers (`queries/contexts/cloning-graph.dl`).
struct CallGraph {
    /// Every call edge: the caller, the call site, the target.
    calls: Vec<[u64; 3]>,
    /// The methods reached without a call.
    entries: Vec<u64>,
    /// The most paths that end in one method: the size of the context
    /// domain.
    contexts: u64,
}

/// Solves `text`, the analysis without contexts and the rules of
/// `cloning-graph.dl`, and counts the paths of its call graph as
/// `cloning.dl`'s `number` rule will number them, to size the context
/// domain.
fn insensitive_call_graph(inputs: &Inputs, text: &str) -> Result<CallGraph, AnalysisError> {
    let (mut solver, _) = prepare(inputs, text, false)?;
    solver.solve()?;
    let read = |name: &str| -> Vec<Vec<u64>> {
        match solver.prog.relation_id(name) {
            Some(rid) => crate::bdd::sorted_tuples(&solver.rels[rid], &solver.blocks(rid)),
            None => Vec::new(),
        }
    };
    let calls: Vec<[u64; 3]> = (read("cloningCall").iter())
        .map(|t| [t[0], t[1], t[2]])
        .collect();
    let entries: Vec<u64> = read("cloningEntry").iter().map(|t| t[0]).collect();
    drop(solver);
    let contexts = crate::datalog::numbering::call_graph_contexts(
        &calls,
        &entries,
        u128::from(u64::MAX),
    )
    .map_err(|count| {
        AnalysisError::Contexts(format!(
            "--context cloning: the call graph has {count} paths to one method, more than a context domain of 2^64 holds; use another --context"
        ))
    })?;
    let contexts = u64::try_from(contexts).unwrap_or(u64::MAX);
    if crate::trace::enabled() {
        eprintln!(
            "[trace] cloning: {} call edges, {} entries, at most {contexts} contexts per method",
            calls.len(),
            entries.len()
        );
    }
    Ok(CallGraph {
        calls,
        entries,
        contexts,
    })
}

impl CallGraph {
    /// Sets cloning's inputs: `IEci` (site, target) and `entryci`.
    fn load_into(&self, solver: &mut Solver) {
        let nv = solver.layout.num_vars();
        let edges: Vec<[u64; 2]> = self.calls.iter().map(|&[_, i, n]| [i, n]).collect();
        let entries: Vec<[u64; 1]> = self.entries.iter().map(|&m| [m]).collect();
        if let Some(rid) = solver.prog.relation_id("IEci") {
            solver.rels[rid] = relation_from_tuples(nv, &solver.blocks(rid), &edges);
        }
        if let Some(rid) = solver.prog.relation_id("entryci") {
            solver.rels[rid] = relation_from_tuples(nv, &solver.blocks(rid), &entries);
        }
    }
}

/// The rules of the analysis `opts` asks for, with the flow rules of
/// `context`: the variant's files, each
/// model switched off by `--no-model` as its declarations alone, the
/// assumption's rules and the JVM's entry points.
fn rule_text(opts: &AnalysisOptions, context: super::Context) -> Result<String, AnalysisError> {
    let mut rules = String::new();
    for (name, text) in
        opts.variant
            .rule_files(context, opts.member_arrays, opts.spec.is_some(), opts.probe)
    {
        let off =
            super::variant::model_of(name).is_some_and(|m| opts.models_off.iter().any(|o| o == m));
        let text = if off {
            std::borrow::Cow::Owned(super::variant::declarations_only(text))
        } else {
            std::borrow::Cow::Borrowed(text)
        };
        let _ = write!(rules, "\n# ---- {name} ----\n{text}");
    }
    for (name, text) in opts.context_scope.rule_files(context) {
        let _ = write!(rules, "\n# ---- {name} ----\n{text}");
    }
    if let Some(a) = opts.assume {
        let text = a.rules(opts.variant).map_err(AnalysisError::Assume)?;
        let _ = write!(
            rules,
            "\n# ---- reflection-assume.dl (--assume {a}) ----\n{text}"
        );
    }
    if opts.jvm_roots {
        let (name, text) = super::variant::JVM_ENTRY;
        let _ = write!(rules, "\n# ---- {name} ----\n{text}");
    }
    Ok(rules)
}

/// Encodes the fact relations some rule reads, and their `copies` into
/// other layouts (`facts_of` gives each relation's fact, by schema
/// index), straight from the builder's flat rows into the solver,
/// while the others are written into the staged database `dir` as
/// `.tuples` (source locations, say, which only reports read: for the
/// whole JDK, encoding them costs more than the rest of the load), unless
/// `dir` is `None`.
fn load_facts(
    solver: &mut Solver,
    facts: &ProgramFacts,
    copies: &[View],
    facts_of: &[Option<usize>],
    dir: Option<&Path>,
) -> Result<LoadedFacts, AnalysisError> {
    let b = &facts.builder;
    let nv = solver.layout.num_vars();
    let read = relations_read(&solver.prog);
    let (fact_rels, unread): (Vec<_>, Vec<_>) = RELATIONS
        .iter()
        .enumerate()
        .filter_map(|(r, schema)| Some((solver.prog.relation_id(schema.name)?, r)))
        .partition(|(rid, _)| read.contains(rid));
    let unencoded: HashSet<usize> = unread.into_iter().map(|(rid, _)| rid).collect();
    let as_tuples = |r: usize| {
        solver
            .prog
            .relation_id(RELATIONS[r].name)
            .is_none_or(|rid| unencoded.contains(&rid))
    };
    let solver_ref = &*solver;
    let (written, built) = rayon::join(
        || match dir {
            Some(dir) => {
                let t = Instant::now();
                let written = write_relations(b, dir, &as_tuples);
                crate::trace::phase("unread facts written as tuples", t);
                written
            }
            None => Ok(Vec::new()),
        },
        || -> Vec<(usize, crate::bdd::Bdd)> {
            // The facts and their copies into other layouts (see
            // `datalog::views`), from the facts' rows, largest first and
            // handed out one at a time: the largest takes a third of the
            // whole load, and started last it would run alone.
            let mut jobs: Vec<(usize, Encode)> = fact_rels
                .iter()
                .map(|&(rid, r)| {
                    (
                        b.rels[r].len() / RELATIONS[r].attrs.len(),
                        Encode::Fact(rid, r),
                    )
                })
                .chain(copies.iter().filter_map(|c| {
                    let fact = facts_of[c.source]?;
                    let rows = b.rels[fact].len() / RELATIONS[fact].attrs.len();
                    Some((rows, Encode::Copy(c, fact)))
                }))
                .collect();
            jobs.sort_by_key(|(rows, _)| std::cmp::Reverse(*rows));
            jobs.into_iter()
                .par_bridge()
                .map(|(_, job)| {
                    let t = Instant::now();
                    let (rid, rows, bdd) = match job {
                        Encode::Fact(rid, r) => {
                            let rows = tuples(b, r);
                            let bdd = relation_from_tuples(nv, &solver_ref.blocks(rid), &rows);
                            (rid, rows.len(), bdd)
                        }
                        Encode::Copy(c, fact) => {
                            let arity = RELATIONS[fact].attrs.len();
                            let rows = c.rows(&b.rels[fact], arity);
                            let rows: Vec<&[u32]> = rows.chunks_exact(c.columns.len()).collect();
                            let bdd = relation_from_tuples(nv, &solver_ref.blocks(c.head), &rows);
                            (c.head, rows.len(), bdd)
                        }
                    };
                    trace_slow_load(&solver_ref.prog.relations[rid].name, rows, &bdd, t);
                    (rid, bdd)
                })
                .collect()
        },
    );
    for (rid, bdd) in built {
        solver.rels[rid] = bdd;
    }
    Ok(LoadedFacts {
        written: written?,
        unencoded,
    })
}

/// What [`load_facts`] left in the staged database.
struct LoadedFacts {
    /// The fact relations written as `.tuples`, with their sizes.
    written: Vec<(String, usize)>,
    /// The relations no rule reads, left unencoded.
    unencoded: HashSet<usize>,
}

/// The input relations that come from the options rather than the class
/// path, as rows: the roots, the classes the launcher starts
/// (`queries/models/launcher.dl`), the bundle variants and properties
/// bundles of the runs' locales and the classes of other locales
/// (`bundles.dl`, `resources.dl`, `reflection.dl`) and the
/// specification's rows. Only those the program declares.
fn analysis_inputs(
    solver: &Solver,
    facts: &ProgramFacts,
    opts: &AnalysisOptions,
    root_methods: &[u32],
    spec_rows: &spec::Resolved,
) -> Vec<(usize, Vec<Vec<u64>>)> {
    let b = &facts.builder;
    let one = |xs: Vec<u32>| -> Vec<Vec<u64>> { xs.into_iter().map(|x| vec![x as u64]).collect() };
    let mut inputs: Vec<(&str, Vec<Vec<u64>>)> = vec![
        ("root", one(root_methods.to_vec())),
        (
            "launched",
            one((opts.mains.iter()).filter_map(|c| b.types.get(c)).collect()),
        ),
    ];
    let id = |name: &str| solver.prog.relation_id(name);
    let locales = crate::facts::locale_variants::run_locales(b, &opts.locales);
    if id("runVariant").is_some() {
        let variants = crate::facts::locale_variants::run_variants(b, &locales);
        inputs.push(("runVariant", one(variants)));
    }
    if id("otherLocaleClass").is_some() {
        let others = crate::facts::locale_variants::other_locale_classes(b, &locales);
        inputs.push(("otherLocaleClass", one(others)));
    }
    if id("runBundle").is_some() {
        let bundles = crate::facts::locale_variants::run_bundles(b, &locales);
        inputs.push(("runBundle", one(bundles)));
    }
    for (name, rows) in [
        ("specClass", &spec_rows.classes),
        ("specMethod", &spec_rows.methods),
        ("specField", &spec_rows.fields),
    ] {
        let rows = rows.iter().map(|&(i, x)| vec![i as u64, x as u64]);
        inputs.push((name, rows.collect()));
    }
    (inputs.into_iter())
        .filter_map(|(name, rows)| Some((id(name)?, rows)))
        .collect()
}

/// Writes every input and output relation of the solve into the staged
/// database `dir` as a BDD (facts included, but for the `unencoded` ones
/// already there as tuples, and those the solve wrote when it freed them),
/// side by side, and the `bddinfo`: opening the database later costs its
/// size, not a rebuild from tuples.
fn write_results(
    solver: &Solver,
    dir: &Path,
    unencoded: &HashSet<usize>,
) -> Result<(), AnalysisError> {
    let t = Instant::now();
    (0..solver.prog.relations.len())
        .into_par_iter()
        .filter(|rel| !unencoded.contains(rel) && !solver.retired(*rel))
        .filter(|&rel| {
            let options = &solver.prog.relations[rel].options;
            options.output || options.input
        })
        .try_for_each(|rel| -> Result<(), AnalysisError> {
            let name = &solver.prog.relations[rel].name;
            solver.write_compact_bdd_file(rel, &dir.join(format!("{name}.bdd")))?;
            Ok(())
        })?;
    solver.write_bddinfo(&dir.join("bddinfo"))?;
    crate::trace::phase("results written", t);
    Ok(())
}

/// Records the analysis's options in the manifest, the specification
/// with its checksum.
fn record_options(
    manifest: &mut ManifestBuilder,
    opts: &AnalysisOptions,
) -> Result<(), AnalysisError> {
    manifest.option("variant", &opts.variant.to_string());
    if opts.context != super::Context::Insensitive {
        manifest.option("context", opts.context.name());
    }
    if opts.context.has_object_elements() && opts.context_scope != super::ContextScope::All {
        manifest.option("context-scope", opts.context_scope.name());
    }
    if opts.member_arrays {
        manifest.option("member-arrays", "on");
    }
    if opts.probe {
        manifest.option("probe", "on");
    }
    if let Some(a) = opts.assume {
        manifest.option("assume", a.name());
    }
    if !opts.locales.is_empty() {
        manifest.option("locale", &opts.locales.join(","));
    }
    if !opts.models_off.is_empty() {
        manifest.option("no-model", &opts.models_off.join(","));
    }
    for c in &opts.mains {
        manifest.option("main", c);
    }
    let kinds: Vec<&str> = [(opts.library_roots, "library"), (opts.jvm_roots, "jvm")]
        .into_iter()
        .filter_map(|(on, kind)| on.then_some(kind))
        .collect();
    if !kinds.is_empty() {
        manifest.option("roots", &kinds.join(","));
    }
    if let Some(s) = &opts.spec {
        manifest.option("spec", &s.display().to_string());
        manifest.input(s)?;
    }
    Ok(())
}

/// `database.dl`: the schema plus every result relation, all declared as
/// inputs on the domain instances the analysis gave them (the `.bdd`
/// files number their variables by instance), so a later session can load
/// any of them, in the variable order they were stored in.
fn database_schema(solver: &Solver, program: &str) -> String {
    let mut out = String::new();
    for line in program.lines() {
        if line.starts_with("# ----") {
            break;
        }
        out.push_str(line);
        out.push('\n');
    }
    // The results are stored in the analysis's variable order; a session
    // in another order would rebuild each one as it loads it (jfreechart's
    // hP, 1.5 MB on disk, passed 10 GB that way).
    let _ = writeln!(
        out,
        "\n# The variable order the results are stored in.\n.bddvarorder {}",
        solver.layout.describe_order()
    );
    out.push_str("\n# Results of the analysis (R.bdd).\n");
    for (rel, r) in solver.prog.relations.iter().enumerate() {
        if !r.options.output {
            continue;
        }
        let _ = writeln!(
            out,
            "{} ({}) input",
            r.name,
            solver.prog.attributes_text(rel)
        );
    }
    out
}

/// The relations some rule reads, positively or negated. [`analyze`]
/// encodes only these of the fact relations; the others stay empty in the
/// solver it returns and are read from the database's `.tuples`.
pub fn relations_read(prog: &crate::datalog::program::Program) -> HashSet<usize> {
    use crate::datalog::program::Literal;
    prog.rules
        .iter()
        .flat_map(|r| &r.body)
        .filter_map(|l| match l {
            Literal::Pos(a) | Literal::Neg(a) => Some(a.rel),
            Literal::Cmp { .. } => None,
        })
        .collect()
}

/// One relation to encode at load time: a fact (relation id, schema
/// index) or a view of one in another layout (the view, the schema index
/// of its fact).
enum Encode<'a> {
    Fact(usize, usize),
    Copy(&'a View, usize),
}

/// Traces the encoding of a fact relation that took a second or more.
fn trace_slow_load(name: &str, rows: usize, bdd: &crate::bdd::Bdd, start: Instant) {
    let dt = start.elapsed();
    if dt.as_secs_f64() >= 1.0 && crate::trace::enabled() {
        eprintln!(
            "[trace]   {name}: {rows} tuples, {} nodes, encoded in {:.3}s",
            bdd.size(),
            dt.as_secs_f64()
        );
    }
}
