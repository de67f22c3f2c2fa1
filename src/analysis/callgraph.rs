//! The call graph of an analysed database: every edge from a reachable
//! call site to a method it may run, with reflective edges (those the
//! reflection analysis resolved, relation `IEr`) marked, cut down by
//! [`GraphFilter`] to what a person can read.
//!
//! Formats:
//! - TSV: a header, then `caller  invoke  callee  kind` per (site, target),
//!   where kind is `call` or `reflective`;
//! - DOT: one edge per (caller, callee) pair, laid out left to right with
//!   a cluster per class, labelled `Class.method` with the signature as the
//!   tooltip; reflective edges dashed, red and labelled `reflective`;
//! - SVG: the DOT through Graphviz's `dot`;
//! - HTML: that SVG in one self-contained page that zooms (wheel), pans
//!   (drag) and searches (the box highlights matching methods).
//!
//! Lines follow the ids: callers in class-path order, sites in bytecode
//! order.

use crate::bdd::for_each_tuple;
use crate::export::relation::json_string;
use crate::session::{Session, SessionError};
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::io::{self, Write};
use std::ops::ControlFlow;

/// A call graph format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GraphFormat {
    /// One line per (site, target), with a header.
    Tsv,
    /// Graphviz's language.
    Dot,
    /// A picture, drawn by Graphviz's `dot`.
    Svg,
    /// One page with the picture, zoom and search.
    Html,
}

/// What the graph's nodes are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Collapse {
    /// One node per method.
    #[default]
    Method,
    /// One node per class.
    Class,
    /// One node per package.
    Package,
}

impl std::str::FromStr for GraphFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "tsv" => Ok(GraphFormat::Tsv),
            "dot" => Ok(GraphFormat::Dot),
            "svg" => Ok(GraphFormat::Svg),
            "html" => Ok(GraphFormat::Html),
            _ => Err(format!("unknown format {s} (tsv, dot, svg or html)")),
        }
    }
}

impl std::str::FromStr for Collapse {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "method" => Ok(Collapse::Method),
            "class" => Ok(Collapse::Class),
            "package" => Ok(Collapse::Package),
            _ => Err(format!("unknown node kind {s} (method, class or package)")),
        }
    }
}

/// Which part of the graph to show.
#[derive(Clone, Debug, Default)]
pub struct GraphFilter {
    /// Only what these methods reach (signatures, `Class.method` or
    /// `pkg.Class.method`).
    pub from: Vec<String>,
    /// Only what reaches these methods.
    pub to: Vec<String>,
    /// With `from` or `to`: at most this many calls away.
    pub depth: Option<usize>,
    /// Only edges that reflection resolved.
    pub reflective_only: bool,
    /// Only edges whose caller's class is in one of these packages (a
    /// prefix of the binary class name, such as `org.apache.` or `r`).
    pub packages: Vec<String>,
    /// Nodes are methods, classes or packages.
    pub collapse: Collapse,
}

/// The rules deriving the site-level edges from the stored relations.
const EDGES: &str = r#"
cgSite (caller:M, invoke:I, callee:M)
cgSiteReflective (caller:M, invoke:I, callee:M)
cgSite(a, i, b) :- mI(a, i, _), IE(i, b).
cgSiteReflective(a, i, b) :- mI(a, i, _), IEr(i, b).
"#;

/// Why the call graph cannot be exported.
#[derive(Debug, thiserror::Error)]
pub enum CallGraphError {
    /// The database holds no call graph.
    #[error("the database has no call graph (relation {0}): run `refract analyze` to make one")]
    NotAnalysed(&'static str),
    /// `--from` or `--to` names no method of the graph.
    #[error("{option} {name}: no method of the call graph is called so{hint}")]
    NoSuchMethod {
        /// The option.
        option: &'static str,
        /// The name given.
        name: String,
        /// Near names, if any.
        hint: String,
    },
    /// Graphviz is needed and missing, or failed.
    #[error("{0}")]
    Graphviz(String),
    /// Deriving the edges failed.
    #[error(transparent)]
    Session(#[from] SessionError),
    /// Writing failed.
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// One edge from a call site to a method it may run.
#[derive(Clone, Debug)]
struct SiteEdge {
    caller: usize,
    site: String,
    callee: usize,
    reflective: bool,
}

/// The call graph: methods by number, and the site-level edges in id
/// order (calls, then reflective calls).
struct Graph {
    methods: Vec<String>,
    edges: Vec<SiteEdge>,
}

/// Writes the call graph part that `filter` keeps; returns the number of
/// edges written.
pub fn write_callgraph(
    session: &mut Session,
    format: GraphFormat,
    filter: &GraphFilter,
    out: &mut dyn Write,
) -> Result<u64, CallGraphError> {
    let graph = read_graph(session)?;
    let kept = filter_edges(&graph, filter)?;
    match format {
        GraphFormat::Tsv => {
            writeln!(out, "caller\tinvoke\tcallee\tkind")?;
            for e in &kept {
                writeln!(
                    out,
                    "{}\t{}\t{}\t{}",
                    graph.methods[e.caller],
                    e.site,
                    graph.methods[e.callee],
                    kind(e.reflective)
                )?;
            }
            Ok(kept.len() as u64)
        }
        GraphFormat::Dot => {
            let (dot, n) = to_dot(&graph, &kept, filter.collapse);
            out.write_all(dot.as_bytes())?;
            Ok(n)
        }
        GraphFormat::Svg | GraphFormat::Html => {
            let (dot, n) = to_dot(&graph, &kept, filter.collapse);
            let svg = render_svg(&dot)?;
            if format == GraphFormat::Svg {
                out.write_all(svg.as_bytes())?;
            } else {
                write_html(&svg, n, out)?;
            }
            Ok(n)
        }
    }
}

/// An edge kind as TSV and DOT name it.
fn kind(reflective: bool) -> &'static str {
    if reflective {
        "reflective"
    } else {
        "call"
    }
}

/// Reads the site-level edges of the database.
fn read_graph(session: &mut Session) -> Result<Graph, CallGraphError> {
    for r in ["IE", "IEr", "mI"] {
        if !session.db.has(r) {
            return Err(CallGraphError::NotAnalysed(r));
        }
    }
    session.execute_text(EDGES, "<callgraph rules>", 1, 0)?;
    let solver = &session.db.solver;
    let name = |d: usize, v: u64| -> String {
        solver.prog.domains[d]
            .names
            .as_ref()
            .and_then(|m| m.name(v).map(str::to_string))
            .unwrap_or_else(|| v.to_string())
    };
    let mut methods: Vec<String> = Vec::new();
    let mut method_ids: HashMap<u64, usize> = HashMap::new();
    let mut edges = Vec::new();
    for (r, reflective) in [("cgSite", false), ("cgSiteReflective", true)] {
        let Some(id) = solver.prog.relation_id(r) else {
            continue;
        };
        let doms: Vec<usize> = solver.prog.relations[id]
            .attrs
            .iter()
            .map(|a| a.domain)
            .collect();
        // Tuples in the order of the ids: callers as the class path lists
        // them, sites in bytecode order. (A walk of the BDD follows its
        // variable order, which interleaves caller and callee bits.)
        let mut tuples: Vec<Vec<u64>> = Vec::new();
        let _ = for_each_tuple(&solver.rels[id], &solver.blocks(id), |t| {
            tuples.push(t.to_vec());
            ControlFlow::Continue(())
        });
        tuples.sort_unstable();
        for t in tuples {
            let mut node = |v: u64| {
                *method_ids.entry(v).or_insert_with(|| {
                    methods.push(name(doms[0], v));
                    methods.len() - 1
                })
            };
            let caller = node(t[0]);
            let callee = node(t[2]);
            edges.push(SiteEdge {
                caller,
                site: name(doms[1], t[1]),
                callee,
                reflective,
            });
        }
    }
    Ok(Graph { methods, edges })
}

/// A method signature's parts: `<a.b.C: void m(int)>` gives (`a.b.C`,
/// `m`). Other names stand for themselves.
fn parts(signature: &str) -> (String, String) {
    match crate::classfile::descriptor::parse_method_signature(signature) {
        Some(m) => (m.class, m.name),
        None => (signature.to_string(), String::new()),
    }
}

/// The package of a binary class name (`""` for the unnamed package).
fn package_of(class: &str) -> &str {
    class.rsplit_once('.').map_or("", |(p, _)| p)
}

/// A method's short label: `Class.method`, the class without its package.
fn short_label(signature: &str) -> String {
    let (class, method) = parts(signature);
    let simple = class.rsplit('.').next().unwrap_or(&class);
    if method.is_empty() {
        simple.to_string()
    } else {
        format!("{simple}.{method}")
    }
}

/// The methods `name` stands for: a full signature, or `Class.method` /
/// `pkg.Class.method` (every overload).
fn find_methods(
    graph: &Graph,
    option: &'static str,
    name: &str,
) -> Result<BTreeSet<usize>, CallGraphError> {
    let found: BTreeSet<usize> = graph
        .methods
        .iter()
        .enumerate()
        .filter(|(_, m)| {
            if m.as_str() == name {
                return true;
            }
            let (class, method) = parts(m);
            let qualified = format!("{class}.{method}");
            qualified == name
                || qualified
                    .strip_suffix(name)
                    .is_some_and(|head| head.ends_with('.'))
        })
        .map(|(k, _)| k)
        .collect();
    if found.is_empty() {
        let labels: BTreeSet<String> = graph.methods.iter().map(|m| short_label(m)).collect();
        let hint = crate::datalog::quote::did_you_mean(name, labels.iter().map(String::as_str));
        return Err(CallGraphError::NoSuchMethod {
            option,
            name: name.to_string(),
            hint,
        });
    }
    Ok(found)
}

/// The methods within `depth` calls of `start`, following edges forward
/// or backward.
fn within(
    graph: &Graph,
    start: &BTreeSet<usize>,
    forward: bool,
    depth: Option<usize>,
) -> HashMap<usize, usize> {
    let mut next: HashMap<usize, Vec<usize>> = HashMap::new();
    for e in &graph.edges {
        let (a, b) = if forward {
            (e.caller, e.callee)
        } else {
            (e.callee, e.caller)
        };
        next.entry(a).or_default().push(b);
    }
    let mut dist: HashMap<usize, usize> = start.iter().map(|&m| (m, 0)).collect();
    let mut queue: VecDeque<usize> = start.iter().copied().collect();
    while let Some(m) = queue.pop_front() {
        let d = dist[&m];
        if depth.is_some_and(|max| d >= max) {
            continue;
        }
        for &n in next.get(&m).map_or(&[][..], Vec::as_slice) {
            if let std::collections::hash_map::Entry::Vacant(slot) = dist.entry(n) {
                slot.insert(d + 1);
                queue.push_back(n);
            }
        }
    }
    dist
}

/// The edges `filter` keeps, in the graph's order.
fn filter_edges<'g>(
    graph: &'g Graph,
    filter: &GraphFilter,
) -> Result<Vec<&'g SiteEdge>, CallGraphError> {
    let resolve = |option: &'static str, names: &[String]| -> Result<_, CallGraphError> {
        let mut all = BTreeSet::new();
        for n in names {
            all.extend(find_methods(graph, option, n)?);
        }
        Ok(all)
    };
    // An edge a -> b is kept by --from when a is reached in fewer than
    // `depth` calls; by --to when b reaches a target in fewer.
    let from = match filter.from.is_empty() {
        true => None,
        false => Some(within(
            graph,
            &resolve("--from", &filter.from)?,
            true,
            filter.depth,
        )),
    };
    let to = match filter.to.is_empty() {
        true => None,
        false => Some(within(
            graph,
            &resolve("--to", &filter.to)?,
            false,
            filter.depth,
        )),
    };
    let max = filter.depth.unwrap_or(usize::MAX);
    Ok(graph
        .edges
        .iter()
        .filter(|e| {
            from.as_ref()
                .is_none_or(|d| d.get(&e.caller).is_some_and(|&k| k < max))
                && to
                    .as_ref()
                    .is_none_or(|d| d.get(&e.callee).is_some_and(|&k| k < max))
                && (!filter.reflective_only || e.reflective)
                && (filter.packages.is_empty()
                    || filter
                        .packages
                        .iter()
                        .any(|p| in_package(&parts(&graph.methods[e.caller]).0, p)))
        })
        .collect())
}

/// Whether `class` is in package `prefix`: `r` holds `r.Upper` and
/// `r.sub.X`, `org.apache.` holds `org.apache.xalan.Main`.
fn in_package(class: &str, prefix: &str) -> bool {
    match class.strip_prefix(prefix) {
        Some("") => false,
        Some(rest) => prefix.ends_with('.') || rest.starts_with('.'),
        None => false,
    }
}

/// The graph in Graphviz's language, and its number of edges. Methods
/// sit in a cluster per class; classes and packages, when collapsed to,
/// are plain nodes.
fn to_dot(graph: &Graph, kept: &[&SiteEdge], collapse: Collapse) -> (String, u64) {
    // Node keys: the method's signature, or its class or package.
    let key = |m: usize| -> String {
        let sig = &graph.methods[m];
        match collapse {
            Collapse::Method => sig.clone(),
            Collapse::Class => parts(sig).0,
            Collapse::Package => {
                let class = parts(sig).0;
                let p = package_of(&class);
                if p.is_empty() {
                    "(unnamed package)".to_string()
                } else {
                    p.to_string()
                }
            }
        }
    };
    // Edges between distinct nodes, once each; reflective wins.
    let mut edges: BTreeMap<(String, String), bool> = BTreeMap::new();
    let mut order: Vec<(String, String)> = Vec::new();
    let mut nodes: Vec<String> = Vec::new();
    let mut node_ids: HashMap<String, usize> = HashMap::new();
    for e in kept {
        let (a, b) = (key(e.caller), key(e.callee));
        for n in [&a, &b] {
            if !node_ids.contains_key(n) {
                node_ids.insert(n.clone(), nodes.len());
                nodes.push(n.clone());
            }
        }
        if collapse != Collapse::Method && a == b {
            continue;
        }
        let k = (a, b);
        match edges.get_mut(&k) {
            Some(r) => *r |= e.reflective,
            None => {
                edges.insert(k.clone(), e.reflective);
                order.push(k);
            }
        }
    }
    let mut dot = String::new();
    dot.push_str("digraph callgraph {\n");
    dot.push_str("  rankdir=LR;\n");
    dot.push_str("  node [shape=box, style=rounded, fontname=\"monospace\", fontsize=10];\n");
    dot.push_str("  edge [color=\"#555555\", fontname=\"monospace\", fontsize=9];\n");
    dot.push_str(
        "  graph [style=rounded, color=\"#aaaaaa\", fontname=\"monospace\", fontsize=10];\n",
    );
    let node_line = |k: usize, n: &str| -> String {
        let label = match collapse {
            Collapse::Method => short_label(n),
            _ => n.to_string(),
        };
        format!(
            "n{k} [id=\"n{k}\", label={}, tooltip={}];",
            json_string(&label),
            json_string(n)
        )
    };
    if collapse == Collapse::Method {
        // A cluster per class, in the order classes first appear.
        let mut classes: Vec<String> = Vec::new();
        let mut members: HashMap<String, Vec<usize>> = HashMap::new();
        for (k, n) in nodes.iter().enumerate() {
            let class = parts(n).0;
            if !members.contains_key(&class) {
                classes.push(class.clone());
            }
            members.entry(class).or_default().push(k);
        }
        for (c, class) in classes.iter().enumerate() {
            dot.push_str(&format!(
                "  subgraph cluster_{c} {{\n    label={};\n",
                json_string(class)
            ));
            for &k in &members[class] {
                dot.push_str(&format!("    {}\n", node_line(k, &nodes[k])));
            }
            dot.push_str("  }\n");
        }
    } else {
        for (k, n) in nodes.iter().enumerate() {
            dot.push_str(&format!("  {}\n", node_line(k, n)));
        }
    }
    for k in &order {
        let style = if edges[k] {
            " [style=dashed, color=red, fontcolor=red, label=\"reflective\"]"
        } else {
            ""
        };
        dot.push_str(&format!(
            "  n{} -> n{}{style};\n",
            node_ids[&k.0], node_ids[&k.1]
        ));
    }
    dot.push_str("}\n");
    (dot, order.len() as u64)
}

/// The DOT drawn as SVG by Graphviz's `dot` (from `$REFRACT_DOT`, else
/// `dot` on the PATH).
fn render_svg(dot: &str) -> Result<String, CallGraphError> {
    let program = std::env::var_os("REFRACT_DOT").unwrap_or_else(|| "dot".into());
    let child = std::process::Command::new(&program)
        .arg("-Tsvg")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn();
    let mut child = child.map_err(|e| {
        CallGraphError::Graphviz(format!(
            "--format svg and html draw the graph with Graphviz's `dot`, which cannot be run \
             ({e}); install Graphviz (Debian: apt-get install graphviz), or export \
             --format dot"
        ))
    })?;
    // Graphviz reads all of its input before it writes, so writing first
    // cannot deadlock.
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(dot.as_bytes())?;
    }
    let output = child.wait_with_output()?;
    if !output.status.success() {
        return Err(CallGraphError::Graphviz(format!(
            "Graphviz's dot failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        )));
    }
    let svg = String::from_utf8_lossy(&output.stdout);
    // The page embeds the <svg> element itself, without the XML prolog.
    let start = svg.find("<svg").unwrap_or(0);
    Ok(svg[start..].to_string())
}

/// The page around the picture: zoom with the wheel, pan by dragging,
/// `0` to fit, and a search box that highlights matching methods.
fn write_html(svg: &str, edges: u64, out: &mut dyn Write) -> io::Result<()> {
    write!(
        out,
        r##"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>refract call graph</title>
<style>
  html, body {{ margin: 0; height: 100%; font: 14px sans-serif; }}
  #bar {{ padding: 6px 10px; border-bottom: 1px solid #ccc; background: #f7f7f7; }}
  #bar input {{ width: 24em; }}
  #view {{ position: absolute; top: 38px; bottom: 0; left: 0; right: 0; overflow: hidden; cursor: grab; }}
  #view svg {{ width: 100%; height: 100%; }}
  .hit polygon, .hit path {{ fill: #ffe066; }}
</style>
</head>
<body>
<div id="bar">
  <input id="search" type="search" placeholder="search methods (name or signature)">
  <span id="found"></span>
  <span>&middot; {edges} edges &middot; wheel: zoom, drag: pan, 0: fit</span>
</div>
<div id="view">
{svg}
</div>
<script>
(function () {{
  var svg = document.querySelector("#view svg");
  var view = document.getElementById("view");
  var box = svg.viewBox.baseVal;
  var home = {{ x: box.x, y: box.y, w: box.width, h: box.height }};
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  function fit() {{ box.x = home.x; box.y = home.y; box.width = home.w; box.height = home.h; }}
  view.addEventListener("wheel", function (e) {{
    e.preventDefault();
    var r = svg.getBoundingClientRect();
    var f = e.deltaY > 0 ? 1.2 : 1 / 1.2;
    var px = box.x + (e.clientX - r.left) / r.width * box.width;
    var py = box.y + (e.clientY - r.top) / r.height * box.height;
    box.x = px - (px - box.x) * f; box.y = py - (py - box.y) * f;
    box.width *= f; box.height *= f;
  }}, {{ passive: false }});
  var drag = null;
  view.addEventListener("mousedown", function (e) {{ drag = {{ x: e.clientX, y: e.clientY }}; }});
  window.addEventListener("mouseup", function () {{ drag = null; }});
  window.addEventListener("mousemove", function (e) {{
    if (!drag) return;
    var r = svg.getBoundingClientRect();
    box.x -= (e.clientX - drag.x) / r.width * box.width;
    box.y -= (e.clientY - drag.y) / r.height * box.height;
    drag = {{ x: e.clientX, y: e.clientY }};
  }});
  window.addEventListener("keydown", function (e) {{ if (e.key === "0" && e.target.tagName !== "INPUT") fit(); }});
  var nodes = Array.prototype.slice.call(svg.querySelectorAll("g.node"));
  var search = document.getElementById("search");
  var found = document.getElementById("found");
  function text(n) {{
    var a = n.querySelector("a");
    var title = a ? (a.getAttribute("xlink:title") || a.getAttribute("title") || "") : "";
    return (n.textContent + " " + title).toLowerCase();
  }}
  search.addEventListener("input", function () {{
    var q = search.value.toLowerCase();
    var hits = 0;
    nodes.forEach(function (n) {{
      var hit = q !== "" && text(n).indexOf(q) >= 0;
      n.classList.toggle("hit", hit);
      if (hit) hits++;
    }});
    found.textContent = q === "" ? "" : hits + " found";
  }});
  document.body.setAttribute("data-nodes", String(nodes.length));
}})();
</script>
</body>
</html>
"##
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_give_classes_methods_and_short_labels() {
        let sig = "<a.b.C$D: java.lang.String run(java.lang.String)>";
        assert_eq!(parts(sig), ("a.b.C$D".to_string(), "run".to_string()));
        assert_eq!(short_label(sig), "C$D.run");
        assert_eq!(short_label("<Invoke: void <init>()>"), "Invoke.<init>");
        assert_eq!(package_of("a.b.C"), "a.b");
        assert!(in_package("r.Upper", "r"));
        assert!(in_package("org.apache.X", "org.apache."));
        assert!(!in_package("rx.Upper", "r"));
        assert!(!in_package("r", "r"));
    }
}
