# A small Jython program: Python modules, and Java classes used from Python.
import re, json, os, collections
from java.util import ArrayList, HashMap
from java.lang import StringBuilder

words = re.findall(r"[a-z]+", "points-to analysis with an on-the-fly call graph")
counts = collections.Counter(words)
print(json.dumps(sorted(counts.items())))
l = ArrayList()
for w in words:
    l.add(w.upper())
m = HashMap()
m.put("size", l.size())
b = StringBuilder()
for w in l:
    b.append(w).append(" ")
print("%s %d %s" % (b.toString().strip(), m.get("size"), os.path.basename("/a/b/c.txt")))
