//! The subcommands of the `refract` binary.

pub mod analyze;
pub mod facts;
pub mod progress;
pub mod repl;
pub mod run;
