//! Summaries of the JDK's collection classes, answered at each call site.
//!
//! A context-insensitive analysis of `HashMap`, `ArrayList` and their
//! kin pools everything: the nodes and backing arrays of every map and
//! list come from a handful of allocation sites inside the JDK, so each
//! `get` returns every value any collection ever held. For jedit against
//! the JDK, the result of `HashMap.get` pointed to 193,258 of 206,824
//! objects, and the pool spread from there to reflection.
//!
//! Instead, each collection object keeps its own elements, values in its
//! array field `[]` and a map's keys in the field `keys`, and every call
//! of the collection API is answered where it is made, with the caller's
//! own variables ([`answer_container_calls`]):
//!
//! - a call that stores (`put`, `add`, `set`, `offer`, constructors, ...)
//!   stores its object arguments into the receiver (the first argument of
//!   `put`-like calls as a key), and the contents of a collection argument,
//!   found by calling its `iterator().next()`, or for a map
//!   `entrySet().iterator().next()` and the entry's `getKey()`/`getValue()`,
//!   so that a collection the analysis does not model gives its contents;
//! - an element-valued result (`Object`, as generics erase) reads the
//!   values (`firstKey()` and the like read the keys);
//! - a view (`iterator()`, `keySet()`, `values()`, `entrySet()`, an entry,
//!   ...) is a new object at the call site, typed as the method declares,
//!   holding the receiver's contents (a key set its keys, an entry set one
//!   entry holding keys and values); `subList()`, `headMap()` and the like
//!   are the receiver itself;
//! - an array result (`toArray()`) is a new array at the call site holding
//!   the values; an array argument (`toArray(T[])`) receives them;
//! - a functional argument (`forEach`, `computeIfAbsent`, `removeIf`, a
//!   `Comparator`, ...) is called with keys and values, and what a function
//!   returns is stored;
//! - `clone()` returns the receiver.
//!
//! The original call stays, so a collection the JDK does not model (or an
//! application's own) runs its code as before. The instance methods of
//! the modelled classes (the table's `collection` rows) keep only their calls on the
//! receiver and on their parameters ([`summary_body`]): the callbacks
//! (`hashCode`, `equals`, `compareTo`, `removeEldestEntry`) keep their
//! call-graph edges, and no element flows through the pooled internals.
//!
//! A view records the collection it shows (field `backing`), and a store
//! into a receiver is repeated into what it is a view of, so a write
//! through a view (`Map.Entry.setValue`, `ListIterator.set`) reaches the
//! collection.
//!
//! The static factories of immutable and wrapped collections
//! (the table's `factory` rows: `List.of`, `Map.copyOf`, `Arrays.asList`,
//! `Collections.unmodifiableMap`, ...) make their collection at one
//! allocation site inside the JDK for every caller. Each call site gets
//! an object of its own instead, typed as the factory declares, holding
//! the arguments (a map's keys at even positions), an array argument's
//! elements, or a collection argument's elements; the factory's own
//! result is not passed back ([`answer_factory_calls`]).
//!
//! Not modelled: other wrappers (`Collections.synchronizedMap`,
//! `checkedList`) and other collections run their own code, whose
//! internals stay pooled.
//!
//! Which classes and methods the model covers, and what each method name
//! does, is the table `queries/models/containers.tsv`
//! ([`super::container_table`]); this module is the mechanism.
//!
//! # Why in the front end
//! The other models of the JDK are Datalog (`queries/models/`). This one
//! rewrites method bodies because it creates what the rules cannot:
//! variables (an element read into `elem@bci`), call sites (the
//! `iterator().next()` of a collection argument, dispatched on its own
//! objects so that an application's collection gives its contents; a
//! function called with the contents) and objects (a view at each call
//! site). A BDD database's domains are fixed before the rules run, as in
//! bddbddb, so these must be in the facts. And a summarised method's own
//! statements are left out of the facts, which rules could only undo by
//! filtering every flow rule. `--no-model containers` generates the
//! facts without it, to measure what it costs and finds. Fixture
//! `Containers` against java.base (`points-to`, one run each): with the
//! model, 254 methods reached, 2,395 `vP` tuples, 15.6 s, and each of
//! its three `forName` sites finds its own class; without it, the
//! JDK's `HashMap` and `ArrayList` code reaches 16,455 methods with
//! 18.8 million `vP` tuples in 80.8 s, and each site finds seven
//! classes. On `Invoke` (`casts`), `vP` is 22.1 million tuples without
//! the model and 14.9 million with it.

use super::container_table::table;
use crate::classfile::descriptor::{is_reference, method_desc};
use crate::classfile::model::MemberRef;
use crate::ir::{Invoke, InvokeKind, MethodIr, Stmt, Var};
use fxhash::FxHashSet;

/// The interface of a map's entries: a map factory's argument of this
/// type gives keys and values, and an entry set holds one of them.
const ENTRY: &str = "java.util.Map$Entry";

/// Whether the instance methods of `class` are summarised (a
/// `collection` of the table).
pub fn is_modelled(class: &str) -> bool {
    table().is_collection(class)
}

/// Whether `call` gives the Class object of its receiver (`class-of`).
fn is_class_of(call: &Invoke) -> bool {
    let t = &call.target;
    table().is_class_of(&t.class, &t.name, &t.desc)
}

/// Whether `call` calls one of the functional interfaces the collection
/// API takes (`function`).
fn is_function_call(call: &Invoke) -> bool {
    let t = &call.target;
    table().is_function_method(&t.class, &t.name, &t.desc)
}

/// The summary of a modelled instance method: only its calls whose
/// receiver is `this` or a parameter (or a copy or cast of one, or the
/// Class object of one, a `class-of` row of the table) remain, passing on only such
/// variables, and returning nothing.
///
/// A call of a functional argument (`mappingFunction.apply(key)` in
/// `computeIfAbsent`) keeps its edge but passes nothing: the call site
/// already calls the function with the collection's own keys and values
/// ([`answer_container_calls`]), and the summary's parameter holds what
/// every caller of the method passes. On jfreechart against JDK 17, the
/// one `key` of `ConcurrentHashMap.computeIfAbsent` reached each
/// function given to it, among them `ResourcesMgr`'s
/// `ResourceBundle::getBundle`, which then looked up 7,064 strings as
/// bundle names.
pub fn summary_body(mut ir: MethodIr) -> MethodIr {
    let mut own: FxHashSet<Var> = ir.params.iter().flatten().copied().collect();
    loop {
        let before = own.len();
        for s in &ir.stmts {
            match s {
                Stmt::Assign { dst, src } | Stmt::Cast { dst, src, .. } if own.contains(src) => {
                    own.insert(*dst);
                }
                Stmt::Invoke(call)
                    if is_class_of(call) && call.receiver.is_some_and(|r| own.contains(&r)) =>
                {
                    own.extend(call.result);
                }
                _ => {}
            }
        }
        if own.len() == before {
            break;
        }
    }
    let stmts = std::mem::take(&mut ir.stmts);
    ir.stmts = stmts
        .into_iter()
        .filter_map(|s| match s {
            Stmt::Invoke(mut call) if call.receiver.is_none_or(|r| own.contains(&r)) => {
                let function = is_function_call(&call);
                for a in call.args.iter_mut() {
                    if function || a.is_some_and(|v| !own.contains(&v)) {
                        *a = None;
                    }
                }
                if !is_class_of(&call) {
                    call.result = None;
                }
                call.handlers.clear();
                Some(Stmt::Invoke(call))
            }
            _ => None,
        })
        .collect();
    ir.returned_params.clear();
    ir.returned_results.clear();
    ir
}

/// Adds, at each call through a collection type, the statements that
/// answer it with the caller's variables (see the module documentation).
///
/// In the code that the modelled classes inherit (`class`, an abstract
/// collection or a view interface with default methods), calls on `this`
/// are answered as reads only, storing nothing: `AbstractCollection.addAll`
/// calling `add(e)` on every set that inherits it would otherwise give all
/// of them each other's elements. The call site of `addAll` stores
/// instead, and a collection of the application's that inherits the code
/// runs it as is.
pub fn answer_container_calls(ir: &mut MethodIr, class: &str) {
    answer_factory_calls(ir);
    let t = table();
    let inherited = t.is_supertype(class) || t.is_view(class);
    let this = ir
        .params
        .first()
        .copied()
        .flatten()
        .filter(|&v| ir.vars[v as usize].name == "this");
    let calls: Vec<Invoke> = ir
        .stmts
        .iter()
        .filter_map(|s| match s {
            Stmt::Invoke(call) if answered(call) => Some(call.clone()),
            _ => None,
        })
        .collect();
    // First the iterations that read the elements of a stored collection,
    // as calls of their own, then the answers to all calls, those included.
    let mut added = Vec::new();
    for call in calls.iter().filter(|c| !(inherited && c.receiver == this)) {
        store_argument_elements(ir, call, &mut added);
    }
    let iterations: Vec<Invoke> = added
        .iter()
        .filter_map(|s| match s {
            Stmt::Invoke(call) => Some(call.clone()),
            _ => None,
        })
        .collect();
    ir.stmts.extend(added);
    for call in calls.iter().chain(&iterations) {
        let stores = !(inherited && call.receiver == this);
        answer(ir, call, stores);
    }
}

/// Answers the calls of the table's `factory` methods in `ir`: each gets an object of its
/// own at the call site, typed as the factory declares its result, that
/// holds what the factory would put into its collection; the call's own
/// result is dropped (the call stays, for the callbacks its body makes,
/// such as `Set.of`'s `hashCode`). The calls that iterate a collection
/// argument are added as calls of the method, answered by
/// [`answer_container_calls`] like the others.
///
/// - an array argument gives its elements (`List.of(E...)`,
///   `Arrays.asList`, whose list writes through to the array), or for
///   `Map.ofEntries` its entries' keys and values;
/// - a collection or map argument gives what iterating it gives
///   (`copyOf`, `unmodifiableList`);
/// - any other reference argument is an element, or for a map factory a
///   key at even positions and a value at odd ones (`Map.of(k, v, ...)`,
///   `Map.entry`, `singletonMap`).
fn answer_factory_calls(ir: &mut MethodIr) {
    let mut added = Vec::new();
    for k in 0..ir.stmts.len() {
        let Stmt::Invoke(call) = &ir.stmts[k] else {
            continue;
        };
        let t = &call.target;
        let is_factory = call.kind == InvokeKind::Static && table().is_factory(&t.class, &t.name);
        let (Some(r), Some(desc)) = (call.result, method_desc(&t.desc)) else {
            continue;
        };
        if !is_factory || !table().is_view(&desc.ret) {
            continue;
        }
        let call = call.clone();
        if let Stmt::Invoke(original) = &mut ir.stmts[k] {
            original.result = None;
        }
        let map = table().is_map(&desc.ret) || desc.ret == ENTRY;
        let made = ir.new_var(format!("made@{}", call.bci), desc.ret.as_str());
        added.push(Stmt::New {
            bci: call.bci,
            level: 0,
            dst: made,
            ty: desc.ret.clone(),
            length: None,
        });
        added.push(Stmt::Assign { dst: r, src: made });
        let mut position = 0;
        for (arg, ty) in call.args.iter().zip(&desc.params) {
            let Some(arg) = *arg else {
                continue;
            };
            if let Some(element) = ty.strip_suffix("[]") {
                let e = ir.new_var(format!("arg@{}", call.bci), element);
                added.push(Stmt::ArrayLoad {
                    dst: e,
                    base: arg,
                    index: None,
                });
                if element == ENTRY {
                    let (key, value) = entry_parts(ir, &call, e, &mut added);
                    put_contents(&mut added, made, Some(key), value);
                } else {
                    put_contents(&mut added, made, None, e);
                }
                if table().writes_through(&call.target.class, &call.target.name) {
                    added.push(Stmt::Store {
                        base: made,
                        field: backing_field(),
                        src: arg,
                    });
                }
            } else if table().is_container_type(ty) {
                let (key, value) = iterate(ir, &call, arg, table().is_map(ty), &mut added);
                put_contents(&mut added, made, key, value);
            } else if is_reference(ty) {
                if map && position % 2 == 0 {
                    put_key(&mut added, made, arg);
                } else {
                    put_contents(&mut added, made, None, arg);
                }
                position += 1;
            }
        }
    }
    ir.stmts.extend(added);
}

/// The key and value of the map entry `entry`, read by `getKey()` and
/// `getValue()` calls added beside `call`.
fn entry_parts(ir: &mut MethodIr, call: &Invoke, entry: Var, added: &mut Vec<Stmt>) -> (Var, Var) {
    let mut get = |name: &str| {
        let v = ir.new_var(format!("{name}@{}", call.bci), "java.lang.Object");
        let target = (ENTRY, name, "()Ljava/lang/Object;");
        added.push(Stmt::Invoke(call.interface_call_beside(
            target,
            entry,
            Vec::new(),
            Some(v),
        )));
        v
    };
    (get("getKey"), get("getValue"))
}

/// Whether a call is one this pass answers.
fn answered(call: &Invoke) -> bool {
    call.kind != InvokeKind::Static
        && call.receiver.is_some()
        && table().is_container_type(&call.target.class)
}

/// For a storing call with collection arguments (`addAll(c)`,
/// `putAll(m)`, `new ArrayList(c)`): stores into the receiver what the
/// argument's own iteration gives, `c.iterator().next()` or, for a map,
/// the key and value of `m.entrySet().iterator().next()`.
fn store_argument_elements(ir: &mut MethodIr, call: &Invoke, added: &mut Vec<Stmt>) {
    if !table().stores(&call.target.name) {
        return;
    }
    let (Some(desc), Some(recv)) = (method_desc(&call.target.desc), call.receiver) else {
        return;
    };
    for (a, ty) in call.args.iter().zip(&desc.params) {
        let Some(coll) = *a else {
            continue;
        };
        if !table().is_container_type(ty) {
            continue;
        }
        let (key, value) = iterate(ir, call, coll, table().is_map(ty), added);
        put_contents(added, recv, key, value);
    }
}

/// What iterating the collection `coll` (a map when `map`) gives, read by
/// calls added beside `call`: `coll.iterator().next()`, or for a map the
/// key and value of `coll.entrySet().iterator().next()`. The calls are
/// answered as any other, so a collection the analysis does not model
/// gives its contents too.
fn iterate(
    ir: &mut MethodIr,
    call: &Invoke,
    coll: Var,
    map: bool,
    added: &mut Vec<Stmt>,
) -> (Option<Var>, Var) {
    let mut invoke = |ir: &mut MethodIr, on: Var, class: &str, name: &str, ret: &str| {
        let r = ir.new_var(format!("{name}@{}", call.bci), ret);
        let ret_desc = format!("()L{};", ret.replace('.', "/"));
        let target = (class, name, ret_desc.as_str());
        added.push(Stmt::Invoke(call.interface_call_beside(
            target,
            on,
            Vec::new(),
            Some(r),
        )));
        r
    };
    let source = if map {
        invoke(ir, coll, "java.util.Map", "entrySet", "java.util.Set")
    } else {
        coll
    };
    let it = invoke(
        ir,
        source,
        "java.util.Collection",
        "iterator",
        "java.util.Iterator",
    );
    let next = invoke(ir, it, "java.util.Iterator", "next", "java.lang.Object");
    if map {
        let key = invoke(ir, next, ENTRY, "getKey", "java.lang.Object");
        let value = invoke(ir, next, ENTRY, "getValue", "java.lang.Object");
        (Some(key), value)
    } else {
        (None, next)
    }
}

/// `base.keys = key` (if any) and `base[*] = value`: what a collection
/// holds.
fn put_contents(added: &mut Vec<Stmt>, base: Var, key: Option<Var>, value: Var) {
    if let Some(key) = key {
        put_key(added, base, key);
    }
    added.push(Stmt::ArrayStore {
        base,
        index: None,
        src: value,
    });
}

/// `base.keys = key`: a map's key.
fn put_key(added: &mut Vec<Stmt>, base: Var, key: Var) {
    added.push(Stmt::Store {
        base,
        field: keys_field(),
        src: key,
    });
}

/// The field that holds a map's keys (its values are its elements, `[]`).
fn keys_field() -> MemberRef {
    MemberRef {
        class: "java.util.Map".into(),
        name: "keys".into(),
        desc: "Ljava/lang/Object;".into(),
        interface: true,
    }
}

/// The field of a view that holds the collection it shows, so that a
/// write through the view (`Map.Entry.setValue`, `ListIterator.set`)
/// reaches the collection.
fn backing_field() -> MemberRef {
    MemberRef {
        class: "java.util.Collection".into(),
        name: "backing".into(),
        desc: "Ljava/lang/Object;".into(),
        interface: true,
    }
}

/// The statements that answer one call, added to a method body.
struct Answer<'a> {
    ir: &'a mut MethodIr,
    call: &'a Invoke,
    recv: Var,
    elements: Option<Var>,
    keys: Option<Var>,
    backing: Option<Var>,
}

impl Answer<'_> {
    fn var(&mut self, what: &str, ty: &str) -> Var {
        self.ir.new_var(format!("{what}@{}", self.call.bci), ty)
    }

    fn push(&mut self, s: Stmt) {
        self.ir.stmts.push(s);
    }

    /// `recv[*]`, read once.
    fn elements(&mut self) -> Var {
        if let Some(e) = self.elements {
            return e;
        }
        let e = self.var("elem", "java.lang.Object");
        self.push(Stmt::ArrayLoad {
            dst: e,
            base: self.recv,
            index: None,
        });
        self.elements = Some(e);
        e
    }

    /// `recv.keys`, read once.
    fn keys(&mut self) -> Var {
        match self.keys {
            Some(k) => k,
            None => {
                let k = self.load("key", keys_field());
                self.keys = Some(k);
                k
            }
        }
    }

    /// `recv.field`, into a new variable.
    fn load(&mut self, what: &str, field: MemberRef) -> Var {
        let v = self.var(what, "java.lang.Object");
        self.push(Stmt::Load {
            dst: v,
            base: self.recv,
            field,
        });
        v
    }

    /// `base[*] = src`, and the same into the collection `base` is a view
    /// of, when `base` is the receiver.
    fn store(&mut self, base: Var, src: Var) {
        self.push(Stmt::ArrayStore {
            base,
            index: None,
            src,
        });
        if base == self.recv {
            let b = self.backing();
            self.store(b, src);
        }
    }

    /// `base.keys = src`, and through a view as [`Self::store`].
    fn store_key(&mut self, base: Var, src: Var) {
        self.push(Stmt::Store {
            base,
            field: keys_field(),
            src,
        });
        if base == self.recv {
            let b = self.backing();
            self.store_key(b, src);
        }
    }

    /// `recv.backing`, read once.
    fn backing(&mut self) -> Var {
        match self.backing {
            Some(b) => b,
            None => {
                let b = self.load("backing", backing_field());
                self.backing = Some(b);
                b
            }
        }
    }

    /// A new object of type `ty` at the call site (`level` tells two apart)
    /// holding `elements` as its elements and `keys` as its keys.
    fn view(&mut self, ty: &str, level: u8, elements: &[Var], keys: &[Var]) -> Var {
        let v = self.var(if level == 0 { "view" } else { "entry" }, ty);
        self.push(Stmt::New {
            bci: self.call.bci,
            level,
            dst: v,
            ty: ty.into(),
            length: None,
        });
        for &e in elements {
            self.store(v, e);
        }
        for &k in keys {
            self.store_key(v, k);
        }
        self.push(Stmt::Store {
            base: v,
            field: backing_field(),
            src: self.recv,
        });
        v
    }
}

/// The statements answering one call. `stores` is false for calls on
/// `this` in inherited code, which only read.
fn answer(ir: &mut MethodIr, call: &Invoke, stores: bool) {
    let Some(desc) = method_desc(&call.target.desc) else {
        return;
    };
    let Some(recv) = call.receiver else {
        return;
    };
    let name = call.target.name.as_str();
    let t = table();
    let stores = stores && t.stores(name);
    let mut a = Answer {
        ir,
        call,
        recv,
        elements: None,
        keys: None,
        backing: None,
    };
    let mut array_args = Vec::new();
    let mut first_ref = true;
    for (arg, ty) in call.args.iter().zip(&desc.params) {
        let Some(arg) = *arg else {
            continue;
        };
        let is_key = first_ref && t.is_keyed(name);
        first_ref = false;
        if ty.ends_with("[]") {
            // `toArray(T[])`, `copyInto(Object[])`: the array receives the
            // elements; a storing call takes the array's.
            let e = a.elements();
            a.store(arg, e);
            if stores {
                let t = a.var("arg", "java.lang.Object");
                a.push(Stmt::ArrayLoad {
                    dst: t,
                    base: arg,
                    index: None,
                });
                a.store(recv, t);
            }
            array_args.push(arg);
        } else if let Some(f) = t.function(ty) {
            // Called with keys and elements alike.
            let (e, k) = (a.elements(), a.keys());
            let both = a.var("item", "java.lang.Object");
            a.push(Stmt::Assign { dst: both, src: e });
            a.push(Stmt::Assign { dst: both, src: k });
            let result = f.stored.then(|| a.var(&f.name, "java.lang.Object"));
            let target = (f.class.as_str(), f.name.as_str(), f.desc.as_str());
            let args = vec![Some(both); f.arity];
            a.push(Stmt::Invoke(
                call.interface_call_beside(target, arg, args, result),
            ));
            if let (Some(r), true) = (result, stores || t.stores_results(name)) {
                a.store(recv, r);
            }
        } else if stores && is_reference(ty) && !t.is_container_type(ty) {
            if is_key {
                a.store_key(recv, arg);
            } else {
                a.store(recv, arg);
            }
        }
    }
    let Some(r) = call.result else {
        return;
    };
    let ret = desc.ret.as_str();
    let assign = |a: &mut Answer, src: Var| a.push(Stmt::Assign { dst: r, src });
    if t.is_collection(ret) || t.is_same_kind(name) {
        assign(&mut a, recv);
    } else if t.is_entry_view(name) {
        let (e, k) = (a.elements(), a.keys());
        let entry = a.view(ENTRY, 1, &[e], &[k]);
        let set = a.view(ret, 0, &[entry], &[]);
        assign(&mut a, set);
    } else if t.is_key_view(name) && t.is_view(ret) {
        let k = a.keys();
        let keys = a.view(ret, 0, &[k], &[]);
        assign(&mut a, keys);
    } else if t.is_view(ret) {
        let (e, k) = (a.elements(), a.keys());
        let view = a.view(ret, 0, &[e], &[k]);
        assign(&mut a, view);
    } else if ret == "java.lang.Object" {
        let src = if name.ends_with("Key") {
            a.keys()
        } else {
            a.elements()
        };
        assign(&mut a, src);
        if let Some(Some(default)) = (t.default_argument(name)).and_then(|k| call.args.get(k)) {
            assign(&mut a, *default);
        }
    } else if ret.ends_with("[]") {
        for arg in array_args {
            assign(&mut a, arg);
        }
        let e = a.elements();
        let array = a.view(ret, 0, &[e], &[]);
        assign(&mut a, array);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(
        recv: Var,
        class: &str,
        name: &str,
        desc: &str,
        args: Vec<Option<Var>>,
        result: Option<Var>,
    ) -> Stmt {
        let target = (class, name, desc);
        crate::ir::test_call(InvokeKind::Interface, Some(recv), target, args, result)
    }

    /// A method of the given parameter types, its variables and the
    /// statements the pass adds after `stmt`.
    fn answered(params: &[&str], stmt: impl Fn(&[Var]) -> Stmt) -> (Vec<Var>, Vec<Stmt>) {
        let params: Vec<String> = params.iter().map(|p| p.to_string()).collect();
        let mut ir = MethodIr::skeleton(true, "C", &params, "void");
        let vars: Vec<Var> = ir.params.iter().flatten().copied().collect();
        ir.stmts.push(stmt(&vars));
        answer_container_calls(&mut ir, "C");
        (vars, ir.stmts[1..].to_vec())
    }

    /// A static factory call of `target` with the method's parameters as
    /// arguments and a result of type `ret`: the result variable and the
    /// statements after the pass.
    fn factory(
        params: &[&str],
        target: (&str, &str, &str),
        ret: &str,
    ) -> (Vec<Var>, Var, Vec<Stmt>) {
        let params: Vec<String> = params.iter().map(|p| p.to_string()).collect();
        let mut ir = MethodIr::skeleton(true, "C", &params, "void");
        let vars: Vec<Var> = ir.params.iter().flatten().copied().collect();
        let r = ir.new_var("r", ret);
        let args = vars.iter().map(|v| Some(*v)).collect();
        let call = crate::ir::test_call(InvokeKind::Static, None, target, args, Some(r));
        ir.stmts.push(call);
        answer_container_calls(&mut ir, "C");
        (vars, r, ir.stmts)
    }

    #[test]
    fn a_factory_call_gets_its_own_collection_of_its_arguments() {
        let (v, r, stmts) = factory(
            &["java.lang.Object", "java.lang.Object"],
            (
                "java.util.List",
                "of",
                "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/util/List;",
            ),
            "java.util.List",
        );
        // The call stays, without its result (made inside the JDK for all).
        let Stmt::Invoke(call) = &stmts[0] else {
            panic!("{stmts:?}")
        };
        assert_eq!(call.result, None);
        let made = match &stmts[1] {
            Stmt::New {
                dst,
                ty,
                bci: 7,
                level: 0,
                length: None,
            } if ty == "java.util.List" => *dst,
            s => panic!("{s:?}"),
        };
        let element = |src| Stmt::ArrayStore {
            base: made,
            index: None,
            src,
        };
        assert_eq!(
            stmts[2..],
            [
                Stmt::Assign { dst: r, src: made },
                element(v[0]),
                element(v[1])
            ]
        );
    }

    #[test]
    fn a_map_factory_takes_keys_at_even_positions_and_values_at_odd_ones() {
        let (v, _, stmts) = factory(
            &["java.lang.Object"; 4],
            (
                "java.util.Map",
                "of",
                "(Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;)Ljava/util/Map;",
            ),
            "java.util.Map",
        );
        let Stmt::New { dst: made, .. } = stmts[1] else {
            panic!("{stmts:?}")
        };
        let key = |src| Stmt::Store {
            base: made,
            field: keys_field(),
            src,
        };
        let value = |src| Stmt::ArrayStore {
            base: made,
            index: None,
            src,
        };
        assert_eq!(stmts[3..], [key(v[0]), value(v[1]), key(v[2]), value(v[3])]);
    }

    #[test]
    fn a_copy_factory_takes_what_iterating_its_argument_gives() {
        let (v, _, stmts) = factory(
            &["java.util.Collection"],
            (
                "java.util.List",
                "copyOf",
                "(Ljava/util/Collection;)Ljava/util/List;",
            ),
            "java.util.List",
        );
        let Stmt::New { dst: made, .. } = stmts[1] else {
            panic!("{stmts:?}")
        };
        // arg.iterator(), its next(), stored; then the iteration's own
        // calls are answered as any call through a collection type.
        let calls: Vec<(&str, Option<Var>)> = stmts
            .iter()
            .filter_map(|s| match s {
                Stmt::Invoke(c) => Some((c.target.name.as_str(), c.receiver)),
                _ => None,
            })
            .collect();
        assert_eq!(calls[0], ("copyOf", None));
        assert_eq!(calls[1], ("iterator", Some(v[0])));
        assert_eq!(calls[2].0, "next");
        let next = stmts.iter().find_map(|s| match s {
            Stmt::Invoke(c) if c.target.name == "next" => c.result,
            _ => None,
        });
        assert!(stmts.contains(&Stmt::ArrayStore {
            base: made,
            index: None,
            src: next.unwrap(),
        }));
    }

    #[test]
    fn put_stores_the_key_and_the_value_and_get_reads_the_values() {
        let (v, added) = answered(
            &["java.util.Map", "java.lang.Object", "java.lang.Object"],
            |v| {
                call(
                    v[0],
                    "java.util.Map",
                    "put",
                    "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;",
                    vec![Some(v[1]), Some(v[2])],
                    None,
                )
            },
        );
        // Each also into the collection the receiver may be a view of.
        let key = |base| Stmt::Store {
            base,
            field: keys_field(),
            src: v[1],
        };
        let Stmt::Load { dst: backing, .. } = added[1] else {
            panic!("{added:?}")
        };
        let value = |base| Stmt::ArrayStore {
            base,
            index: None,
            src: v[2],
        };
        assert_eq!(
            added,
            [
                key(v[0]),
                Stmt::Load {
                    dst: backing,
                    base: v[0],
                    field: backing_field()
                },
                key(backing),
                value(v[0]),
                value(backing)
            ]
        );
        // A read does not store its key; its result is the values.
        let (v, added) = answered(
            &["java.util.Map", "java.lang.Object", "java.lang.Object"],
            |v| {
                call(
                    v[0],
                    "java.util.Map",
                    "get",
                    "(Ljava/lang/Object;)Ljava/lang/Object;",
                    vec![Some(v[1])],
                    Some(v[2]),
                )
            },
        );
        let Stmt::ArrayLoad { dst: e, base, .. } = added[0] else {
            panic!("{added:?}")
        };
        assert_eq!(base, v[0]);
        assert_eq!(added[1..], [Stmt::Assign { dst: v[2], src: e }]);
    }

    #[test]
    fn a_key_set_is_a_view_of_the_keys_and_for_each_calls_the_action() {
        let (v, added) = answered(&["java.util.Map", "java.util.Set"], |v| {
            call(
                v[0],
                "java.util.Map",
                "keySet",
                "()Ljava/util/Set;",
                vec![],
                Some(v[1]),
            )
        });
        // The key set is an object of its own at the call site, holding
        // the map's keys.
        let Stmt::Load { dst: k, base, .. } = added[0] else {
            panic!("{added:?}")
        };
        assert_eq!(base, v[0]);
        let Stmt::New {
            dst: view, ref ty, ..
        } = added[1]
        else {
            panic!("{added:?}")
        };
        assert_eq!(ty, "java.util.Set");
        assert_eq!(
            added[2..],
            [
                Stmt::ArrayStore {
                    base: view,
                    index: None,
                    src: k
                },
                Stmt::Store {
                    base: view,
                    field: backing_field(),
                    src: v[0]
                },
                Stmt::Assign {
                    dst: v[1],
                    src: view
                },
            ]
        );
        let (v, added) = answered(&["java.util.List", "java.util.function.Consumer"], |v| {
            call(
                v[0],
                "java.lang.Iterable",
                "forEach",
                "(Ljava/util/function/Consumer;)V",
                vec![Some(v[1])],
                None,
            )
        });
        // The action receives elements and keys alike.
        let Stmt::Invoke(accept) = &added[4] else {
            panic!("{added:?}")
        };
        assert_eq!(
            (accept.target.name.as_str(), accept.receiver),
            ("accept", Some(v[1]))
        );
        let Some(item) = accept.args[0] else {
            panic!("{added:?}")
        };
        let (Stmt::ArrayLoad { dst: e, .. }, Stmt::Load { dst: k, .. }) = (&added[0], &added[1])
        else {
            panic!("{added:?}")
        };
        assert_eq!(
            added[2..4],
            [
                Stmt::Assign { dst: item, src: *e },
                Stmt::Assign { dst: item, src: *k }
            ]
        );
    }

    #[test]
    fn add_all_stores_what_the_arguments_iteration_gives() {
        let (v, added) = answered(&["java.util.List", "java.util.Collection"], |v| {
            call(
                v[0],
                "java.util.List",
                "addAll",
                "(Ljava/util/Collection;)Z",
                vec![Some(v[1])],
                None,
            )
        });
        let names: Vec<&str> = added
            .iter()
            .filter_map(|s| match s {
                Stmt::Invoke(c) => Some(c.target.name.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(names, ["iterator", "next"]);
        let Stmt::Invoke(next) = &added[1] else {
            panic!("{added:?}")
        };
        assert_eq!(
            added[2],
            Stmt::ArrayStore {
                base: v[0],
                index: None,
                src: next.result.unwrap()
            }
        );
    }

    #[test]
    fn inherited_code_stores_nothing_through_its_calls_on_this() {
        let mut ir = MethodIr::skeleton(
            false,
            "java.util.AbstractCollection",
            &["java.lang.Object".into()],
            "void",
        );
        let (this, x) = (ir.params[0].unwrap(), ir.params[1].unwrap());
        ir.stmts.push(call(
            this,
            "java.util.AbstractCollection",
            "add",
            "(Ljava/lang/Object;)Z",
            vec![Some(x)],
            None,
        ));
        let before = ir.clone();
        answer_container_calls(&mut ir, "java.util.AbstractCollection");
        assert_eq!(ir, before);
        answer_container_calls(&mut ir, "a.Caller");
        let Stmt::ArrayStore { base, src, .. } = ir.stmts[1] else {
            panic!("{:?}", ir.stmts)
        };
        assert_eq!((base, src), (this, x));
    }

    #[test]
    fn a_summary_keeps_only_calls_on_the_receiver_and_parameters() {
        let mut ir = MethodIr::skeleton(
            false,
            "java.util.HashMap",
            &["java.lang.Object".into()],
            "java.lang.Object",
        );
        let (this, key, ret) = (
            ir.params[0].unwrap(),
            ir.params[1].unwrap(),
            ir.ret.unwrap(),
        );
        let node = ir.new_var("node", "java.util.HashMap$Node");
        ir.stmts.push(Stmt::Load {
            dst: node,
            base: this,
            field: MemberRef {
                class: "java.util.HashMap".into(),
                name: "table".into(),
                desc: "[Ljava/util/HashMap$Node;".into(),
                interface: false,
            },
        });
        ir.stmts.push(Stmt::Assign {
            dst: ret,
            src: node,
        });
        ir.stmts.push(call(
            key,
            "java.lang.Object",
            "equals",
            "(Ljava/lang/Object;)Z",
            vec![Some(node)],
            None,
        ));
        ir.stmts.push(call(
            node,
            "java.lang.Object",
            "hashCode",
            "()I",
            vec![],
            None,
        ));
        let ir = summary_body(ir);
        assert_eq!(
            ir.stmts,
            [call(
                key,
                "java.lang.Object",
                "equals",
                "(Ljava/lang/Object;)Z",
                vec![None],
                None
            )]
        );
    }

    /// `ConcurrentHashMap.computeIfAbsent(key, f)`: the summary keeps the
    /// call `f.apply(key)`, so that the function's edge stays, but passes
    /// it no key (the call site passes the map's own keys); `key.hashCode()`
    /// stays as it was.
    #[test]
    fn a_summary_calls_a_functional_argument_with_nothing() {
        let mut ir = MethodIr::skeleton(
            false,
            "java.util.concurrent.ConcurrentHashMap",
            &[
                "java.lang.Object".into(),
                "java.util.function.Function".into(),
            ],
            "java.lang.Object",
        );
        let (key, f) = (ir.params[1].unwrap(), ir.params[2].unwrap());
        let value = ir.new_var("value", "java.lang.Object");
        let apply = (
            "java.util.function.Function",
            "apply",
            "(Ljava/lang/Object;)Ljava/lang/Object;",
        );
        let hash = ("java.lang.Object", "hashCode", "()I");
        let on = |recv, target, args, result| {
            crate::ir::test_call(InvokeKind::Interface, Some(recv), target, args, result)
        };
        ir.stmts.push(on(key, hash, vec![], None));
        ir.stmts.push(on(f, apply, vec![Some(key)], Some(value)));
        let ir = summary_body(ir);
        assert_eq!(
            ir.stmts,
            [on(key, hash, vec![], None), on(f, apply, vec![None], None)]
        );
    }

    /// `ArrayList.toArray(T[] a)`: `Arrays.copyOf(elementData, size,
    /// a.getClass())` keeps the argument's class (and `getComponentType`
    /// of it), but not the pooled elements nor the copy it returns.
    #[test]
    fn a_summary_keeps_the_class_of_a_parameter() {
        let mut ir = MethodIr::skeleton(
            false,
            "java.util.ArrayList",
            &["java.lang.Object[]".into()],
            "java.lang.Object[]",
        );
        let (this, a, ret) = (
            ir.params[0].unwrap(),
            ir.params[1].unwrap(),
            ir.ret.unwrap(),
        );
        let (elements, class, component) = (
            ir.new_var("elementData", "java.lang.Object[]"),
            ir.new_var("class", "java.lang.Class"),
            ir.new_var("component", "java.lang.Class"),
        );
        ir.stmts.push(Stmt::Load {
            dst: elements,
            base: this,
            field: MemberRef {
                class: "java.util.ArrayList".into(),
                name: "elementData".into(),
                desc: "[Ljava/lang/Object;".into(),
                interface: false,
            },
        });
        let get_class = ("java.lang.Object", "getClass", "()Ljava/lang/Class;");
        let component_of = ("java.lang.Class", "getComponentType", "()Ljava/lang/Class;");
        let copy_of = (
            "java.util.Arrays",
            "copyOf",
            "([Ljava/lang/Object;ILjava/lang/Class;)[Ljava/lang/Object;",
        );
        let virtual_call = |recv, target, result| {
            crate::ir::test_call(InvokeKind::Virtual, Some(recv), target, vec![], result)
        };
        ir.stmts.push(virtual_call(a, get_class, Some(class)));
        ir.stmts
            .push(virtual_call(class, component_of, Some(component)));
        let copy =
            |args, result| crate::ir::test_call(InvokeKind::Static, None, copy_of, args, result);
        ir.stmts
            .push(copy(vec![Some(elements), None, Some(class)], Some(ret)));
        let ir = summary_body(ir);
        assert_eq!(
            ir.stmts,
            [
                virtual_call(a, get_class, Some(class)),
                virtual_call(class, component_of, Some(component)),
                copy(vec![None, None, Some(class)], None),
            ]
        );
    }
}
