//! Stores into a parameter's field and returns of a parameter's field,
//! answered call site by call site.
//!
//! Constructors and setters store their arguments into the receiver
//! (`EventObject(source) { this.source = source; }`, `Reference(referent)`,
//! `AtomicReference.set(v)`); getters return a field of the receiver
//! (`Reference.get()`, `Optional.get()`). In a context-insensitive
//! analysis `this` of such a method points to every receiver and the
//! parameter to every argument, so each store gives every receiver every
//! argument, and each getter hands every caller every receiver's value.
//! For jfreechart against the JDK, the results of `Reference.get`,
//! `Optional.get`, `AtomicReference.get` and the collection wrappers all
//! pointed to the same 102,448 objects, and so did the `source` of every
//! event.
//!
//! The receiver and the argument are at hand at each call site, so this
//! pass takes such stores out of the body and records them by parameter
//! position ([`MethodIr::param_stores`]); the analysis performs them at
//! each call with the call's own variables (`callStore` in
//! `pointsto.dl`). A constructor that passes its parameters on to
//! `super(...)` or `this(...)` inherits the stores of the constructor it
//! calls (`paramStoreOfM` in `pointsto.dl`), so a chain of constructors
//! stores at the `new`. A method whose return value is only ever loaded
//! from a field of a parameter records those loads
//! ([`MethodIr::param_loads`]): each call loads from its own receiver
//! (`callLoad`) instead of receiving the method's return value. Its body
//! stays as it is, for the reflective calls, which pass arguments as a
//! whole and receive the return value as before. What reflective calls
//! pass to the parameters that the stores name is kept apart (`reflArg`),
//! and the analysis makes the stores on it, so a method entered by
//! reflection stores only what reflective calls passed.

use super::{MethodIr, Stmt, Var};
use crate::classfile::model::MemberRef;
use fxhash::{FxHashMap, FxHashSet};

/// A store of one parameter into a field of another (or of itself).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamStore {
    /// The position of the parameter stored into (0 is `this` for
    /// instance methods).
    pub base: u32,
    /// The field, or `None` for the elements of an array.
    pub field: Option<MemberRef>,
    /// The position of the parameter stored.
    pub value: u32,
}

/// A load from a field of a parameter that the method returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamLoad {
    /// The position of the parameter loaded from.
    pub base: u32,
    /// The field, or `None` for the elements of an array.
    pub field: Option<MemberRef>,
}

/// Takes the stores of a parameter into a parameter's field out of the
/// body ([`MethodIr::param_stores`]) and records the loads from
/// parameters' fields that are all the method returns
/// ([`MethodIr::param_loads`]).
pub fn split_parameter_fields(ir: &mut MethodIr) {
    let params = parameter_positions(ir);
    if params.is_empty() {
        return;
    }
    let mut stores = Vec::new();
    ir.stmts.retain(|s| {
        let (base, field, src) = match s {
            Stmt::Store { base, field, src } => (base, Some(field), src),
            Stmt::ArrayStore { base, src, .. } => (base, None, src),
            _ => return true,
        };
        match (params.get(base), params.get(src)) {
            (Some(&b), Some(&v)) => {
                stores.push(ParamStore {
                    base: b,
                    field: field.cloned(),
                    value: v,
                });
                false
            }
            _ => true,
        }
    });
    ir.param_stores = stores;
    ir.param_loads = returned_loads(ir, &params);
}

/// The parameters by variable, leaving out any that a statement defines
/// again (the lowering gives each definition its own variable, so none
/// should).
fn parameter_positions(ir: &MethodIr) -> FxHashMap<Var, u32> {
    let mut params = ir.param_positions();
    for s in &ir.stmts {
        s.for_each_def(|v| {
            params.remove(&v);
        });
    }
    params
}

/// The loads that are everything the method returns: the return value is
/// defined only by copies and casts of variables that are each defined
/// once, by a load from a parameter. Empty when anything else reaches it.
fn returned_loads(ir: &MethodIr, params: &FxHashMap<Var, u32>) -> Vec<ParamLoad> {
    let Some(ret) = ir.ret else {
        return Vec::new();
    };
    if !ir.returned_params.is_empty() {
        return Vec::new();
    }
    let mut defs: FxHashMap<Var, Vec<&Stmt>> = FxHashMap::default();
    for s in &ir.stmts {
        s.for_each_def(|v| defs.entry(v).or_default().push(s));
    }
    let mut seen: FxHashSet<Var> = FxHashSet::default();
    let mut todo = vec![ret];
    let mut loads = Vec::new();
    while let Some(v) = todo.pop() {
        if !seen.insert(v) {
            continue;
        }
        let Some(ds) = defs.get(&v) else {
            return Vec::new();
        };
        for s in ds {
            match s {
                Stmt::Assign { src, .. } | Stmt::Cast { src, .. } => todo.push(*src),
                Stmt::Load { base, field, .. } if ds.len() == 1 => match params.get(base) {
                    Some(&b) => loads.push(ParamLoad {
                        base: b,
                        field: Some(field.clone()),
                    }),
                    None => return Vec::new(),
                },
                Stmt::ArrayLoad { base, .. } if ds.len() == 1 => match params.get(base) {
                    Some(&b) => loads.push(ParamLoad {
                        base: b,
                        field: None,
                    }),
                    None => return Vec::new(),
                },
                _ => return Vec::new(),
            }
        }
    }
    loads.dedup();
    loads
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::VarInfo;

    fn field(name: &str) -> MemberRef {
        MemberRef {
            class: "C".into(),
            name: name.into(),
            desc: "Ljava/lang/Object;".into(),
            interface: false,
        }
    }

    /// An instance method with `this` (0), one parameter (1), a return
    /// value (2) and `thrown` (3), and further variables from 4.
    fn method(extra: usize, stmts: Vec<Stmt>) -> MethodIr {
        let mut vars: Vec<VarInfo> = ["this", "p1", "ret", "thrown"]
            .iter()
            .map(|n| VarInfo {
                name: n.to_string(),
                ty: "java.lang.Object".into(),
            })
            .collect();
        for k in 0..extra {
            vars.push(VarInfo {
                name: format!("x{k}"),
                ty: "java.lang.Object".into(),
            });
        }
        MethodIr {
            vars,
            params: vec![Some(0), Some(1)],
            ret: Some(2),
            thrown: 3,
            stmts,
            ..MethodIr::default()
        }
    }

    #[test]
    fn a_constructor_store_of_its_parameter_moves_to_the_call_site() {
        // C(Object p1) { this.f = p1; this.g = new Object(); }
        let alloc = Stmt::New {
            bci: 9,
            level: 0,
            dst: 4,
            ty: "java.lang.Object".into(),
            length: None,
        };
        let own = Stmt::Store {
            base: 0,
            field: field("g"),
            src: 4,
        };
        let mut ir = method(
            1,
            vec![
                Stmt::Store {
                    base: 0,
                    field: field("f"),
                    src: 1,
                },
                alloc.clone(),
                own.clone(),
            ],
        );
        ir.ret = None;
        split_parameter_fields(&mut ir);
        assert_eq!(
            ir.param_stores,
            [ParamStore {
                base: 0,
                field: Some(field("f")),
                value: 1
            }]
        );
        assert_eq!(ir.stmts, [alloc, own]);
        assert!(ir.param_loads.is_empty());
    }

    #[test]
    fn an_array_store_of_a_parameter_into_a_parameter_moves_too() {
        // static void fill(Object[] a, Object v) { a[i] = v; }
        let mut ir = method(
            0,
            vec![Stmt::ArrayStore {
                base: 0,
                index: None,
                src: 1,
            }],
        );
        split_parameter_fields(&mut ir);
        assert_eq!(
            ir.param_stores,
            [ParamStore {
                base: 0,
                field: None,
                value: 1
            }]
        );
        assert!(ir.stmts.is_empty());
    }

    #[test]
    fn a_getter_records_its_loads_and_keeps_its_body() {
        // Object get() { if (this.f == null) throw ...; return this.f; }
        let stmts = vec![
            Stmt::Load {
                dst: 4,
                base: 0,
                field: field("f"),
            },
            Stmt::Load {
                dst: 5,
                base: 0,
                field: field("f"),
            },
            Stmt::Assign { dst: 2, src: 5 },
        ];
        let mut ir = method(2, stmts.clone());
        split_parameter_fields(&mut ir);
        assert_eq!(
            ir.param_loads,
            [ParamLoad {
                base: 0,
                field: Some(field("f"))
            }]
        );
        assert_eq!(ir.stmts, stmts);
        assert!(ir.param_stores.is_empty());
    }

    #[test]
    fn a_return_of_anything_else_is_no_getter() {
        // return cond ? this.f : new Object();
        let mut ir = method(
            3,
            vec![
                Stmt::Load {
                    dst: 4,
                    base: 0,
                    field: field("f"),
                },
                Stmt::New {
                    bci: 3,
                    level: 0,
                    dst: 5,
                    ty: "java.lang.Object".into(),
                    length: None,
                },
                Stmt::Assign { dst: 6, src: 4 },
                Stmt::Assign { dst: 6, src: 5 },
                Stmt::Assign { dst: 2, src: 6 },
            ],
        );
        split_parameter_fields(&mut ir);
        assert!(ir.param_loads.is_empty());
    }

    #[test]
    fn a_load_from_a_local_object_is_no_getter() {
        // Object x = this.g; return x.f;
        let mut ir = method(
            2,
            vec![
                Stmt::Load {
                    dst: 4,
                    base: 0,
                    field: field("g"),
                },
                Stmt::Load {
                    dst: 5,
                    base: 4,
                    field: field("f"),
                },
                Stmt::Assign { dst: 2, src: 5 },
            ],
        );
        split_parameter_fields(&mut ir);
        assert!(ir.param_loads.is_empty());
    }
}
