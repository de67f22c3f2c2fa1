#!/usr/bin/env bash
# Benchmark: bddbddb's C pointer analysis of enscript (c_pa.datalog).
# Prints wall time, CPU time and peak memory of each run, the median wall
# time, and the largest BDD a rule produced.
#
#   scripts/bench-bddbddb.sh [RUNS]      (default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
program=tests/data/bddbddb/c_pa.datalog
[ -f "$program" ] || { echo "missing $program" >&2; exit 2; }
cargo build --release --quiet
bin=${CARGO_TARGET_DIR:-$PWD/target}/release/refract
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(uname -m)"
walls=()
for i in $(seq 1 "$runs"); do
  out=$( { /usr/bin/time -f "TIME %e %U %S %M" "$bin" run "$program" --stats >/dev/null; } 2>&1 )
  read -r wall user sys peak <<<"$(grep '^TIME' <<<"$out" | cut -d' ' -f2-)"
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN{printf "%.2f", u+s}')
  maxnodes=$(awk '$1 ~ /^[0-9.]+$/ && $3 ~ /^[0-9]+$/ {if ($3>m) m=$3} END{print m+0}' <<<"$out")
  solve=$(grep -o 'solve: [0-9.]*s' <<<"$out")
  echo "run $i: wall ${wall}s  cpu ${cpu}s  ${solve}  peak $((peak / 1024)) MB  largest rule result ${maxnodes} nodes"
  walls+=("$wall")
done
median=$(printf '%s\n' "${walls[@]}" | sort -n | awk '{a[NR]=$1} END{print (NR%2)? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}')
echo "median wall: ${median}s over $runs runs (bddbddb: 47 s wall, 244 MB)"
