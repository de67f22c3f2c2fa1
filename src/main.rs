//! The `refract` command line.

mod cli;

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
    /// Build a program database from Java bytecode.
    ///
    /// Reads jars, jmods, class directories and .class files (the first
    /// definition of a class wins), plus the JDK's jmods, and writes the
    /// input relations of the pointer and reflection analyses: maps
    /// (V.map, H.map, ...), one .tuples file per relation, and schema.dl.
    /// Classes that cannot be read are reported and skipped.
    ///
    /// Examples:
    ///   refract facts app.jar -o app.db
    ///   refract facts build/classes lib/*.jar --jdk none -o app.db
    ///   refract facts app.jar --jdk /usr/lib/jvm/java-17-openjdk-amd64 -o app.db
    #[command(verbatim_doc_comment)]
    Facts {
        /// Jars, jmods, class directories or class files.
        #[arg(required = true)]
        classpath: Vec<PathBuf>,
        /// The JDK: auto ($JAVA_HOME, else `java` on PATH), none, or a JDK home.
        #[arg(long, default_value = "auto")]
        jdk: JdkChoice,
        /// The database directory to write.
        #[arg(short = 'o', long = "output")]
        output: PathBuf,
        /// Print no progress or summary.
        #[arg(short, long)]
        quiet: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
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
        } => cli::run::run_program(program, facts, output, stats),
        Command::Facts {
            classpath,
            jdk,
            output,
            quiet,
        } => cli::facts::facts(&classpath, &jdk, &output, quiet),
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
