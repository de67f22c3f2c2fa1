#!/usr/bin/env bash
# Benchmarks `refract facts` on the local JDK's jmods:
#   1. java.base.jmod alone (target: under 5 s and 1 GB),
#   2. every jmod of the JDK (target: under 30 s).
# Prints each run's wall time and peak memory, then the medians.
#
#   scripts/bench-facts.sh [RUNS] [JDK_HOME]
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
    local label=$1; shift
    local times=() mems=()
    for r in $(seq "$runs"); do
        /usr/bin/time -f "%e %M" -o "$out/time" "$bin" facts "$@" --jdk none -q -o "$out/db"
        read -r t m < "$out/time"
        echo "$label run $r: ${t}s, peak ${m} KB"
        times+=("$t"); mems+=("$m")
    done
    echo "$label median: $(printf '%s\n' "${times[@]}" | median)s, peak $(printf '%s\n' "${mems[@]}" | median) KB"
}

echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GB; JDK: $home"
bench "java.base" "$home/jmods/java.base.jmod"
bench "whole JDK" "$home"/jmods/*.jmod
