//! Runs a bddbddb Datalog program with the library, as `refract run`
//! does, and prints the size of every relation:
//! `cargo run --example run_program -- tests/data/bddbddb/c_pa.datalog`
use refract::datalog::{parser::parse_file, resolve::resolve, solver::Solver};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: run_program PROGRAM.datalog")?;
    let parsed = parse_file(std::path::Path::new(&path))?;
    let mut solver = Solver::new(resolve(&parsed)?)?;
    // Inputs come from the program's directory (R.facts, R.tuples, R.bdd).
    solver.load_inputs(None)?;
    solver.solve()?;
    for (rel, r) in solver.prog.relations.iter().enumerate() {
        println!("{}: {} tuples", r.name, solver.count(rel));
    }
    Ok(())
}
