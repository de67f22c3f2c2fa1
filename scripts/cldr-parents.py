#!/usr/bin/env python3
"""Rebuilds queries/models/cldr-parents.tsv from a JDK's CLDR data.

The JDK's CLDR locale provider loads a locale's bundles, then those of
its CLDR parent (en_GB: en_001, then en), which is not the locale with
its last part dropped. java.base keeps the parents in the static
initialiser of sun.util.cldr.CLDRBaseLocaleDataMetaInfo:
parentLocalesMap.put(Locale.forLanguageTag(parent), new String[] {
children... }). This reads them with javap (a JDK 17 is the reference)
and prints the table: a comment, then `child<TAB>parent` in the spelling
of bundle names (`en_GB`), sorted. Children of the root locale are left
out: their bundles' own names already say where their search stops.

    scripts/cldr-parents.py [JAVAP] > queries/models/cldr-parents.tsv
"""
import re
import subprocess
import sys

javap = sys.argv[1] if len(sys.argv) > 1 else "javap"
listing = subprocess.run(
    [javap, "-c", "-constants", "-p", "--module", "java.base",
     "sun.util.cldr.CLDRBaseLocaleDataMetaInfo"],
    capture_output=True, text=True, check=True).stdout
version = subprocess.run([javap, "-version"], capture_output=True,
                         text=True, check=True).stdout.strip()
rows = []
in_clinit = False
parent = None
children = None
for line in listing.splitlines():
    if line.strip() == "static {};":
        in_clinit = True
    if not in_clinit:
        continue
    if "getstatic" in line and "Field parentLocalesMap" in line:
        parent, children = None, []
        continue
    if children is None:
        continue
    string = re.search(r"ldc(_w)? .*// String ?(.*)$", line)
    if string and parent is None:
        parent = string.group(2)
    elif string:
        children.append(string.group(2))
    elif "Map.put" in line:
        rows += [(c, parent) for c in children if c and parent]
        children = None
print("# CLDR's parent locales: the JDK's CLDR locale provider loads the")
print("# bundles of a locale, then those of its parent here (en_GB, en_001,")
print("# en), not the locale with its last part dropped. Read by")
print("# src/facts/locale_variants.rs; rebuilt by scripts/cldr-parents.py")
print(f"# from the JDK's CLDRBaseLocaleDataMetaInfo (javap {version}).")
print("#")
print("# child<TAB>parent")
for child, parent in sorted(rows):
    print(f"{child.replace('-', '_')}\t{parent.replace('-', '_')}")
