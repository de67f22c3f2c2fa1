//! `refract facts`: class path to program database.

use super::progress::ProgressLine;
use anyhow::{bail, Context, Result};
use refract::classpath::jdk::{jmods, JdkChoice};
use refract::classpath::ClassPath;
use refract::database::manifest::ManifestBuilder;
use refract::facts::write::write_database;
use refract::facts::{generate_with, FactsOptions, HeapOptions, Progress};
use std::io::Write;
use std::path::{Path, PathBuf};

/// How many unreadable classes to list before summarising the rest.
const SHOWN_PROBLEMS: usize = 20;

/// `refract facts --dump R...`: the relations' tuples with names, as TSV
/// with a header, sorted; nothing is written.
pub fn dump(
    classpath: &[PathBuf],
    jdk: &JdkChoice,
    opts: &FactsOptions,
    relations: &[String],
    quiet: bool,
) -> Result<()> {
    use refract::facts::schema::{relation_index, RELATIONS};
    for r in relations {
        if relation_index(r).is_none() {
            let hint = refract::datalog::quote::did_you_mean(r, RELATIONS.iter().map(|x| x.name));
            bail!("--dump {r}: the facts have no relation {r}{hint}");
        }
    }
    let cp = class_path(classpath, jdk)?;
    let bar = ProgressLine::new(quiet);
    let facts = generate_with(&cp, opts, &|p| match p {
        Progress::Read(n) => bar.show("reading", n, n),
        Progress::Translated(d, t) => bar.show("translating", d, t),
    });
    bar.finish();
    check_read(&facts)?;
    for p in &facts.problems {
        eprintln!("warning: skipped {p}");
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for (k, r) in relations.iter().enumerate() {
        if relations.len() > 1 {
            if k > 0 {
                writeln!(out)?;
            }
            writeln!(out, "# {r}")?;
        }
        let schema = &RELATIONS[relation_index(r).unwrap_or_default()];
        let header: Vec<&str> = schema.attrs.iter().map(|(name, _)| *name).collect();
        writeln!(out, "{}", header.join("\t"))?;
        for line in refract::facts::write::named_tuples(&facts.builder, r) {
            writeln!(out, "{line}")?;
        }
    }
    out.flush()?;
    Ok(())
}

/// Builds the database of `classpath` (+ the JDK) into `output`.
pub fn facts(
    classpath: &[PathBuf],
    jdk: &JdkChoice,
    opts: &FactsOptions,
    output: &Path,
    force: bool,
    quiet: bool,
) -> Result<()> {
    let cp = class_path(classpath, jdk)?;
    let inputs: Vec<PathBuf> = cp.entries.iter().map(|e| e.path.clone()).collect();
    super::prepare_output(output, &inputs, force)?;
    // The inputs' checksums first: a problem reading them shows before
    // any work.
    let mut manifest = ManifestBuilder::new("facts");
    record_inputs(&mut manifest, classpath, jdk)?;
    record_heap(&mut manifest, &opts.heap);
    let off = opts.models_off();
    if !off.is_empty() {
        manifest.option("no-model", &off.join(","));
    }
    let bar = ProgressLine::new(quiet);
    let start = std::time::Instant::now();
    let facts = generate_with(&cp, opts, &|p| match p {
        Progress::Read(n) => bar.show("reading", n, n),
        Progress::Translated(d, t) => bar.show("translating", d, t),
    });
    bar.finish();
    check_read(&facts)?;
    manifest.timing("facts", start.elapsed().as_secs_f64());
    let summary = write_database(&facts.builder, output, &manifest, force)
        .with_context(|| format!("cannot write the database {}", output.display()))?;
    for (k, p) in facts.problems.iter().enumerate() {
        if k == SHOWN_PROBLEMS {
            eprintln!(
                "warning: ... and {} more",
                facts.problems.len() - SHOWN_PROBLEMS
            );
            break;
        }
        eprintln!("warning: skipped {p}");
    }
    if quiet {
        return Ok(());
    }
    let st = &facts.builder.stats;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    writeln!(
        out,
        "{} classes ({} application, {} library), {} methods with code, {} skipped, {} duplicate, {:.2}s",
        st.classes.0 + st.classes.1,
        st.classes.0,
        st.classes.1,
        st.methods_with_code,
        facts.problems.len(),
        facts.duplicates,
        start.elapsed().as_secs_f64()
    )?;
    writeln!(
        out,
        "{} string concatenations, {} of them fitting too many names to name any",
        st.concats, st.partial_over_budget
    )?;
    if st.tables.0 > 0 {
        writeln!(
            out,
            "{} allocation sites in {} tables of the JDK's data, one object per table",
            st.tables.1, st.tables.0
        )?;
    }
    writeln!(out, "wrote {}", output.display())?;
    writeln!(out, "domains:")?;
    for (d, n) in &summary.domains {
        writeln!(out, "  {d:<5} {n:>10}")?;
    }
    writeln!(out, "relations:")?;
    for (r, n) in &summary.relations {
        writeln!(out, "  {r:<19} {n:>10}")?;
    }
    out.flush()?;
    Ok(())
}

/// The class path of the application entries (each must exist) and the
/// JDK's jmods.
pub fn class_path(classpath: &[PathBuf], jdk: &JdkChoice) -> Result<ClassPath> {
    let mut cp = ClassPath::default();
    for p in classpath {
        if !p.exists() {
            bail!("{}: no such file or directory", p.display());
        }
        cp.push_application(p.clone());
    }
    for j in jmods(jdk)? {
        cp.push_library(j);
    }
    Ok(cp)
}

/// Fails when the run was interrupted, or when no class of the
/// application could be read (an empty database helps nobody).
pub fn check_read(facts: &refract::facts::ProgramFacts) -> Result<()> {
    if let Some(why) = refract::interrupt::pending() {
        bail!("{why}, while reading the class path");
    }
    if facts.builder.stats.classes.0 == 0 {
        let why = match facts.problems.first() {
            Some(p) => format!(": {p}"),
            None => String::new(),
        };
        bail!(
            "no class could be read from the application class path ({} skipped){why}",
            facts.problems.len()
        );
    }
    Ok(())
}

/// Records the heap abstraction in a database manifest: what
/// [`HeapOptions::default`] does not do.
pub fn record_heap(manifest: &mut ManifestBuilder, heap: &HeapOptions) {
    if !heap.merge_tables {
        manifest.option("merge-tables", "no");
    }
}

/// Records the application inputs and the JDK's jmods, with checksums, in
/// a database manifest.
pub fn record_inputs(
    manifest: &mut ManifestBuilder,
    classpath: &[PathBuf],
    jdk: &JdkChoice,
) -> Result<()> {
    for p in classpath {
        manifest
            .input(p)
            .with_context(|| format!("cannot read {}", p.display()))?;
    }
    let mods = jmods(jdk)?;
    manifest.option(
        "jdk",
        &mods
            .first()
            .and_then(|m| m.parent())
            .map_or_else(|| "none".to_string(), |d| d.display().to_string()),
    );
    for m in &mods {
        manifest
            .input(m)
            .with_context(|| format!("cannot read {}", m.display()))?;
    }
    Ok(())
}
