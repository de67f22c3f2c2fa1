#!/bin/sh
# Rebuilds the compiled fixtures from their sources with javac.
# Tests use the committed classes and never need javac; run this after
# editing a fixture source, and commit the result.
#
#   fixtures/src/<set>/...java  ->  fixtures/classes/<set>/...class
#   fixtures/src/<set>/<resource> ->  fixtures/classes/<set>/<resource>
#   (every file but .java sources and .spec specifications)
#
# Classes are compiled for Java 17 with debugging information (lines).
# A set whose directory holds `javac.options` (the JDK's internal packages
# it calls, `--add-exports ...`) is compiled with those options and
# `-source 17 -target 17`, since javac refuses `--add-exports` of a
# system module with `--release`; run this with javac 17 then.
set -eu
cd "$(dirname "$0")/.."
JAVAC=${JAVAC:-javac}
for set in fixtures/src/*/; do
    name=$(basename "$set")
    out=fixtures/classes/$name
    rm -rf "$out"
    mkdir -p "$out"
    release="--release 17"
    if [ -f "$set/javac.options" ]; then
        release="-source 17 -target 17 $(cat "$set/javac.options")"
    fi
    # shellcheck disable=SC2046,SC2086
    "$JAVAC" $release -g -nowarn -Xlint:-deprecation -d "$out" $(find "$set" -name '*.java' | sort)
    # Resources (META-INF/services files, .properties) travel with the
    # classes, at the same paths.
    (cd "$set" && find . -type f ! -name '*.java' ! -name '*.spec' ! -name javac.options -exec cp --parents {} "$OLDPWD/$out" \;)
    echo "built $out"
done
