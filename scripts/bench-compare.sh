#!/usr/bin/env bash
# Compares the working tree against REV on the benchmarks, side by side:
# REV is built in a temporary worktree, then the two binaries run in turn
# on each benchmark, so that drift in the machine's speed hits both alike.
# Each pair runs the other side first (A B, B A, A B, ...): on the 2-core
# EPYC a run's place in its pair was worth a few percent, whichever
# binary it was (freetts, three pairs each way with farm-bench: the
# second run about 4.5 % faster; the quick start, two pairs each way:
# the first about 2 % faster; forty-seventh session). Prints, per
# benchmark, each side's median wall time and peak memory
# (/usr/bin/time), the size on disk of the database an analysis wrote
# (its last run), and the median of the per-pair ratios (working tree /
# REV: below 1 is faster).
#
#   scripts/bench-compare.sh REV [RUNS] [BENCH...]
#   scripts/bench-compare.sh HEAD~1 5 c_pa pa
#
# Benchmarks (default: c_pa pa quickstart quickstart-infer):
#   c_pa        bddbddb's C points-to analysis (tests/data/bddbddb)
#   pa          bddbddb's Java points-to analysis
#   quickstart  the README's fixture (Invoke) against the local JDK, casts
#   quickstart-infer
#               the same under infer, the default variant
#   freetts     Debian's freetts against the JDK, points-to (installed if
#               missing)
# Each run's outputs are compared between the two sides (printsize
# figures, or the exported targets): a difference is reported.
set -euo pipefail
cd "$(dirname "$0")/.."
rev=${1:?usage: scripts/bench-compare.sh REV [RUNS] [BENCH...]}
runs=${2:-5}
shift 2 || shift $#
benches=("$@")
[ ${#benches[@]} -gt 0 ] || benches=(c_pa pa quickstart quickstart-infer)
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (Debian package time)" >&2; exit 2; }

work=$(mktemp -d)
trap 'git worktree remove --force "$work/base" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
git worktree add --detach "$work/base" "$rev" >/dev/null 2>&1
echo "building $rev and the working tree..." >&2
(cd "$work/base" && CARGO_TARGET_DIR="$work/target-base" cargo build --release -q)
cargo build --release -q
A=${CARGO_TARGET_DIR:-$PWD/target}/release/refract
B=$work/target-base/release/refract
root=$PWD

if [[ " ${benches[*]} " == *" freetts "* ]] && [ ! -f /usr/share/java/freetts-1.2.2.jar ]; then
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get update -q && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends freetts
fi

# run BIN BENCH OUT: runs one benchmark, its result (what is compared) in OUT.
run() {
    local bin=$1 bench=$2 out=$3 db=$work/db-$RANDOM
    case $bench in
        c_pa) (cd "$root/tests/data/bddbddb" && "$bin" run c_pa.datalog) > "$out" ;;
        pa) (cd "$root/tests/data/bddbddb/pa" && "$bin" run pa.datalog) > "$out" ;;
        quickstart|quickstart-infer)
            local variant=casts
            [ "$bench" = quickstart ] || variant=infer
            "$bin" analyze "$root/fixtures/classes/reflection" --main Invoke --jdk auto \
                --reflection "$variant" -q -o "$db"
            du -sk "$db" | cut -f1 > "$out.db"
            "$bin" export targets "$db" > "$out"; rm -rf "$db" ;;
        freetts)
            # shellcheck disable=SC2046
            "$bin" analyze $(ls /usr/share/java/freetts-1.2.2.jar /usr/share/java/cmu*-1.2.2.jar /usr/share/java/en_us-1.2.2.jar) \
                --main com.sun.speech.freetts.FreeTTS --jdk auto --reflection points-to -q -o "$db"
            du -sk "$db" | cut -f1 > "$out.db"
            "$bin" export targets "$db" > "$out"; rm -rf "$db" ;;
        *) echo "unknown benchmark $bench" >&2; exit 2 ;;
    esac
}

median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2}'; }

echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GB; A = working tree ($(git rev-parse --short HEAD)$(git diff --quiet || echo +changes)), B = $rev ($(git rev-parse --short "$rev")); $runs pairs"
printf '%-16s %10s %10s %10s %10s %9s %9s %8s  %s\n' bench "A wall" "B wall" "A peak" "B peak" "A db" "B db" "A/B" "results"
for bench in "${benches[@]}"; do
    : > "$work/a.w"; : > "$work/b.w"; : > "$work/a.m"; : > "$work/b.m"; : > "$work/r"
    rm -f "$work/out-a.db" "$work/out-b.db"
    same=same
    for pair in $(seq 1 "$runs"); do
        order="a b"; [ $((pair % 2)) -eq 0 ] && order="b a"
        for side in $order; do
            bin=$A; [ $side = b ] && bin=$B
            /usr/bin/time -f "%e %M" -o "$work/t" bash -c "$(declare -f run); root=$root work=$work; run $bin $bench $work/out-$side"
            read -r wall peak < "$work/t"
            echo "$wall" >> "$work/$side.w"; echo "$peak" >> "$work/$side.m"
        done
        paste "$work/a.w" "$work/b.w" | tail -1 | awk '{printf "%.4f\n", $1/$2}' >> "$work/r"
        cmp -s "$work/out-a" "$work/out-b" || same=DIFFERENT
    done
    # The database's size on disk (the last run's), for the analyses.
    dbsize() { if [ -f "$1" ]; then echo "$(( $(cat "$1") / 1024 ))MB"; else echo -; fi; }
    printf '%-16s %9ss %9ss %8sMB %8sMB %9s %9s %8s  %s\n' "$bench" \
        "$(median < "$work/a.w")" "$(median < "$work/b.w")" \
        "$(( $(median < "$work/a.m" | cut -d. -f1) / 1024 ))" "$(( $(median < "$work/b.m" | cut -d. -f1) / 1024 ))" \
        "$(dbsize "$work/out-a.db")" "$(dbsize "$work/out-b.db")" \
        "$(median < "$work/r")" "$same"
done
