//! Text files, plain or gzip-compressed by their name: a name that ends
//! in `.gz` is compressed. Databases store their maps and tuple files so
//! (the quick start against the whole JDK: 620 MB of map text and 117 MB
//! of tuples, 41 MB and 23 MB compressed).

use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::Path;

/// Whether `path` names a compressed file.
pub fn is_compressed(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "gz")
}

/// A text file's contents, decompressed if its name ends in `.gz`.
pub fn read(path: &Path) -> io::Result<String> {
    if is_compressed(path) {
        let mut text = String::new();
        let file = std::fs::File::open(path)?;
        GzDecoder::new(BufReader::new(file)).read_to_string(&mut text)?;
        Ok(text)
    } else {
        std::fs::read_to_string(path)
    }
}

/// A writer of a text file at `path`, compressed (at gzip's fastest
/// level) if its name ends in `.gz`. [`TextWriter::finish`] completes it.
pub struct TextWriter(Out);

/// Where a [`TextWriter`] writes.
enum Out {
    Plain(BufWriter<std::fs::File>),
    Gz(GzEncoder<BufWriter<std::fs::File>>),
}

impl TextWriter {
    /// Creates the file.
    pub fn create(path: &Path) -> io::Result<TextWriter> {
        let file = BufWriter::new(std::fs::File::create(path)?);
        Ok(TextWriter(if is_compressed(path) {
            Out::Gz(GzEncoder::new(file, Compression::fast()))
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
            Out::Gz(w) => w.finish()?.flush(),
        }
    }
}

impl Write for TextWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.0 {
            Out::Plain(w) => w.write(buf),
            Out::Gz(w) => w.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.0 {
            Out::Plain(w) => w.flush(),
            Out::Gz(w) => w.flush(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_and_reads_both_forms() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["a.map", "a.map.gz"] {
            let path = dir.path().join(name);
            let mut w = TextWriter::create(&path).unwrap();
            w.line("x").unwrap();
            write!(w, "y z").unwrap();
            w.line("").unwrap();
            w.finish().unwrap();
            assert_eq!(read(&path).unwrap(), "x\ny z\n");
        }
        let gz = std::fs::read(dir.path().join("a.map.gz")).unwrap();
        assert_eq!(&gz[..2], &[0x1f, 0x8b]);
        // A file named .gz that is not compressed: an error, not text.
        std::fs::write(dir.path().join("b.gz"), "plain\n").unwrap();
        assert!(read(&dir.path().join("b.gz")).is_err());
    }
}
