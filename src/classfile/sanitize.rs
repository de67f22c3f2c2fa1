//! Pre-parsing a class file down to the attributes refract reads.
//!
//! jclassfile rejects a whole class when it meets an attribute it does not
//! know (module-info's `Module`, the CLDC `StackMap`, vendor attributes),
//! and it parses annotations recursively, so deeply nested annotation data
//! can exhaust the stack. The JVM specification (§4.7) says that unknown
//! attributes must be silently ignored. This module walks the class file
//! structure itself — constant pool, fields, methods and attribute lists,
//! all by length — and writes a copy that keeps only the attributes the
//! front end uses. Every other attribute is dropped unread, which is what
//! the specification asks of a reader and removes both failure modes.
//!
//! Kept: `Code` (with only its `LineNumberTable`), `SourceFile`,
//! `BootstrapMethods`, `ConstantValue` and `Exceptions`. The body of
//! module-info's `Module` attribute is handed back beside the copy (see
//! [`sanitize_keeping_module`]), for [`super::module`] to read.

use std::fmt;

/// A structural error: the bytes are not a class file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StructureError {
    /// Byte offset where reading failed.
    pub offset: usize,
    /// What was expected.
    pub message: String,
}

impl fmt::Display for StructureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at byte {}: {}", self.offset, self.message)
    }
}

struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn err<T>(&self, message: impl Into<String>) -> Result<T, StructureError> {
        Err(StructureError {
            offset: self.pos,
            message: message.into(),
        })
    }
    fn bytes(&mut self, n: usize) -> Result<&'a [u8], StructureError> {
        match self.data.get(self.pos..self.pos.saturating_add(n)) {
            Some(s) if self.pos.checked_add(n).is_some() => {
                self.pos += n;
                Ok(s)
            }
            _ => self.err(format!("truncated: {n} more bytes expected")),
        }
    }
    fn u8(&mut self) -> Result<u8, StructureError> {
        Ok(self.bytes(1)?[0])
    }
    fn u16(&mut self) -> Result<u16, StructureError> {
        let b = self.bytes(2)?;
        Ok(u16::from_be_bytes([b[0], b[1]]))
    }
    fn u32(&mut self) -> Result<u32, StructureError> {
        let b = self.bytes(4)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }
}

/// Where an attribute list sits, which decides what is kept.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Owner {
    Class,
    Field,
    Method,
    Code,
}

fn keep(owner: Owner, name: &[u8]) -> bool {
    match owner {
        Owner::Class => name == b"SourceFile" || name == b"BootstrapMethods",
        Owner::Field => name == b"ConstantValue",
        Owner::Method => name == b"Code" || name == b"Exceptions",
        Owner::Code => name == b"LineNumberTable",
    }
}

/// Returns a copy of `data` with every attribute the front end does not
/// read removed. The constant pool and all indexes are unchanged.
pub fn sanitize(data: &[u8]) -> Result<Vec<u8>, StructureError> {
    sanitize_keeping_module(data).map(|(clean, _)| clean)
}

/// [`sanitize`], and the body of the class's `Module` attribute, if it
/// has one (module-info).
pub fn sanitize_keeping_module(data: &[u8]) -> Result<(Vec<u8>, Option<Vec<u8>>), StructureError> {
    let mut module = None;
    let mut r = Reader { data, pos: 0 };
    if r.u32()? != 0xCAFE_BABE {
        return Err(StructureError {
            offset: 0,
            message: "bad magic number (not a class file)".into(),
        });
    }
    r.u16()?;
    r.u16()?;
    let count = r.u16()?;
    // The raw bytes of each Utf8 entry, to recognise attribute names.
    let mut utf8: Vec<Option<&[u8]>> = vec![None; count as usize];
    let mut i = 1u32;
    while i < count as u32 {
        let tag = r.u8()?;
        match tag {
            1 => {
                let len = r.u16()? as usize;
                utf8[i as usize] = Some(r.bytes(len)?);
            }
            3 | 4 => {
                r.bytes(4)?;
            }
            5 | 6 => {
                r.bytes(8)?;
                i += 1;
            }
            7 | 8 | 16 | 19 | 20 => {
                r.bytes(2)?;
            }
            9..=12 | 17 | 18 => {
                r.bytes(4)?;
            }
            15 => {
                r.bytes(3)?;
            }
            t => return r.err(format!("constant pool entry #{i} has unknown tag {t}")),
        }
        i += 1;
    }
    let mut out = Vec::with_capacity(data.len());
    out.extend_from_slice(&data[..r.pos]);
    // access, this, super
    out.extend_from_slice(r.bytes(6)?);
    let n_if = r.u16()?;
    out.extend_from_slice(&n_if.to_be_bytes());
    out.extend_from_slice(r.bytes(2 * n_if as usize)?);
    for owner in [Owner::Field, Owner::Method] {
        let n = r.u16()?;
        out.extend_from_slice(&n.to_be_bytes());
        for _ in 0..n {
            out.extend_from_slice(r.bytes(6)?);
            attributes(&mut r, &utf8, owner, &mut out, &mut None)?;
        }
    }
    attributes(&mut r, &utf8, Owner::Class, &mut out, &mut module)?;
    if r.pos != data.len() {
        return r.err(format!(
            "{} trailing bytes after the class",
            data.len() - r.pos
        ));
    }
    Ok((out, module))
}

/// Copies the attributes of one list that [`keep`] keeps into `out`;
/// the body of a `Module` attribute goes to `module`.
fn attributes(
    r: &mut Reader<'_>,
    utf8: &[Option<&[u8]>],
    owner: Owner,
    out: &mut Vec<u8>,
    module: &mut Option<Vec<u8>>,
) -> Result<(), StructureError> {
    let n = r.u16()?;
    let count_at = out.len();
    out.extend_from_slice(&[0, 0]);
    let mut kept = 0u16;
    for _ in 0..n {
        let name_index = r.u16()?;
        let len = r.u32()? as usize;
        let start = r.pos;
        let body = r.bytes(len)?;
        let name = match utf8.get(name_index as usize) {
            Some(Some(name)) => *name,
            _ => {
                return Err(StructureError {
                    offset: start - 6,
                    message: format!("attribute name #{name_index} is not a Utf8 constant"),
                })
            }
        };
        if owner == Owner::Class && name == b"Module" {
            *module = Some(body.to_vec());
        }
        if !keep(owner, name) {
            continue;
        }
        kept += 1;
        out.extend_from_slice(&name_index.to_be_bytes());
        if owner == Owner::Method && name == b"Code" {
            let inner = code_attribute(body, utf8).map_err(|e| StructureError {
                offset: start + e.offset,
                message: format!("in Code: {}", e.message),
            })?;
            out.extend_from_slice(&(inner.len() as u32).to_be_bytes());
            out.extend_from_slice(&inner);
        } else {
            out.extend_from_slice(&(len as u32).to_be_bytes());
            out.extend_from_slice(body);
        }
    }
    out[count_at..count_at + 2].copy_from_slice(&kept.to_be_bytes());
    Ok(())
}

/// Rewrites the body of a `Code` attribute, keeping its `LineNumberTable`.
fn code_attribute(body: &[u8], utf8: &[Option<&[u8]>]) -> Result<Vec<u8>, StructureError> {
    let mut code = Reader { data: body, pos: 0 };
    let mut inner = Vec::with_capacity(body.len());
    inner.extend_from_slice(code.bytes(4)?); // max_stack, max_locals
    let code_len = code.u32()?;
    inner.extend_from_slice(&code_len.to_be_bytes());
    inner.extend_from_slice(code.bytes(code_len as usize)?);
    let n_handlers = code.u16()?;
    inner.extend_from_slice(&n_handlers.to_be_bytes());
    inner.extend_from_slice(code.bytes(8 * n_handlers as usize)?);
    attributes(&mut code, utf8, Owner::Code, &mut inner, &mut None)?;
    if code.pos != body.len() {
        return code.err("the attribute length does not match its content");
    }
    Ok(inner)
}
