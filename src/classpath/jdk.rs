//! Finding the JDK's `.jmod` files for `--jdk auto|none|PATH`.

use std::path::{Path, PathBuf};

/// Which JDK to analyse against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JdkChoice {
    /// The running JDK: `$JAVA_HOME`, else the JDK of `java` on `PATH`.
    Auto,
    /// No JDK.
    None,
    /// A JDK home directory (or its `jmods` directory).
    Path(PathBuf),
}

impl std::str::FromStr for JdkChoice {
    type Err = std::convert::Infallible;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s {
            "auto" => JdkChoice::Auto,
            "none" => JdkChoice::None,
            p => JdkChoice::Path(PathBuf::from(p)),
        })
    }
}

/// Why no JDK could be used.
#[derive(Debug, thiserror::Error)]
pub enum JdkError {
    /// No JDK was found at all.
    #[error(
        "no JDK found: JAVA_HOME is not set and no `java` is on PATH; \
         install a JDK 9+ with jmods (Debian: openjdk-17-jdk), pass --jdk PATH, or use --jdk none"
    )]
    NotFound,
    /// A JDK was found but has no jmods (a JRE, or a jlinked image).
    #[error(
        "the JDK at {0} has no jmods directory; install the full JDK \
         (Debian: openjdk-17-jdk), pass --jdk PATH to one that has jmods, or use --jdk none"
    )]
    NoJmods(PathBuf),
    /// The JDK's jmods directory holds no `.jmod` file.
    #[error(
        "{0} holds no .jmod file; pass --jdk PATH to a JDK whose jmods directory has them, \
         or use --jdk none"
    )]
    EmptyJmods(PathBuf),
}

/// The `.jmod` files of the chosen JDK, sorted by name, with java.base
/// first so that its classes win over any duplicate.
pub fn jmods(choice: &JdkChoice) -> Result<Vec<PathBuf>, JdkError> {
    let home = match choice {
        JdkChoice::None => return Ok(Vec::new()),
        JdkChoice::Path(p) => p.clone(),
        JdkChoice::Auto => find_home().ok_or(JdkError::NotFound)?,
    };
    let dir = if home.file_name().is_some_and(|n| n == "jmods") {
        home.clone()
    } else {
        home.join("jmods")
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|_| JdkError::NoJmods(home.clone()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "jmod"))
        .collect();
    if files.is_empty() {
        return Err(JdkError::EmptyJmods(dir));
    }
    files.sort_by_key(|p| {
        (
            p.file_name().is_none_or(|n| n != "java.base.jmod"),
            p.clone(),
        )
    });
    Ok(files)
}

/// `$JAVA_HOME`, else the JDK home of `java` on `PATH` (symlinks followed).
fn find_home() -> Option<PathBuf> {
    if let Some(h) = std::env::var_os("JAVA_HOME").filter(|h| !h.is_empty()) {
        return Some(PathBuf::from(h));
    }
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        let java = dir.join("java");
        if java.is_file() {
            let real = std::fs::canonicalize(&java).unwrap_or(java);
            // <home>/bin/java
            return real.parent().and_then(Path::parent).map(Path::to_path_buf);
        }
    }
    None
}
