//! The models of the JDK that run in the front end, on each method's IR.
//!
//! Most of what refract knows about the JDK's behaviour is Datalog, in
//! `queries/models/` (privileged actions, `String.valueOf`, `arraycopy`,
//! service loaders, proxies, method handles, ...), each file switched
//! off by `--no-model NAME`. The models here must rewrite bodies before
//! the facts are written, since they create variables, call sites and
//! objects that the BDD domains need before the rules run:
//!
//! - [`natives`]: bodies for the JDK natives that move objects or start
//!   code (`Object.clone`, `Thread.start0`), by the table
//!   `queries/models/natives.tsv`;
//! - [`containers`]: the JDK's collections, each object with its own
//!   contents, answered at each call site, by the table
//!   `queries/models/containers.tsv` ([`container_table`]).
//!
//! Each is switched off by `--no-model NAME` ([`FRONT_END_MODELS`]),
//! which builds the facts without it.

pub mod container_table;
pub mod containers;
pub mod natives;

/// The models of this layer that `--no-model` switches off, by name.
pub const FRONT_END_MODELS: [&str; 2] = ["containers", "natives"];
