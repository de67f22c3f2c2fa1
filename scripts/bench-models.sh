#!/usr/bin/env bash
# What each model of queries/models/ costs and finds: the quick start
# (the README's fixture Invoke against the local JDK) with all models, then
# with each one switched off (`--no-model`), on the same facts.
#
#   scripts/bench-models.sh [VARIANT] [MODEL...]
#
# VARIANT defaults to casts (the quick start's), the models to all that
# `refract analyze --help` lists. Per run it prints the wall time, the peak
# memory, the reached methods and the exported reflective targets; the
# last two do not depend on the machine. Runs one after another; nothing
# else should run meanwhile for the times to mean anything.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (Debian package time)" >&2; exit 2; }
variant=${1:-casts}
shift || true
models=("$@")
if [ ${#models[@]} -eq 0 ]; then
    models=(privileged field-accessors arrays services resources bundles proxies
        method-handles jvm-callbacks annotations launcher configuration)
fi
cargo build --release -q
bin=${CARGO_TARGET_DIR:-$PWD/target}/release/refract
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# run LABEL [OPTION...]: one analysis, one row.
run() {
    local label=$1 db=$work/db
    shift
    rm -rf "$db"
    /usr/bin/time -f '%e %M' -o "$work/time" "$bin" analyze fixtures/classes/reflection \
        --main Invoke --jdk auto --reflection "$variant" -q -o "$db" "$@" > /dev/null
    local wall peak reach targets
    read -r wall peak < "$work/time"
    reach=$("$bin" export relation reach "$db" | tail -n +2 | wc -l)
    targets=$("$bin" export targets "$db" | tail -n +2 | wc -l)
    printf '%-24s %9.1fs %8dMB %8d %8d\n' "$label" "$wall" $((peak / 1024)) "$reach" "$targets"
}

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%d GB", $2/1048576}' /proc/meminfo); $(git rev-parse --short HEAD); quick start, $variant"
printf '%-24s %10s %10s %8s %8s\n' "models" "wall" "peak" "reached" "targets"
run "all"
for m in "${models[@]}"; do
    run "without $m" --no-model "$m"
done
