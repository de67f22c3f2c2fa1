#!/usr/bin/env bash
# Recall of the reflection analysis on real programs: the figure that the
# reflection work is measured by.
#
# Each program under bench/traces/<program>/ is a Debian package and a
# small input, described by its `program` file (packages, class path, main
# class, JVM options and arguments). Its `trace.tsv` is one run traced by
# ../shared/tools/reftrace, committed so that every machine measures
# against the same run. This script
#   1. installs the packages that are missing (and jq);
#   2. traces the programs whose trace is missing, or all with --retrace
#      (needs javac and ../shared/tools/reftrace); driver sources in
#      driver/ are compiled into classes/ first;
#   3. analyses each program against the JDK with every variant (`sound`
#      gets the trace itself as its specification: the configuration of
#      Doop's --tamiflex, which shows what no specification can fix);
#   4. runs `refract check` and prints one row per program and variant:
#      recall for application and JDK callers, the static edges at the
#      traced sites, wall time and peak memory; then the recall per API
#      over all programs, per variant.
#
#   scripts/bench-recall.sh [--retrace] [--timeout SECONDS] [--variants "V..."] [PROGRAM...]
#   scripts/bench-recall.sh --timeout 300 freetts xalan
#   scripts/bench-recall.sh --variants "infer probe" xalan
#       # probe is `--reflection infer --probe` (SOLAR's PROBE)
#   REFRACT_BENCH_OPTIONS=--member-arrays scripts/bench-recall.sh
#       # more `refract analyze` options for every run
#   REFRACT_BENCH_DIR=/tmp/recall scripts/bench-recall.sh
#       # keep the reports (PROGRAM-VARIANT.json and .txt) and logs there;
#       # REFRACT_BENCH_KEEP=1 keeps the databases too (about 1 GB each)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
retrace=0
limit=900
variants=(none local points-to casts sound infer)
programs=()
while [ $# -gt 0 ]; do
    case $1 in
        --retrace) retrace=1 ;;
        --timeout) limit=$2; shift ;;
        --variants) read -r -a variants <<< "$2"; shift ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        -*) echo "bench-recall: unknown option $1" >&2; exit 2 ;;
        *) programs+=("$1") ;;
    esac
    shift
done
if [ ${#programs[@]} -eq 0 ]; then
    for d in bench/traces/*/; do programs+=("$(basename "$d")"); done
fi
read -r -a extra <<< "${REFRACT_BENCH_OPTIONS:-}"
reftrace=${REFTRACE:-$root/../shared/tools/reftrace/reftrace.sh}

# The program's description: packages, classpath, main, jvm, args.
load() {
    packages=() classpath=() main="" jvm=() args=()
    [ -f "bench/traces/$1/program" ] || { echo "bench-recall: no bench/traces/$1/program" >&2; exit 2; }
    # shellcheck disable=SC1090
    source "bench/traces/$1/program"
}
# The class path as paths: jars in /usr/share/java, directories in the
# program's own directory.
class_path() {
    local e
    for e in "${classpath[@]}"; do
        case $e in
            *.jar) echo "/usr/share/java/$e" ;;
            *) echo "$root/bench/traces/$1/$e" ;;
        esac
    done
}

# 1. Packages.
need=()
for p in "${programs[@]}"; do
    load "$p"
    for pkg in "${packages[@]}"; do
        dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
    done
done
command -v jq >/dev/null || need+=(jq)
if [ ${#need[@]} -gt 0 ]; then
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get update -q
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}"
fi

# 2. Traces.
for p in "${programs[@]}"; do
    load "$p"
    dir=bench/traces/$p
    [ $retrace = 1 ] || [ ! -f "$dir/trace.tsv" ] || continue
    cpath=$(class_path "$p" | paste -sd: -)
    if [ -d "$dir/driver" ]; then
        rm -rf "$dir/classes" && mkdir -p "$dir/classes"
        javac --release 17 -g -nowarn -cp "$cpath" -d "$dir/classes" "$dir"/driver/*.java
    fi
    scratch=$(mktemp -d)
    cp -r "$dir"/. "$scratch"
    echo "== tracing $p" >&2
    (cd "$scratch" && "$reftrace" --out "$root/$dir/trace.tsv" -cp "$cpath" "${jvm[@]}" "$main" "${args[@]}") >&2
    rm -rf "$scratch"
done

# found/traced and the ratio, or - when nothing was traced.
ratio() {
    if [ "$2" = 0 ]; then echo -; else awk -v f="$1" -v t="$2" 'BEGIN { printf "%d/%d %.2f", f, t, f / t }'; fi
}

# 3 and 4. Analyses and checks.
cargo build --release -q
bin=${CARGO_TARGET_DIR:-$root/target}/release/refract
out=${REFRACT_BENCH_DIR:-$(mktemp -d)}
mkdir -p "$out"
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GB; $(java -version 2>&1 | head -1); commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo +changes); $(date -u +%Y-%m-%d); timeout ${limit} s; reports in $out"
printf '| %s | %s | %s | %s | %s | %s | %s |\n' program variant "application recall" "JDK recall" "static edges at traced sites" wall "peak"
printf '|%s|%s|%s|%s|%s|%s|%s|\n' --- --- --- --- --- --- ---
for p in "${programs[@]}"; do
    load "$p"
    dir=bench/traces/$p
    mapfile -t cpath < <(class_path "$p")
    for v in "${variants[@]}"; do
        run=$out/$p-$v
        spec=()
        [ "$v" != sound ] || spec=(--spec "$dir/trace.tsv")
        # `probe` is `infer --probe` (SOLAR's PROBE).
        how=(--reflection "$v")
        [ "$v" != probe ] || how=(--reflection infer --probe)
        status=0
        # On timeout, SIGINT: refract cancels the work as for Ctrl-C and
        # removes its staged database; -k 60 kills it if it has not stopped a
        # minute later (the next run into that directory removes what is left).
        /usr/bin/time -f '%e %M' -o "$run.time" timeout -s INT -k 60 "$limit" \
            "$bin" analyze "${cpath[@]}" --main "$main" "${how[@]}" "${spec[@]}" "${extra[@]}" \
            -o "$run.db" -q > "$run.log" 2>&1 || status=$?
        read -r wall kb < <(tail -1 "$run.time")
        peak="$((kb / 1024)) MB"
        if [ $status = 124 ]; then
            printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$p" "$v" "timeout" "" "" "> ${limit} s" "$peak"
            continue
        elif [ $status != 0 ]; then
            printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$p" "$v" "failed (exit $status, $run.log)" "" "" "$wall s" "$peak"
            continue
        fi
        "$bin" check "$run.db" "$dir/trace.tsv" --format json > "$run.json"
        "$bin" check "$run.db" "$dir/trace.tsv" > "$run.txt"
        [ -n "${REFRACT_BENCH_KEEP:-}" ] || rm -rf "$run.db"
        read -r af at jf jt edges < <(jq -r '
            def sum(k): [.apis[] | .[k]] | [(map(.found) | add // 0), (map(.traced) | add // 0)];
            sum("application") + sum("jdk") + [.static_edges] | @tsv' "$run.json")
        printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$p" "$v" "$(ratio "$af" "$at")" \
            "$(ratio "$jf" "$jt")" "$edges" "$wall s" "$peak"
    done
done

# Recall per API over all programs, per variant.
echo
printf '| api |'; for v in "${variants[@]}"; do printf ' %s |' "$v"; done; echo
printf '|---|'; for _ in "${variants[@]}"; do printf -- '---|'; done; echo
for v in "${variants[@]}"; do
    for p in "${programs[@]}"; do
        [ -f "$out/$p-$v.json" ] && jq -r --arg v "$v" '.apis | to_entries[] |
            "\(.key)\t\($v)\t\(.value.application.found + .value.jdk.found)\t\(.value.application.traced + .value.jdk.traced)"' \
            "$out/$p-$v.json"
    done
done | awk -F'\t' -v vs="${variants[*]}" '
    { f[$1 "\t" $2] += $3; t[$1 "\t" $2] += $4; apis[$1] = 1 }
    END {
        n = split(vs, v, " ")
        m = 0; for (a in apis) list[++m] = a
        for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (list[j] < list[i]) { x = list[i]; list[i] = list[j]; list[j] = x }
        for (i = 1; i <= m; i++) {
            printf "| %s |", list[i]
            for (k = 1; k <= n; k++) {
                key = list[i] "\t" v[k]
                if (t[key] > 0) printf " %d/%d %.2f |", f[key], t[key], f[key] / t[key]; else printf " - |"
            }
            printf "\n"
        }
    }'
