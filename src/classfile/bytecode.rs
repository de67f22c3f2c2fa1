//! The bytecode decoder: a method's `Code` bytes to instructions.
//!
//! Covers all 202 opcodes of JVMS §6.5 (`nop` 0x00 … `jsr_w` 0xc9),
//! including `tableswitch`/`lookupswitch` with their 0–3 padding bytes
//! (aligned to the start of the code array) and the `wide` prefix, which is
//! folded into the instruction it widens.

use std::fmt;

/// An operand of an instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Operand {
    /// No operand.
    None,
    /// A local variable slot (`iload 3`, `astore_1`, `ret`).
    Local(u16),
    /// An immediate integer (`bipush`, `sipush`, implicit constants).
    Int(i32),
    /// A constant pool index (`ldc`, field and method instructions, `new`).
    Pool(u16),
    /// An absolute branch target.
    Branch(u32),
    /// `iinc slot, delta`.
    Iinc(u16, i16),
    /// A switch: default target and `(key, target)` pairs.
    Switch(u32, Vec<(i32, u32)>),
    /// `newarray` with its primitive element type code (4..=11).
    ArrayType(u8),
    /// `multianewarray`: class index and dimensions.
    MultiArray(u16, u8),
}

/// One decoded instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Insn {
    /// Its bytecode index.
    pub pc: u32,
    /// The opcode (never `wide`: widened instructions carry their own
    /// opcode and a 16-bit operand).
    pub op: u8,
    /// The operand.
    pub operand: Operand,
}

/// Malformed bytecode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    /// Bytecode index of the offending instruction.
    pub pc: u32,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bci {}: {}", self.pc, self.message)
    }
}

/// Opcode constants used by the translator.
#[allow(missing_docs)]
pub mod op {
    pub const ACONST_NULL: u8 = 0x01;
    pub const ICONST_M1: u8 = 0x02;
    pub const ICONST_5: u8 = 0x08;
    pub const LCONST_0: u8 = 0x09;
    pub const DCONST_1: u8 = 0x0f;
    pub const BIPUSH: u8 = 0x10;
    pub const SIPUSH: u8 = 0x11;
    pub const LDC: u8 = 0x12;
    pub const LDC_W: u8 = 0x13;
    pub const LDC2_W: u8 = 0x14;
    pub const ILOAD: u8 = 0x15;
    pub const LLOAD: u8 = 0x16;
    pub const FLOAD: u8 = 0x17;
    pub const DLOAD: u8 = 0x18;
    pub const ALOAD: u8 = 0x19;
    pub const ILOAD_0: u8 = 0x1a;
    pub const ALOAD_0: u8 = 0x2a;
    pub const ALOAD_3: u8 = 0x2d;
    pub const IALOAD: u8 = 0x2e;
    pub const LALOAD: u8 = 0x2f;
    pub const FALOAD: u8 = 0x30;
    pub const DALOAD: u8 = 0x31;
    pub const AALOAD: u8 = 0x32;
    pub const SALOAD: u8 = 0x35;
    pub const ISTORE: u8 = 0x36;
    pub const ASTORE: u8 = 0x3a;
    pub const ISTORE_0: u8 = 0x3b;
    pub const ASTORE_3: u8 = 0x4e;
    pub const IASTORE: u8 = 0x4f;
    pub const AASTORE: u8 = 0x53;
    pub const SASTORE: u8 = 0x56;
    pub const POP: u8 = 0x57;
    pub const POP2: u8 = 0x58;
    pub const DUP: u8 = 0x59;
    pub const DUP_X1: u8 = 0x5a;
    pub const DUP_X2: u8 = 0x5b;
    pub const DUP2: u8 = 0x5c;
    pub const DUP2_X1: u8 = 0x5d;
    pub const DUP2_X2: u8 = 0x5e;
    pub const SWAP: u8 = 0x5f;
    pub const IADD: u8 = 0x60;
    pub const DNEG: u8 = 0x77;
    pub const ISHL: u8 = 0x78;
    pub const LXOR: u8 = 0x83;
    pub const IINC: u8 = 0x84;
    pub const I2L: u8 = 0x85;
    pub const I2S: u8 = 0x93;
    pub const LCMP: u8 = 0x94;
    pub const DCMPG: u8 = 0x98;
    pub const IFEQ: u8 = 0x99;
    pub const IFNE: u8 = 0x9a;
    pub const IFLE: u8 = 0x9e;
    pub const IF_ICMPEQ: u8 = 0x9f;
    pub const IF_ICMPNE: u8 = 0xa0;
    pub const IF_ACMPEQ: u8 = 0xa5;
    pub const IF_ACMPNE: u8 = 0xa6;
    pub const GOTO: u8 = 0xa7;
    pub const JSR: u8 = 0xa8;
    pub const RET: u8 = 0xa9;
    pub const TABLESWITCH: u8 = 0xaa;
    pub const LOOKUPSWITCH: u8 = 0xab;
    pub const IRETURN: u8 = 0xac;
    pub const LRETURN: u8 = 0xad;
    pub const FRETURN: u8 = 0xae;
    pub const DRETURN: u8 = 0xaf;
    pub const ARETURN: u8 = 0xb0;
    pub const RETURN: u8 = 0xb1;
    pub const GETSTATIC: u8 = 0xb2;
    pub const PUTSTATIC: u8 = 0xb3;
    pub const GETFIELD: u8 = 0xb4;
    pub const PUTFIELD: u8 = 0xb5;
    pub const INVOKEVIRTUAL: u8 = 0xb6;
    pub const INVOKESPECIAL: u8 = 0xb7;
    pub const INVOKESTATIC: u8 = 0xb8;
    pub const INVOKEINTERFACE: u8 = 0xb9;
    pub const INVOKEDYNAMIC: u8 = 0xba;
    pub const NEW: u8 = 0xbb;
    pub const NEWARRAY: u8 = 0xbc;
    pub const ANEWARRAY: u8 = 0xbd;
    pub const ARRAYLENGTH: u8 = 0xbe;
    pub const ATHROW: u8 = 0xbf;
    pub const CHECKCAST: u8 = 0xc0;
    pub const INSTANCEOF: u8 = 0xc1;
    pub const MONITORENTER: u8 = 0xc2;
    pub const MONITOREXIT: u8 = 0xc3;
    pub const WIDE: u8 = 0xc4;
    pub const MULTIANEWARRAY: u8 = 0xc5;
    pub const IFNULL: u8 = 0xc6;
    pub const IFNONNULL: u8 = 0xc7;
    pub const GOTO_W: u8 = 0xc8;
    pub const JSR_W: u8 = 0xc9;
}

/// The mnemonics of the 202 opcodes, indexed by opcode.
pub const MNEMONICS: [&str; 202] = [
    "nop",
    "aconst_null",
    "iconst_m1",
    "iconst_0",
    "iconst_1",
    "iconst_2",
    "iconst_3",
    "iconst_4",
    "iconst_5",
    "lconst_0",
    "lconst_1",
    "fconst_0",
    "fconst_1",
    "fconst_2",
    "dconst_0",
    "dconst_1",
    "bipush",
    "sipush",
    "ldc",
    "ldc_w",
    "ldc2_w",
    "iload",
    "lload",
    "fload",
    "dload",
    "aload",
    "iload_0",
    "iload_1",
    "iload_2",
    "iload_3",
    "lload_0",
    "lload_1",
    "lload_2",
    "lload_3",
    "fload_0",
    "fload_1",
    "fload_2",
    "fload_3",
    "dload_0",
    "dload_1",
    "dload_2",
    "dload_3",
    "aload_0",
    "aload_1",
    "aload_2",
    "aload_3",
    "iaload",
    "laload",
    "faload",
    "daload",
    "aaload",
    "baload",
    "caload",
    "saload",
    "istore",
    "lstore",
    "fstore",
    "dstore",
    "astore",
    "istore_0",
    "istore_1",
    "istore_2",
    "istore_3",
    "lstore_0",
    "lstore_1",
    "lstore_2",
    "lstore_3",
    "fstore_0",
    "fstore_1",
    "fstore_2",
    "fstore_3",
    "dstore_0",
    "dstore_1",
    "dstore_2",
    "dstore_3",
    "astore_0",
    "astore_1",
    "astore_2",
    "astore_3",
    "iastore",
    "lastore",
    "fastore",
    "dastore",
    "aastore",
    "bastore",
    "castore",
    "sastore",
    "pop",
    "pop2",
    "dup",
    "dup_x1",
    "dup_x2",
    "dup2",
    "dup2_x1",
    "dup2_x2",
    "swap",
    "iadd",
    "ladd",
    "fadd",
    "dadd",
    "isub",
    "lsub",
    "fsub",
    "dsub",
    "imul",
    "lmul",
    "fmul",
    "dmul",
    "idiv",
    "ldiv",
    "fdiv",
    "ddiv",
    "irem",
    "lrem",
    "frem",
    "drem",
    "ineg",
    "lneg",
    "fneg",
    "dneg",
    "ishl",
    "lshl",
    "ishr",
    "lshr",
    "iushr",
    "lushr",
    "iand",
    "land",
    "ior",
    "lor",
    "ixor",
    "lxor",
    "iinc",
    "i2l",
    "i2f",
    "i2d",
    "l2i",
    "l2f",
    "l2d",
    "f2i",
    "f2l",
    "f2d",
    "d2i",
    "d2l",
    "d2f",
    "i2b",
    "i2c",
    "i2s",
    "lcmp",
    "fcmpl",
    "fcmpg",
    "dcmpl",
    "dcmpg",
    "ifeq",
    "ifne",
    "iflt",
    "ifge",
    "ifgt",
    "ifle",
    "if_icmpeq",
    "if_icmpne",
    "if_icmplt",
    "if_icmpge",
    "if_icmpgt",
    "if_icmple",
    "if_acmpeq",
    "if_acmpne",
    "goto",
    "jsr",
    "ret",
    "tableswitch",
    "lookupswitch",
    "ireturn",
    "lreturn",
    "freturn",
    "dreturn",
    "areturn",
    "return",
    "getstatic",
    "putstatic",
    "getfield",
    "putfield",
    "invokevirtual",
    "invokespecial",
    "invokestatic",
    "invokeinterface",
    "invokedynamic",
    "new",
    "newarray",
    "anewarray",
    "arraylength",
    "athrow",
    "checkcast",
    "instanceof",
    "monitorenter",
    "monitorexit",
    "wide",
    "multianewarray",
    "ifnull",
    "ifnonnull",
    "goto_w",
    "jsr_w",
];

struct Cursor<'a> {
    code: &'a [u8],
    pos: usize,
    pc: u32,
}

impl Cursor<'_> {
    fn fail<T>(&self, message: impl Into<String>) -> Result<T, DecodeError> {
        Err(DecodeError {
            pc: self.pc,
            message: message.into(),
        })
    }
    fn u8(&mut self) -> Result<u8, DecodeError> {
        match self.code.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => self.fail("instruction runs past the end of the code"),
        }
    }
    fn u16(&mut self) -> Result<u16, DecodeError> {
        Ok(u16::from_be_bytes([self.u8()?, self.u8()?]))
    }
    fn i16(&mut self) -> Result<i16, DecodeError> {
        Ok(self.u16()? as i16)
    }
    fn i32(&mut self) -> Result<i32, DecodeError> {
        Ok(i32::from_be_bytes([
            self.u8()?,
            self.u8()?,
            self.u8()?,
            self.u8()?,
        ]))
    }
    fn target(&self, offset: i64) -> Result<u32, DecodeError> {
        let t = self.pc as i64 + offset;
        if t < 0 || t >= self.code.len() as i64 {
            return self.fail(format!("branch target {t} is outside the code"));
        }
        Ok(t as u32)
    }
}

/// Decodes a whole code array. Branch targets are checked to lie inside
/// the code and to start an instruction.
pub fn decode(code: &[u8]) -> Result<Vec<Insn>, DecodeError> {
    let mut c = Cursor {
        code,
        pos: 0,
        pc: 0,
    };
    let mut out = Vec::with_capacity(code.len() / 2);
    while c.pos < code.len() {
        c.pc = c.pos as u32;
        let op = c.u8()?;
        let insn = decode_one(&mut c, op)?;
        out.push(insn);
    }
    // Every branch must land on an instruction boundary.
    let starts: Vec<u32> = out.iter().map(|i| i.pc).collect();
    let is_start = |t: u32| starts.binary_search(&t).is_ok();
    for i in &out {
        let bad = match &i.operand {
            Operand::Branch(t) => (!is_start(*t)).then_some(*t),
            Operand::Switch(d, ts) => std::iter::once(*d)
                .chain(ts.iter().map(|p| p.1))
                .find(|&t| !is_start(t)),
            _ => None,
        };
        if let Some(t) = bad {
            return Err(DecodeError {
                pc: i.pc,
                message: format!("branch target {t} is inside an instruction"),
            });
        }
    }
    Ok(out)
}

fn decode_one(c: &mut Cursor<'_>, op: u8) -> Result<Insn, DecodeError> {
    use op::*;
    let pc = c.pc;
    let operand = match op {
        0x00..=0x0f => match op {
            ICONST_M1..=ICONST_5 => Operand::Int(op as i32 - 3),
            _ => Operand::None,
        },
        BIPUSH => Operand::Int(c.u8()? as i8 as i32),
        SIPUSH => Operand::Int(c.i16()? as i32),
        LDC => Operand::Pool(c.u8()? as u16),
        LDC_W | LDC2_W => Operand::Pool(c.u16()?),
        ILOAD..=ALOAD | ISTORE..=ASTORE | RET => Operand::Local(c.u8()? as u16),
        // iload_0 … aload_3: (op - base) encodes type*4 + slot.
        ILOAD_0..=ALOAD_3 => Operand::Local(((op - ILOAD_0) % 4) as u16),
        ISTORE_0..=ASTORE_3 => Operand::Local(((op - ISTORE_0) % 4) as u16),
        IALOAD..=SALOAD | IASTORE..=SASTORE | POP..=SWAP | IADD..=LXOR => Operand::None,
        IINC => Operand::Iinc(c.u8()? as u16, c.u8()? as i8 as i16),
        I2L..=DCMPG => Operand::None,
        IFEQ..=JSR | IFNULL | IFNONNULL => Operand::Branch({
            let o = c.i16()? as i64;
            c.target(o)
        }?),
        GOTO_W | JSR_W => Operand::Branch({
            let o = c.i32()? as i64;
            c.target(o)
        }?),
        TABLESWITCH | LOOKUPSWITCH => {
            while !c.pos.is_multiple_of(4) {
                c.u8()?;
            }
            let default = {
                let o = c.i32()? as i64;
                c.target(o)
            }?;
            let mut targets = Vec::new();
            if op == TABLESWITCH {
                let low = c.i32()?;
                let high = c.i32()?;
                if high < low {
                    return c.fail(format!("tableswitch range {low}..{high} is empty"));
                }
                let n = high as i64 - low as i64 + 1;
                if n as usize > c.code.len() {
                    return c.fail("tableswitch is larger than the code");
                }
                for k in 0..n {
                    targets.push(((low as i64 + k) as i32, {
                        let o = c.i32()? as i64;
                        c.target(o)
                    }?));
                }
            } else {
                let n = c.i32()?;
                if n < 0 || n as usize > c.code.len() {
                    return c.fail(format!("lookupswitch has {n} pairs"));
                }
                for _ in 0..n {
                    let key = c.i32()?;
                    targets.push((key, {
                        let o = c.i32()? as i64;
                        c.target(o)
                    }?));
                }
            }
            Operand::Switch(default, targets)
        }
        IRETURN..=RETURN | ARRAYLENGTH | ATHROW | MONITORENTER | MONITOREXIT => Operand::None,
        GETSTATIC..=INVOKESPECIAL | INVOKESTATIC | NEW | ANEWARRAY | CHECKCAST | INSTANCEOF => {
            Operand::Pool(c.u16()?)
        }
        INVOKEINTERFACE | INVOKEDYNAMIC => {
            let i = c.u16()?;
            c.u8()?;
            c.u8()?;
            Operand::Pool(i)
        }
        NEWARRAY => {
            let t = c.u8()?;
            if !(4..=11).contains(&t) {
                return c.fail(format!("newarray has bad element type {t}"));
            }
            Operand::ArrayType(t)
        }
        MULTIANEWARRAY => {
            let i = c.u16()?;
            let d = c.u8()?;
            if d == 0 {
                return c.fail("multianewarray with 0 dimensions");
            }
            Operand::MultiArray(i, d)
        }
        WIDE => {
            let inner = c.u8()?;
            let slot = c.u16()?;
            let operand = match inner {
                ILOAD..=ALOAD | ISTORE..=ASTORE | RET => Operand::Local(slot),
                IINC => Operand::Iinc(slot, c.i16()?),
                x => return c.fail(format!("wide cannot modify opcode 0x{x:02x}")),
            };
            return Ok(Insn {
                pc,
                op: inner,
                operand,
            });
        }
        x => return c.fail(format!("unknown opcode 0x{x:02x}")),
    };
    Ok(Insn { pc, op, operand })
}

/// The mnemonic of an opcode (`"?"` outside the 202 defined ones).
pub fn mnemonic(op: u8) -> &'static str {
    MNEMONICS.get(op as usize).copied().unwrap_or("?")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_switch_padding_and_wide() {
        // 0: iload_0; 1: tableswitch, 2 padding bytes, default and both
        // cases at +23 (bci 24); 24: wide iinc 300, -2; 30: return.
        let mut code = vec![0x1a, 0xaa, 0, 0];
        for v in [23i32, 0, 1, 23, 23] {
            code.extend_from_slice(&v.to_be_bytes());
        }
        code.extend_from_slice(&[0xc4, 0x84, 0x01, 0x2c, 0xff, 0xfe, 0xb1]);
        let insns = decode(&code).unwrap();
        assert_eq!(insns.len(), 4);
        assert_eq!(
            insns[1].operand,
            Operand::Switch(24, vec![(0, 24), (1, 24)])
        );
        assert_eq!(insns[2].op, op::IINC);
        assert_eq!(insns[2].operand, Operand::Iinc(300, -2));
        assert_eq!(insns[3].pc, 30);
        assert_eq!(MNEMONICS.len(), 202);
        assert_eq!(mnemonic(op::JSR_W), "jsr_w");
        assert!(decode(&[0xca]).is_err());
        assert!(decode(&[0xa7, 0x00, 0x01]).is_err()); // into itself
    }

    /// Encodes one instruction of every opcode, with valid operands, and
    /// decodes the whole sequence back.
    #[test]
    fn decodes_all_202_opcodes() {
        let mut code: Vec<u8> = Vec::new();
        let mut expected = Vec::new();
        for opc in 0u8..=201 {
            let pc = code.len();
            code.push(opc);
            let operand_bytes: Vec<u8> = match opc {
                op::BIPUSH | op::LDC => vec![1],
                op::NEWARRAY => vec![10],
                op::SIPUSH | op::LDC_W | op::LDC2_W => vec![0, 1],
                op::ILOAD..=op::ALOAD | op::ISTORE..=op::ASTORE | op::RET => vec![2],
                op::IINC => vec![2, 0xff],
                op::IFEQ..=op::JSR | op::IFNULL | op::IFNONNULL => vec![0, 0],
                op::GOTO_W | op::JSR_W => vec![0, 0, 0, 0],
                op::TABLESWITCH | op::LOOKUPSWITCH => {
                    let mut v = vec![0u8; (4 - (pc + 1) % 4) % 4];
                    let back = -(pc as i32);
                    v.extend_from_slice(&back.to_be_bytes());
                    if opc == op::TABLESWITCH {
                        v.extend_from_slice(&5i32.to_be_bytes());
                        v.extend_from_slice(&5i32.to_be_bytes());
                    } else {
                        v.extend_from_slice(&1i32.to_be_bytes());
                        v.extend_from_slice(&5i32.to_be_bytes());
                    }
                    v.extend_from_slice(&back.to_be_bytes());
                    v
                }
                op::GETSTATIC..=op::INVOKESTATIC
                | op::NEW
                | op::ANEWARRAY
                | op::CHECKCAST
                | op::INSTANCEOF => vec![0, 3],
                op::INVOKEINTERFACE => vec![0, 3, 1, 0],
                op::INVOKEDYNAMIC => vec![0, 3, 0, 0],
                op::MULTIANEWARRAY => vec![0, 3, 2],
                op::WIDE => vec![op::ILOAD, 1, 0],
                _ => vec![],
            };
            code.extend_from_slice(&operand_bytes);
            expected.push((pc as u32, if opc == op::WIDE { op::ILOAD } else { opc }));
        }
        let insns = decode(&code).unwrap();
        let got: Vec<(u32, u8)> = insns.iter().map(|i| (i.pc, i.op)).collect();
        assert_eq!(got, expected);
        let wide = insns
            .iter()
            .find(|i| i.pc == expected[op::WIDE as usize].0)
            .unwrap();
        assert_eq!(wide.operand, Operand::Local(256));
        let lookup = &insns[op::LOOKUPSWITCH as usize];
        assert_eq!(lookup.operand, Operand::Switch(0, vec![(5, 0)]));
    }
}
