//! The class path: jars, `.jmod` files, class directories and single
//! `.class` files, read into raw class-file bytes.
//!
//! Entries are read in class-path order; when two entries define the same
//! class, the first one wins (as the JVM's class loader would have it).

pub mod jdk;

use std::collections::HashSet;
use std::fs;
use std::io::{Cursor, Read};
use std::path::{Path, PathBuf};

/// Something that could not be read. Reading goes on; these are reported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadProblem {
    /// The class-path entry (jar, jmod, directory or file).
    pub file: PathBuf,
    /// The member inside an archive, if any.
    pub entry: Option<String>,
    /// What went wrong.
    pub reason: String,
}

impl std::fmt::Display for LoadProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.entry {
            Some(e) => write!(f, "{}!{}: {}", self.file.display(), e, self.reason),
            None => write!(f, "{}: {}", self.file.display(), self.reason),
        }
    }
}

/// The raw bytes of one class file and where they came from.
#[derive(Clone, Debug)]
pub struct ClassBytes {
    /// The class-path entry.
    pub file: PathBuf,
    /// The member inside an archive (`None` for a plain `.class` file).
    pub entry: Option<String>,
    /// Whether the entry is part of the JDK (library) rather than the
    /// application.
    pub is_library: bool,
    /// The class file.
    pub bytes: Vec<u8>,
}

impl ClassBytes {
    /// A description of the location, `file!entry`.
    pub fn location(&self) -> String {
        match &self.entry {
            Some(e) => format!("{}!{}", self.file.display(), e),
            None => self.file.display().to_string(),
        }
    }
}

/// A resource file of a jar or class directory that names classes: a
/// provider-configuration file, `META-INF/services/<service>` (see
/// `java.util.ServiceLoader`), a `.properties` file, or the jar's
/// manifest, `META-INF/MANIFEST.MF`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResourceFile {
    /// Where it was read, `file!entry` or the file's path.
    pub location: String,
    /// Its name as a class loader's `getResource` takes it: the path
    /// inside its jar or class directory (`a/b/c.properties`).
    pub name: String,
    /// What it is.
    pub kind: ResourceKind,
    /// The names it holds: a service's providers (binary names, in the
    /// file's order), or a properties file's or manifest's values.
    pub names: Vec<String>,
    /// A properties file's keys, in the file's order (none for the other
    /// kinds).
    pub keys: Vec<String>,
}

/// The kinds of [`ResourceFile`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResourceKind {
    /// The providers of this service (a binary class name).
    Services(String),
    /// A `.properties` file.
    Properties,
    /// A manifest, `META-INF/MANIFEST.MF` (`java.util.jar.Manifest`).
    Manifest,
    /// A `.properties` file of the JDK's configuration: a jmod's `conf/`
    /// section, which the JDK image installs as `${java.home}/conf`
    /// (`conf/logging.properties`, which `java.util.logging.LogManager`
    /// reads).
    JdkConfiguration,
}

/// The largest resource file read (real provider files are a few lines,
/// properties files a few kilobytes).
const MAX_RESOURCE_BYTES: u64 = 1 << 20;

/// The entries of a `.properties` file (`java.util.Properties.load`), as
/// (key, value): `key=value`, `key:value` or `key value` per logical
/// line, `#` and `!` comments, a backslash at the end of a line
/// continuing it, and in keys and values the escapes `\t`, `\n`,
/// `\uXXXX` and `\x` for any other `x`.
pub fn parse_properties(text: &str) -> Vec<(String, String)> {
    let mut entries = Vec::new();
    let mut lines = text.lines();
    while let Some(first) = lines.next() {
        let mut line = first.trim_start().to_string();
        if line.is_empty() || line.starts_with('#') || line.starts_with('!') {
            continue;
        }
        // An odd number of trailing backslashes continues the line.
        while line.chars().rev().take_while(|&c| c == '\\').count() % 2 == 1 {
            line.pop();
            match lines.next() {
                Some(next) => line.push_str(next.trim_start()),
                None => break,
            }
        }
        let mut chars = line.chars().peekable();
        // The key ends at an unescaped '=', ':' or blank.
        let mut key = String::new();
        while let Some(&c) = chars.peek() {
            if c == '=' || c == ':' || c.is_whitespace() {
                break;
            }
            chars.next();
            if c == '\\' {
                unescape(&mut chars, &mut key);
            } else {
                key.push(c);
            }
        }
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        if chars.peek().is_some_and(|&c| c == '=' || c == ':') {
            chars.next();
            while chars.peek().is_some_and(|c| c.is_whitespace()) {
                chars.next();
            }
        }
        let mut value = String::new();
        while let Some(c) = chars.next() {
            if c == '\\' {
                unescape(&mut chars, &mut value);
            } else {
                value.push(c);
            }
        }
        entries.push((key, value));
    }
    entries
}

/// Appends to `out` the character that the escape after a backslash
/// stands for in a `.properties` file (nothing for a backslash that ends
/// the line).
fn unescape(chars: &mut std::iter::Peekable<std::str::Chars<'_>>, out: &mut String) {
    match chars.next() {
        Some('t') => out.push('\t'),
        Some('n') => out.push('\n'),
        Some('r') => out.push('\r'),
        Some('f') => out.push('\u{c}'),
        Some('u') => {
            let hex: String = chars.by_ref().take(4).collect();
            if let Some(c) = u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                out.push(c);
            }
        }
        Some(other) => out.push(other),
        None => {}
    }
}

/// The attribute values of a manifest (the JAR File Specification):
/// `Name: value` lines in sections separated by blank lines, a line that
/// starts with one space continuing the line before it. Every section's
/// values count, the main section's (`Main-Class`) and the entries'.
pub fn parse_manifest_values(text: &str) -> Vec<String> {
    let mut values: Vec<String> = Vec::new();
    let mut last: Option<usize> = None;
    for line in text.lines() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if let Some(rest) = line.strip_prefix(' ') {
            if let Some(v) = last.and_then(|k| values.get_mut(k)) {
                v.push_str(rest);
            }
            continue;
        }
        last = None;
        if let Some((_, value)) = line.split_once(": ") {
            values.push(value.to_string());
            last = Some(values.len() - 1);
        }
    }
    values
}

/// The providers a provider-configuration file names: one binary name per
/// line, with `#` starting a comment and blanks around names ignored.
pub fn parse_service_file(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

/// Where a jar keeps its manifest.
const MANIFEST: &str = "META-INF/MANIFEST.MF";

/// The service a path inside a jar or class directory configures:
/// `META-INF/services/a.b.S` gives `a.b.S`.
fn service_of(entry: &str) -> Option<&str> {
    let name = entry.strip_prefix("META-INF/services/")?;
    (!name.is_empty() && !name.contains('/')).then_some(name)
}

/// The kind of resource file a path inside a jar or class directory is,
/// if it is one that names classes.
fn resource_kind(entry: &str) -> Option<ResourceKind> {
    if let Some(service) = service_of(entry) {
        return Some(ResourceKind::Services(service.to_string()));
    }
    // JarFile finds its manifest whatever the case of the name.
    if entry.eq_ignore_ascii_case(MANIFEST) {
        return Some(ResourceKind::Manifest);
    }
    (entry.ends_with(".properties") && !entry.ends_with('/')).then_some(ResourceKind::Properties)
}

/// Where a jmod keeps the files that the JDK image installs in
/// `${java.home}/conf`.
const JMOD_CONFIGURATION: &str = "conf/";

/// The kind of resource file a path inside a jmod is, if it is one that
/// names classes: a properties file of its `conf/` section. (A jmod's
/// services are in its module-info, and its `classes/` section's
/// resources are the JDK's own, read by code that the models cover.)
fn jmod_resource_kind(entry: &str) -> Option<ResourceKind> {
    (entry.starts_with(JMOD_CONFIGURATION) && entry.ends_with(".properties"))
        .then_some(ResourceKind::JdkConfiguration)
}

/// One entry of the class path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassPathEntry {
    /// The file or directory.
    pub path: PathBuf,
    /// Whether it belongs to the JDK.
    pub is_library: bool,
}

/// An ordered class path.
#[derive(Clone, Debug, Default)]
pub struct ClassPath {
    /// The entries, first wins.
    pub entries: Vec<ClassPathEntry>,
}

/// Everything read from a class path.
#[derive(Debug, Default)]
pub struct ReadClassPath {
    /// The class files, in class-path order. Entries that define a class
    /// already defined earlier are still listed here; the class reader
    /// drops the later ones by class name.
    pub classes: Vec<ClassBytes>,
    /// What could not be read.
    pub problems: Vec<LoadProblem>,
    /// The resource files of jars and class directories that name
    /// classes.
    pub resources: Vec<ResourceFile>,
}

impl ClassPath {
    /// Adds application entries.
    pub fn push_application(&mut self, path: impl Into<PathBuf>) {
        self.entries.push(ClassPathEntry {
            path: path.into(),
            is_library: false,
        });
    }

    /// Adds library (JDK) entries.
    pub fn push_library(&mut self, path: impl Into<PathBuf>) {
        self.entries.push(ClassPathEntry {
            path: path.into(),
            is_library: true,
        });
    }

    /// Reads every class file of every entry, handing them to `batch` a
    /// few thousand (or 64 MB) at a time, so that the caller can parse
    /// and drop the bytes as it goes: memory does not grow with the total
    /// size of the class path. Unreadable entries become
    /// [`LoadProblem`]s; only a missing entry given by the user is an
    /// error, reported as a problem too so the caller decides. Returns the
    /// resource files (`META-INF/services/*`, `*.properties`) of jars and
    /// class directories.
    pub fn read_batches(
        &self,
        batch: &mut dyn FnMut(Vec<ClassBytes>),
        problems: &mut Vec<LoadProblem>,
    ) -> Vec<ResourceFile> {
        let mut r = Reader {
            pending: Vec::new(),
            pending_bytes: 0,
            batch,
            problems,
            resources: Vec::new(),
        };
        for e in &self.entries {
            r.entry(&e.path, e.is_library);
        }
        r.flush();
        r.resources
    }

    /// Reads every class file of every entry at once (for small class
    /// paths and tests; [`read_batches`](Self::read_batches) bounds
    /// memory).
    pub fn read(&self) -> ReadClassPath {
        let mut out = ReadClassPath::default();
        let mut classes = Vec::new();
        out.resources = self.read_batches(&mut |b| classes.extend(b), &mut out.problems);
        out.classes = classes;
        out
    }
}

/// Class files held at once at most, before the reader hands them on.
const BATCH_CLASSES: usize = 4096;
/// Bytes of class files held at once at most (one class may exceed it).
const BATCH_BYTES: usize = 64 << 20;
/// The largest class file read: no real class comes near it (the JDK's
/// largest is under 1 MB); an entry that inflates past it is refused
/// without inflating the rest (zip bombs).
pub const MAX_CLASS_BYTES: u64 = 64 << 20;
/// A class file's first four bytes.
const MAGIC: [u8; 4] = [0xCA, 0xFE, 0xBA, 0xBE];

/// Reading the class path: the classes read and not yet handed on.
struct Reader<'a> {
    pending: Vec<ClassBytes>,
    pending_bytes: usize,
    batch: &'a mut dyn FnMut(Vec<ClassBytes>),
    problems: &'a mut Vec<LoadProblem>,
    resources: Vec<ResourceFile>,
}

impl Reader<'_> {
    fn problem(&mut self, file: &Path, entry: Option<String>, reason: String) {
        self.problems.push(LoadProblem {
            file: file.to_path_buf(),
            entry,
            reason,
        });
    }

    fn push(&mut self, c: ClassBytes) {
        self.pending_bytes += c.bytes.len();
        self.pending.push(c);
        if self.pending.len() >= BATCH_CLASSES || self.pending_bytes >= BATCH_BYTES {
            self.flush();
        }
    }

    fn flush(&mut self) {
        if !self.pending.is_empty() {
            self.pending_bytes = 0;
            (self.batch)(std::mem::take(&mut self.pending));
        }
    }

    fn entry(&mut self, path: &Path, is_library: bool) {
        let meta = match fs::metadata(path) {
            Ok(m) => m,
            Err(e) => return self.problem(path, None, format!("cannot read: {e}")),
        };
        if meta.is_dir() {
            let mut files = Vec::new();
            let mut seen = HashSet::new();
            if let Ok(real) = path.canonicalize() {
                seen.insert(real);
            }
            let mut resources = Vec::new();
            self.collect_class_files(path, &mut seen, &mut files, &mut resources);
            resources.sort();
            for f in resources {
                let entry = f
                    .strip_prefix(path)
                    .unwrap_or(&f)
                    .to_string_lossy()
                    .into_owned();
                let Some(kind) = resource_kind(&entry) else {
                    continue;
                };
                match fs::File::open(&f).and_then(read_resource) {
                    Ok(text) => self.resource(f.display().to_string(), entry, kind, &text),
                    Err(e) => self.problem(&f, None, format!("cannot read: {e}")),
                }
            }
            files.sort();
            for f in files {
                match read_class_file(&f) {
                    Ok(bytes) => self.push(ClassBytes {
                        file: f,
                        entry: None,
                        is_library,
                        bytes,
                    }),
                    Err(reason) => self.problem(&f, None, reason),
                }
            }
            return;
        }
        if !meta.is_file() {
            return self.problem(path, None, "not a regular file or directory".to_string());
        }
        let mut head = [0u8; 4];
        let n = fs::File::open(path).and_then(|mut f| read_up_to(&mut f, &mut head));
        let head = match n {
            Ok(n) => &head[..n],
            Err(e) => return self.problem(path, None, format!("cannot read: {e}")),
        };
        if head == MAGIC {
            match read_class_file(path) {
                Ok(bytes) => self.push(ClassBytes {
                    file: path.to_path_buf(),
                    entry: None,
                    is_library,
                    bytes,
                }),
                Err(reason) => self.problem(path, None, reason),
            }
        } else if head == b"JM\x01\x00" || head.starts_with(b"PK") {
            let bytes = match fs::read(path) {
                Ok(b) => b,
                Err(e) => return self.problem(path, None, format!("cannot read: {e}")),
            };
            if head.starts_with(b"JM") {
                // A jmod is a zip archive after a 4-byte header; classes
                // live under `classes/`.
                self.zip(path, &bytes[4..], Some("classes/"), is_library);
            } else {
                self.zip(path, &bytes, None, is_library);
            }
        } else {
            self.problem(
                path,
                None,
                "not a jar, jmod, class file or directory".to_string(),
            );
        }
    }

    /// The `.class` files below `dir`, each real directory walked once:
    /// a symbolic link to a directory already walked (a loop, such as
    /// `p/self -> .`) is skipped with a warning that names it.
    fn collect_class_files(
        &mut self,
        dir: &Path,
        seen: &mut HashSet<PathBuf>,
        files: &mut Vec<PathBuf>,
        resources: &mut Vec<PathBuf>,
    ) {
        let rd = match fs::read_dir(dir) {
            Ok(rd) => rd,
            Err(e) => return self.problem(dir, None, format!("cannot list: {e}")),
        };
        let mut entries: Vec<_> = rd.flatten().collect();
        entries.sort_by_key(|e| e.file_name());
        for ent in entries {
            let p = ent.path();
            let Ok(t) = ent.file_type() else {
                continue;
            };
            let is_dir = t.is_dir() || (t.is_symlink() && p.is_dir());
            if is_dir {
                let Ok(real) = p.canonicalize() else {
                    self.problem(&p, None, "cannot resolve the directory".to_string());
                    continue;
                };
                if !seen.insert(real.clone()) {
                    let target = fs::read_link(&p).unwrap_or(real);
                    self.problem(
                        &p,
                        None,
                        format!(
                            "symbolic link to {}, a directory already read (a loop); not followed",
                            target.display()
                        ),
                    );
                    continue;
                }
                self.collect_class_files(&p, seen, files, resources);
            } else if p.extension().is_some_and(|x| x == "class") {
                files.push(p);
            } else if p.extension().is_some_and(|x| x == "properties")
                || p.parent().is_some_and(|d| d.ends_with("META-INF/services"))
                || p.ends_with(MANIFEST)
            {
                resources.push(p);
            }
        }
    }

    /// Records a resource file read from `location`.
    fn resource(&mut self, location: String, name: String, kind: ResourceKind, text: &[u8]) {
        let text = String::from_utf8_lossy(text);
        let (names, keys) = match kind {
            ResourceKind::Services(_) => (parse_service_file(&text), Vec::new()),
            ResourceKind::Properties | ResourceKind::JdkConfiguration => {
                let (keys, values) = parse_properties(&text).into_iter().unzip();
                (values, keys)
            }
            ResourceKind::Manifest => (parse_manifest_values(&text), Vec::new()),
        };
        self.resources.push(ResourceFile {
            location,
            name,
            kind,
            names,
            keys,
        });
    }

    fn zip(&mut self, path: &Path, data: &[u8], prefix: Option<&str>, is_library: bool) {
        read_zip(self, path, data, prefix, is_library);
    }
}

/// Reads up to `buf.len()` bytes; fewer only at the end of the input.
fn read_up_to(r: &mut dyn Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..])? {
            0 => break,
            k => n += k,
        }
    }
    Ok(n)
}

/// Reads one class file (a plain file or an archive entry): its first
/// four bytes must be the magic number, and it may not exceed
/// [`MAX_CLASS_BYTES`]; neither check reads more than it must.
fn read_class_bytes(r: &mut dyn Read, size_hint: u64) -> Result<Vec<u8>, String> {
    let mut head = [0u8; 4];
    let n = read_up_to(r, &mut head).map_err(|e| format!("cannot read: {e}"))?;
    if head[..n] != MAGIC {
        return Err(format!(
            "not a class file (it starts with {:02X?}, not CAFEBABE)",
            &head[..n]
        ));
    }
    let mut bytes = Vec::with_capacity(size_hint.min(1 << 24) as usize);
    bytes.extend_from_slice(&head);
    r.take(MAX_CLASS_BYTES + 1 - 4)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read: {e}"))?;
    if bytes.len() as u64 > MAX_CLASS_BYTES {
        return Err(format!(
            "larger than {} MB: no class file is that large (a zip bomb?); not read further",
            MAX_CLASS_BYTES >> 20
        ));
    }
    Ok(bytes)
}

fn read_class_file(path: &Path) -> Result<Vec<u8>, String> {
    let mut f = fs::File::open(path).map_err(|e| format!("cannot read: {e}"))?;
    let size = f.metadata().map_or(0, |m| m.len());
    read_class_bytes(&mut f, size)
}

/// A resource file's bytes, at most [`MAX_RESOURCE_BYTES`] of them.
fn read_resource(r: impl Read) -> std::io::Result<Vec<u8>> {
    let mut text = Vec::new();
    r.take(MAX_RESOURCE_BYTES).read_to_end(&mut text)?;
    Ok(text)
}

/// Reads the resource file at index `i` of a jar.
fn read_resource_entry(
    r: &mut Reader,
    archive: &mut zip::ZipArchive<Cursor<&[u8]>>,
    i: usize,
    path: &Path,
    name: String,
    kind: ResourceKind,
) {
    let read = archive
        .by_index(i)
        .map_err(|e| e.to_string())
        .and_then(|f| read_resource(f).map_err(|e| e.to_string()));
    match read {
        Ok(text) => r.resource(format!("{}!{name}", path.display()), name, kind, &text),
        Err(e) => r.problem(path, Some(name), format!("cannot read: {e}")),
    }
}

fn read_zip(r: &mut Reader, path: &Path, data: &[u8], prefix: Option<&str>, is_library: bool) {
    let mut archive = match zip::ZipArchive::new(Cursor::new(data)) {
        Ok(a) => a,
        Err(e) => return r.problem(path, None, format!("broken archive: {e}")),
    };
    let mut seen = HashSet::new();
    for i in 0..archive.len() {
        // The entry's name, read from the central directory even when the
        // entry itself cannot be opened (an unsupported compression).
        let name = archive
            .name_for_index(i)
            .map_or_else(|| format!("#{i}"), str::to_string);
        let kind = match prefix {
            None => resource_kind(&name),
            Some(_) => jmod_resource_kind(&name),
        };
        if let Some(kind) = kind {
            read_resource_entry(r, &mut archive, i, path, name, kind);
            continue;
        }
        if !name.ends_with(".class") || name.ends_with('/') {
            continue;
        }
        if let Some(p) = prefix {
            if !name.starts_with(p) {
                continue;
            }
        }
        // Multi-release jars keep versioned copies under META-INF/versions;
        // the base entry is the one the analysis sees.
        if name.starts_with("META-INF/") {
            continue;
        }
        if !seen.insert(name.clone()) {
            continue;
        }
        let mut file = match archive.by_index(i) {
            Ok(f) => f,
            Err(e) => {
                r.problem(path, Some(name), format!("cannot open the entry: {e}"));
                continue;
            }
        };
        let size = file.size();
        match read_class_bytes(&mut file, size) {
            Ok(bytes) => {
                drop(file);
                r.push(ClassBytes {
                    file: path.to_path_buf(),
                    entry: Some(name),
                    is_library,
                    bytes,
                })
            }
            Err(reason) => {
                drop(file);
                r.problem(path, Some(name), reason)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn service_files_list_providers_without_comments_or_blanks() {
        let text = "a.B\n# a comment\n  c.D$E   # after a name\n\n\tf.G\r\n";
        assert_eq!(parse_service_file(text), ["a.B", "c.D$E", "f.G"]);
        assert_eq!(service_of("META-INF/services/a.b.S"), Some("a.b.S"));
        assert_eq!(service_of("META-INF/services/"), None);
        assert_eq!(service_of("META-INF/services/x/y"), None);
        assert_eq!(service_of("a/META-INF/services/S"), None);
    }

    #[test]
    fn properties_entries_follow_properties_load() {
        let text = "# tasks\n! also a comment\necho=a.b.Echo\n  copy : a.b.Copy\nzip a.b.\\\n   Zip\nkey\\=x=v\\u0041\\t\nempty\n";
        let entries = parse_properties(text);
        let keys: Vec<&str> = entries.iter().map(|(k, _)| k.as_str()).collect();
        let values: Vec<&str> = entries.iter().map(|(_, v)| v.as_str()).collect();
        assert_eq!(keys, ["echo", "copy", "zip", "key=x", "empty"]);
        assert_eq!(values, ["a.b.Echo", "a.b.Copy", "a.b.Zip", "vA\t", ""]);
        assert_eq!(
            resource_kind("a/b/defaults.properties"),
            Some(ResourceKind::Properties)
        );
        assert_eq!(
            resource_kind("META-INF/services/a.S"),
            Some(ResourceKind::Services("a.S".into()))
        );
        assert_eq!(resource_kind("a/B.class"), None);
        assert_eq!(
            jmod_resource_kind("conf/logging.properties"),
            Some(ResourceKind::JdkConfiguration)
        );
        assert_eq!(jmod_resource_kind("conf/security/java.policy"), None);
        assert_eq!(jmod_resource_kind("classes/a/b.properties"), None);
    }

    #[test]
    fn manifest_values_join_continuation_lines() {
        let text = "Manifest-Version: 1.0\r\nMain-Class: com.sun.speech.freetts.en.us.cmu_us_kal.KevinVoiceDirector\r\n y\r\nFreeTTSVoiceDefinition: true\r\n\r\nName: a/B.class\r\nPlugin: a.B\r\n";
        assert_eq!(
            parse_manifest_values(text),
            [
                "1.0",
                "com.sun.speech.freetts.en.us.cmu_us_kal.KevinVoiceDirectory",
                "true",
                "a/B.class",
                "a.B"
            ]
        );
        assert_eq!(
            resource_kind("META-INF/MANIFEST.MF"),
            Some(ResourceKind::Manifest)
        );
        assert_eq!(
            resource_kind("meta-inf/manifest.mf"),
            Some(ResourceKind::Manifest)
        );
        assert_eq!(resource_kind("a/META-INF/MANIFEST.MF"), None);
    }
}
