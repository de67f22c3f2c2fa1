//! Opens a database that `refract analyze` wrote and asks it a question
//! with the library, as the shell does: the methods reached only through
//! reflection.
//! `cargo run --example query_database -- invoke.db`
use refract::database::Database;
use refract::session::{Output, Session};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = std::env::args().nth(1).ok_or("usage: query_database DB")?;
    let mut session = Session::new(Database::open(std::path::Path::new(&dir))?)?;
    let text = "viaReflection(m) :- IEr(_, m), !IE(_, m).\nviaReflection(m)?";
    for output in session.execute_text(text, "<example>", 1, usize::MAX)? {
        if let Output::Answer(answer) = output {
            println!("{} ({} tuples)", answer.title, answer.total);
            answer.render(&mut std::io::stdout())?;
        }
    }
    Ok(())
}
