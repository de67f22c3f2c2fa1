//! `refract run`: a Datalog program as a batch.

use super::progress::{ProgressLine, SolveProgress};
use anyhow::{Context, Result};
use refract::datalog::{parser::parse_file, resolve::resolve, solver::Solver};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

/// Runs `program`, reading inputs from `facts` and writing outputs.
pub fn run_program(
    program: PathBuf,
    facts: Option<PathBuf>,
    output: Option<PathBuf>,
    stats: bool,
    explain_plan: bool,
) -> Result<()> {
    let parsed = parse_file(&program)?;
    for note in &parsed.notes {
        eprintln!("{note}");
    }
    let prog = resolve(&parsed)?;
    let mut solver = Solver::new(prog)?;
    if explain_plan {
        let text = refract::datalog::explain_plan::explain_plans(&solver.prog, &solver.layout)?;
        let stdout = std::io::stdout();
        let mut out = stdout.lock();
        out.write_all(text.as_bytes())?;
        out.flush()?;
        return Ok(());
    }
    let t = std::time::Instant::now();
    solver.load_inputs(facts.as_deref())?;
    let load_time = t.elapsed();
    // The outputs may not replace an input; better said before the solve.
    match &output {
        Some(dir) => solver.check_outputs(dir, true)?,
        None => solver.check_outputs(&solver.prog.base_dir, false)?,
    }
    // On a terminal, the solve shows its stratum and iteration as it goes.
    let progress = Arc::new(SolveProgress(ProgressLine::new(false)));
    if progress.0.enabled() {
        solver.observer = Some(progress.clone());
    }
    let solved = solver.solve();
    progress.0.finish();
    solved?;
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
    for &(ri, contexts) in &solver.stats.numberings {
        let r = &solver.prog.rules[ri];
        eprintln!(
            "numbered {}:{}: at most {contexts} contexts per node ({} bits)",
            r.loc.file.display(),
            r.loc.line,
            u128::BITS - contexts.leading_zeros()
        );
    }
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
