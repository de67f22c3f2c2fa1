//! The `refract` command line.

mod cli;

/// mimalloc instead of the system's allocator. The BDD kernel allocates
/// and frees tables and node arrays of tens to hundreds of megabytes many
/// times a second; glibc maps and unmaps each one, and the kernel's page
/// faults and TLB shootdowns took about 11% of the quick start's cycles
/// (`perf`). mimalloc keeps freed memory for reuse: the quick start
/// (Invoke, casts, JDK 17) in two alternating pairs took 0.91 of the wall
/// time (155.9 s against 171.4 s), 0.70 of the system time, and 5,419 MiB
/// at its peak against 5,595. Without transparent huge pages (feature
/// `no_thp`: mimalloc does not ask for them): with them, bddbddb's c_pa
/// took 1.15 of glibc's time and four times its system time; without,
/// c_pa 1.03 and pa 1.00 (five alternating pairs each), and the quick
/// start 0.96 of mimalloc's time with them (two pairs). Freed memory is
/// kept a second before it returns to the system: c_pa's peak is 137 MiB
/// against glibc's 63.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use anyhow::Result;
use clap::{Parser, Subcommand};
use refract::classpath::jdk::JdkChoice;
use std::path::PathBuf;
use std::process::ExitCode;

/// refract: a BDD-backed relational program database for Java.
#[derive(Parser)]
#[command(version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Stop with an error when the process's memory exceeds SIZE (such as
    /// 4G or 512M); the default is 85% of physical memory.
    #[arg(long, global = true, value_name = "SIZE", value_parser = refract::interrupt::parse_size)]
    max_memory: Option<u64>,
    /// Print where the time goes on stderr: the front end's phases, each
    /// stratum, iteration and slow join, and per-rule totals (also
    /// REFRACT_TRACE=1).
    #[arg(long, global = true)]
    trace: bool,
    /// With --trace, the shortest join step printed, in milliseconds
    /// (default 100; also REFRACT_TRACE_MS).
    #[arg(long, global = true, value_name = "MS")]
    trace_ms: Option<u64>,
}

#[derive(Subcommand)]
enum Command {
    /// Run a bddbddb Datalog program as a batch, or a script over a database.
    ///
    /// Input relations (declared `input`) are read from the facts directory
    /// (-F) or the program's base directory: R.facts (TSV), R.tuples or R.bdd.
    /// Relations declared `output`/`outputtuples` are written to the output
    /// directory (-D, plus R.csv), `printsize` and `printtuples` relations and
    /// queries (`body?`) are printed.
    ///
    /// With --db, the script runs over a database written by `refract facts`
    /// or `refract analyze`, exactly as if piped into `refract repl DB`:
    /// every relation is available, shell commands (.count R, .export R
    /// FILE, ...) run, and answers print in full unless --limit is given.
    /// An error is printed with its line and the script goes on; the exit
    /// code is 1 if any statement failed. --bail stops at the first error.
    ///
    /// Examples:
    ///   refract run tests/data/bddbddb/c_pa.datalog
    ///   refract run pa.datalog -F facts/ -D out/ --stats
    ///   refract run tests/data/bddbddb/c_pa.datalog --explain-plan
    ///   refract run queries/unresolved-sites.dl --db demo.db --bail
    #[command(verbatim_doc_comment)]
    Run {
        /// The Datalog program or script.
        program: PathBuf,
        /// Run the script over this database.
        #[arg(long)]
        db: Option<PathBuf>,
        /// Rows shown per query answer with --db (0: all).
        #[arg(long, default_value_t = 0)]
        limit: usize,
        /// With --db, stop at the first statement that fails (sqlite3's
        /// -bail).
        #[arg(long)]
        bail: bool,
        /// Directory of input relations (R.facts, R.tuples, R.bdd).
        #[arg(short = 'F', long = "facts")]
        facts: Option<PathBuf>,
        /// Directory for output relations (created if missing).
        #[arg(short = 'D', long = "output")]
        output: Option<PathBuf>,
        /// Print time, evaluations and BDD sizes per rule.
        #[arg(long)]
        stats: bool,
        /// Print each rule's plan (homes, subgoals, joins per variant,
        /// renames) instead of running the program.
        #[arg(long, conflicts_with = "db")]
        explain_plan: bool,
    },
    /// Build a program database from Java bytecode.
    ///
    /// Reads jars, jmods, class directories and .class files (the first
    /// definition of a class wins), plus the JDK's jmods, and writes the
    /// input relations of the pointer and reflection analyses: maps
    /// (V.map.zst, H.map.zst, ...), one .tuples.zst file per relation, and schema.dl.
    /// Classes that cannot be read are reported and skipped.
    ///
    /// With --dump R, prints relation R's tuples with names instead
    /// (TSV with a header, sorted), and writes nothing.
    ///
    /// Examples:
    ///   refract facts app.jar -o app.db
    ///   refract facts fixtures/classes/reflection --jdk none --dump Iref --dump vP0
    ///   refract facts build/classes lib/*.jar --jdk none -o app.db
    ///   refract facts app.jar --jdk /usr/lib/jvm/java-17-openjdk-amd64 -o app.db
    #[command(
        verbatim_doc_comment,
        override_usage = "refract facts [OPTIONS] <CLASSPATH>... (-o <DB> | --dump <R>...)"
    )]
    Facts {
        /// Jars, jmods, class directories or class files.
        #[arg(required = true)]
        classpath: Vec<PathBuf>,
        /// The JDK: auto ($JAVA_HOME, else `java` on PATH), none, or a JDK home.
        #[arg(long, default_value = "auto")]
        jdk: JdkChoice,
        /// The database directory to write. An existing database there is
        /// replaced; any other directory only with --force.
        #[arg(short = 'o', long = "output", required_unless_present = "dump")]
        output: Option<PathBuf>,
        /// Replace a directory at the output path that is not a refract
        /// database (never one that holds an input).
        #[arg(long)]
        force: bool,
        /// Print no progress or summary.
        #[arg(short, long)]
        quiet: bool,
        /// Print this relation's tuples with names instead of writing a
        /// database (repeatable).
        #[arg(long, value_name = "R", conflicts_with = "output")]
        dump: Vec<String>,
        /// Keep every row of the JDK's tables of data (a JDK method's
        /// more than 64 arrays of one type, such as a locale's names) an
        /// object of its own, instead of one object per table.
        #[arg(long)]
        no_merge_tables: bool,
        /// Switch off a model of the front end by name: `containers`, the
        /// JDK's collections (queries/models/containers.tsv); `natives`,
        /// the bodies of the JDK's natives (queries/models/natives.tsv).
        #[arg(long = "no-model", value_name = "MODEL", value_delimiter = ',',
              value_parser = clap::builder::PossibleValuesParser::new(refract::models::FRONT_END_MODELS))]
        models_off: Vec<String>,
    },
    /// Analyse a program: points-to analysis, call graph and reflection.
    ///
    /// Builds the facts (as `refract facts`), runs the points-to analysis
    /// with an on-the-fly call graph from the roots and resolves reflective
    /// calls, then writes a database with every relation and prints the
    /// report (Class.forName and other reflective sites resolved fully,
    /// partially or not; call graph size; specification points).
    ///
    /// Reflection variants (Livshits, Whaley and Lam, section 5.2):
    ///   none       reflection ignored
    ///   local      class names from constants within one method
    ///   points-to  class names from the strings that reach the call
    ///   casts      points-to, plus casts of newInstance results
    ///   sound      points-to, plus a specification file (--spec)
    ///   infer      casts, plus names built by concatenation and members
    ///              inferred where they are used (beyond the paper; the
    ///              default)
    ///
    /// --member-arrays adds SOLAR's model of getMethods() and the like, and of
    /// the classes metaobjects give (getParameterTypes(), getType(), ...), to
    /// any variant but none.
    ///
    /// --no-model switches off a model of queries/models/ (its relations
    /// stay empty), to measure what it costs and finds on the same facts:
    /// privileged, string-of, arraycopy, encapsulation, field-accessors,
    /// method-util, arrays, services, resources, bundles, proxies,
    /// method-handles, var-handles, jvm-callbacks, annotations, launcher, configuration;
    /// and `containers` and `natives`, the JDK's collections and the
    /// bodies of its natives, which the front end models (the facts are
    /// built without them).
    ///
    /// Examples:
    ///   refract analyze fixtures/classes/reflection --main Invoke --jdk none -o demo.db
    ///   refract analyze app.jar --roots library --reflection casts -o app.db
    ///   refract analyze app.jar --main app.Main --reflection sound --spec app.spec -o app.db
    ///   refract analyze app.jar --main app.Main --member-arrays -o app.db
    ///   refract analyze app.jar --main app.Main --assume encapsulation -o app.db
    ///   refract analyze app.jar --main app.Main --roots jvm -o app.db
    ///   refract analyze app.jar --main app.Main --no-model bundles,proxies -o app.db
    ///   refract analyze app.jar --main app.Main --context 1-object -o app.db
    ///   refract analyze app.jar --main app.Main --context 2-object --context-scope application -o app.db
    #[command(
        verbatim_doc_comment,
        override_usage = "refract analyze [OPTIONS] <CLASSPATH>... (--main <CLASS> | --roots <KIND>) -o <DB>"
    )]
    Analyze {
        /// Jars, jmods, class directories or class files.
        #[arg(required = true)]
        classpath: Vec<PathBuf>,
        /// A class whose main method is a root (repeatable).
        #[arg(long = "main", value_name = "CLASS")]
        mains: Vec<String>,
        /// More roots: `library`, every public method of the application;
        /// `jvm`, the methods the JVM itself calls (start-up, shutdown, class
        /// loading, invokedynamic linking; queries/models/jvm-entry.dl).
        /// Comma-separated or repeated.
        #[arg(long, value_name = "KIND", value_delimiter = ',')]
        roots: Vec<RootsChoice>,
        /// The JDK: auto ($JAVA_HOME, else `java` on PATH), none, or a JDK home.
        #[arg(long, default_value = "auto")]
        jdk: JdkChoice,
        /// How reflective calls are resolved.
        #[arg(long, default_value = "infer")]
        reflection: refract::analysis::Variant,
        /// The contexts of the points-to analysis: insensitive (one set of
        /// objects per variable), 1-call-site (a method analysed once per
        /// call site that calls it), 2-call-site (once per call site and
        /// its caller's call site, with a heap context), 1-object (a method called on an
        /// object analysed once per allocation site of its receiver),
        /// 2-object (once per receiver object and the object that
        /// allocated it, which also tells apart the objects that each
        /// allocates), 2-type (2-object with each object replaced by
        /// the class that allocates it), or cloning (Whaley and Lam: once
        /// per acyclic path of the call graph, numbered over the call graph
        /// of a first run without contexts). The
        /// reflection rules read the points-to sets with contexts projected
        /// away.
        #[arg(long, default_value = "insensitive", value_name = "KIND")]
        context: refract::analysis::Context,
        /// Which objects the object and type kinds (1-object, 2-object,
        /// 2-type) make contexts of: all, or application (the objects that
        /// the application's code allocates, and those reflection creates of
        /// its classes; a method called on another object runs in the
        /// context of no object, below the object's heap context, so the
        /// JDK's code has contexts only under the application's objects).
        #[arg(long, default_value = "all", value_name = "SCOPE")]
        context_scope: refract::analysis::ContextScope,
        /// Specification file: Fig. 3 lines (`m() @ bci File.java:line => class`)
        /// or the TSV of `refract export targets`.
        #[arg(long)]
        spec: Option<PathBuf>,
        /// Fill the arrays of getMethods(), getFields(), getConstructors() and
        /// their Declared forms with the receiver classes' members, and give
        /// the classes that getParameterTypes(), getReturnType(), getType(),
        /// getDeclaringClass(), getSuperclass() and getInterfaces() name
        /// (SOLAR's model). Without it the arrays stay empty, as in the
        /// paper's bddbddb implementation, calls on their elements are
        /// reported unresolved, and those methods return no Class object
        /// (under infer the arrays hold placeholders, and those methods
        /// answer for the members a placeholder stands for).
        #[arg(long)]
        member_arrays: bool,
        /// SOLAR's PROBE, for programs that infer cannot analyse in time (an
        /// interpreter whose every class goes through the same getMethods()
        /// site): a placeholder metaobject is resolved where it is used only
        /// if something of its member's signature is known (parameter types
        /// or count, a name, a member test). The uses of the others resolve
        /// nothing and `refract report --unsound` lists them, with the
        /// specification line that resolves each; with those lines (--spec),
        /// infer itself may finish. Needs --reflection infer.
        #[arg(long)]
        probe: bool,
        /// Complete what reflection may do where the analysis cannot say,
        /// so that the call graph is sound under an assumption (Sawin et
        /// al.'s levels, each trusting more): behaved-loaders (any class,
        /// any member, at every site), encapsulation (any class, only the
        /// members the caller may access, at every site), casts, strings,
        /// env (only the sites that text the analysis cannot read reaches,
        /// with accessible members; casts needs --reflection casts or
        /// infer). Without it those sites stay unresolved and `refract
        /// report --unsound` lists them.
        #[arg(long, value_name = "LEVEL")]
        assume: Option<refract::analysis::Assume>,
        /// Keep every row of the JDK's tables of data (a JDK method's
        /// more than 64 arrays of one type, such as a locale's names) an
        /// object of its own, instead of one object per table.
        #[arg(long)]
        no_merge_tables: bool,
        /// The locale of the runs (`en_US`; comma-separated or repeated):
        /// resource bundles load only its variants (`base_en_US`,
        /// `base_en`, and CLDR's parents such as `en_001` for `en_GB`),
        /// and bundle classes of other locales are not inferred from a
        /// cast or a part of a name. The `Locale` constants that the
        /// application reads (`Locale.UK`) count too. Without it, every
        /// locale of the class path.
        #[arg(long = "locale", value_name = "LOCALE", value_delimiter = ',', value_parser = parse_locale)]
        locales: Vec<String>,
        /// Switch off a model of queries/models/ by name (comma-separated or
        /// repeated): its relations stay empty (`containers`, `natives`:
        /// the facts are built without the front end's model of the JDK's
        /// collections or natives).
        #[arg(long = "no-model", value_name = "MODEL", value_delimiter = ',',
              value_parser = clap::builder::PossibleValuesParser::new(
                  refract::analysis::variant::MODEL_NAMES.into_iter().chain(refract::models::FRONT_END_MODELS)))]
        models_off: Vec<String>,
        /// The BDD variable order, in bddbddb's `.bddvarorder` form
        /// (`V0xV1_H0_...`), instead of the one queries/pointsto.dl gives:
        /// for experiments with orders (also REFRACT_VARORDER).
        #[arg(long, value_name = "ORDER")]
        var_order: Option<String>,
        /// The database directory to write. An existing database there is
        /// replaced; any other directory only with --force.
        #[arg(short = 'o', long = "output")]
        output: PathBuf,
        /// Replace a directory at the output path that is not a refract
        /// database (never one that holds an input).
        #[arg(long)]
        force: bool,
        /// Print no progress or report.
        #[arg(short, long)]
        quiet: bool,
    },
    /// Query a database interactively.
    ///
    /// Type Datalog: declarations `R (x:V)`, rules `R(x) :- vP(x, _).`
    /// (solved incrementally) and queries `vP(v, "<class r.Upper>")?`,
    /// answered as tables. A statement goes on over lines while a
    /// parenthesis is open (prompt `...>`; Ctrl-C drops it). `.help` lists
    /// the commands (.tables, .schema [R], .count R, .rules, .drop, .load
    /// FILE, .export R FILE, .mode, .output FILE, .limit N, .show, .quit).
    /// Tab completes commands, relations and, inside quotes, names. Without
    /// a database the shell starts empty. Input that is not a terminal is
    /// read as a script, as `refract run SCRIPT --db DB` reads one.
    ///
    /// Examples:
    ///   refract repl demo.db
    ///   echo 'IEr(i, m)?' | refract repl demo.db
    #[command(verbatim_doc_comment)]
    Repl {
        /// The database (none: an empty session).
        db: Option<PathBuf>,
        /// The history file (default: $REFRACT_HISTORY, else ~/.refract_history).
        #[arg(long)]
        history: Option<PathBuf>,
        /// With input piped in, stop at the first statement that fails
        /// (sqlite3's -bail); without it the script goes on and exits 1.
        #[arg(long)]
        bail: bool,
    },
    /// Answer Datalog statements over a database, once, and exit.
    ///
    /// The statements are declarations, rules and queries as the shell
    /// takes them, one per argument (as `sqlite3 DB 'SELECT ...'` takes
    /// SQL). Answers print as the shell prints them, in full unless
    /// --limit is given. Exit 1 if a statement fails.
    ///
    /// Examples:
    ///   refract query demo.db 'IEr(i, m)?'
    ///   refract query demo.db 'r(m) :- IEr(_, m).' 'r(m)?' --limit 5
    #[command(verbatim_doc_comment)]
    Query {
        /// The database.
        db: PathBuf,
        /// Datalog statements, one per argument.
        #[arg(required = true)]
        statements: Vec<String>,
        /// Rows shown per answer (0: all).
        #[arg(long, default_value_t = 0)]
        limit: usize,
    },
    /// Explain why a tuple is in a database: its derivation tree.
    ///
    /// Each derived tuple is shown with the rule that made it (its file
    /// and line in queries/) and the body tuples that satisfied it, down to
    /// input facts, whose names carry their class, method, bytecode index
    /// and source line. Variables in the atom are bound by its first tuple.
    /// The search is bounded (--depth); a branch the bound cut is marked.
    ///
    /// Examples:
    ///   refract explain demo.db 'IEr(i, "<r.Upper: java.lang.String run(java.lang.String)>")'
    ///   refract explain demo.db 'reach("<r.Upper: void <init>()>")' --depth 10
    #[command(verbatim_doc_comment)]
    Explain {
        /// The database.
        db: PathBuf,
        /// The tuple, as an atom: R("name", ...), variables allowed.
        atom: String,
        /// At most this many rule applications from the tuple to a fact.
        #[arg(long, default_value_t = 40)]
        depth: usize,
    },
    /// Print the reflection report of an analysed database.
    ///
    /// Examples:
    ///   refract report demo.db
    ///   refract report jedit.db --imprecise 1000
    ///   refract report demo.db --unsound
    #[command(verbatim_doc_comment)]
    Report {
        /// The database.
        db: PathBuf,
        /// Also list the sites resolved to more than N targets, most
        /// first (imprecise sites, as SOLAR reports them).
        #[arg(long, value_name = "N")]
        imprecise: Option<usize>,
        /// Also list the unsound sites: reflective calls left unresolved
        /// or partly resolved, with the reason and the specification line
        /// that resolves a class-by-name site, and the application's
        /// calls that define classes from bytes.
        #[arg(long)]
        unsound: bool,
    },
    /// Measure an analysed database against traces of real runs.
    ///
    /// TRACE is a dynamic log of reflective calls: the TSV that reftrace
    /// writes (the columns of `refract export targets`, plus `hits` and
    /// `status`), or a TamiFlex `refl.log` (`Kind;target;caller;line`,
    /// matched by method and source line). Prints the recall per API for
    /// application and JDK callers, the static edges at the traced sites
    /// (how many targets the analysis gives where the run saw its own), in
    /// all and for application and JDK callers apart, the widest of those
    /// sites (all of them in JSON), and every missed edge with its reason:
    /// the API has no model, the site is not in the class path, not
    /// reachable, unresolved, or resolved to other targets only. Edges to
    /// classes generated at run time ($$Lambda, $Proxy) and calls that
    /// threw (a forName of a missing class, a lookup of a missing member
    /// or constructor) are counted apart.
    ///
    /// Exit 0, or 1 when --min-recall is given and not reached.
    ///
    /// Examples:
    ///   refract check invoke.db run.tsv
    ///   refract check app.db refl.log --min-recall 0.9 --format json
    #[command(verbatim_doc_comment)]
    Check {
        /// The database.
        db: PathBuf,
        /// Traces: reftrace TSV or TamiFlex refl.log.
        #[arg(required = true)]
        traces: Vec<PathBuf>,
        /// Fail (exit 1) when the recall over all traced edges is below R.
        #[arg(long, value_name = "R")]
        min_recall: Option<f64>,
        /// text, tsv (one row per traced edge) or json.
        #[arg(long, default_value = "text")]
        format: CheckFormat,
    },
    /// Export results as text: reflective targets, specification points,
    /// any relation, the call graph.
    ///
    /// Each export reads a database that `refract analyze` wrote and
    /// prints to stdout.
    ///
    /// Examples:
    ///   refract export targets demo.db
    ///   refract export specpoints demo.db
    ///   refract export relation reach demo.db --format csv
    ///   refract export callgraph demo.db --format dot > cg.dot
    #[command(subcommand, verbatim_doc_comment)]
    Export(ExportCommand),
}

/// What `refract export` prints.
#[derive(Subcommand)]
enum ExportCommand {
    /// The resolved targets of reflective calls, one line per (site, target).
    ///
    /// TSV columns: caller_class caller_method caller_desc bci line api target,
    /// where target is a binary class name, `Decl.name(desc)ret` for methods
    /// and constructors, or `Decl.field`. With --format spec, the paper's
    /// Fig. 3 form: `method() @ bci File.java:line => target`. Both forms
    /// are accepted back by `refract analyze --spec`. With --format json,
    /// an array of objects with the TSV's columns (bci and line numbers).
    ///
    /// Example:
    ///   refract export targets demo.db > demo.spec
    #[command(verbatim_doc_comment)]
    Targets {
        /// The database.
        db: PathBuf,
        /// tsv (default), json or spec.
        #[arg(long, default_value = "tsv")]
        format: TargetFormat,
    },
    /// Specification points: where strings from outside the program flow
    /// into Class.forName, with the chain of variables.
    ///
    /// TSV with a header (source, site, path), one line per (source, site): the call that reads the string
    /// (System.getProperty, readLine, ...), the forName or loadClass site
    /// whose name it may become, and the variables it passes through, from
    /// the source's result to the name argument (steps through a field go
    /// from the stored variable to the loaded one). Only sites whose name
    /// may be something other than a constant naming a class have them: a
    /// specification for these sites (`refract analyze --spec`) names the
    /// classes the input can be.
    ///
    /// Example:
    ///   refract export specpoints demo.db
    #[command(verbatim_doc_comment)]
    Specpoints {
        /// The database.
        db: PathBuf,
    },
    /// One relation, with names from the maps, streamed.
    ///
    /// tsv: tab-separated without header (Soufflé's .csv output);
    /// csv: with a header row; json: an array of objects.
    ///
    /// Example:
    ///   refract export relation IEr demo.db --format csv > reflective.csv
    #[command(verbatim_doc_comment)]
    Relation {
        /// The relation.
        relation: String,
        /// The database.
        db: PathBuf,
        /// tsv, csv or json.
        #[arg(long, default_value = "tsv")]
        format: refract::export::relation::Format,
    },
    /// The call graph: site-level TSV, DOT, SVG or an HTML page.
    ///
    /// TSV has a header and one line per (caller, invoke, callee, kind);
    /// kind is `call` or `reflective` (resolved by the reflection
    /// analysis). DOT, SVG and HTML draw one edge per caller and callee,
    /// left to right, methods labelled Class.method (the signature is the
    /// tooltip) in a box per class, reflective edges dashed red. SVG and
    /// HTML need Graphviz's `dot`; the HTML page zooms (wheel), pans (drag)
    /// and searches.
    ///
    /// Methods for --from and --to are signatures, Class.method or
    /// pkg.Class.method (every overload).
    ///
    /// Examples:
    ///   refract export callgraph demo.db
    ///   refract export callgraph demo.db --format html --from Invoke.main > cg.html
    ///   refract export callgraph demo.db --format svg --reflective-only > cg.svg
    ///   refract export callgraph app.db --format dot --package org.app --collapse class
    #[command(verbatim_doc_comment)]
    Callgraph {
        /// The database.
        db: PathBuf,
        /// tsv, dot, svg or html.
        #[arg(long, default_value = "tsv")]
        format: refract::analysis::callgraph::GraphFormat,
        /// Only what this method reaches (repeatable).
        #[arg(long, value_name = "METHOD")]
        from: Vec<String>,
        /// Only what reaches this method (repeatable).
        #[arg(long, value_name = "METHOD")]
        to: Vec<String>,
        /// With --from or --to: at most N calls away.
        #[arg(long, value_name = "N")]
        depth: Option<usize>,
        /// Only the edges that reflection resolved.
        #[arg(long)]
        reflective_only: bool,
        /// Only calls made by classes in this package prefix (repeatable).
        #[arg(long, value_name = "PREFIX")]
        package: Vec<String>,
        /// Draw one node per method, class or package.
        #[arg(long, default_value = "method")]
        collapse: refract::analysis::callgraph::Collapse,
    },
}

/// The front end's options: the heap abstraction, and the models of
/// [`refract::models`] that `--no-model` switches off.
fn facts_options(no_merge_tables: bool, models_off: &[String]) -> refract::facts::FactsOptions {
    let heap = refract::facts::HeapOptions {
        merge_tables: !no_merge_tables,
    };
    refract::facts::FactsOptions::without_models(heap, models_off)
}

/// A `--locale` value: a locale as bundle names spell it (`en`, `en_US`,
/// `zh_Hant_TW`), not a BCP 47 tag (`en-US`).
fn parse_locale(s: &str) -> Result<String, String> {
    if refract::facts::locale_variants::is_locale(s) {
        Ok(s.to_string())
    } else {
        Err(format!(
            "{s:?} is not a locale as bundle names spell it: a language of two or three lower-case \
             letters, then script, country and variant, each after `_` (en, en_US, zh_Hant_TW){}",
            if s.contains('-') { format!("; did you mean {}?", s.replace('-', "_")) } else { String::new() }
        ))
    }
}

/// The roots `--roots` adds.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum RootsChoice {
    /// Every public method of the application's classes.
    Library,
    /// The methods the JVM calls with no call site in the program.
    Jvm,
}

/// How `refract check` prints.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CheckFormat {
    /// Tables and the missed edges.
    Text,
    /// One row per traced edge.
    Tsv,
    /// The summary and the edges.
    Json,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum TargetFormat {
    Tsv,
    Json,
    Spec,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Ctrl-C and the memory budget stop work by unwinding to the nearest
    // `interrupt::catch`; a command without one of its own (`explain`'s
    // search) stops here, with the reason, instead of a silent exit 101.
    let result = refract::interrupt::catch(|| run(cli)).unwrap_or_else(|why| Err(why.into()));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.downcast_ref::<cli::repl::Failed>().is_some() => ExitCode::from(1),
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(1)
        }
    }
}

fn run(cli: Cli) -> Result<()> {
    cli::set_memory_budget(cli.max_memory);
    refract::trace::configure(cli.trace, cli.trace_ms);
    cli::handle_termination();
    // The commands whose long work polls for a stop; the others (the
    // shell has its own handler, exports end at Ctrl-C as any program).
    if matches!(
        cli.command,
        Command::Run { .. } | Command::Facts { .. } | Command::Analyze { .. }
    ) {
        cli::handle_interrupts();
    }
    match cli.command {
        Command::Run {
            program,
            db: Some(db),
            limit,
            bail,
            output,
            ..
        } => cli::repl::run_script(&program, &db, limit, bail, output.as_deref()),
        Command::Run {
            program,
            db: None,
            facts,
            output,
            stats,
            explain_plan,
            ..
        } => cli::run::run_program(program, facts, output, stats, explain_plan),
        Command::Repl { db, history, bail } => cli::repl::repl(db.as_deref(), history, bail),
        Command::Facts {
            classpath,
            jdk,
            output,
            force,
            quiet,
            dump,
            no_merge_tables,
            models_off,
        } => {
            let opts = facts_options(no_merge_tables, &models_off);
            match output {
                Some(output) if dump.is_empty() => {
                    cli::facts::facts(&classpath, &jdk, &opts, &output, force, quiet)
                }
                _ => cli::facts::dump(&classpath, &jdk, &opts, &dump, quiet),
            }
        }
        Command::Analyze {
            classpath,
            mains,
            roots,
            jdk,
            reflection,
            context,
            context_scope,
            spec,
            member_arrays,
            probe,
            assume,
            no_merge_tables,
            locales,
            models_off,
            var_order,
            output,
            force,
            quiet,
        } => cli::analyze::run_analyze(cli::analyze::AnalyzeArgs {
            classpath,
            jdk,
            facts: facts_options(no_merge_tables, &models_off),
            options: refract::analysis::driver::AnalysisOptions {
                variant: reflection,
                context,
                context_scope,
                mains,
                library_roots: roots.contains(&RootsChoice::Library),
                jvm_roots: roots.contains(&RootsChoice::Jvm),
                spec,
                member_arrays,
                probe,
                assume,
                locales,
                models_off,
                var_order,
                observer: Default::default(),
                keep_relations: false,
            },
            output,
            force,
            quiet,
        }),
        Command::Query {
            db,
            statements,
            limit,
        } => cli::repl::query(&db, &statements, limit),
        Command::Explain { db, atom, depth } => cli::repl::explain(&db, &atom, depth),
        Command::Report {
            db,
            imprecise,
            unsound,
        } => cli::analyze::run_report(&db, imprecise, unsound),
        Command::Check {
            db,
            traces,
            min_recall,
            format,
        } => cli::analyze::run_check(&db, &traces, min_recall, format),
        Command::Export(ExportCommand::Targets { db, format }) => {
            let format = match format {
                TargetFormat::Tsv => cli::analyze::TargetsAs::Tsv,
                TargetFormat::Json => cli::analyze::TargetsAs::Json,
                TargetFormat::Spec => cli::analyze::TargetsAs::Spec,
            };
            cli::analyze::run_export_targets(&db, format)
        }
        Command::Export(ExportCommand::Specpoints { db }) => {
            cli::analyze::run_export_specpoints(&db)
        }
        Command::Export(ExportCommand::Relation {
            relation,
            db,
            format,
        }) => cli::repl::export_relation(&relation, &db, format),
        Command::Export(ExportCommand::Callgraph {
            db,
            format,
            from,
            to,
            depth,
            reflective_only,
            package,
            collapse,
        }) => {
            let filter = refract::analysis::callgraph::GraphFilter {
                from,
                to,
                depth,
                reflective_only,
                packages: package,
                collapse,
            };
            cli::repl::export_callgraph(&db, format, &filter)
        }
    }
}

/// Whether the error is stdout closing early (`refract ... | head`),
/// which is not a failure.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
