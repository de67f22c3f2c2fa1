#!/usr/bin/env python3
"""Which calls open the most reachable code: the gateways of a database.

Usage: scripts/reach-gateways.py DB ROOT_METHOD [N] [--refract BIN]

Walks the analysis's call graph breadth first from ROOT_METHOD (a Soot
signature, such as '<Invoke: void main(java.lang.String[])>'), with the
edges that make code reachable in queries/pointsto.dl: call edges
(`refract export callgraph`), a method's static field accesses and its
own class (both initialise a class: staticField, declaresField), the
allocations in it (hT's `<method>[bci] new T` objects), and a class's
initialisation to its <clinit>. Each method reached is charged to the
edge that first reached it, and the N nodes with the most methods below
them in that tree are printed: methods reached, depth, the node, and the
edge that reached it. A gateway with a large count is a call through
which most of the reachable code comes (a pooled toString(), a stream
pipeline), the first place to look for a model or for contexts.

The tree is one shortest-path tree: code reachable through several
gateways is charged to the first found, so a count is what that edge
alone opens only where no other path exists. Classes initialised for
other reasons (objects made by reflection, supertypes) are not followed.
"""
import collections
import subprocess
import sys


def export(refract, args):
    """The rows of a `refract export` command, without the header."""
    out = subprocess.run([refract, "export", *args], check=True,
                         capture_output=True, text=True).stdout
    return [line.split("\t") for line in out.splitlines()[1:]]


def main():
    args = sys.argv[1:]
    refract = "refract"
    if "--refract" in args:
        i = args.index("--refract")
        refract = args[i + 1]
        del args[i:i + 2]
    if len(args) < 2:
        sys.exit(__doc__)
    db, root = args[0], args[1]
    n = int(args[2]) if len(args) > 2 else 40

    edges = collections.defaultdict(list)
    for caller, site, callee, kind in export(refract, ["callgraph", db]):
        edges[("M", caller)].append((("M", callee), f"{kind} {site}"))
    declarer = {f: t for t, f in export(refract, ["relation", "declaresField", db])}
    for m, f in export(refract, ["relation", "staticField", db]):
        if f in declarer:
            edges[("M", m)].append((("C", declarer[f]), f"static {f}"))
    for t, m in export(refract, ["relation", "clinit", db]):
        edges[("C", t)].append((("M", m), "clinit"))
    for h, t in export(refract, ["relation", "hT", db]):
        end = h.find(">[")
        if h.startswith("<") and end > 0 and "] new " in h:
            edges[("M", h[:end + 1])].append((("C", t), f"new {h}"))
    for node in list(edges):
        if node[0] == "M":
            edges[node].append((("C", node[1][1:node[1].index(":")]), "own class"))

    start = ("M", root)
    depth, parent = {start: 0}, {}
    queue = collections.deque([start])
    while queue:
        node = queue.popleft()
        for nxt, why in edges[node]:
            if nxt not in depth:
                depth[nxt] = depth[node] + 1
                parent[nxt] = (node, why)
                queue.append(nxt)
    children = collections.defaultdict(list)
    for node, (up, _) in parent.items():
        children[up].append(node)
    below = {}
    for node in sorted(depth, key=lambda x: -depth[x]):
        below[node] = (node[0] == "M") + sum(below[c] for c in children[node])
    methods = sum(1 for k in depth if k[0] == "M")
    classes = sum(1 for k in depth if k[0] == "C")
    print(f"reached from {root}: {methods} methods, {classes} classes")
    for node in sorted(depth, key=lambda x: -below[x])[:n]:
        why = parent.get(node, (None, ""))[1]
        print(f"{below[node]}\t{depth[node]}\t{node[1]}\t{why}")


if __name__ == "__main__":
    main()
