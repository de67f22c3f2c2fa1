//! Errors of the Datalog front end and engine, each with its source location.

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

/// A position in a source file: `file:line:column`, 1-based.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Loc {
    /// The file (as given, or as found through `.include`).
    pub file: Arc<PathBuf>,
    /// Line number, from 1.
    pub line: u32,
    /// Column number, from 1.
    pub col: u32,
}

impl Loc {
    /// A location in `file`.
    pub fn new(file: Arc<PathBuf>, line: u32, col: u32) -> Self {
        Loc { file, line, col }
    }
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file.display(), self.line, self.col)
    }
}

/// What went wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The text does not follow the grammar.
    Syntax,
    /// A relation, domain or instance that was never declared.
    Unknown,
    /// Wrong number of arguments, or domains that do not agree.
    Mismatch,
    /// A head or negated variable that no positive subgoal binds.
    Unsafe,
    /// Negation inside a recursive cycle.
    Unstratifiable,
    /// A quoted constant that the domain's map does not hold.
    MissingConstant,
    /// A number outside its domain.
    OutOfDomain,
    /// Reading or writing a file failed.
    Io,
    /// A data file (`.bdd`, `.tuples`, map, TSV) is malformed.
    BadData,
    /// Something else the program asked for that cannot be done.
    Unsupported,
    /// The user interrupted the evaluation.
    Cancelled,
    /// The memory budget (`--max-memory`) was exceeded.
    OutOfMemory,
}

/// An error with its location in the Datalog source (or data file).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct Error {
    /// Where: file, line, column.
    pub loc: Option<Loc>,
    /// The class of error.
    pub kind: ErrorKind,
    /// A message a user can act on.
    pub message: String,
}

impl Error {
    /// An error at `loc`.
    pub fn at(loc: &Loc, kind: ErrorKind, message: impl Into<String>) -> Self {
        Error {
            loc: Some(loc.clone()),
            kind,
            message: message.into(),
        }
    }

    /// An error with no source location.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error {
            loc: None,
            kind,
            message: message.into(),
        }
    }

    /// An I/O error on `path`.
    pub fn io(path: &std::path::Path, err: &std::io::Error) -> Self {
        Error::new(ErrorKind::Io, format!("{}: {}", path.display(), err))
    }
}

/// The most characters of a message printed: a safety net behind the
/// bounded quotes of user input ([`super::quote`]).
const MESSAGE_LIMIT: usize = 4096;

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(loc) = &self.loc {
            write!(f, "{loc}: ")?;
        }
        // Control characters (a NUL from the input) are escaped; lines
        // and tabs of multi-line messages are kept.
        for (k, c) in self.message.chars().enumerate() {
            if k == MESSAGE_LIMIT {
                return write!(f, "... (message cut at {MESSAGE_LIMIT} characters)");
            }
            if c.is_control() && c != '\n' && c != '\t' {
                write!(f, "{}", c.escape_default())?;
            } else {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

/// Result with a Datalog [`Error`].
pub type Result<T> = std::result::Result<T, Error>;
