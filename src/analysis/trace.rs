//! Dynamic traces of reflective calls, the ground truth `refract check`
//! measures an analysis against. Two formats are read:
//!
//! - **the project's TSV**, written by `reftrace` (and by `refract export
//!   targets`): a header naming at least `caller_class caller_method
//!   caller_desc bci api target`, optionally `line`, `hits` and `status`.
//!   A row is one edge; `Method.invoke.dispatch` rows name the method that
//!   actually ran for the `Method.invoke` row of the same site, and
//!   `status` `fail` marks a `Class.forName` that threw.
//! - **TamiFlex's `refl.log`**, as Doop, Soot and Tai-e read it:
//!   `Kind;target;caller;line;...`, where the caller is
//!   `package.Class.method` (no descriptor, no bytecode index: it is
//!   matched by method and source line), the line may be empty, and any
//!   further fields are ignored. Kinds are the API's (`Class.forName`,
//!   `Method.invoke`, `Field.get*`, `Field.set*`, ...); targets are class
//!   names, or Soot signatures of methods and fields, converted here to
//!   the export's forms (`Decl.name(desc)ret`, `Decl.field`).
//!
//! API labels are normalised to the export's: the typed field accessors
//! (`Field.getInt`, `Field.set*`) are `Field.get` and `Field.set`. Class
//! names are binary names; array descriptors (`[Ljava.lang.String;`)
//! become `java.lang.String[]`.

use crate::classfile::descriptor::{parse_field_signature, parse_method_signature};
use std::path::{Path, PathBuf};

/// Where a traced call was made.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Caller {
    /// Exactly: the method and the bytecode index of the call (TSV).
    Exact {
        /// Binary class name.
        class: String,
        /// Method name.
        method: String,
        /// JVM descriptor.
        desc: String,
        /// Bytecode index of the invoke instruction.
        bci: u64,
    },
    /// By method name and source line (TamiFlex); the line may be
    /// unknown.
    ByLine {
        /// Binary class name.
        class: String,
        /// Method name.
        method: String,
        /// Source line.
        line: Option<u64>,
    },
}

impl Caller {
    /// The caller's class.
    pub fn class(&self) -> &str {
        match self {
            Caller::Exact { class, .. } | Caller::ByLine { class, .. } => class,
        }
    }
}

impl std::fmt::Display for Caller {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Caller::Exact {
                class,
                method,
                desc,
                bci,
            } => write!(f, "{class}.{method}{desc} @ {bci}"),
            Caller::ByLine {
                class,
                method,
                line: Some(l),
            } => write!(f, "{class}.{method} line {l}"),
            Caller::ByLine {
                class,
                method,
                line: None,
            } => write!(f, "{class}.{method}"),
        }
    }
}

/// One traced edge: a call at `caller` of `api` that reached `target`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TracedEdge {
    /// Where.
    pub caller: Caller,
    /// The API label, normalised (`Field.getInt` is `Field.get`).
    pub api: String,
    /// The target, in the export's form.
    pub target: String,
    /// For `Method.invoke`: the methods that actually ran (from
    /// `Method.invoke.dispatch` rows of the same site).
    pub dispatched: Vec<String>,
    /// The call threw (`status` `fail` alone: a `forName` of a class that
    /// does not exist).
    pub failed: bool,
    /// The trace's line that gave it.
    pub line: usize,
}

/// A trace that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum TraceError {
    /// Reading the file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The failure.
        source: std::io::Error,
    },
    /// A malformed line.
    #[error("{path}:{line}: {message}")]
    Bad {
        /// The file.
        path: PathBuf,
        /// The line (from 1).
        line: usize,
        /// What is wrong.
        message: String,
    },
}

/// Reads a trace in either format (told apart by its first line).
pub fn read(path: &Path) -> Result<Vec<TracedEdge>, TraceError> {
    let bytes = std::fs::read(path).map_err(|source| TraceError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let text = String::from_utf8_lossy(&bytes);
    parse(&text, path)
}

/// Parses trace text; `path` labels errors.
pub fn parse(text: &str, path: &Path) -> Result<Vec<TracedEdge>, TraceError> {
    let bad = |line: usize, message: String| TraceError::Bad {
        path: path.to_path_buf(),
        line,
        message,
    };
    let first = text
        .lines()
        .map(|l| l.trim_start_matches('\u{feff}'))
        .find(|l| !l.trim().is_empty());
    match first {
        None => Ok(Vec::new()),
        Some(l) if l.starts_with("caller_class\t") => parse_tsv(text, &bad),
        Some(l) if l.contains(';') && !l.contains('\t') => parse_tamiflex(text, &bad),
        Some(_) => Err(bad(
            1,
            "neither a TSV trace (a header starting `caller_class<TAB>`) nor a TamiFlex log (`Kind;target;caller;line`)".into(),
        )),
    }
}

type Bad<'a> = &'a dyn Fn(usize, String) -> TraceError;

fn parse_tsv(text: &str, bad: Bad) -> Result<Vec<TracedEdge>, TraceError> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let (_, header) = lines.next().unwrap_or((0, ""));
    let cols: Vec<&str> = header.trim_start_matches('\u{feff}').split('\t').collect();
    let col = |name: &str| cols.iter().position(|c| *c == name);
    let need = [
        "caller_class",
        "caller_method",
        "caller_desc",
        "bci",
        "api",
        "target",
    ];
    let mut at = [0usize; 6];
    for (k, n) in need.iter().enumerate() {
        at[k] = col(n).ok_or_else(|| bad(1, format!("the header has no column `{n}`")))?;
    }
    let status_col = col("status");
    let mut edges: Vec<TracedEdge> = Vec::new();
    let mut dispatch: Vec<(Caller, String)> = Vec::new();
    for (k, raw) in lines {
        let line = k + 1;
        let f: Vec<&str> = raw.split('\t').collect();
        if f.len() < cols.len() {
            return Err(bad(
                line,
                format!("{} columns, but the header has {}", f.len(), cols.len()),
            ));
        }
        let bci: u64 = f[at[3]]
            .parse()
            .map_err(|_| bad(line, format!("bad bytecode index `{}`", clip(f[at[3]]))))?;
        let caller = Caller::Exact {
            class: f[at[0]].to_string(),
            method: f[at[1]].to_string(),
            desc: f[at[2]].to_string(),
            bci,
        };
        let api = f[at[4]];
        let target = f[at[5]].to_string();
        if api == "Method.invoke.dispatch" {
            dispatch.push((caller, target));
            continue;
        }
        let api = normalise_api(api);
        let failed = status_col.is_some_and(|c| f.get(c) == Some(&"fail"));
        let by_name = crate::facts::reflection_api::is_class_by_name_label(&api);
        let target = if by_name { class_name(&target) } else { target };
        edges.push(TracedEdge {
            caller,
            api,
            target,
            dispatched: Vec::new(),
            failed,
            line,
        });
    }
    for (caller, target) in dispatch {
        for e in edges
            .iter_mut()
            .filter(|e| e.caller == caller && e.api == "Method.invoke")
        {
            if !e.dispatched.contains(&target) {
                e.dispatched.push(target.clone());
            }
        }
    }
    Ok(edges)
}

fn parse_tamiflex(text: &str, bad: Bad) -> Result<Vec<TracedEdge>, TraceError> {
    let mut edges = Vec::new();
    for (k, raw) in text.lines().enumerate() {
        let line = k + 1;
        let raw = raw.trim_start_matches('\u{feff}').trim_end_matches('\r');
        if raw.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = raw.split(';').collect();
        if f.len() < 4 {
            return Err(bad(
                line,
                format!(
                    "expected `Kind;target;caller;line[;...]`, found {} field{}",
                    f.len(),
                    if f.len() == 1 { "" } else { "s" }
                ),
            ));
        }
        let (kind, target, source, line_no) = (f[0], f[1], f[2], f[3]);
        let Some((class, method)) = source.rsplit_once('.') else {
            return Err(bad(
                line,
                format!(
                    "the caller `{}` is not `package.Class.method`",
                    clip(source)
                ),
            ));
        };
        let line_no = match line_no.trim() {
            "" | "-1" => None,
            n => Some(
                n.parse()
                    .map_err(|_| bad(line, format!("bad line number `{}`", clip(n))))?,
            ),
        };
        let api = normalise_api(kind);
        let target = match api.as_str() {
            "Method.invoke" | "Constructor.newInstance" => match parse_method_signature(target) {
                Some(s) => format!("{}.{}{}", s.class, s.name, s.descriptor()),
                None => target.to_string(),
            },
            "Field.get" | "Field.set" => match parse_field_signature(target) {
                Some((c, _, name)) => format!("{c}.{name}"),
                None => target.to_string(),
            },
            _ => class_name(target),
        };
        edges.push(TracedEdge {
            caller: Caller::ByLine {
                class: class.to_string(),
                method: method.to_string(),
                line: line_no,
            },
            api,
            target,
            dispatched: Vec::new(),
            failed: false,
            line,
        });
    }
    Ok(edges)
}

/// The export's API label: typed field accessors fold into `Field.get`
/// and `Field.set` (TamiFlex writes `Field.get*`).
fn normalise_api(api: &str) -> String {
    if let Some(rest) = api.strip_prefix("Field.get") {
        if rest.is_empty() || rest == "*" || rest.chars().next().is_some_and(char::is_uppercase) {
            return "Field.get".into();
        }
    }
    if let Some(rest) = api.strip_prefix("Field.set") {
        if rest.is_empty() || rest == "*" || rest.chars().next().is_some_and(char::is_uppercase) {
            return "Field.set".into();
        }
    }
    api.to_string()
}

/// A class name as the analysis names types: `[Ljava.lang.String;` is
/// `java.lang.String[]`, `[[I` is `int[][]`.
fn class_name(raw: &str) -> String {
    let dims = raw.chars().take_while(|&c| c == '[').count();
    if dims == 0 {
        return raw.to_string();
    }
    let element = &raw[dims..];
    let base = match element {
        "Z" => "boolean".to_string(),
        "B" => "byte".to_string(),
        "C" => "char".to_string(),
        "S" => "short".to_string(),
        "I" => "int".to_string(),
        "J" => "long".to_string(),
        "F" => "float".to_string(),
        "D" => "double".to_string(),
        e => match e.strip_prefix('L').and_then(|e| e.strip_suffix(';')) {
            Some(c) => c.to_string(),
            None => return raw.to_string(),
        },
    };
    format!("{base}{}", "[]".repeat(dims))
}

/// At most 80 characters of a field, for messages.
fn clip(s: &str) -> String {
    crate::datalog::quote::bounded(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tsv_rows_with_dispatch_and_status() {
        let text = "caller_class\tcaller_method\tcaller_desc\tbci\tapi\ttarget\thits\tstatus\n\
                    a.Main\tmain\t([Ljava/lang/String;)V\t3\tClass.forName\t[La.B;\t1\tok\n\
                    a.Main\tmain\t([Ljava/lang/String;)V\t9\tClass.forName\tno.Such\t2\tfail\n\
                    a.Main\tmain\t([Ljava/lang/String;)V\t20\tMethod.invoke\ta.B.m()V\t1\t-\n\
                    a.Main\tmain\t([Ljava/lang/String;)V\t20\tMethod.invoke.dispatch\ta.C.m()V\t1\t-\n\
                    a.Main\tmain\t([Ljava/lang/String;)V\t30\tField.getInt\ta.B.f\t1\t-\n";
        let e = parse(text, Path::new("t.tsv")).unwrap();
        assert_eq!(e.len(), 4);
        assert_eq!(e[0].target, "a.B[]");
        assert!(e[1].failed && !e[0].failed);
        assert_eq!(e[2].dispatched, ["a.C.m()V"]);
        assert_eq!(e[3].api, "Field.get");
        let err = parse("caller_class\tapi\n", Path::new("t.tsv")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "t.tsv:1: the header has no column `caller_method`"
        );
        let err = parse(
            "caller_class\tcaller_method\tcaller_desc\tbci\tapi\ttarget\nA\tm\t()V\tx\tClass.forName\tB\n",
            Path::new("t.tsv"),
        )
        .unwrap_err();
        assert_eq!(err.to_string(), "t.tsv:2: bad bytecode index `x`");
    }

    #[test]
    fn tamiflex_logs_with_their_oddities() {
        // Soot signatures, `Field.set*`, an empty line number, extra
        // fields, a CRLF line and a blank line.
        let text = "Class.forName;a.B;a.Main.main;12;;\r\n\
                    \n\
                    Method.invoke;<a.B: java.lang.String run(java.lang.String)>;a.Main.main;;false;\n\
                    Constructor.newInstance;<a.B: void <init>(int,a.C[])>;a.Main.make;40\n\
                    Field.set*;<a.B: int count>;a.Main.main;14\n\
                    Array.newInstance;[I;a.Main.main;15\n";
        let e = parse(text, Path::new("refl.log")).unwrap();
        assert_eq!(e.len(), 5);
        assert_eq!(
            e[0].caller,
            Caller::ByLine {
                class: "a.Main".into(),
                method: "main".into(),
                line: Some(12)
            }
        );
        assert_eq!(e[1].target, "a.B.run(Ljava/lang/String;)Ljava/lang/String;");
        assert_eq!(e[1].line, 3);
        assert!(matches!(e[1].caller, Caller::ByLine { line: None, .. }));
        assert_eq!(e[2].target, "a.B.<init>(I[La/C;)V");
        assert_eq!(
            (e[3].api.as_str(), e[3].target.as_str()),
            ("Field.set", "a.B.count")
        );
        assert_eq!(
            (e[4].api.as_str(), e[4].target.as_str()),
            ("Array.newInstance", "int[]")
        );
        let err = parse("Class.forName;a.B\n", Path::new("refl.log")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "refl.log:1: expected `Kind;target;caller;line[;...]`, found 2 fields"
        );
        let err = parse("Class.forName;a.B;main;x\n", Path::new("refl.log")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "refl.log:1: the caller `main` is not `package.Class.method`"
        );
    }
}
