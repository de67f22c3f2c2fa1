#!/usr/bin/env bash
# How the analysis's time and memory grow with the program: analyses
# programs of growing size against the whole JDK, one after the other, and
# prints one row each (application classes, reachable methods, wall
# time, peak memory, database size), sorted by reachable methods, then a
# plot of wall time against reachable methods.
#
# The programs: `quickstart` (the README's five-class fixture, --main
# Invoke), `java.base` (the JDK's java.base module alone with --roots
# library: every public method a root, no application), and the programs
# of bench/traces/ (Debian packages, installed by scripts/bench-recall.sh).
#
#   scripts/bench-scaling.sh [--variant V] [--timeout SECONDS] [PROGRAM...]
#   scripts/bench-scaling.sh quickstart freetts xalan java.base
#   REFRACT_BENCH_DIR=/tmp/scaling scripts/bench-scaling.sh
#       # keep each run's report and /usr/bin/time output there;
#       # REFRACT_BENCH_KEEP=1 keeps the databases too
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
variant=casts
limit=1800
programs=()
while [ $# -gt 0 ]; do
    case $1 in
        --variant) variant=$2; shift ;;
        --timeout) limit=$2; shift ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        -*) echo "bench-scaling: unknown option $1" >&2; exit 2 ;;
        *) programs+=("$1") ;;
    esac
    shift
done
[ ${#programs[@]} -gt 0 ] || programs=(quickstart freetts hsqldb xalan jfreechart java.base)
command -v /usr/bin/time >/dev/null || { echo "bench-scaling: needs /usr/bin/time (Debian package time)" >&2; exit 2; }
cargo build --release -q
bin=${CARGO_TARGET_DIR:-$root/target}/release/refract
out=${REFRACT_BENCH_DIR:-$(mktemp -d)}
mkdir -p "$out"
[ -n "${REFRACT_BENCH_DIR:-}" ] || trap 'rm -rf "$out"' EXIT
home=${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}

# The arguments of `refract analyze` for one program (one per line).
analyze_args() {
    case $1 in
        quickstart) printf '%s\n' "$root/fixtures/classes/reflection" --main Invoke ;;
        java.base) printf '%s\n' "$home/jmods/java.base.jmod" --roots library --jdk none ;;
        *)
            [ -f "bench/traces/$1/program" ] || { echo "bench-scaling: no program $1 (bench/traces/$1/program)" >&2; exit 2; }
            local packages=() classpath=() main="" jvm=() args=() e
            # shellcheck disable=SC1090
            source "bench/traces/$1/program"
            for e in "${classpath[@]}"; do
                case $e in
                    *.jar)
                        [ -f "/usr/share/java/$e" ] || { echo "bench-scaling: /usr/share/java/$e is missing: run scripts/bench-recall.sh $1 once" >&2; exit 2; }
                        echo "/usr/share/java/$e" ;;
                    *) echo "$root/bench/traces/$1/$e" ;;
                esac
            done
            printf '%s\n' --main "$main" ;;
    esac
}

printf '%-12s %8s %9s %9s %9s %9s\n' program classes methods wall peak database
rows=()
for p in "${programs[@]}"; do
    args_text=$(analyze_args "$p")
    mapfile -t a <<< "$args_text"
    db=$out/$p.db
    status=ok
    # On timeout, SIGINT: refract cancels the work as for Ctrl-C and
    # removes its staged database; -k 60 kills it if it has not stopped a
    # minute later (the next run into that directory removes what is left).
    timeout -s INT -k 60 "$limit" /usr/bin/time -f "%e %M" -o "$out/$p.time" \
        "$bin" analyze "${a[@]}" --reflection "$variant" -o "$db" > "$out/$p.txt" 2> "$out/$p.log" || status=failed
    if [ $status = failed ]; then
        printf '%-12s %s\n' "$p" "failed or timed out after ${limit}s (see $out/$p.log)"
        continue
    fi
    read -r wall peak < "$out/$p.time"
    # "call graph: 8856 classes, 40809 methods"
    read -r classes methods < <(sed -n 's/^call graph: \([0-9]*\) classes, \([0-9]*\) methods$/\1 \2/p' "$out/$p.txt")
    size=$(du -sm "$db" | cut -f1)
    [ -n "${REFRACT_BENCH_KEEP:-}" ] || rm -rf "$db"
    row=$(printf '%-12s %8s %9s %8ss %7sMB %7sMB' "$p" "$classes" "$methods" "$wall" "$((peak / 1024))" "$size")
    echo "$row"
    rows+=("$methods $wall $p")
done

# Wall time against reachable methods, one bar per program.
echo
echo "wall time against reachable methods ($variant; one '#' is 10 s)"
printf '%s\n' "${rows[@]}" | sort -n | while read -r methods wall p; do
    bar=$(awk -v w="$wall" 'BEGIN { n = int(w / 10 + 0.5); s = ""; for (i = 0; i < n; i++) s = s "#"; print s }')
    printf '%9s %-12s %6.0fs %s\n' "$methods" "$p" "$wall" "$bar"
done
