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
//! module-info's `Module` attribute, the types of the
//! `RuntimeVisibleAnnotations` of the class and its members, and those of
//! the methods' `RuntimeVisibleParameterAnnotations` are handed back
//! beside the copy (see [`sanitize_keeping_module`]).

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

/// What the sanitizer reads out of the attributes it drops.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Extracted {
    /// The body of the class's `Module` attribute (module-info).
    pub module: Option<Vec<u8>>,
    /// The type descriptors (`Lp/Ann;`) of the class's
    /// `RuntimeVisibleAnnotations`.
    pub class_annotations: Vec<String>,
    /// Those of each field, in declaration order.
    pub field_annotations: Vec<Vec<String>>,
    /// Those of each method, in declaration order.
    pub method_annotations: Vec<Vec<String>>,
    /// Those of each method's parameters, in declaration order: the
    /// parameter's index as `RuntimeVisibleParameterAnnotations` numbers
    /// it (JVMS §4.7.18), and the type descriptor.
    pub parameter_annotations: Vec<Vec<(u8, String)>>,
}

/// What one attribute list yields besides the attributes kept.
#[derive(Default)]
struct Found {
    module: Option<Vec<u8>>,
    annotations: Vec<String>,
    parameter_annotations: Vec<(u8, String)>,
}

/// [`sanitize`], and what the dropped attributes say that the front end
/// reads: the `Module` body and the runtime-visible annotation types.
pub fn sanitize_keeping_module(data: &[u8]) -> Result<(Vec<u8>, Extracted), StructureError> {
    let mut extracted = Extracted::default();
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
            let mut found = Found::default();
            attributes(&mut r, &utf8, owner, &mut out, &mut found)?;
            match owner {
                Owner::Field => extracted.field_annotations.push(found.annotations),
                _ => {
                    extracted.method_annotations.push(found.annotations);
                    extracted
                        .parameter_annotations
                        .push(found.parameter_annotations);
                }
            }
        }
    }
    let mut found = Found::default();
    attributes(&mut r, &utf8, Owner::Class, &mut out, &mut found)?;
    extracted.module = found.module;
    extracted.class_annotations = found.annotations;
    if r.pos != data.len() {
        return r.err(format!(
            "{} trailing bytes after the class",
            data.len() - r.pos
        ));
    }
    Ok((out, extracted))
}

/// The type descriptors of the annotations of a
/// `RuntimeVisibleAnnotations` body (JVMS §4.7.16). Their element values
/// are skipped, nested annotations and arrays with an explicit stack, so
/// that no nesting depth exhausts the call stack. A malformed body yields
/// no types: the JVM, too, reports it only when the annotations are read
/// (`AnnotationFormatError`), and the class stays usable.
fn annotation_types(body: &[u8], utf8: &[Option<&[u8]>]) -> Vec<String> {
    let mut r = Reader { data: body, pos: 0 };
    let mut types = Vec::new();
    let read = read_annotations(&mut r, utf8, &mut types);
    if read.is_ok() && r.pos == body.len() {
        types
    } else {
        Vec::new()
    }
}

/// The parameters' annotation types of a
/// `RuntimeVisibleParameterAnnotations` body (JVMS §4.7.18), each with
/// the index of its parameter as the attribute numbers them. Malformed,
/// it yields none, as [`annotation_types`] does.
fn parameter_annotation_types(body: &[u8], utf8: &[Option<&[u8]>]) -> Vec<(u8, String)> {
    let mut r = Reader { data: body, pos: 0 };
    let mut found = Vec::new();
    let read = (|| -> Result<(), StructureError> {
        let parameters = r.u8()?;
        for p in 0..parameters {
            let mut types = Vec::new();
            read_annotations(&mut r, utf8, &mut types)?;
            found.extend(types.into_iter().map(|t| (p, t)));
        }
        Ok(())
    })();
    if read.is_ok() && r.pos == body.len() {
        found
    } else {
        Vec::new()
    }
}

/// Reads one counted list of annotations, pushing their type descriptors
/// to `types` and skipping their element values.
fn read_annotations(
    r: &mut Reader<'_>,
    utf8: &[Option<&[u8]>],
    types: &mut Vec<String>,
) -> Result<(), StructureError> {
    let n = r.u16()?;
    for _ in 0..n {
        let t = r.u16()?;
        if let Some(Some(d)) = utf8.get(t as usize) {
            types.push(String::from_utf8_lossy(d).into_owned());
        }
        skip_element_pairs(r)?;
    }
    Ok(())
}

/// Skips the element-value pairs of one annotation, after its type index.
fn skip_element_pairs(r: &mut Reader<'_>) -> Result<(), StructureError> {
    // Per open level: the values left to read, and whether each comes
    // with an element name (an annotation's pairs) or not (an array's).
    let n = r.u16()?;
    let mut open: Vec<(u32, bool)> = vec![(u32::from(n), true)];
    while let Some(level) = open.last_mut() {
        if level.0 == 0 {
            open.pop();
            continue;
        }
        level.0 -= 1;
        if level.1 {
            r.u16()?;
        }
        match r.u8()? {
            b'B' | b'C' | b'D' | b'F' | b'I' | b'J' | b'S' | b'Z' | b's' | b'c' => {
                r.u16()?;
            }
            b'e' => {
                r.bytes(4)?;
            }
            b'@' => {
                r.u16()?;
                let k = r.u16()?;
                open.push((u32::from(k), true));
            }
            b'[' => {
                let k = r.u16()?;
                open.push((u32::from(k), false));
            }
            t => return r.err(format!("unknown element value tag {t}")),
        }
    }
    Ok(())
}

/// Copies the attributes of one list that [`keep`] keeps into `out`;
/// the body of a `Module` attribute and the types of runtime-visible
/// annotations (of the element, and of a method's parameters) go to
/// `found`.
fn attributes(
    r: &mut Reader<'_>,
    utf8: &[Option<&[u8]>],
    owner: Owner,
    out: &mut Vec<u8>,
    found: &mut Found,
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
            found.module = Some(body.to_vec());
        }
        if owner != Owner::Code && name == b"RuntimeVisibleAnnotations" {
            found.annotations.extend(annotation_types(body, utf8));
        }
        if owner == Owner::Method && name == b"RuntimeVisibleParameterAnnotations" {
            found
                .parameter_annotations
                .extend(parameter_annotation_types(body, utf8));
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
    attributes(
        &mut code,
        utf8,
        Owner::Code,
        &mut inner,
        &mut Found::default(),
    )?;
    if code.pos != body.len() {
        return code.err("the attribute length does not match its content");
    }
    Ok(inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `RuntimeVisibleAnnotations` body: two annotations, the first with
    /// an array of nested annotations, an enum and a class value, nested
    /// 10,000 deep in its last element (no recursion reads it).
    fn body() -> (Vec<u8>, Vec<Option<&'static [u8]>>) {
        let utf8: Vec<Option<&[u8]>> = vec![None, Some(b"Lp/A;"), Some(b"Lp/B;"), Some(b"v")];
        let mut b = vec![0, 2];
        // @p.A(v = {@p.B, @p.B(v = E.X)}, v = C.class, v = @p.B(v = @p.B(...)))
        b.extend([0, 1, 0, 3]);
        b.extend([0, 3, b'[', 0, 2]);
        b.extend([b'@', 0, 2, 0, 0]);
        b.extend([b'@', 0, 2, 0, 1, 0, 3, b'e', 0, 3, 0, 3]);
        b.extend([0, 3, b'c', 0, 3]);
        b.extend([0, 3]);
        for _ in 0..10_000 {
            b.extend([b'@', 0, 2, 0, 1, 0, 3]);
        }
        b.extend([b'I', 0, 3]);
        // @p.B
        b.extend([0, 2, 0, 0]);
        (b, utf8)
    }

    #[test]
    fn annotation_types_are_read_past_nested_values_without_recursion() {
        let (b, utf8) = body();
        assert_eq!(annotation_types(&b, &utf8), ["Lp/A;", "Lp/B;"]);
    }

    #[test]
    fn a_malformed_annotation_attribute_yields_no_types() {
        let (b, utf8) = body();
        assert!(annotation_types(&b[..b.len() - 1], &utf8).is_empty());
        let mut bad_tag = b.clone();
        bad_tag[8] = b'?';
        assert!(annotation_types(&bad_tag, &utf8).is_empty());
        let mut trailing = b;
        trailing.push(0);
        assert!(annotation_types(&trailing, &utf8).is_empty());
    }

    /// Two parameters: the first with `@p.A(...)` (the nested body above)
    /// and `@p.B`, the second with none; a third, declared, is cut short.
    #[test]
    fn parameter_annotations_carry_their_parameter_index() {
        let (b, utf8) = body();
        let mut p = vec![2];
        p.extend_from_slice(&b);
        p.extend([0, 0]);
        assert_eq!(
            parameter_annotation_types(&p, &utf8),
            [(0, "Lp/A;".to_string()), (0, "Lp/B;".to_string())]
        );
        let mut two = vec![2, 0, 0];
        two.extend_from_slice(&b);
        assert_eq!(
            parameter_annotation_types(&two, &utf8),
            [(1, "Lp/A;".to_string()), (1, "Lp/B;".to_string())]
        );
        p[0] = 3;
        assert!(parameter_annotation_types(&p, &utf8).is_empty());
    }
}
