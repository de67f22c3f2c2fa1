//! The `refract` command line.

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use refract::datalog::{parser::parse_file, resolve::resolve, solver::Solver};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// refract: a BDD-backed relational program database for Java.
#[derive(Parser)]
#[command(version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a bddbddb Datalog program as a batch.
    ///
    /// Input relations (declared `input`) are read from the facts directory
    /// (-F) or the program's base directory: R.facts (TSV), R.tuples or R.bdd.
    /// Relations declared `output`/`outputtuples` are written to the output
    /// directory (-D, plus R.csv), `printsize` and `printtuples` relations and
    /// queries (`body?`) are printed.
    ///
    /// Examples:
    ///   refract run ../shared/bddbddb/c_pa.datalog
    ///   refract run pa.datalog -F facts/ -D out/ --stats
    #[command(verbatim_doc_comment)]
    Run {
        /// The Datalog program.
        program: PathBuf,
        /// Directory of input relations (R.facts, R.tuples, R.bdd).
        #[arg(short = 'F', long = "facts")]
        facts: Option<PathBuf>,
        /// Directory for output relations (created if missing).
        #[arg(short = 'D', long = "output")]
        output: Option<PathBuf>,
        /// Print time, evaluations and BDD sizes per rule.
        #[arg(long)]
        stats: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(1)
        }
    }
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Run {
            program,
            facts,
            output,
            stats,
        } => run_program(program, facts, output, stats),
    }
}

fn run_program(
    program: PathBuf,
    facts: Option<PathBuf>,
    output: Option<PathBuf>,
    stats: bool,
) -> Result<()> {
    let parsed = parse_file(&program)?;
    for note in &parsed.notes {
        eprintln!("{note}");
    }
    let prog = resolve(&parsed)?;
    let mut solver = Solver::new(prog)?;
    let t = std::time::Instant::now();
    solver.load_inputs(facts.as_deref())?;
    let load_time = t.elapsed();
    solver.solve()?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    solver.print_results(&mut out)?;
    out.flush()?;
    if let Some(dir) = &output {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        solver.write_outputs(dir, true)?;
    } else {
        let base = solver.prog.base_dir.clone();
        solver.write_outputs(&base, false)?;
    }
    if stats {
        print_stats(&solver, load_time);
    }
    Ok(())
}

fn print_stats(solver: &Solver, load_time: std::time::Duration) {
    eprintln!("variable order: {}", solver.layout.describe_order());
    eprintln!(
        "load: {:.3}s  solve: {:.3}s",
        load_time.as_secs_f64(),
        solver.stats.time.as_secs_f64()
    );
    eprintln!("{:>9} {:>6} {:>9}  rule", "time(s)", "evals", "max nodes");
    let mut order: Vec<usize> = (0..solver.prog.rules.len()).collect();
    order.sort_by(|a, b| {
        solver.stats.rules[*b]
            .time
            .cmp(&solver.stats.rules[*a].time)
    });
    for i in order {
        let s = &solver.stats.rules[i];
        if s.evaluations == 0 {
            continue;
        }
        let r = &solver.prog.rules[i];
        eprintln!(
            "{:>9.3} {:>6} {:>9}  {}:{} {}",
            s.time.as_secs_f64(),
            s.evaluations,
            s.max_nodes,
            r.loc.file.display(),
            r.loc.line,
            r.text
        );
    }
}
