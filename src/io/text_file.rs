//! Text files, plain or Zstandard-compressed by their name: a name that
//! ends in `.zst` is compressed (`zstdcat` reads it). Databases store
//! their maps and tuple files so: the quick start against the whole JDK
//! has 620 MB of map text and 117 MB of tuples. At zstd's level 1 the
//! largest map (`V.map`, 325 MB) takes 0.45 s and 14 MB; gzip's fastest
//! level took 2.1 s and 17.5 MB.

use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::Path;

/// The compression level: zstd's fastest standard level.
pub const LEVEL: i32 = 1;

/// Whether `path` names a compressed file.
pub fn is_compressed(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "zst")
}

/// A text file's contents, decompressed if its name ends in `.zst`.
pub fn read(path: &Path) -> io::Result<String> {
    if is_compressed(path) {
        let mut text = String::new();
        let file = std::fs::File::open(path)?;
        zstd::Decoder::new(BufReader::new(file))?.read_to_string(&mut text)?;
        Ok(text)
    } else {
        std::fs::read_to_string(path)
    }
}

/// A writer of a text file at `path`, compressed if its name ends in
/// `.zst`. [`TextWriter::finish`] completes it.
pub struct TextWriter(Out);

/// Where a [`TextWriter`] writes.
enum Out {
    Plain(BufWriter<std::fs::File>),
    Zst(zstd::Encoder<'static, BufWriter<std::fs::File>>),
}

impl TextWriter {
    /// Creates the file.
    pub fn create(path: &Path) -> io::Result<TextWriter> {
        let file = BufWriter::new(std::fs::File::create(path)?);
        Ok(TextWriter(if is_compressed(path) {
            Out::Zst(zstd::Encoder::new(file, LEVEL)?)
        } else {
            Out::Plain(file)
        }))
    }

    /// Writes `text` and a newline.
    pub fn line(&mut self, text: &str) -> io::Result<()> {
        self.write_all(text.as_bytes())?;
        self.write_all(b"\n")
    }

    /// Completes the file.
    pub fn finish(self) -> io::Result<()> {
        match self.0 {
            Out::Plain(mut w) => w.flush(),
            Out::Zst(w) => w.finish()?.flush(),
        }
    }
}

impl Write for TextWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.0 {
            Out::Plain(w) => w.write(buf),
            Out::Zst(w) => w.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.0 {
            Out::Plain(w) => w.flush(),
            Out::Zst(w) => w.flush(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_and_reads_both_forms() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["a.map", "a.map.zst"] {
            let path = dir.path().join(name);
            let mut w = TextWriter::create(&path).unwrap();
            w.line("x").unwrap();
            write!(w, "y z").unwrap();
            w.line("").unwrap();
            w.finish().unwrap();
            assert_eq!(read(&path).unwrap(), "x\ny z\n");
        }
        let z = std::fs::read(dir.path().join("a.map.zst")).unwrap();
        assert_eq!(&z[..4], &[0x28, 0xb5, 0x2f, 0xfd]);
        // A file named .zst that is not compressed: an error, not text.
        std::fs::write(dir.path().join("b.zst"), "plain\n").unwrap();
        assert!(read(&dir.path().join("b.zst")).is_err());
    }
}
