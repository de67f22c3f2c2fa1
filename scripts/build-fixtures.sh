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
set -eu
cd "$(dirname "$0")/.."
JAVAC=${JAVAC:-javac}
for set in fixtures/src/*/; do
    name=$(basename "$set")
    out=fixtures/classes/$name
    rm -rf "$out"
    mkdir -p "$out"
    # shellcheck disable=SC2046
    "$JAVAC" --release 17 -g -nowarn -Xlint:-deprecation -d "$out" $(find "$set" -name '*.java' | sort)
    # Resources (META-INF/services files, .properties) travel with the
    # classes, at the same paths.
    (cd "$set" && find . -type f ! -name '*.java' ! -name '*.spec' -exec cp --parents {} "$OLDPWD/$out" \;)
    echo "built $out"
done
