//! `refract analyze`, `refract report`, `refract export`.

use super::progress::{ProgressLine, SolveProgress};
use anyhow::{bail, Result};
use refract::analysis::driver::{analyze, AnalysisOptions};
use refract::analysis::{export, report, results, ContextScope, Variant};
use refract::classpath::jdk::JdkChoice;
use refract::database::manifest::ManifestBuilder;
use refract::database::Database;
use refract::datalog::observer::SharedObserver;
use refract::facts::{generate_with, FactsOptions, Progress};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What `refract analyze` was asked to do.
pub struct AnalyzeArgs {
    /// Application entries.
    pub classpath: Vec<PathBuf>,
    /// The JDK.
    pub jdk: JdkChoice,
    /// The heap abstraction and the front end's models.
    pub facts: FactsOptions,
    /// The analysis options.
    pub options: AnalysisOptions,
    /// The database to write.
    pub output: PathBuf,
    /// Replace a directory at `output` that is not a database.
    pub force: bool,
    /// No progress and no report.
    pub quiet: bool,
}

/// Builds the facts, runs the analysis, writes the database and prints
/// the report.
pub fn run_analyze(a: AnalyzeArgs) -> Result<()> {
    if a.options.variant == Variant::Sound && a.options.spec.is_none() {
        bail!("--reflection sound needs --spec FILE (the classes unresolved sites return)");
    }
    if a.options.variant == Variant::None && a.options.spec.is_some() {
        bail!("--spec has no effect with --reflection none, which ignores reflection; choose another variant");
    }
    if a.options.probe && a.options.variant != Variant::Infer {
        bail!("--probe weakens infer's inference; it needs --reflection infer");
    }
    let scope = a.options.context_scope;
    if scope != ContextScope::All && !a.options.context.has_object_elements() {
        bail!(
            "--context-scope {scope} chooses among objects; it needs --context 1-object, 2-object or 2-type, not {}",
            a.options.context
        );
    }
    if let Some(assume) = a.options.assume {
        if let Err(e) = assume.rules(a.options.variant) {
            bail!("{e}");
        }
    }
    let cp = super::facts::class_path(&a.classpath, &a.jdk)?;
    let mut inputs: Vec<PathBuf> = cp.entries.iter().map(|e| e.path.clone()).collect();
    inputs.extend(a.options.spec.iter().cloned());
    super::prepare_output(&a.output, &inputs, a.force)?;
    // The inputs' checksums first: a problem reading them shows before
    // any work.
    let mut manifest = ManifestBuilder::new("analyze");
    super::facts::record_inputs(&mut manifest, &a.classpath, &a.jdk)?;
    super::facts::record_heap(&mut manifest, &a.facts.heap);
    let bar = ProgressLine::new(a.quiet);
    let start = std::time::Instant::now();
    let facts = generate_with(&cp, &a.facts, &|p| match p {
        Progress::Read(n) => bar.show("reading", n, n),
        Progress::Translated(d, t) => bar.show("translating", d, t),
    });
    bar.finish();
    super::facts::check_read(&facts)?;
    for p in facts.problems.iter().take(20) {
        eprintln!("warning: skipped {p}");
    }
    if facts.problems.len() > 20 {
        eprintln!("warning: ... and {} more", facts.problems.len() - 20);
    }
    let facts_time = start.elapsed();
    // On a terminal, the solve shows its stratum, iteration and largest
    // growing relations as it goes.
    let progress = Arc::new(SolveProgress(ProgressLine::new(a.quiet)));
    let mut options = a.options.clone();
    if progress.0.enabled() {
        options.observer = SharedObserver(Some(progress.clone()));
    }
    manifest.timing("facts", facts_time.as_secs_f64());
    let analysed = analyze(facts, &options, &a.output, a.force, manifest);
    progress.0.finish();
    let (solver, _, stats) = analysed?;
    drop(solver);
    if a.quiet {
        return Ok(());
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    writeln!(
        out,
        "wrote {} ({}; facts {:.2}s, load {:.2}s, solve {:.2}s)",
        a.output.display(),
        report::counted(stats.roots, "root", "roots"),
        facts_time.as_secs_f64(),
        stats.load.as_secs_f64(),
        stats.solve.as_secs_f64()
    )?;
    let mut db = open(&a.output)?;
    let r = results::read(&mut db)?;
    write!(out, "{}", report::render(&r))?;
    out.flush()?;
    Ok(())
}

fn open(db: &Path) -> Result<Database> {
    // Every database error names the file at fault.
    Ok(Database::open(db)?)
}

/// `refract report DB [--imprecise N] [--unsound]`.
pub fn run_report(db: &Path, imprecise: Option<usize>, unsound: bool) -> Result<()> {
    let mut db = open(db)?;
    let r = results::read(&mut db)?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    write!(out, "{}", report::render(&r))?;
    if let Some(limit) = imprecise {
        write!(out, "{}", report::render_imprecise(&db, &r, limit))?;
    }
    if unsound {
        write!(out, "{}", report::render_unsound(&mut db, &r)?)?;
    }
    out.flush()?;
    Ok(())
}

/// `refract export targets DB [--format tsv|json|spec]`.
pub fn run_export_targets(db: &Path, format: TargetsAs) -> Result<()> {
    let mut db = open(db)?;
    let r = results::read(&mut db)?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match format {
        TargetsAs::Spec => {
            for l in export::targets_spec(&db, &r) {
                writeln!(out, "{l}")?;
            }
        }
        TargetsAs::Tsv => {
            writeln!(out, "{}", export::HEADER)?;
            for l in export::targets_tsv(&db, &r) {
                writeln!(out, "{l}")?;
            }
        }
        TargetsAs::Json => write!(
            out,
            "{}",
            export::targets_json(&export::targets_tsv(&db, &r))
        )?,
    }
    out.flush()?;
    Ok(())
}

/// How `refract export targets` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetsAs {
    /// TSV with a header.
    Tsv,
    /// A JSON array of objects.
    Json,
    /// Specification lines.
    Spec,
}

/// `refract export specpoints DB`.
pub fn run_export_specpoints(db: &Path) -> Result<()> {
    let mut db = open(db)?;
    let r = results::read(&mut db)?;
    let lines = export::spec_points(&mut db, &r)?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    writeln!(out, "source\tsite\tpath")?;
    for l in lines {
        writeln!(out, "{l}")?;
    }
    out.flush()?;
    Ok(())
}

/// The recall was below `--min-recall` (the report is printed already).
#[derive(Debug, thiserror::Error)]
#[error("recall {found}/{traced} is below --min-recall {min}")]
pub struct BelowMinRecall {
    found: usize,
    traced: usize,
    min: f64,
}

/// `refract check DB TRACE... [--min-recall R] [--format ...]`.
pub fn run_check(
    db: &Path,
    traces: &[PathBuf],
    min_recall: Option<f64>,
    format: crate::CheckFormat,
) -> Result<()> {
    use refract::analysis::{check, trace};
    if let Some(r) = min_recall {
        if !(0.0..=1.0).contains(&r) {
            bail!("--min-recall {r}: a recall is between 0 and 1");
        }
    }
    let mut db = open(db)?;
    let r = results::read(&mut db)?;
    // Several traces of one program: each edge once.
    let mut edges: Vec<trace::TracedEdge> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for t in traces {
        for e in trace::read(t)? {
            if seen.insert((e.caller.clone(), e.api.clone(), e.target.clone())) {
                edges.push(e);
            }
        }
    }
    let c = check::check(&mut db, &r, edges)?;
    let names: Vec<String> = traces.iter().map(|t| t.display().to_string()).collect();
    let text = match format {
        crate::CheckFormat::Text => check::render_text(&c, &names.join(", ")),
        crate::CheckFormat::Tsv => check::render_tsv(&c),
        crate::CheckFormat::Json => check::render_json(&c),
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    let total = c.total();
    if let Some(min) = min_recall {
        let recall = if total.traced == 0 {
            1.0
        } else {
            total.found as f64 / total.traced as f64
        };
        if recall < min {
            return Err(BelowMinRecall {
                found: total.found,
                traced: total.traced,
                min,
            }
            .into());
        }
    }
    Ok(())
}
