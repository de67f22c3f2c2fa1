//! Translating a method's stack code into [`MethodIr`].
//!
//! Two passes over the control-flow graph:
//!
//! 1. **Kinds.** A verifier-style fixpoint computes, for the entry of each
//!    basic block, the kind (int, long, float, double, reference, return
//!    address, unusable) of every local and stack slot.
//! 2. **Variables.** Blocks are translated once, in reverse post-order.
//!    A block with a single forward predecessor continues with that
//!    predecessor's variables; every other block (merges, loop headers,
//!    handlers) starts with one φ variable per reference slot, and each
//!    predecessor's value is assigned to it. A handler's φ receives the
//!    locals in force before every instruction it protects, and its
//!    exception φ receives what calls and `athrow` in the range throw.

use super::flow::{self, Flow};
use super::invokedynamic;
use super::member_tests::{self, MemberTest};
use super::null_guards::{self, NullTest};
use super::string_builders;
use super::{Invoke, InvokeKind, MethodIr, Stmt, StringChar, StringPiece, Var};
use crate::classfile::bytecode::{decode, op, Insn, Operand};
use crate::classfile::descriptor::{element_type, field_type, method_desc, MethodDesc};
use crate::classfile::model::{
    access, ClassError, ClassInfo, Code, Constant, MemberRef, MethodDecl,
};
use fxhash::{FxHashMap, FxHashSet};

/// Why a method body could not be translated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bci {bci}: {message}")]
pub struct LowerError {
    /// Where.
    pub bci: u32,
    /// What.
    pub message: String,
}

/// The abstract value of a slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Val {
    /// Unusable (uninitialised, or kinds disagree at a merge).
    Top,
    Int,
    /// An `int` constant (`iconst`, `bipush`, `sipush`, `ldc`): the length
    /// of an array allocation and the index of an array store.
    IntConst(i32),
    /// The length of the array a variable holds (`arraylength`), kept
    /// through `int` locals until an `iinc`, or a merge that not every
    /// path brings it to (`VariablePass::keep_lengths_and_letters`):
    /// jython's `int n = m.getParameterTypes().length` at the top of a
    /// method, compared with 1 after the tests of the name, is a test of
    /// the member's number of parameters ([`member_test`]).
    Length(Var),
    /// A character of the string that a variable holds (`s.charAt(i)`),
    /// kept through `Character.toUpperCase` and the like and through
    /// `int` locals, and at a merge that every path brings it to: the
    /// letters a builder appends ([`MethodIr::letter_args`]). The string
    /// is named by the first variable that loaded it, where several loads
    /// read one field of one object (xalan's loop reads `m_name` anew for
    /// each character). The index is kept where it is a constant
    /// (`Character.toLowerCase(name.charAt(3)) + name.substring(4)`).
    Letter(StringChar),
    Float,
    Long,
    Double,
    /// The `null` constant.
    Null,
    /// A reference held in a variable (pass 1 uses variable 0 throughout).
    Ref(Var),
    /// A `jsr` return address.
    Addr,
}

impl Val {
    fn wide(self) -> bool {
        matches!(self, Val::Long | Val::Double)
    }
    fn of_type(t: &str, var: impl FnOnce() -> Var) -> Val {
        match t {
            "long" => Val::Long,
            "double" => Val::Double,
            "float" => Val::Float,
            "int" | "short" | "char" | "byte" | "boolean" => Val::Int,
            "void" => Val::Top,
            _ => Val::Ref(var()),
        }
    }
    fn var(self) -> Option<Var> {
        match self {
            Val::Ref(v) => Some(v),
            _ => None,
        }
    }
    fn int_const(self) -> Option<i32> {
        match self {
            Val::IntConst(n) => Some(n),
            _ => None,
        }
    }
    /// Kind-level merge (pass 1).
    fn merge(self, other: Val) -> Val {
        match (self, other) {
            (a, b) if a == b => a,
            (Val::Null, Val::Ref(v)) | (Val::Ref(v), Val::Null) => Val::Ref(v),
            (
                Val::Int | Val::IntConst(_) | Val::Length(_) | Val::Letter(_),
                Val::Int | Val::IntConst(_) | Val::Length(_) | Val::Letter(_),
            ) => Val::Int,
            _ => Val::Top,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct State {
    locals: Vec<Val>,
    stack: Vec<Val>,
}

impl State {
    fn merge_from(&mut self, other: &State) -> Result<bool, String> {
        if self.stack.len() != other.stack.len() {
            return Err(format!(
                "stack heights {} and {} meet",
                self.stack.len(),
                other.stack.len()
            ));
        }
        let mut changed = false;
        for (a, b) in self
            .locals
            .iter_mut()
            .zip(&other.locals)
            .chain(self.stack.iter_mut().zip(&other.stack))
        {
            let m = a.merge(*b);
            changed |= m != *a;
            *a = m;
        }
        Ok(changed)
    }
}

struct Block {
    start: usize,
    end: usize,
    succs: Vec<usize>,
    /// Handlers covering at least one instruction of the block.
    handlers: Vec<usize>,
}

/// The control-flow graph.
struct Cfg {
    insns: Vec<Insn>,
    blocks: Vec<Block>,
    /// Per instruction, the handler blocks covering it.
    covering: Vec<Vec<usize>>,
    /// Handler block → (catch type, is-handler).
    handler_type: FxHashMap<usize, String>,
}

/// The control-flow graph of a method's code: its instructions, cut into
/// basic blocks at every branch target, after every branch and at every
/// handler, with each block's successors and the handlers that cover
/// each instruction.
fn build_cfg(code: &Code) -> Result<Cfg, LowerError> {
    let insns = decode(&code.bytes).map_err(|e| LowerError {
        bci: e.pc,
        message: e.message,
    })?;
    if insns.is_empty() {
        return Err(LowerError {
            bci: 0,
            message: "empty code".into(),
        });
    }
    let index_of: FxHashMap<u32, usize> =
        insns.iter().enumerate().map(|(k, i)| (i.pc, k)).collect();
    let (mut leader, jsr_returns) = branch_leaders(&insns, &index_of)?;
    let code_end = code.bytes.len() as u32;
    let mut covered_ranges = Vec::new();
    for h in &code.handlers {
        if h.start >= h.end || h.end > code_end {
            return Err(LowerError {
                bci: h.start,
                message: format!("bad exception range {}..{}", h.start, h.end),
            });
        }
        let hi = index_at(&index_of, h.handler)?;
        leader[hi] = true;
        covered_ranges.push((h.start, h.end, hi, h.catch_type.clone()));
    }
    let (mut blocks, block_of) = cut_blocks(&leader);
    let jsr_return_blocks: Vec<usize> = jsr_returns.iter().map(|&k| block_of[k]).collect();
    link_successors(&mut blocks, &insns, &jsr_return_blocks)?;
    let (covering, handler_type) = cover(&mut blocks, &insns, &block_of, covered_ranges);
    Ok(Cfg {
        insns,
        blocks,
        covering,
        handler_type,
    })
}

/// The index of the instruction at `pc`.
fn index_at(index_of: &FxHashMap<u32, usize>, pc: u32) -> Result<usize, LowerError> {
    index_of.get(&pc).copied().ok_or(LowerError {
        bci: pc,
        message: "handler or target is not an instruction".into(),
    })
}

/// Which instructions start a block by the code's own control flow (the
/// first, branch and switch targets, and what follows a branch or an
/// instruction that ends the flow), and the instructions a `jsr`
/// returns to.
fn branch_leaders(
    insns: &[Insn],
    index_of: &FxHashMap<u32, usize>,
) -> Result<(Vec<bool>, Vec<usize>), LowerError> {
    let n = insns.len();
    let mut leader = vec![false; n];
    leader[0] = true;
    let mut jsr_returns = Vec::new();
    for (k, i) in insns.iter().enumerate() {
        match &i.operand {
            Operand::Branch(t) => {
                leader[index_at(index_of, *t)?] = true;
                if k + 1 < n {
                    leader[k + 1] = true;
                }
                if matches!(i.op, op::JSR | op::JSR_W) && k + 1 < n {
                    jsr_returns.push(k + 1);
                }
            }
            Operand::Switch(d, ts) => {
                leader[index_at(index_of, *d)?] = true;
                for (_, t) in ts {
                    leader[index_at(index_of, *t)?] = true;
                }
            }
            _ => {}
        }
        if ends_flow(i.op) && k + 1 < n {
            leader[k + 1] = true;
        }
    }
    Ok((leader, jsr_returns))
}

/// The blocks that the leaders start, without edges yet, and the block of
/// each instruction.
fn cut_blocks(leader: &[bool]) -> (Vec<Block>, Vec<usize>) {
    let mut blocks: Vec<Block> = Vec::new();
    let mut block_of = vec![0usize; leader.len()];
    for (k, &starts) in leader.iter().enumerate() {
        if starts {
            blocks.push(Block {
                start: k,
                end: k + 1,
                succs: Vec::new(),
                handlers: Vec::new(),
            });
        } else if let Some(b) = blocks.last_mut() {
            b.end = k + 1;
        }
        block_of[k] = blocks.len() - 1;
    }
    (blocks, block_of)
}

/// Each block's successors: its last instruction's targets, the blocks a
/// `jsr` returns to after a `ret`, and the next block where control
/// falls through (an error at the end of the code).
fn link_successors(
    blocks: &mut [Block],
    insns: &[Insn],
    jsr_return_blocks: &[usize],
) -> Result<(), LowerError> {
    let block_at_pc: FxHashMap<u32, usize> = blocks
        .iter()
        .enumerate()
        .map(|(b, bl)| (insns[bl.start].pc, b))
        .collect();
    let n = insns.len();
    for b in 0..blocks.len() {
        let last = &insns[blocks[b].end - 1];
        let mut succs = Vec::new();
        match &last.operand {
            Operand::Branch(t) => succs.push(block_at_pc[t]),
            Operand::Switch(d, ts) => {
                succs.push(block_at_pc[d]);
                succs.extend(ts.iter().map(|(_, t)| block_at_pc[t]));
            }
            _ => {}
        }
        if last.op == op::RET {
            succs.extend(jsr_return_blocks);
        }
        let falls =
            !ends_flow(last.op) && !matches!(last.op, op::GOTO | op::GOTO_W | op::JSR | op::JSR_W);
        if falls {
            if blocks[b].end < n {
                succs.push(b + 1);
            } else {
                return Err(LowerError {
                    bci: last.pc,
                    message: "control falls off the end of the code".into(),
                });
            }
        }
        succs.sort_unstable();
        succs.dedup();
        blocks[b].succs = succs;
    }
    Ok(())
}

/// Which handler blocks cover each instruction (and each block), and the
/// type each handler block catches: `Throwable` for a `finally`, or where
/// ranges with different types share the block.
fn cover(
    blocks: &mut [Block],
    insns: &[Insn],
    block_of: &[usize],
    covered_ranges: Vec<(u32, u32, usize, Option<String>)>,
) -> (Vec<Vec<usize>>, FxHashMap<usize, String>) {
    let mut covering = vec![Vec::new(); insns.len()];
    let mut types: FxHashMap<usize, Option<String>> = FxHashMap::default();
    for (start, end, hi, ty) in covered_ranges {
        let hb = block_of[hi];
        let t = ty.unwrap_or_else(|| "java.lang.Throwable".to_string());
        types
            .entry(hb)
            .and_modify(|old| {
                if old.as_deref() != Some(t.as_str()) {
                    *old = None
                }
            })
            .or_insert(Some(t));
        for (k, i) in insns.iter().enumerate() {
            if i.pc >= start && i.pc < end && !covering[k].contains(&hb) {
                covering[k].push(hb);
                let b = block_of[k];
                if !blocks[b].handlers.contains(&hb) {
                    blocks[b].handlers.push(hb);
                }
            }
        }
    }
    let handler_type = types
        .into_iter()
        .map(|(b, t)| (b, t.unwrap_or_else(|| "java.lang.Throwable".to_string())))
        .collect();
    (covering, handler_type)
}

/// The two successors of the conditional branch that ends block `b`:
/// the block it jumps to and the next block, when they differ.
fn branch_successors(cfg: &Cfg, b: usize) -> Option<(usize, usize)> {
    let last = &cfg.insns[cfg.blocks[b].end - 1];
    let Operand::Branch(target) = last.operand else {
        return None;
    };
    let jump = (cfg.blocks)
        .binary_search_by_key(&target, |bl| cfg.insns[bl.start].pc)
        .ok()?;
    let next = b + 1;
    if jump == next || next >= cfg.blocks.len() {
        return None;
    }
    Some((jump, next))
}

/// The null test that ends block `b`, given the state before its last
/// instruction: `ifnull` continues to the next block when the tested
/// variable holds an object, `ifnonnull` jumps.
fn null_test(cfg: &Cfg, b: usize, st: &State) -> Option<NullTest> {
    let last = &cfg.insns[cfg.blocks[b].end - 1];
    let Some(Val::Ref(var)) = st.stack.last() else {
        return None;
    };
    let (jump, next) = branch_successors(cfg, b)?;
    let non_null = match last.op {
        op::IFNULL => next,
        op::IFNONNULL => jump,
        _ => return None,
    };
    Some(NullTest {
        var: *var,
        non_null,
    })
}

/// A test of a member that ends a block (see [`member_tests`]).
#[derive(Clone, Debug)]
struct PendingMemberTest {
    /// The member tested.
    member: Var,
    /// The test.
    test: MemberTest,
    /// The block that control enters when the test passes.
    passed: usize,
    /// The branch's bytecode index.
    bci: u32,
}

/// The member test that ends block `b` (see [`member_tests`]):
/// - `ifeq` (continue when the call returned true) or `ifne` (jump when
///   it did) right after a call that tests a member;
/// - `if_icmpne` (continue when equal) or `if_icmpeq` (jump when equal)
///   comparing a count of parameters with a constant, or `ifne`/`ifeq`
///   on one (a count of 0): `getParameterCount()` just before, or the
///   length of `getParameterTypes()`, read where it is compared or kept
///   in an `int` local since ([`Val::Length`]);
/// - `if_acmpne` (continue when the same) or `if_acmpeq` (jump when the
///   same) comparing a member's type with a class constant.
///
/// `known` holds the statements translated so far, the block's from
/// `first`; `st` is the state before the block's last instruction.
fn member_test(
    cfg: &Cfg,
    b: usize,
    known: &member_tests::Known,
    first: usize,
    st: &State,
) -> Option<PendingMemberTest> {
    let block = &cfg.blocks[b];
    if block.end < block.start + 2 {
        return None;
    }
    let insn =
        |back: usize| (block.end >= block.start + back).then(|| &cfg.insns[block.end - back]);
    let last = insn(1)?;
    let (jump, next) = branch_successors(cfg, b)?;
    let call_at = |back: usize| {
        let pc = insn(back)?.pc;
        known.stmts[first..].iter().rev().find_map(|s| match s {
            Stmt::Invoke(inv) if inv.bci == pc => Some(inv),
            _ => None,
        })
    };
    let (passed, (member, test)) = match last.op {
        op::IFEQ | op::IFNE => {
            // Where the count is 0: `ifeq` jumps, `ifne` goes on.
            let zero = if last.op == op::IFEQ { jump } else { next };
            if let Some(Val::Length(v)) = st.stack.last() {
                let t = member_tests::arity_test(known, member_tests::Count::Length(*v), 0)?;
                (zero, t)
            } else {
                let call = call_at(2)?;
                if let Some(t) = member_tests::member_test(known, call, call_at(3)) {
                    (if last.op == op::IFEQ { next } else { jump }, t)
                } else {
                    let t = member_tests::arity_test(known, member_tests::Count::Call(call), 0)?;
                    (zero, t)
                }
            }
        }
        op::IF_ICMPEQ | op::IF_ICMPNE => {
            // An array's length (`params.length`, read where it is
            // compared or kept in a local since) on either side of a
            // constant, or a constant after `getParameterCount()`.
            let (count, n) = match st.stack[..] {
                [.., Val::Length(v), Val::IntConst(n)] | [.., Val::IntConst(n), Val::Length(v)] => {
                    (member_tests::Count::Length(v), n)
                }
                [.., _, Val::IntConst(n)] => (member_tests::Count::Call(call_at(3)?), n),
                _ => return None,
            };
            let t = member_tests::arity_test(known, count, n)?;
            (if last.op == op::IF_ICMPEQ { jump } else { next }, t)
        }
        op::IF_ACMPEQ | op::IF_ACMPNE => {
            let [.., Val::Ref(a), Val::Ref(b)] = st.stack[..] else {
                return None;
            };
            let t = member_tests::type_test(known, a, b)?;
            (if last.op == op::IF_ACMPEQ { jump } else { next }, t)
        }
        _ => return None,
    };
    Some(PendingMemberTest {
        member,
        test,
        passed,
        bci: last.pc,
    })
}

/// Whether control never continues to the next instruction.
fn ends_flow(opc: u8) -> bool {
    matches!(
        opc,
        op::GOTO | op::GOTO_W | op::RET | op::TABLESWITCH | op::LOOKUPSWITCH | op::IRETURN
            ..=op::RETURN | op::ATHROW
    )
}

/// Translates one method with a body.
pub fn lower_method(
    class: &ClassInfo,
    m: &MethodDecl,
    code: &Code,
) -> Result<MethodIr, LowerError> {
    let desc = method_desc(&m.desc).ok_or_else(|| LowerError {
        bci: 0,
        message: format!("bad method descriptor {:?}", m.desc),
    })?;
    let is_static = m.access & access::STATIC != 0;
    let cfg = build_cfg(code)?;
    let mut ir = MethodIr::skeleton(is_static, &class.name, &desc.params, &desc.ret);
    let entry = entry_state(&ir, &desc, is_static, code.max_locals as usize)?;
    // Pass 1: kinds.
    let kinds = infer_kinds(class, &cfg, &entry)?;
    let blocks = BlockOrder::new(&cfg, &kinds);
    let mut copies: Vec<Var> = Vec::new();
    let phis = merge_states(&mut ir, &cfg, &blocks, &kinds, &mut copies);
    // The calls behind a null test (see [`super::null_guards`]); methods
    // without one need no dominators.
    let has_null_tests = (cfg.insns.iter()).any(|i| matches!(i.op, op::IFNULL | op::IFNONNULL));
    let idom = if has_null_tests {
        blocks.dominators(&cfg)
    } else {
        vec![None; cfg.blocks.len()]
    };
    // Pass 2: variables.
    let mut pass = VariablePass::new(class, &cfg, &blocks, &phis, &entry, &idom, copies);
    for &b in &blocks.order {
        pass.translate(&mut ir, b)?;
    }
    let VariablePass {
        exits,
        mut edges,
        copies,
        ..
    } = pass;
    // Values flowing along edges into merge blocks.
    assign_merge_edges(&mut ir, &cfg, &blocks.order, &exits, &phis, &mut edges);
    if string_builders::makes_builder(&ir) {
        let idom = if has_null_tests {
            idom
        } else {
            blocks.dominators(&cfg)
        };
        let starts = (cfg.blocks.iter()).map(|b| cfg.insns[b.start].pc).collect();
        let succs = (cfg.blocks.iter())
            .map(|b| b.succs.iter().chain(&b.handlers).copied().collect())
            .collect();
        ir.flow = Some(Flow::new(starts, succs, idom));
    }
    super::copies::remove_trivial(&mut ir, &copies);
    Ok(ir)
}

/// The blocks that pass 1 reached, in reverse post-order, with their
/// ranks in it and their predecessors.
struct BlockOrder {
    /// The reached blocks, in reverse post-order.
    order: Vec<usize>,
    /// Each block's place in `order` (`usize::MAX` for one not reached).
    rank: Vec<usize>,
    /// Each block's predecessors among the reached blocks.
    preds: Vec<Vec<usize>>,
    /// The handler blocks.
    handlers: FxHashSet<usize>,
}

impl BlockOrder {
    /// The order of the blocks that pass 1 gave a state (`kinds`).
    fn new(cfg: &Cfg, kinds: &[Option<State>]) -> BlockOrder {
        let nb = cfg.blocks.len();
        let order = reverse_post_order(cfg, kinds);
        let mut rank = vec![usize::MAX; nb];
        for (r, &b) in order.iter().enumerate() {
            rank[b] = r;
        }
        let mut preds = vec![Vec::new(); nb];
        for &b in &order {
            for &s in &cfg.blocks[b].succs {
                preds[s].push(b);
            }
        }
        let handlers = cfg.handler_type.keys().copied().collect();
        BlockOrder {
            order,
            rank,
            preds,
            handlers,
        }
    }

    /// Whether a block starts with φ variables rather than continuing
    /// with its predecessor's: a handler, the entry when a loop returns
    /// to it, and any other block without exactly one forward
    /// predecessor.
    fn is_merge(&self, b: usize) -> bool {
        let preds = &self.preds[b];
        if b == 0 {
            return !preds.is_empty();
        }
        self.handlers.contains(&b) || preds.len() != 1 || self.rank[preds[0]] >= self.rank[b]
    }

    /// Each block's immediate dominator (the entry and the handlers are
    /// roots).
    fn dominators(&self, cfg: &Cfg) -> Vec<Option<usize>> {
        let nb = cfg.blocks.len();
        flow::immediate_dominators(nb, &self.order, &self.preds, |b| {
            b == 0 || self.handlers.contains(&b)
        })
    }
}

/// The state each merge block starts with: a φ variable for every
/// reference slot, or for a handler's stack the caught exception, typed
/// as caught. The φs are also added to `copies`: variables that may turn
/// out to copy a single value (not the caught exceptions, whose type
/// filters the thrown objects).
fn merge_states(
    ir: &mut MethodIr,
    cfg: &Cfg,
    blocks: &BlockOrder,
    kinds: &[Option<State>],
    copies: &mut Vec<Var>,
) -> Vec<Option<State>> {
    let mut phis: Vec<Option<State>> = vec![None; cfg.blocks.len()];
    for &b in &blocks.order {
        if !blocks.is_merge(b) {
            continue;
        }
        let Some(k) = kinds[b].as_ref() else { continue };
        let pc = cfg.insns[cfg.blocks[b].start].pc;
        let mut st = k.clone();
        // Pass 1's lengths and letters name its variable 0: past a merge,
        // they are any number.
        for v in st.locals.iter_mut().chain(st.stack.iter_mut()) {
            if let Val::Length(_) | Val::Letter(_) = v {
                *v = Val::Int;
            }
        }
        for (slot, v) in st.locals.iter_mut().enumerate() {
            if let Val::Ref(_) = v {
                let phi = ir.new_var(format!("phi:l{slot}@{pc}"), "java.lang.Object");
                copies.push(phi);
                *v = Val::Ref(phi);
            }
        }
        for (d, v) in st.stack.iter_mut().enumerate() {
            if let Val::Ref(_) = v {
                *v = Val::Ref(match cfg.handler_type.get(&b) {
                    Some(t) => ir.new_var(format!("catch@{pc}"), t.clone()),
                    None => {
                        let phi = ir.new_var(format!("phi:s{d}@{pc}"), "java.lang.Object");
                        copies.push(phi);
                        phi
                    }
                });
            }
        }
        phis[b] = Some(st);
    }
    phis
}

/// Pass 2: the blocks translated once each, in reverse post-order, and
/// what later blocks need of the earlier ones.
struct VariablePass<'a> {
    /// The class the method belongs to.
    class: &'a ClassInfo,
    /// The method's control-flow graph.
    cfg: &'a Cfg,
    /// The order the blocks are translated in, and their predecessors.
    blocks: &'a BlockOrder,
    /// The states merge blocks start with.
    phis: &'a [Option<State>],
    /// The state at the method's entry.
    entry: &'a State,
    /// Immediate dominators (none where the method has no null test).
    idom: &'a [Option<usize>],
    /// The null test each translated block ends with.
    tests: Vec<Option<NullTest>>,
    /// The variable whose null test guards each translated block.
    guards: Vec<Option<Var>>,
    /// The member test each translated block ends with.
    member_tests: Vec<Option<PendingMemberTest>>,
    /// The φs of merges without a back edge whose incoming paths all
    /// bring one variable, to that variable (see
    /// [`member_tests::Known`]).
    aliases: FxHashMap<Var, Var>,
    /// The state at the end of each translated block.
    exits: Vec<Option<State>>,
    /// The assignments emitted so far, each once.
    edges: FxHashSet<(Var, Var)>,
    /// Candidates for [`super::copies::remove_trivial`].
    copies: Vec<Var>,
    /// The loads of fields so far (see [`StringLoads`]).
    loads: StringLoads,
}

impl<'a> VariablePass<'a> {
    /// The pass before its first block, with the φ variables made so far
    /// as `copies`.
    fn new(
        class: &'a ClassInfo,
        cfg: &'a Cfg,
        blocks: &'a BlockOrder,
        phis: &'a [Option<State>],
        entry: &'a State,
        idom: &'a [Option<usize>],
        copies: Vec<Var>,
    ) -> Self {
        let nb = cfg.blocks.len();
        VariablePass {
            class,
            cfg,
            blocks,
            phis,
            entry,
            idom,
            tests: vec![None; nb],
            guards: vec![None; nb],
            member_tests: vec![None; nb],
            aliases: FxHashMap::default(),
            exits: vec![None; nb],
            edges: FxHashSet::default(),
            copies,
            loads: StringLoads::default(),
        }
    }

    /// Records the φs of merge block `b` (state `phis`) that copy one
    /// variable: those of a merge that no back edge or handler enters,
    /// whose translated predecessors all bring the same variable in that
    /// slot.
    fn note_aliases(&mut self, b: usize, phis: &State) {
        let preds = &self.blocks.preds[b];
        let rank = &self.blocks.rank;
        if b == 0 || self.blocks.handlers.contains(&b) || preds.iter().any(|&p| rank[p] >= rank[b])
        {
            return;
        }
        let exits: Vec<&State> = preds
            .iter()
            .filter_map(|&p| self.exits[p].as_ref())
            .collect();
        if exits.len() != preds.len() {
            return;
        }
        for (k, phi) in phis.locals.iter().enumerate() {
            let Val::Ref(phi) = *phi else { continue };
            let mut one = None;
            let single = exits.iter().all(|e| match e.locals.get(k) {
                Some(Val::Ref(v)) => {
                    let v = member_tests::resolve(&self.aliases, *v);
                    *one.get_or_insert(v) == v
                }
                _ => false,
            });
            if let (true, Some(v)) = (single, one) {
                self.aliases.insert(phi, v);
            }
        }
    }

    /// Keeps in merge block `b`'s int locals the array length
    /// ([`Val::Length`]) or the string's character ([`Val::Letter`]) that
    /// every path into it brings, where every predecessor is translated
    /// (none comes back around a loop): javac's `||` and `&&` conditions
    /// merge between the length's `istore` and its test, and xalan's
    /// setter names merge the character read and the one capitalised.
    fn keep_lengths_and_letters(&self, b: usize, st: &mut State) {
        for (k, slot) in st.locals.iter_mut().enumerate() {
            if *slot != Val::Int {
                continue;
            }
            let mut brought = (self.blocks.preds[b].iter()).map(|&q| {
                self.exits[q]
                    .as_ref()
                    .and_then(|e| e.locals.get(k).copied())
            });
            let Some(Some(first @ (Val::Length(_) | Val::Letter(_)))) = brought.next() else {
                continue;
            };
            if brought.all(|x| x == Some(first)) {
                *slot = first;
            }
        }
    }

    /// The test that every predecessor of merge block `b` passed to enter
    /// it, when all are tests of one member (`a || b`): what passes any
    /// of them.
    fn passed_by_every_predecessor(&self, b: usize) -> Option<PendingMemberTest> {
        let mut tests = self.blocks.preds[b]
            .iter()
            .map(|&p| self.member_tests[p].as_ref().filter(|t| t.passed == b));
        let mut union = tests.next()??.clone();
        for t in tests {
            let t = t?;
            if t.member != union.member {
                return None;
            }
            union.test = union.test.or(&t.test)?;
            union.bci = union.bci.max(t.bci);
        }
        Some(union)
    }

    /// Translates block `b`: from its φs, the entry state, or its single
    /// predecessor's exit; each instruction's effects, and before each
    /// the locals into the φs of the handlers that cover it.
    fn translate(&mut self, ir: &mut MethodIr, b: usize) -> Result<(), LowerError> {
        let cfg = self.cfg;
        let preds = &self.blocks.preds;
        self.guards[b] = null_guards::guard_of(b, preds, self.idom, &self.tests, &self.guards);
        let first_stmt = ir.stmts.len();
        let mut st = if let Some(p) = &self.phis[b] {
            self.note_aliases(b, p);
            let mut st = p.clone();
            if !cfg.handler_type.contains_key(&b) {
                self.keep_lengths_and_letters(b, &mut st);
            }
            if let Some(t) = self.passed_by_every_predecessor(b) {
                filter_member(ir, &mut self.aliases, &mut st, &t);
            }
            st
        } else if b == 0 {
            self.entry.clone()
        } else {
            let p = preds[b][0];
            let mut st = self.exits[p].clone().ok_or_else(|| LowerError {
                bci: cfg.insns[cfg.blocks[b].start].pc,
                message: "internal: predecessor not translated".into(),
            })?;
            if let Some(t) = self.member_tests[p].as_ref().filter(|t| t.passed == b) {
                filter_member(ir, &mut self.aliases, &mut st, t);
            }
            st
        };
        let mut tr = Translator {
            class: self.class,
            cfg,
            ir: &mut *ir,
            emit: true,
            handler_phis: self.phis,
            seen_edges: std::mem::take(&mut self.edges),
            copies: std::mem::take(&mut self.copies),
            aliases: &self.aliases,
            loads: std::mem::take(&mut self.loads),
        };
        for k in cfg.blocks[b].start..cfg.blocks[b].end {
            for &h in &cfg.covering[k] {
                if let Some(hp) = &self.phis[h] {
                    for (dst, src) in hp.locals.iter().zip(&st.locals) {
                        if let (Val::Ref(d), Val::Ref(s)) = (dst, src) {
                            tr.assign(*d, *s);
                        }
                    }
                }
            }
            if k + 1 == cfg.blocks[b].end {
                self.tests[b] = null_test(cfg, b, &st);
                let known = member_tests::Known {
                    stmts: &tr.ir.stmts,
                    aliases: &self.aliases,
                };
                self.member_tests[b] = member_test(cfg, b, &known, first_stmt, &st);
            }
            tr.step(&mut st, &cfg.insns[k])?;
        }
        self.edges = std::mem::take(&mut tr.seen_edges);
        self.copies = std::mem::take(&mut tr.copies);
        self.loads = std::mem::take(&mut tr.loads);
        if let Some(g) = self.guards[b] {
            let calls = ir.stmts[first_stmt..].iter().filter_map(|s| match s {
                Stmt::Invoke(inv) => Some((inv.bci, g)),
                _ => None,
            });
            ir.call_guards.extend(calls.collect::<Vec<_>>());
        }
        if b == 0 {
            if let Some(p) = &self.phis[0] {
                // The entry block is also a loop header: the parameters
                // flow in.
                for (d, s) in p.locals.iter().zip(&self.entry.locals) {
                    if let (Val::Ref(d), Val::Ref(s)) = (d, s) {
                        if self.edges.insert((*d, *s)) {
                            ir.stmts.push(Stmt::Assign { dst: *d, src: *s });
                        }
                    }
                }
            }
        }
        self.exits[b] = Some(st);
        Ok(())
    }
}

/// Starts the block that a passed member test enters: every slot holding
/// the tested member holds a fresh variable instead, which
/// [`Stmt::MemberFilter`] defines from the member, and every slot holding
/// what a pure question asked of the member before the test holds the
/// question asked again of the fresh variable (see [`member_tests`]).
fn filter_member(
    ir: &mut MethodIr,
    aliases: &mut FxHashMap<Var, Var>,
    st: &mut State,
    t: &PendingMemberTest,
) {
    use member_tests::resolve;
    // The member as the slots hold it: itself, a φ that copies it, or
    // the fresh variable of an enclosing test, which the new one narrows
    // further.
    let Some(src) = st.locals.iter().chain(&st.stack).find_map(|v| match v {
        Val::Ref(x) if resolve(aliases, *x) == t.member => Some(*x),
        _ => None,
    }) else {
        return;
    };
    let Some(info) = ir.vars.get(t.member as usize) else {
        return;
    };
    let (name, ty) = (format!("{}|{}", info.name, t.bci), info.ty.clone());
    let d = ir.new_var(name, ty);
    ir.stmts.push(Stmt::MemberFilter {
        bci: t.bci,
        dst: d,
        src,
        test: t.test.clone(),
    });
    // A φ that joins the fresh variable with the member holds what the
    // member holds.
    aliases.insert(d, t.member);
    // Each question once: a second slot holding the same answer shares it.
    let mut asked: Vec<(Var, Var)> = Vec::new();
    let mut targets: Vec<MemberRef> = Vec::new();
    for k in 0..st.locals.len() + st.stack.len() {
        let slot = if k < st.locals.len() {
            &mut st.locals[k]
        } else {
            &mut st.stack[k - st.locals.len()]
        };
        let Val::Ref(v) = *slot else { continue };
        if resolve(aliases, v) == t.member {
            *slot = Val::Ref(d);
            continue;
        }
        if let Some(&(_, again)) = asked.iter().find(|(old, _)| *old == v) {
            *slot = Val::Ref(again);
            continue;
        }
        let known = member_tests::Known {
            stmts: &ir.stmts,
            aliases,
        };
        let Some(q) = member_tests::pure_query_of(&known, v, t.member) else {
            continue;
        };
        // One call of a target per branch: its site's name (caller, bci,
        // target) must be unique.
        if targets.contains(&q.target) {
            continue;
        }
        let mut again = q.clone();
        let info = &ir.vars[v as usize];
        let (name, ty) = (format!("{}|{}", info.name, t.bci), info.ty.clone());
        let r = ir.new_var(name, ty);
        again.bci = t.bci;
        again.receiver = Some(d);
        again.result = Some(r);
        targets.push(again.target.clone());
        ir.stmts.push(Stmt::Invoke(again));
        asked.push((v, r));
        let root = resolve(aliases, v);
        aliases.insert(r, root);
        *slot = Val::Ref(r);
    }
}

/// The frame at the method's entry: the receiver and the parameters in
/// their slots (wide ones take two), everything else unset.
fn entry_state(
    ir: &MethodIr,
    desc: &MethodDesc,
    is_static: bool,
    max_locals: usize,
) -> Result<State, LowerError> {
    let mut entry = State {
        locals: vec![Val::Top; max_locals],
        stack: Vec::new(),
    };
    let mut slot = 0usize;
    let mut param_vals: Vec<(Val, bool)> = Vec::new();
    if !is_static {
        param_vals.push((Val::Ref(ir.params[0].unwrap_or(0)), false));
    }
    for (k, p) in desc.params.iter().enumerate() {
        let pk = k + usize::from(!is_static);
        let v = Val::of_type(p, || ir.params[pk].unwrap_or(0));
        param_vals.push((v, v.wide()));
    }
    for (v, wide) in param_vals {
        if slot + usize::from(wide) >= max_locals {
            return Err(LowerError {
                bci: 0,
                message: "parameters do not fit in max_locals".into(),
            });
        }
        entry.locals[slot] = v;
        slot += 1 + usize::from(wide);
    }
    Ok(entry)
}

/// Pass 1: the kind of every slot and stack entry (int, long, reference,
/// ...) at each block's entry, by iterating the blocks to a fixpoint
/// without emitting anything. `None` for a block that is never reached.
fn infer_kinds(
    class: &ClassInfo,
    cfg: &Cfg,
    entry: &State,
) -> Result<Vec<Option<State>>, LowerError> {
    let nb = cfg.blocks.len();
    let mut kinds: Vec<Option<State>> = vec![None; nb];
    let kind_of = |s: &State| State {
        locals: s.locals.iter().map(|v| kindify(*v)).collect(),
        stack: s.stack.iter().map(|v| kindify(*v)).collect(),
    };
    kinds[0] = Some(kind_of(entry));
    let mut work = vec![0usize];
    let mut queued = vec![false; nb];
    queued[0] = true;
    let mut scratch = MethodIr::default();
    let no_aliases = FxHashMap::default();
    while let Some(b) = work.pop() {
        queued[b] = false;
        let mut st = kinds[b].clone().unwrap_or_else(|| entry.clone());
        let mut tr = Translator {
            class,
            cfg,
            ir: &mut scratch,
            emit: false,
            handler_phis: &[],
            seen_edges: FxHashSet::default(),
            copies: Vec::new(),
            aliases: &no_aliases,
            loads: StringLoads::default(),
        };
        let mut to_handlers: Vec<(usize, State)> = Vec::new();
        for k in cfg.blocks[b].start..cfg.blocks[b].end {
            for &h in &cfg.covering[k] {
                let hs = State {
                    locals: st.locals.clone(),
                    stack: vec![Val::Ref(0)],
                };
                to_handlers.push((h, hs));
            }
            tr.step(&mut st, &cfg.insns[k])?;
        }
        let mut outs: Vec<(usize, State)> = cfg.blocks[b]
            .succs
            .iter()
            .map(|&s| (s, st.clone()))
            .collect();
        outs.extend(to_handlers);
        for (s, out) in outs {
            let out = kind_of(&out);
            let changed = match &mut kinds[s] {
                None => {
                    kinds[s] = Some(out);
                    true
                }
                Some(cur) => cur.merge_from(&out).map_err(|message| LowerError {
                    bci: cfg.insns[cfg.blocks[s].start].pc,
                    message,
                })?,
            };
            if changed && !queued[s] {
                queued[s] = true;
                work.push(s);
            }
        }
    }
    Ok(kinds)
}

/// The assignments into each merge block's φs from the exit frame of
/// each predecessor: one per distinct (φ, value) pair.
fn assign_merge_edges(
    ir: &mut MethodIr,
    cfg: &Cfg,
    order: &[usize],
    exits: &[Option<State>],
    phis: &[Option<State>],
    edges: &mut FxHashSet<(Var, Var)>,
) {
    for &b in order {
        let Some(out) = &exits[b] else { continue };
        for &s in &cfg.blocks[b].succs {
            let Some(p) = &phis[s] else { continue };
            for (d, v) in p
                .locals
                .iter()
                .zip(&out.locals)
                .chain(p.stack.iter().zip(&out.stack))
            {
                if let (Val::Ref(d), Val::Ref(v)) = (d, v) {
                    if d != v && edges.insert((*d, *v)) {
                        ir.stmts.push(Stmt::Assign { dst: *d, src: *v });
                    }
                }
            }
        }
    }
}

fn kindify(v: Val) -> Val {
    match v {
        Val::Ref(_) => Val::Ref(0),
        v => v,
    }
}

fn reverse_post_order(cfg: &Cfg, reachable: &[Option<State>]) -> Vec<usize> {
    let nb = cfg.blocks.len();
    let mut seen = vec![false; nb];
    let mut post = Vec::with_capacity(nb);
    // Roots: the entry, then handlers (reached through exceptions).
    let mut roots = vec![0usize];
    let mut hs: Vec<usize> = cfg.handler_type.keys().copied().collect();
    hs.sort_unstable();
    roots.extend(hs);
    for root in roots {
        if seen[root] || reachable[root].is_none() {
            continue;
        }
        let mut stack = vec![(root, 0usize)];
        seen[root] = true;
        while let Some((b, i)) = stack.pop() {
            let succs = &cfg.blocks[b].succs;
            if i < succs.len() {
                stack.push((b, i + 1));
                let s = succs[i];
                if !seen[s] && reachable[s].is_some() {
                    seen[s] = true;
                    stack.push((s, 0));
                }
            } else {
                post.push(b);
            }
        }
    }
    // Handler blocks reached only through handlers of handlers, etc.
    post.reverse();
    post
}

struct Translator<'a> {
    class: &'a ClassInfo,
    cfg: &'a Cfg,
    ir: &'a mut MethodIr,
    emit: bool,
    handler_phis: &'a [Option<State>],
    seen_edges: FxHashSet<(Var, Var)>,
    /// Variables defined only by a copy of a value of their own type:
    /// candidates for [`super::copies::remove_trivial`].
    copies: Vec<Var>,
    /// The φs that copy one variable (see [`VariablePass::note_aliases`]).
    aliases: &'a FxHashMap<Var, Var>,
    /// Where strings were loaded from, for [`Val::Letter`].
    loads: StringLoads,
}

/// The loads of `String` fields in the method so far: each load's
/// variable names the first variable that loaded the same field of the
/// same object, so that the characters read through separate loads of
/// one field are letters of one string.
#[derive(Default)]
struct StringLoads {
    /// The first load of each field (its constant-pool entry) of each
    /// base.
    first: FxHashMap<(Var, u16), Var>,
    /// Each later load's first.
    same_as: FxHashMap<Var, Var>,
}

impl StringLoads {
    /// The variable that names the string `v` holds.
    fn canonical(&self, aliases: &FxHashMap<Var, Var>, v: Var) -> Var {
        let v = member_tests::resolve(aliases, v);
        self.same_as.get(&v).copied().unwrap_or(v)
    }
}

type StepResult = Result<(), LowerError>;

/// The error of a malformed constant-pool entry that the instruction at
/// `bci` refers to.
fn at(bci: u32) -> impl Fn(ClassError) -> LowerError {
    move |e| LowerError { bci, message: e.0 }
}

impl Translator<'_> {
    fn fail<T>(&self, insn: &Insn, message: impl Into<String>) -> Result<T, LowerError> {
        Err(LowerError {
            bci: insn.pc,
            message: message.into(),
        })
    }

    fn var(&mut self, name: String, ty: &str) -> Var {
        if self.emit {
            self.ir.new_var(name, ty)
        } else {
            0
        }
    }

    fn push_stmt(&mut self, s: Stmt) {
        if self.emit {
            self.ir.stmts.push(s);
        }
    }

    fn assign(&mut self, dst: Var, src: Var) {
        if self.emit && dst != src && self.seen_edges.insert((dst, src)) {
            self.ir.stmts.push(Stmt::Assign { dst, src });
        }
    }

    fn var_type(&self, v: Var) -> &str {
        self.ir
            .vars
            .get(v as usize)
            .map_or("java.lang.Object", |i| i.ty.as_str())
    }

    /// Sends a thrown value to the method's `thrown` variable and to the
    /// exception φ of every handler covering `insn`. A call's exceptions
    /// reach the same variables through the facts instead (see
    /// [`super::Invoke::handlers`]).
    fn throw_to_handlers(&mut self, insn_index: usize, v: Var) {
        let thrown = self.ir.thrown;
        self.assign(thrown, v);
        for e in self.handler_vars(insn_index) {
            self.assign(e, v);
        }
    }

    /// The caught-exception variables (`catch@`) of the handlers covering
    /// `insn`, each typed by what its handler catches.
    fn handler_vars(&self, insn_index: usize) -> Vec<Var> {
        let mut vars = Vec::new();
        for &h in &self.cfg.covering[insn_index] {
            if let Some(Some(p)) = self.handler_phis.get(h) {
                if let Some(&Val::Ref(e)) = p.stack.first() {
                    if !vars.contains(&e) {
                        vars.push(e);
                    }
                }
            }
        }
        vars
    }

    fn insn_index(&self, insn: &Insn) -> usize {
        self.cfg
            .insns
            .binary_search_by_key(&insn.pc, |i| i.pc)
            .unwrap_or(0)
    }

    /// Interprets one instruction over the abstract frame `st`: pushes and
    /// pops values, and (when emitting) appends the statements the
    /// instruction means. Large families have methods of their own.
    fn step(&mut self, st: &mut State, insn: &Insn) -> StepResult {
        let o = insn.op;
        match o {
            0x00 => {}
            op::ACONST_NULL => st.stack.push(Val::Null),
            0x02..=0x08 | op::BIPUSH | op::SIPUSH => {
                st.stack.push(match insn.operand {
                    Operand::Int(n) => Val::IntConst(n),
                    _ => Val::Int,
                });
            }
            0x09 | 0x0a => st.stack.push(Val::Long),
            0x0b..=0x0d => st.stack.push(Val::Float),
            0x0e | op::DCONST_1 => st.stack.push(Val::Double),
            op::LDC | op::LDC_W | op::LDC2_W => self.ldc(st, insn)?,
            op::ILOAD..=op::ALOAD | op::ILOAD_0..=op::ALOAD_3 => self.load_local(st, insn)?,
            op::IALOAD..=op::SALOAD => self.array_load(st, insn)?,
            op::ISTORE..=op::ASTORE | op::ISTORE_0..=op::ASTORE_3 => self.store_local(st, insn)?,
            op::IASTORE..=op::SASTORE => self.array_store(st, insn)?,
            op::POP..=op::SWAP => self.stack_op(st, insn)?,
            op::IADD..=op::DCMPG => self.numeric_insn(st, insn)?,
            op::IFEQ..=op::IFLE
            | op::IFNULL
            | op::IFNONNULL
            | op::TABLESWITCH
            | op::LOOKUPSWITCH => {
                self.pop(st, insn)?;
            }
            op::IF_ICMPEQ..=op::IF_ACMPNE => {
                self.pop(st, insn)?;
                self.pop(st, insn)?;
            }
            op::GOTO | op::GOTO_W | op::RET => {}
            op::JSR | op::JSR_W => st.stack.push(Val::Addr),
            op::IRETURN..=op::ARETURN => self.return_insn(st, insn)?,
            op::RETURN => {}
            op::GETSTATIC..=op::PUTFIELD => self.field_insn(st, insn)?,
            op::INVOKEVIRTUAL..=op::INVOKEINTERFACE => self.invoke_insn(st, insn)?,
            op::INVOKEDYNAMIC => self.invokedynamic_insn(st, insn)?,
            op::NEW | op::ANEWARRAY | op::NEWARRAY | op::MULTIANEWARRAY => {
                self.new_insn(st, insn)?
            }
            op::ARRAYLENGTH => {
                let array = self.pop(st, insn)?;
                st.stack.push(match array {
                    Val::Ref(v) => Val::Length(v),
                    _ => Val::Int,
                });
            }
            op::INSTANCEOF => {
                self.pop(st, insn)?;
                st.stack.push(Val::Int);
            }
            op::ATHROW => self.throw_insn(st, insn)?,
            op::CHECKCAST => self.checkcast(st, insn)?,
            op::MONITORENTER | op::MONITOREXIT => {
                self.pop(st, insn)?;
            }
            x => return self.fail(insn, format!("unexpected opcode 0x{x:02x}")),
        }
        Ok(())
    }

    /// `iastore` to `sastore`: an `aastore` of a reference stores it into
    /// the array's elements; the others store a number.
    fn array_store(&mut self, st: &mut State, insn: &Insn) -> StepResult {
        let v = self.pop(st, insn)?;
        let index = self.pop(st, insn)?.int_const();
        let arr = self.pop(st, insn)?;
        if let (Some(base), Some(src)) = (arr.var(), v.var()) {
            if insn.op == op::AASTORE {
                self.push_stmt(Stmt::ArrayStore { base, index, src });
            }
        } else if let (Some(base), Val::Null) = (arr.var(), v) {
            if self.emit && insn.op == op::AASTORE {
                self.ir.null_elements.push(base);
            }
        }
        Ok(())
    }

    /// Arithmetic, shifts, `iinc`, conversions and comparisons: numbers
    /// in, a number of the instruction's kind out.
    fn numeric_insn(&mut self, st: &mut State, insn: &Insn) -> StepResult {
        let o = insn.op;
        match o {
            op::IADD..=0x73 => {
                self.pop(st, insn)?;
                self.pop(st, insn)?;
                st.stack.push(arith_kind((o - op::IADD) % 4));
            }
            0x74..=op::DNEG => {
                self.pop(st, insn)?;
                st.stack.push(arith_kind((o - 0x74) % 4));
            }
            op::ISHL..=op::LXOR => {
                self.pop(st, insn)?;
                self.pop(st, insn)?;
                st.stack.push(if (o - op::ISHL).is_multiple_of(2) {
                    Val::Int
                } else {
                    Val::Long
                });
            }
            op::IINC => {
                // The local no longer holds what it held (an array's length).
                if let Operand::Iinc(n, _) = insn.operand {
                    if let Some(v @ Val::Length(_)) = st.locals.get_mut(n as usize) {
                        *v = Val::Int;
                    }
                }
            }
            op::I2L..=op::I2S => {
                self.pop(st, insn)?;
                st.stack.push(match o {
                    0x85 | 0x8c | 0x8f => Val::Long,
                    0x86 | 0x89 | 0x90 => Val::Float,
                    0x87 | 0x8a | 0x8d => Val::Double,
                    _ => Val::Int,
                });
            }
            // lcmp to dcmpg
            _ => {
                self.pop(st, insn)?;
                self.pop(st, insn)?;
                st.stack.push(Val::Int);
            }
        }
        Ok(())
    }

    /// `ireturn` to `areturn`: a returned reference flows to the method's
    /// return variable.
    fn return_insn(&mut self, st: &mut State, insn: &Insn) -> StepResult {
        let v = self.pop(st, insn)?;
        if let (Some(r), Some(v)) = (self.ir.ret, v.var()) {
            self.assign(r, v);
        }
        Ok(())
    }

    /// `athrow`: the thrown reference flows to the handlers that cover the
    /// instruction, and the stack is gone.
    fn throw_insn(&mut self, st: &mut State, insn: &Insn) -> StepResult {
        let v = self.pop(st, insn)?;
        if let Some(v) = v.var() {
            let k = self.insn_index(insn);
            self.throw_to_handlers(k, v);
        }
        st.stack.clear();
        Ok(())
    }

    /// `ldc`, `ldc_w`, `ldc2_w`: a number, or a variable for a string,
    /// class, method handle, method type or dynamic constant.
    fn ldc(&mut self, st: &mut State, insn: &Insn) -> StepResult {
        let pc = insn.pc;
        let o = insn.op;
        let Operand::Pool(i) = insn.operand else {
            return self.fail(insn, "ldc operand");
        };
        let c = self.class.pool.constant(i).map_err(at(pc))?;
        let v = match c {
            Constant::Int(n) => Val::IntConst(n),
            Constant::Float(_) => Val::Float,
            Constant::Long(_) => Val::Long,
            Constant::Double(_) => Val::Double,
            Constant::String(text) => {
                let dst = self.var(format!("s@{pc}"), "java.lang.String");
                self.push_stmt(Stmt::StringConst { dst, text });
                Val::Ref(dst)
            }
            Constant::Class(ty) => {
                let dst = self.var(format!("s@{pc}"), "java.lang.Class");
                self.push_stmt(Stmt::ClassConst { dst, ty });
                Val::Ref(dst)
            }
            Constant::MethodHandle(..) | Constant::MethodType(_) => {
                let ty = if matches!(c, Constant::MethodType(_)) {
                    "java.lang.invoke.MethodType"
                } else {
                    "java.lang.invoke.MethodHandle"
                };
                let dst = self.var(format!("s@{pc}"), ty);
                self.push_stmt(Stmt::New {
                    bci: pc,
                    level: 0,
                    dst,
                    ty: ty.to_string(),
                    length: None,
                });
                Val::Ref(dst)
            }
            Constant::Dynamic(_, desc) => match field_type(&desc) {
                Some((t, "")) => {
                    let v = Val::of_type(&t, || 0);
                    if let Val::Ref(_) = v {
                        let dst = self.var(format!("s@{pc}"), &t);
                        self.push_stmt(Stmt::UnknownDynamic {
                            bci: pc,
                            dst: Some(dst),
                            bootstrap: "condy".into(),
                        });
                        Val::Ref(dst)
                    } else {
                        v
                    }
                }
                _ => return self.fail(insn, format!("bad condy descriptor {desc:?}")),
            },
        };
        if (o == op::LDC2_W) != v.wide() {
            return self.fail(insn, "ldc of a constant of the wrong size");
        }
        st.stack.push(v);
        Ok(())
    }

    /// A load from a local variable slot.
    fn load_local(&mut self, st: &mut State, insn: &Insn) -> StepResult {
        let pc = insn.pc;
        let o = insn.op;
        let Operand::Local(n) = insn.operand else {
            return self.fail(insn, "load operand");
        };
        let kind = if o <= op::ALOAD {
            o - op::ILOAD
        } else {
            (o - op::ILOAD_0) / 4
        };
        let v = match st.locals.get(n as usize) {
            Some(v) => *v,
            None => return self.fail(insn, format!("local {n} out of range")),
        };
        let v = match kind {
            0 => match v {
                Val::Length(_) | Val::Letter(_) => v,
                _ => Val::Int,
            },
            1 => Val::Long,
            2 => Val::Float,
            3 => Val::Double,
            _ => match v {
                Val::Ref(_) | Val::Null => v,
                // Unverifiable: read as an unknown reference.
                _ => Val::Ref(self.var(format!("l{n}?@{pc}"), "java.lang.Object")),
            },
        };
        st.stack.push(v);
        Ok(())
    }

    /// A load from an array: an element variable for `aaload`.
    fn array_load(&mut self, st: &mut State, insn: &Insn) -> StepResult {
        let pc = insn.pc;
        let o = insn.op;
        let index = self.pop(st, insn)?.int_const();
        let arr = self.pop(st, insn)?;
        let v = match o {
            op::LALOAD => Val::Long,
            op::FALOAD => Val::Float,
            op::DALOAD => Val::Double,
            op::AALOAD => {
                let ty = arr
                    .var()
                    .and_then(|a| element_type(self.var_type(a)).map(str::to_string))
                    .unwrap_or_else(|| "java.lang.Object".to_string());
                let dst = self.var(format!("s@{pc}"), &ty);
                if let Some(base) = arr.var() {
                    self.push_stmt(Stmt::ArrayLoad { dst, base, index });
                }
                Val::Ref(dst)
            }
            _ => Val::Int,
        };
        st.stack.push(v);
        Ok(())
    }

    /// A store into a local variable slot: a copy of a reference, so that each store has its own variable.
    fn store_local(&mut self, st: &mut State, insn: &Insn) -> StepResult {
        let pc = insn.pc;
        let Operand::Local(n) = insn.operand else {
            return self.fail(insn, "store operand");
        };
        let n = n as usize;
        let v = self.pop(st, insn)?;
        let wide = v.wide();
        if n + usize::from(wide) >= st.locals.len() {
            return self.fail(insn, format!("local {n} out of range"));
        }
        let stored = match v {
            Val::Ref(src) if self.emit => {
                let ty = self.var_type(src).to_string();
                let dst = self.var(format!("l{n}@{pc}"), &ty);
                self.assign(dst, src);
                self.copies.push(dst);
                Val::Ref(dst)
            }
            v => v,
        };
        if n > 0 && st.locals[n - 1].wide() {
            st.locals[n - 1] = Val::Top;
        }
        st.locals[n] = stored;
        if wide {
            st.locals[n + 1] = Val::Top;
        }
        Ok(())
    }

    /// `invokedynamic`: lambdas, string concatenation and the other bootstrap methods (see [`invokedynamic::translate`]).
    fn invokedynamic_insn(&mut self, st: &mut State, insn: &Insn) -> StepResult {
        let pc = insn.pc;
        let Operand::Pool(i) = insn.operand else {
            return self.fail(insn, "indy operand");
        };
        let (bsm, name, desc) = self.class.pool.invoke_dynamic(i).map_err(at(pc))?;
        let d = method_desc(desc).ok_or_else(|| LowerError {
            bci: pc,
            message: format!("bad descriptor {desc:?}"),
        })?;
        let mut args = Vec::with_capacity(d.params.len());
        for _ in &d.params {
            args.push(self.pop(st, insn)?);
        }
        args.reverse();
        let result = Val::of_type(&d.ret, || 0);
        let dst = match result {
            Val::Ref(_) => Some(self.var(format!("s@{pc}"), &d.ret)),
            _ => None,
        };
        if self.emit {
            let arg_vars: Vec<invokedynamic::Arg> = (args.iter())
                .map(|a| invokedynamic::Arg {
                    var: a.var(),
                    letter: match a {
                        Val::Letter(c) => Some(*c),
                        _ => None,
                    },
                })
                .collect();
            let stmt = invokedynamic::translate(self.class, pc, bsm, name, &d, &arg_vars, dst)
                .map_err(|e| LowerError {
                    bci: pc,
                    message: e,
                })?;
            self.push_stmt(stmt);
        }
        if d.ret != "void" {
            st.stack.push(match (result, dst) {
                (Val::Ref(_), Some(v)) => Val::Ref(v),
                (r, _) => r,
            });
        }
        Ok(())
    }

    /// `new` and the array allocations; a multi-dimensional array stores its inner arrays into its elements.
    fn new_insn(&mut self, st: &mut State, insn: &Insn) -> StepResult {
        let pc = insn.pc;
        let o = insn.op;
        let mut count = None;
        let ty = match insn.operand {
            Operand::ArrayType(t) => {
                count = self.pop(st, insn)?.int_const();
                format!("{}[]", primitive_array_element(t))
            }
            Operand::Pool(i) => {
                let c = self.class.pool.class(i).map_err(at(pc))?;
                if o == op::ANEWARRAY {
                    count = self.pop(st, insn)?.int_const();
                    format!("{c}[]")
                } else {
                    c
                }
            }
            Operand::MultiArray(i, dims) => {
                for _ in 0..dims {
                    self.pop(st, insn)?;
                }
                self.class.pool.class(i).map_err(at(pc))?
            }
            _ => return self.fail(insn, "allocation operand"),
        };
        let dst = self.var(format!("s@{pc}"), &ty);
        let length = count.and_then(|n| u32::try_from(n).ok());
        self.push_stmt(Stmt::New {
            bci: pc,
            level: 0,
            dst,
            ty: ty.clone(),
            length,
        });
        if let Operand::MultiArray(_, dims) = insn.operand {
            // Inner arrays: new T[][] stores new T[] into its elements.
            let mut outer = dst;
            let mut t = ty.clone();
            for level in 1..dims {
                let Some(inner) = element_type(&t).map(str::to_string) else {
                    break;
                };
                if !inner.ends_with("[]") {
                    break;
                }
                let v = self.var(format!("s@{pc}.{level}"), &inner);
                self.push_stmt(Stmt::New {
                    bci: pc,
                    level,
                    dst: v,
                    ty: inner.clone(),
                    length: None,
                });
                self.push_stmt(Stmt::ArrayStore {
                    base: outer,
                    index: None,
                    src: v,
                });
                outer = v;
                t = inner;
            }
        }
        st.stack.push(Val::Ref(dst));
        Ok(())
    }

    /// `checkcast`: a cast of a reference into a variable of its own.
    fn checkcast(&mut self, st: &mut State, insn: &Insn) -> StepResult {
        let pc = insn.pc;
        let Operand::Pool(i) = insn.operand else {
            return self.fail(insn, "checkcast operand");
        };
        let ty = self.class.pool.class(i).map_err(at(pc))?;
        let v = self.pop(st, insn)?;
        match v {
            Val::Ref(src) => {
                let dst = self.var(format!("s@{pc}"), &ty);
                self.push_stmt(Stmt::Cast {
                    bci: pc,
                    dst,
                    ty,
                    src,
                });
                st.stack.push(Val::Ref(dst));
            }
            v => st.stack.push(v),
        }
        Ok(())
    }

    /// The stack manipulations `pop` to `swap`, which move values without
    /// computing: the category (wide or not) of each value decides.
    fn stack_op(&mut self, st: &mut State, insn: &Insn) -> StepResult {
        match insn.op {
            op::POP => {
                self.pop(st, insn)?;
            }
            op::POP2 => {
                let v = self.pop(st, insn)?;
                if !v.wide() {
                    self.pop(st, insn)?;
                }
            }
            op::DUP => {
                let v = self.pop(st, insn)?;
                st.stack.extend([v, v]);
            }
            op::DUP_X1 => {
                let v1 = self.pop(st, insn)?;
                let v2 = self.pop(st, insn)?;
                st.stack.extend([v1, v2, v1]);
            }
            op::DUP_X2 => {
                let v1 = self.pop(st, insn)?;
                let v2 = self.pop(st, insn)?;
                if v2.wide() {
                    st.stack.extend([v1, v2, v1]);
                } else {
                    let v3 = self.pop(st, insn)?;
                    st.stack.extend([v1, v3, v2, v1]);
                }
            }
            op::DUP2 => {
                let v1 = self.pop(st, insn)?;
                if v1.wide() {
                    st.stack.extend([v1, v1]);
                } else {
                    let v2 = self.pop(st, insn)?;
                    st.stack.extend([v2, v1, v2, v1]);
                }
            }
            op::DUP2_X1 => {
                let v1 = self.pop(st, insn)?;
                if v1.wide() {
                    let v2 = self.pop(st, insn)?;
                    st.stack.extend([v1, v2, v1]);
                } else {
                    let v2 = self.pop(st, insn)?;
                    let v3 = self.pop(st, insn)?;
                    st.stack.extend([v2, v1, v3, v2, v1]);
                }
            }
            op::DUP2_X2 => {
                let v1 = self.pop(st, insn)?;
                if v1.wide() {
                    let v2 = self.pop(st, insn)?;
                    if v2.wide() {
                        st.stack.extend([v1, v2, v1]);
                    } else {
                        let v3 = self.pop(st, insn)?;
                        st.stack.extend([v1, v3, v2, v1]);
                    }
                } else {
                    let v2 = self.pop(st, insn)?;
                    let v3 = self.pop(st, insn)?;
                    if v3.wide() {
                        st.stack.extend([v2, v1, v3, v2, v1]);
                    } else {
                        let v4 = self.pop(st, insn)?;
                        st.stack.extend([v2, v1, v4, v3, v2, v1]);
                    }
                }
            }
            op::SWAP => {
                let v1 = self.pop(st, insn)?;
                let v2 = self.pop(st, insn)?;
                st.stack.extend([v1, v2]);
            }
            _ => {}
        }
        Ok(())
    }

    /// The value on top of the stack, popped.
    fn pop(&self, st: &mut State, insn: &Insn) -> Result<Val, LowerError> {
        match st.stack.pop() {
            Some(v) => Ok(v),
            None => self.fail(insn, "stack underflow"),
        }
    }

    fn field_insn(&mut self, st: &mut State, insn: &Insn) -> StepResult {
        let Operand::Pool(i) = insn.operand else {
            return self.fail(insn, "field operand");
        };
        let field = self.class.pool.member(i).map_err(at(insn.pc))?;
        let Some((ty, "")) = field_type(&field.desc) else {
            return self.fail(insn, format!("bad field descriptor {:?}", field.desc));
        };
        if self.emit && matches!(insn.op, op::GETSTATIC | op::PUTSTATIC) {
            self.ir.static_fields.push(field.clone());
        }
        let pop = |st: &mut State| {
            st.stack.pop().ok_or(LowerError {
                bci: insn.pc,
                message: "stack underflow".into(),
            })
        };
        match insn.op {
            op::GETSTATIC | op::GETFIELD => {
                let base = if insn.op == op::GETFIELD {
                    pop(st)?.var()
                } else {
                    None
                };
                let v = Val::of_type(&ty, || 0);
                let v = if let Val::Ref(_) = v {
                    let dst = self.var(format!("s@{}", insn.pc), &ty);
                    if insn.op == op::GETSTATIC {
                        self.push_stmt(Stmt::StaticLoad { dst, field });
                    } else if let Some(base) = base {
                        if self.emit && ty == "java.lang.String" {
                            let base = member_tests::resolve(self.aliases, base);
                            let first = *self.loads.first.entry((base, i)).or_insert(dst);
                            if first != dst {
                                self.loads.same_as.insert(dst, first);
                            }
                        }
                        self.push_stmt(Stmt::Load { dst, base, field });
                    }
                    Val::Ref(dst)
                } else {
                    v
                };
                st.stack.push(v);
            }
            _ => {
                let v = pop(st)?;
                if insn.op == op::PUTFIELD {
                    let base = pop(st)?;
                    if let (Some(base), Some(src)) = (base.var(), v.var()) {
                        self.push_stmt(Stmt::Store { base, field, src });
                    }
                } else if let Some(src) = v.var() {
                    self.push_stmt(Stmt::StaticStore { field, src });
                }
            }
        }
        Ok(())
    }

    fn invoke_insn(&mut self, st: &mut State, insn: &Insn) -> StepResult {
        let Operand::Pool(i) = insn.operand else {
            return self.fail(insn, "invoke operand");
        };
        let target = self.class.pool.member(i).map_err(at(insn.pc))?;
        let d = method_desc(&target.desc).ok_or_else(|| LowerError {
            bci: insn.pc,
            message: format!("bad descriptor {:?}", target.desc),
        })?;
        let kind = match insn.op {
            op::INVOKESTATIC => InvokeKind::Static,
            op::INVOKESPECIAL => InvokeKind::Special,
            op::INVOKEVIRTUAL => InvokeKind::Virtual,
            _ => InvokeKind::Interface,
        };
        let mut vals = Vec::with_capacity(d.params.len());
        for _ in &d.params {
            match st.stack.pop() {
                Some(v) => vals.push(v),
                None => return self.fail(insn, "stack underflow"),
            }
        }
        vals.reverse();
        let args: Vec<Option<Var>> = vals.iter().map(|v| v.var()).collect();
        self.note_letter_args(insn.pc, &vals);
        let receiver = if kind == InvokeKind::Static {
            None
        } else {
            match st.stack.pop() {
                Some(v) => v.var(),
                None => return self.fail(insn, "stack underflow"),
            }
        };
        let pc = insn.pc;
        let result_val = Val::of_type(&d.ret, || 0);
        let result = match result_val {
            Val::Ref(_) => Some(self.var(format!("s@{pc}"), &d.ret)),
            _ => None,
        };
        let k = self.insn_index(insn);
        let handlers = if self.emit {
            self.handler_vars(k)
        } else {
            Vec::new()
        };
        let letter = self.letter_of_call(&target, receiver, &vals, result);
        self.push_stmt(Stmt::Invoke(Invoke {
            bci: pc,
            kind,
            target,
            receiver,
            args,
            result,
            handlers,
        }));
        if d.ret != "void" {
            st.stack.push(match (result, letter) {
                (Some(v), _) => Val::Ref(v),
                (None, Some(l)) => l,
                (None, None) => result_val,
            });
        }
        Ok(())
    }

    /// Records the `char` arguments of a call that are characters of a
    /// string ([`MethodIr::letter_args`]).
    fn note_letter_args(&mut self, pc: u32, vals: &[Val]) {
        if !self.emit {
            return;
        }
        for (k, v) in vals.iter().enumerate() {
            if let (Val::Letter(c), Ok(k)) = (v, u16::try_from(k)) {
                self.ir.letter_args.push((pc, k, *c));
            }
        }
    }

    /// What a call on strings and characters gives: a character of the
    /// receiver's string (`charAt`), the same character in another case
    /// (`Character.toUpperCase`), or a piece of the receiver's text
    /// (`substring`, `toUpperCase`, ...: [`MethodIr::string_pieces`]).
    fn letter_of_call(
        &mut self,
        target: &MemberRef,
        receiver: Option<Var>,
        vals: &[Val],
        result: Option<Var>,
    ) -> Option<Val> {
        let name = target.name.as_str();
        match (target.class.as_str(), receiver) {
            ("java.lang.String", Some(r)) => {
                let source = |tr: &Self| {
                    if tr.emit {
                        tr.loads.canonical(tr.aliases, r)
                    } else {
                        0
                    }
                };
                if name == "charAt" && target.desc == "(I)C" {
                    let at = match vals {
                        [Val::IntConst(k)] => u32::try_from(*k).ok(),
                        _ => None,
                    };
                    return Some(Val::Letter(StringChar {
                        source: source(self),
                        at,
                    }));
                }
                let piece = matches!(
                    name,
                    "substring" | "toUpperCase" | "toLowerCase" | "trim" | "strip"
                );
                if let (true, true, Some(dst)) = (piece, self.emit, result) {
                    let from = match (name, target.desc.as_str(), vals) {
                        ("substring", "(I)Ljava/lang/String;", [Val::IntConst(k)]) => {
                            u32::try_from(*k).ok()
                        }
                        _ => None,
                    };
                    self.ir.string_pieces.push(StringPiece {
                        piece: dst,
                        source: source(self),
                        from,
                    });
                }
                None
            }
            ("java.lang.Character", None) => match (name, target.desc.as_str(), vals) {
                ("toUpperCase" | "toLowerCase" | "toTitleCase", "(C)C", [v @ Val::Letter(_)]) => {
                    Some(*v)
                }
                _ => None,
            },
            _ => None,
        }
    }
}

fn arith_kind(k: u8) -> Val {
    match k {
        0 => Val::Int,
        1 => Val::Long,
        2 => Val::Float,
        _ => Val::Double,
    }
}

fn primitive_array_element(t: u8) -> &'static str {
    match t {
        4 => "boolean",
        5 => "char",
        6 => "float",
        7 => "double",
        8 => "byte",
        9 => "short",
        10 => "int",
        _ => "long",
    }
}
