//! A plain mutation fuzzer for refract's fuzz targets, on a stable
//! toolchain (cargo-fuzz needs nightly). It is what `scripts/fuzz.sh` runs.
//!
//!   refract-fuzz-driver TARGET SECONDS CORPUS_DIR FINDINGS_DIR [SEED]
//!
//! TARGET is `class_reader` (class files) or `datalog` (`.dl` text). Each
//! execution takes an input of the corpus, applies a few mutations (bit
//! flips, interesting bytes and integers, block copies, insertions and
//! deletions, splices with another input, and structured ones: for class
//! files, constant-pool indices; for Datalog, tokens of the language),
//! and runs the target. Inputs that reach code no earlier input reached
//! are not tracked (there is no coverage feedback): it is a random
//! walk around the seeds, run for volume.
//!
//! Findings go to FINDINGS_DIR:
//! - `panic-HASH`: the target panicked (caught; the run goes on);
//! - `hang-HASH`: one execution took longer than 10 s (the run stops,
//!   exit 3, since the hung thread cannot be stopped);
//! - `abort-HASH`: the previous run died on this input (an abort or a
//!   stack overflow kills the process; the input being run is kept in
//!   `FINDINGS_DIR/.current` and filed at the next start).
//!
//! It prints executions, executions per second and findings at the end.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// An execution longer than this is a hang.
const HANG: Duration = Duration::from_secs(10);

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
}

impl Target {
    fn run(self, data: &[u8]) {
        match self {
            Target::ClassReader => refract::facts::fuzz_one(data),
            Target::Datalog => refract::datalog::fuzz_one(data),
        }
    }
}

const INTERESTING_U16: [u16; 8] = [0, 1, 2, 0x7F, 0x80, 0xFF, 0x7FFF, 0xFFFF];
const INTERESTING_U32: [u32; 6] = [0, 1, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF, 0x10000];

/// Pieces of the language that random bytes rarely form: what the
/// structured mutations insert into `.dl` text.
const DL_TOKENS: &[&str] = &[
    "V 4", "V 18446744073709551615", "H 0", " h.map", "R(a:V0)", "R(a:V0, b:V1)", "R(a:V)",
    " input", " output", " printsize", " inputtuples", " outputtuples", " printtuples",
    "R(x) :- S(x).", "R(x, y) :- R(x, z), R(z, y).", "R(x) :- !R(x).", "R(x) :- S(x), x != y.",
    "R(_, \"a\")?", "R(x)?", ":-", ".", ",", "(", ")", "!", "?", "_", "*", "\"", "\"\\\"",
    "#", "//", "/*", "*/", "\n", "\r", "\r\n", "\u{feff}", "\0", ".include \"x.dl\"",
    ".include \"/dev/zero\"", ".include \"/\"", ".basedir \"..\"", ".bddvarorder V0xV1_H0",
    ".bddvarorder V0_V0", "split", "pri=-10", "=", "<", "<=", ">", ">=", "0", "65535",
    "4294967296", "99999999999999999999999", "V0", "V99999", "a:V0", "ÿ", "é",
];

fn mutate(t: Target, rng: &mut Rng, data: &mut Vec<u8>, other: &[u8]) {
    let rounds = 1 + rng.below(4);
    for _ in 0..rounds {
        let n = data.len();
        match rng.below(if t == Target::Datalog { 11 } else { 10 }) {
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
            8 if n > 10 && t == Target::ClassReader => {
                // A constant-pool index: a small big-endian u16 somewhere
                // in the body, set to another small one (what found the
                // self-super classes).
                let k = 10 + rng.below(n - 11);
                let v = (rng.below(64) as u16).to_be_bytes();
                data[k..k + 2].copy_from_slice(&v);
            }
            9 if n > 8 && t == Target::ClassReader => {
                // The constant-pool count, or a length field near the start.
                let k = 8 + 2 * rng.below(2);
                let v = INTERESTING_U16[rng.below(INTERESTING_U16.len())].to_be_bytes();
                data[k..k + 2].copy_from_slice(&v);
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

fn hash(data: &[u8]) -> String {
    let mut h = DefaultHasher::new();
    data.hash(&mut h);
    format!("{:016x}", h.finish())
}

fn load_corpus(dir: &Path) -> Vec<Vec<u8>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|r| r.flatten().map(|e| e.path()).filter(|p| p.is_file()).collect())
        .unwrap_or_default();
    files.sort();
    files.iter().filter_map(|p| std::fs::read(p).ok()).collect()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 5 {
        eprintln!("usage: refract-fuzz-driver class_reader|datalog SECONDS CORPUS_DIR FINDINGS_DIR [SEED]");
        std::process::exit(2);
    }
    let target = match args[1].as_str() {
        "class_reader" => Target::ClassReader,
        "datalog" => Target::Datalog,
        other => {
            eprintln!("unknown target {other}: class_reader or datalog");
            std::process::exit(2);
        }
    };
    let seconds: u64 = args[2].parse().unwrap_or(60);
    let corpus_dir = PathBuf::from(&args[3]);
    let findings = PathBuf::from(&args[4]);
    let seed: u64 = args.get(5).and_then(|s| s.parse().ok()).unwrap_or(0x9E37_79B9);
    let _ = std::fs::create_dir_all(&findings);
    let current = findings.join(".current");
    if let Ok(left) = std::fs::read(&current) {
        let p = findings.join(format!("abort-{}", hash(&left)));
        let _ = std::fs::write(&p, &left);
        eprintln!("the previous run died on an input: {}", p.display());
        let _ = std::fs::remove_file(&current);
    }
    let corpus = load_corpus(&corpus_dir);
    if corpus.is_empty() {
        eprintln!("{}: no seed inputs", corpus_dir.display());
        std::process::exit(2);
    }
    // Panics are findings, not messages.
    std::panic::set_hook(Box::new(|_| {}));
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
            let r = std::panic::catch_unwind(|| target.run(&data));
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
