//! A plain mutation fuzzer for refract's fuzz targets, on a stable
//! toolchain (cargo-fuzz needs nightly). It is what `scripts/fuzz.sh` runs.
//!
//!   refract-fuzz-driver TARGET SECONDS CORPUS_DIR FINDINGS_DIR [SEED]
//!   refract-fuzz-driver replay TARGET FILE...
//!
//! TARGET is `class_reader` (class files), `datalog` (`.dl` text) or
//! `classpath` (a jar, or a class directory with symbolic links, built
//! from the input and read as `refract facts` reads it). Each
//! execution takes an input of the corpus, applies a few mutations (bit
//! flips, interesting bytes and integers, block copies, insertions and
//! deletions, splices with another input, and structured ones: for class
//! files, constant-pool indices; for Datalog, tokens of the language;
//! for class paths, zip bombs and directories with link loops),
//! and runs the target. Inputs that reach code no earlier input reached
//! are not tracked (there is no coverage feedback): it is a random
//! walk around the seeds, run for volume.
//!
//! Findings go to FINDINGS_DIR:
//! - `panic-HASH`: the target panicked (caught; the run goes on);
//! - `hang-HASH`: one execution took longer than 30 s (the run stops,
//!   exit 3, since the hung thread cannot be stopped);
//! - `abort-HASH`: the previous run died on this input (an abort or a
//!   stack overflow kills the process; the input being run is kept in
//!   `FINDINGS_DIR/.current` and filed at the next start); `killed-HASH`
//!   where it was killed from outside (exit status 137, passed by the
//!   script in `REFRACT_FUZZ_LAST_STATUS`).
//!
//! It prints executions, executions per second and findings at the end.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Whether the target is running (its panics are findings, silenced).
static IN_TARGET: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// An execution longer than this is a hang. Generous: on a loaded
/// machine a niced fuzzer is starved for seconds (the 255-dimension
/// class, 0.25 s alone, once passed 10 s that way).
const HANG: Duration = Duration::from_secs(30);

/// xorshift64*: a small, fast generator; the seed makes runs repeatable.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// What the target reads.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Target {
    ClassReader,
    Datalog,
    /// A class-path entry built from the input (see [`class_path_entry`]),
    /// read and translated as `refract facts` does.
    ClassPath,
}

impl Target {
    fn run(self, data: &[u8]) {
        match self {
            Target::ClassReader => refract::facts::fuzz_one(data),
            Target::Datalog => refract::datalog::fuzz_one(data),
            Target::ClassPath => {
                let dir = scratch_dir();
                if let Some(entry) = class_path_entry(data, &dir) {
                    let mut cp = refract::classpath::ClassPath::default();
                    cp.push_application(entry);
                    let _ = refract::facts::generate(&cp, &|_| {});
                }
            }
        }
    }
}

/// A directory of this process's own, emptied for each execution.
fn scratch_dir() -> PathBuf {
    let thread = format!("{:?}", std::thread::current().id());
    let thread: String = thread.chars().filter(char::is_ascii_digit).collect();
    let dir = std::env::temp_dir().join(format!("refract-fuzz-{}-{thread}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::create_dir_all(&dir);
    dir
}

/// Builds a class-path entry in `dir` from the input. The first byte
/// chooses: even, the rest is a jar's bytes; odd, the rest is a program
/// that builds a class directory, two bytes an operation: make a
/// subdirectory, make a symbolic link to the directory itself or to an
/// ancestor (the loops that once made the walk endless), write a class
/// file (the fixture's), or step back up.
fn class_path_entry(data: &[u8], dir: &Path) -> Option<PathBuf> {
    let (&mode, rest) = data.split_first()?;
    if mode % 2 == 0 {
        let jar = dir.join("in.jar");
        std::fs::write(&jar, rest).ok()?;
        return Some(jar);
    }
    let root = dir.join("classes");
    std::fs::create_dir_all(&root).ok()?;
    let mut cwd = root.clone();
    for (k, op) in rest.chunks(2).enumerate().take(64) {
        let arg = op.get(1).copied().unwrap_or(0);
        match op[0] % 5 {
            0 => {
                cwd = cwd.join(format!("d{arg}"));
                let _ = std::fs::create_dir_all(&cwd);
            }
            1 => {
                let _ = std::os::unix::fs::symlink(".", cwd.join(format!("self{k}")));
            }
            2 => {
                let up = "../".repeat(1 + (arg % 4) as usize);
                let _ = std::os::unix::fs::symlink(up, cwd.join(format!("up{k}")));
            }
            3 => {
                let _ = std::fs::write(cwd.join(format!("C{arg}.class")), HELLO);
            }
            _ => {
                if cwd != root {
                    cwd.pop();
                }
            }
        }
    }
    Some(root)
}

/// A valid class file, for the class directories the input builds.
const HELLO: &[u8] = include_bytes!("../../../fixtures/classes/minimal/Hello.class");

const INTERESTING_U16: [u16; 8] = [0, 1, 2, 0x7F, 0x80, 0xFF, 0x7FFF, 0xFFFF];
const INTERESTING_U32: [u32; 6] = [0, 1, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF, 0x10000];

/// Pieces of the language that random bytes rarely form: what the
/// structured mutations insert into `.dl` text.
const DL_TOKENS: &[&str] = &[
    "V 4",
    "V 18446744073709551615",
    "H 0",
    " h.map",
    "R(a:V0)",
    "R(a:V0, b:V1)",
    "R(a:V)",
    " input",
    " output",
    " printsize",
    " inputtuples",
    " outputtuples",
    " printtuples",
    "R(x) :- S(x).",
    "R(x, y) :- R(x, z), R(z, y).",
    "R(x) :- !R(x).",
    "R(x) :- S(x), x != y.",
    "R(_, \"a\")?",
    "R(x)?",
    ":-",
    ".",
    ",",
    "(",
    ")",
    "!",
    "?",
    "_",
    "*",
    "\"",
    "\"\\\"",
    "#",
    "//",
    "/*",
    "*/",
    "\n",
    "\r",
    "\r\n",
    "\u{feff}",
    "\0",
    ".include \"x.dl\"",
    ".include \"/dev/zero\"",
    ".include \"/\"",
    ".basedir \"..\"",
    ".bddvarorder V0xV1_H0",
    ".bddvarorder V0_V0",
    "split",
    "pri=-10",
    "=",
    "<",
    "<=",
    ">",
    ">=",
    "0",
    "65535",
    "4294967296",
    "99999999999999999999999",
    "V0",
    "V99999",
    "a:V0",
    "ÿ",
    "é",
];

fn mutate(t: Target, rng: &mut Rng, data: &mut Vec<u8>, other: &[u8]) {
    let rounds = 1 + rng.below(4);
    for _ in 0..rounds {
        let n = data.len();
        match rng.below(if t == Target::ClassReader { 10 } else { 11 }) {
            0 if n > 0 => {
                let k = rng.below(n);
                data[k] ^= 1 << rng.below(8);
            }
            1 if n > 0 => {
                let k = rng.below(n);
                data[k] = rng.next() as u8;
            }
            2 if n > 1 => {
                let k = rng.below(n - 1);
                let v = INTERESTING_U16[rng.below(INTERESTING_U16.len())].to_be_bytes();
                data[k..k + 2].copy_from_slice(&v);
            }
            3 if n > 3 => {
                let k = rng.below(n - 3);
                let v = INTERESTING_U32[rng.below(INTERESTING_U32.len())].to_be_bytes();
                data[k..k + 4].copy_from_slice(&v);
            }
            4 if n > 0 => {
                // Delete a block.
                let k = rng.below(n);
                let len = 1 + rng.below((n - k).min(64));
                data.drain(k..k + len);
            }
            5 => {
                // Insert random bytes.
                let k = rng.below(n + 1);
                let len = 1 + rng.below(16);
                let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
                data.splice(k..k, bytes);
            }
            6 if n > 1 => {
                // Copy a block within the input.
                let from = rng.below(n);
                let len = 1 + rng.below((n - from).min(64));
                let block = data[from..from + len].to_vec();
                let to = rng.below(n + 1);
                data.splice(to..to, block);
            }
            7 if !other.is_empty() => {
                // Splice: a prefix of this input, a suffix of another.
                let cut = rng.below(n + 1);
                let from = rng.below(other.len());
                data.truncate(cut);
                data.extend_from_slice(&other[from..]);
            }
            8 if n >= 12 && t == Target::ClassReader => {
                // A constant-pool index: a small big-endian u16 somewhere
                // in the body, set to another small one (what found the
                // self-super classes).
                let k = 10 + rng.below(n - 11);
                let v = (rng.below(64) as u16).to_be_bytes();
                data[k..k + 2].copy_from_slice(&v);
            }
            9 if n >= 12 && t == Target::ClassReader => {
                // The constant-pool count, or a length field near the start.
                let k = 8 + 2 * rng.below(2);
                let v = INTERESTING_U16[rng.below(INTERESTING_U16.len())].to_be_bytes();
                data[k..k + 2].copy_from_slice(&v);
            }
            8 if t == Target::ClassPath => {
                // A zip bomb: a jar of one entry of zeros, with or without
                // a class file's magic number in front.
                let magic = rng.below(2) == 0;
                *data = bomb(magic, 1 + rng.below(96));
            }
            9 if t == Target::ClassPath => {
                // A directory program (odd first byte) of a few operations.
                data.clear();
                data.push(1);
                for _ in 0..2 + rng.below(12) {
                    data.push(rng.next() as u8);
                    data.push(rng.next() as u8);
                }
            }
            8..=10 if t == Target::Datalog => {
                let tok = DL_TOKENS[rng.below(DL_TOKENS.len())].as_bytes();
                let k = rng.below(n + 1);
                if rng.below(2) == 0 || n == 0 {
                    data.splice(k..k, tok.iter().copied());
                } else {
                    let len = 1 + rng.below((n - k.min(n - 1)).min(16));
                    let k = k.min(n - 1);
                    data.splice(k..(k + len).min(n), tok.iter().copied());
                }
            }
            _ => {}
        }
        if data.len() > 1 << 20 {
            data.truncate(1 << 20);
        }
    }
}

/// A jar (first byte 0: the jar mode of [`class_path_entry`]) holding one
/// entry of `mb` MB of zeros, stored as a deflate stream written by hand:
/// blocks of the fixed Huffman code that repeat the previous byte 258 times
/// (no compression library needed).
fn bomb(magic: bool, mb: usize) -> Vec<u8> {
    // The raw content's first bytes and length.
    let head: &[u8] = if magic {
        &[0xCA, 0xFE, 0xBA, 0xBE]
    } else {
        &[0]
    };
    let total = (mb << 20) as u32;
    let mut bits = BitWriter::default();
    bits.put(1, 1); // final block
    bits.put(1, 2); // fixed Huffman codes
    let literal = |bits: &mut BitWriter, b: u8| {
        // Literals 0..=143: 8-bit codes 0x30 + b; 144..=255: 9 bits 0x190 + b - 144.
        if b < 144 {
            bits.put_rev(0x30 + b as u32, 8);
        } else {
            bits.put_rev(0x190 + (b as u32 - 144), 9);
        }
    };
    for &b in head {
        literal(&mut bits, b);
    }
    if !magic {
        // Zeros: after the first one, copies of length 258 at distance 1.
    } else {
        literal(&mut bits, 0);
    }
    let mut written = head.len() as u32 + u32::from(magic);
    while written + 258 <= total {
        bits.put_rev(0b1100_0101, 8); // length code 285 (258): 8 bits 11000101
        bits.put_rev(0, 5); // distance code 0 (distance 1)
        written += 258;
    }
    while written < total {
        literal(&mut bits, 0);
        written += 1;
    }
    bits.put_rev(0, 7); // end of block (256)
    let deflated = bits.finish();
    let crc = crc32_of_bomb(head, magic, total);
    let name = b"B.class";
    let mut z = Vec::new();
    z.push(0); // jar mode
    let local = z.len() - 1;
    let le16 = |v: &mut Vec<u8>, x: u16| v.extend_from_slice(&x.to_le_bytes());
    let le32 = |v: &mut Vec<u8>, x: u32| v.extend_from_slice(&x.to_le_bytes());
    z.extend_from_slice(b"PK\x03\x04");
    le16(&mut z, 20);
    le16(&mut z, 0);
    le16(&mut z, 8);
    le32(&mut z, 0);
    le32(&mut z, crc);
    le32(&mut z, deflated.len() as u32);
    le32(&mut z, total);
    le16(&mut z, name.len() as u16);
    le16(&mut z, 0);
    z.extend_from_slice(name);
    z.extend_from_slice(&deflated);
    let central = z.len() - 1;
    z.extend_from_slice(b"PK\x01\x02");
    le16(&mut z, 20);
    le16(&mut z, 20);
    le16(&mut z, 0);
    le16(&mut z, 8);
    le32(&mut z, 0);
    le32(&mut z, crc);
    le32(&mut z, deflated.len() as u32);
    le32(&mut z, total);
    le16(&mut z, name.len() as u16);
    le16(&mut z, 0);
    le16(&mut z, 0);
    le16(&mut z, 0);
    le16(&mut z, 0);
    le32(&mut z, 0);
    le32(&mut z, (local) as u32);
    z.extend_from_slice(name);
    let end = z.len() - 1;
    z.extend_from_slice(b"PK\x05\x06");
    le16(&mut z, 0);
    le16(&mut z, 0);
    le16(&mut z, 1);
    le16(&mut z, 1);
    le32(&mut z, (end - central) as u32);
    le32(&mut z, central as u32);
    le16(&mut z, 0);
    z
}

/// The CRC-32 of the bomb's content: `head`, a zero after a magic
/// number, then zeros up to `total` bytes.
fn crc32_of_bomb(head: &[u8], magic: bool, total: u32) -> u32 {
    let mut crc = !0u32;
    let mut feed = |b: u8| {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    };
    let mut n = 0u32;
    for &b in head {
        feed(b);
        n += 1;
    }
    if magic {
        feed(0);
        n += 1;
    }
    while n < total {
        feed(0);
        n += 1;
    }
    !crc
}

/// Bits, least significant first, into bytes (deflate's order).
#[derive(Default)]
struct BitWriter {
    out: Vec<u8>,
    acc: u64,
    n: u32,
}

impl BitWriter {
    /// `count` bits of `value`, least significant first.
    fn put(&mut self, value: u32, count: u32) {
        self.acc |= u64::from(value) << self.n;
        self.n += count;
        while self.n >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.n -= 8;
        }
    }
    /// A Huffman code: `count` bits, most significant first.
    fn put_rev(&mut self, code: u32, count: u32) {
        let mut r = 0;
        for k in 0..count {
            r |= ((code >> k) & 1) << (count - 1 - k);
        }
        self.put(r, count);
    }
    fn finish(mut self) -> Vec<u8> {
        if self.n > 0 {
            self.out.push(self.acc as u8);
        }
        self.out
    }
}

fn hash(data: &[u8]) -> String {
    let mut h = DefaultHasher::new();
    data.hash(&mut h);
    format!("{:016x}", h.finish())
}

fn load_corpus(dir: &Path) -> Vec<Vec<u8>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|r| {
            r.flatten()
                .map(|e| e.path())
                .filter(|p| p.is_file())
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files.iter().filter_map(|p| std::fs::read(p).ok()).collect()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    // `replay TARGET FILE...`: runs each file once, as found, to reproduce
    // a finding (a panic is printed, an abort ends the process).
    if args.len() >= 4 && args[1] == "replay" {
        let target = match args[2].as_str() {
            "datalog" => Target::Datalog,
            "classpath" => Target::ClassPath,
            _ => Target::ClassReader,
        };
        for f in &args[3..] {
            let data = std::fs::read(f).unwrap_or_default();
            eprintln!("{f}: {} bytes", data.len());
            target.run(&data);
            eprintln!("{f}: ok");
        }
        return;
    }
    if args.len() < 5 {
        eprintln!("usage: refract-fuzz-driver class_reader|datalog SECONDS CORPUS_DIR FINDINGS_DIR [SEED]");
        std::process::exit(2);
    }
    let target = match args[1].as_str() {
        "class_reader" => Target::ClassReader,
        "datalog" => Target::Datalog,
        "classpath" => Target::ClassPath,
        other => {
            eprintln!("unknown target {other}: class_reader, datalog or classpath");
            std::process::exit(2);
        }
    };
    let seconds: u64 = args[2].parse().unwrap_or(60);
    let corpus_dir = PathBuf::from(&args[3]);
    let findings = PathBuf::from(&args[4]);
    let seed: u64 = args
        .get(5)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x9E37_79B9);
    let _ = std::fs::create_dir_all(&findings);
    let current = findings.join(".current");
    if let Ok(left) = std::fs::read(&current) {
        // The supervising script passes how the previous run ended: 137
        // is SIGKILL (the system's out-of-memory killer, or a person),
        // anything else an abort of the process itself.
        let status = std::env::var("REFRACT_FUZZ_LAST_STATUS").unwrap_or_default();
        let kind = if status == "137" { "killed" } else { "abort" };
        let p = findings.join(format!("{kind}-{}", hash(&left)));
        let _ = std::fs::write(&p, &left);
        eprintln!(
            "the previous run died (exit status {status}) on an input: {}",
            p.display()
        );
        let _ = std::fs::remove_file(&current);
    }
    let mut corpus = load_corpus(&corpus_dir);
    if target == Target::ClassPath {
        // Built-in seeds: bombs with and without the magic number, and a
        // directory with a class, a loop to itself and one to its parent.
        corpus.push(bomb(true, 70));
        corpus.push(bomb(false, 8));
        corpus.push(vec![1, 0, 1, 3, 7, 1, 0, 2, 1]);
    }
    if corpus.is_empty() {
        eprintln!("{}: no seed inputs", corpus_dir.display());
        std::process::exit(2);
    }
    // Panics of the target are findings, not messages; a panic of the
    // driver itself (outside the target) is printed, as it ends the run.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !IN_TARGET.load(Ordering::Relaxed) {
            default_hook(info);
        }
    }));
    // The watchdog: an execution that runs past HANG is filed and ends
    // the run.
    let started = Arc::new(AtomicU64::new(u64::MAX));
    let epoch = Instant::now();
    {
        let started = started.clone();
        let current = current.clone();
        let findings = findings.clone();
        std::thread::spawn(move || loop {
            std::thread::sleep(Duration::from_millis(500));
            let s = started.load(Ordering::Relaxed);
            if s != u64::MAX && epoch.elapsed().as_millis() as u64 > s + HANG.as_millis() as u64 {
                let data = std::fs::read(&current).unwrap_or_default();
                let p = findings.join(format!("hang-{}", hash(&data)));
                let _ = std::fs::write(&p, &data);
                let _ = std::fs::remove_file(&current);
                eprintln!("hang: {}", p.display());
                std::process::exit(3);
            }
        });
    }
    let mut rng = Rng(seed | 1);
    let deadline = Duration::from_secs(seconds);
    let mut execs: u64 = 0;
    let mut panics = 0usize;
    let mut data = Vec::new();
    while epoch.elapsed() < deadline {
        for _ in 0..64 {
            data.clear();
            data.extend_from_slice(&corpus[rng.below(corpus.len())]);
            let other = &corpus[rng.below(corpus.len())];
            mutate(target, &mut rng, &mut data, other);
            // Kept for the next start, in case this input kills the process.
            let _ = std::fs::write(&current, &data);
            started.store(epoch.elapsed().as_millis() as u64, Ordering::Relaxed);
            IN_TARGET.store(true, Ordering::Relaxed);
            let r = std::panic::catch_unwind(|| target.run(&data));
            IN_TARGET.store(false, Ordering::Relaxed);
            started.store(u64::MAX, Ordering::Relaxed);
            execs += 1;
            if r.is_err() {
                panics += 1;
                let _ = std::fs::write(findings.join(format!("panic-{}", hash(&data))), &data);
            }
        }
    }
    let _ = std::fs::remove_file(&current);
    let secs = epoch.elapsed().as_secs_f64();
    println!(
        "{} executions in {:.0} s ({:.0}/s), {} panics",
        execs,
        secs,
        execs as f64 / secs,
        panics
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problems_of(data: &[u8]) -> Vec<String> {
        let dir = scratch_dir();
        let entry = class_path_entry(data, &dir).unwrap();
        let mut cp = refract::classpath::ClassPath::default();
        cp.push_application(entry);
        cp.read()
            .problems
            .iter()
            .map(|p| p.reason.clone())
            .collect()
    }

    #[test]
    fn bombs_are_valid_jars_that_the_reader_refuses() {
        assert_eq!(
            problems_of(&bomb(true, 70)),
            ["larger than 64 MB: no class file is that large (a zip bomb?); not read further"]
        );
        assert_eq!(
            problems_of(&bomb(false, 2)),
            ["not a class file (it starts with [00, 00, 00, 00], not CAFEBABE)"]
        );
        // A small one with the magic number inflates whole: a valid zip.
        let p = problems_of(&bomb(true, 1));
        assert_eq!(p.len(), 0, "{p:?}");
    }

    #[test]
    fn directory_programs_make_loops_that_are_skipped() {
        let p = problems_of(&[1, 0, 1, 3, 7, 1, 0, 2, 1]);
        assert!(p.iter().all(|r| r.contains("a loop")), "{p:?}");
        assert_eq!(p.len(), 2);
    }
}
