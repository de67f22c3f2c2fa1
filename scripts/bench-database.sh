#!/usr/bin/env bash
# Benchmarks opening and exporting a large database: the facts of the
# JDK's java.base and java.desktop modules (about 1.3 million mV tuples).
#   1. open + `refract export relation mV` (1.3 M tuples, streamed);
#   2. open + count of a derived relation of 252 M tuples in a batch
#      session (big(m, v2, v) :- mV(m, v), mV(m, v2));
#   3. the same, exported to /dev/null: streaming means the peak memory
#      of 3 equals that of 2, whatever the tuple count.
# Prints each run's wall time and peak memory, then the medians.
#
#   scripts/bench-database.sh [RUNS] [JDK_HOME]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
home=${2:-${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}}
cargo build --release -q
bin=${CARGO_TARGET_DIR:-$PWD/target}/release/refract
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

bench() {
    local label=$1 input=$2; shift 2
    local times=() mems=()
    for r in $(seq "$runs"); do
        /usr/bin/time -f "%e %M" -o "$out/time" "$@" < "$input" > "$out/stdout"
        read -r t m < "$out/time"
        echo "$label run $r: ${t}s, peak ${m} KB ($(tail -1 "$out/stdout" | cut -c1-60))"
        times+=("$t"); mems+=("$m")
    done
    echo "$label median: $(printf '%s\n' "${times[@]}" | median)s, peak $(printf '%s\n' "${mems[@]}" | median) KB"
}

echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GB; JDK: $home"
"$bin" facts "$home/jmods/java.base.jmod" "$home/jmods/java.desktop.jmod" --jdk none -q -o "$out/db"
echo "database: $(du -sh "$out/db" | cut -f1)"
printf 'big(m, v2, v) :- mV(m, v), mV(m, v2).\n.count big\n' > "$out/count.in"
printf 'big(m, v2, v) :- mV(m, v), mV(m, v2).\n.export big /dev/null\n' > "$out/export.in"
bench "export mV (1.3M tuples)" /dev/null "$bin" export relation mV "$out/db"
bench "count big (252M tuples)" "$out/count.in" "$bin" repl "$out/db"
bench "export big (252M tuples)" "$out/export.in" "$bin" repl "$out/db"
