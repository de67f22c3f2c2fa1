#!/usr/bin/env bash
# The paper's experiment (Livshits, Whaley and Lam, section 5) on three of
# its six benchmarks, as Debian packages them: jfreechart (a library, so
# every public method is a root), jedit and freetts. Each of the five
# reflection variants runs against the local JDK's jmods, with a time limit
# per run (the target is 5 minutes and 8 GB). Prints Fig. 5 (the
# benchmarks), Fig. 6 (Class.forName sites: total, fully, partially and not
# resolved) and Fig. 9 (classes and methods in the call graph) for our runs
# beside the paper's numbers, and each run's wall time and peak memory.
#
# `sound` needs a specification; as the paper did for its cast-based
# version, we give it the targets the `casts` run found (exported with
# `refract export targets` and fed back with --spec), or the `points-to`
# run's where `casts` did not finish in time.
#
#   scripts/bench-reflection.sh [TIMEOUT_SECONDS] [PROGRAM...]
#   scripts/bench-reflection.sh 300 freetts
#   REFRACT_BENCH_JDK=none scripts/bench-reflection.sh   # without the JDK
#   REFRACT_BENCH_OPTIONS=--member-arrays scripts/bench-reflection.sh
#       # more `refract analyze` options for every run
set -euo pipefail
cd "$(dirname "$0")/.."
limit=${1:-300}
jdk=${REFRACT_BENCH_JDK:-auto}
read -r -a extra <<< "${REFRACT_BENCH_OPTIONS:-}"
shift || true
programs=("$@")
[ ${#programs[@]} -gt 0 ] || programs=(jfreechart jedit freetts)

need=()
[ -f /usr/share/java/jfreechart-1.0.19.jar ] || need+=(libjfreechart-java)
[ -f /usr/share/jedit/jedit.jar ] || need+=(jedit)
[ -f /usr/share/java/freetts-1.2.2.jar ] || need+=(freetts)
if [ ${#need[@]} -gt 0 ]; then
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get update -q
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}"
fi
cargo build --release -q
bin=${CARGO_TARGET_DIR:-$PWD/target}/release/refract
out=${REFRACT_BENCH_DIR:-$(mktemp -d)}
mkdir -p "$out"
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GB; JDK: $jdk ($(java -version 2>&1 | head -1)); results in $out"

# Class path and roots of each program.
args_of() {
    case $1 in
        jfreechart) echo "/usr/share/java/jfreechart-1.0.19.jar /usr/share/java/jcommon-1.0.23.jar --roots library" ;;
        jedit) echo "/usr/share/jedit/jedit.jar --main org.gjt.sp.jedit.jEdit" ;;
        freetts) echo "$(ls /usr/share/java/freetts-1.2.2.jar /usr/share/java/cmu*-1.2.2.jar /usr/share/java/en_us-1.2.2.jar | tr '\n' ' ') --main com.sun.speech.freetts.FreeTTS" ;;
    esac
}
# The paper's figures, per program: Fig. 5 (lines, files, jars, classes),
# Fig. 6 forName T/FR/PR/UR per variant, Fig. 9 classes and methods.
paper5() { case $1 in jfreechart) echo "193,396 lines, 707 files, 6 jars, 62,885 classes";; jedit) echo "144,496 lines, 427 files, 1 jar, 62,910 classes";; freetts) echo "42,993 lines, 167 files, 19 jars, 62,821 classes";; esac; }
paper6() {
    case $1/$2 in
        jfreechart/none) echo "104 - - -";; jfreechart/local) echo "104 91 - 13";; jfreechart/points-to) echo "104 91 1 12";; jfreechart/casts) echo "149 124 10 15";; jfreechart/sound) echo "169 165 - 4";;
        jedit/none) echo "156 - - -";; jedit/local) echo "156 137 - 19";; jedit/points-to) echo "161 142 3 16";; jedit/casts) echo "178 159 12 7";; jedit/sound) echo "210 197 - 12";;
        freetts/none) echo "30 - - -";; freetts/local) echo "30 21 - 9";; freetts/points-to) echo "30 21 0 9";; freetts/casts) echo "34 25 4 5";; freetts/sound) echo "81 75 - 6";;
    esac
}
paper9() {
    case $1/$2 in
        jfreechart/none) echo "884 5,374";; jfreechart/local) echo "881 5,374";; jfreechart/points-to) echo "886 5,392";; jfreechart/casts) echo "1,560 8,375";; jfreechart/sound) echo "2,340 12,111";;
        jedit/none) echo "1,660 11,230";; jedit/local) echo "1,661 11,231";; jedit/points-to) echo "1,726 11,523";; jedit/casts) echo "2,152 13,487";; jedit/sound) echo "2,754 16,003";;
        freetts/none) echo "309 1,357";; freetts/local) echo "309 1,358";; freetts/points-to) echo "309 1,358";; freetts/casts) echo "351 1,545";; freetts/sound) echo "1,415 5,499";;
    esac
}

summary=$out/summary.txt
: > "$summary"
for p in "${programs[@]}"; do
    read -r -a a <<< "$(args_of "$p")"
    jars=0; classes=0
    for f in "${a[@]}"; do
        case $f in *.jar) jars=$((jars + 1)); classes=$((classes + $(unzip -l "$f" | grep -c '\.class$' || true))) ;; esac
    done
    echo "== $p: $jars jars, $classes application classes (paper, Fig. 5: $(paper5 "$p"))" | tee -a "$summary"
    printf '%-10s %8s %8s  %-22s %-22s %-18s %-18s\n' variant wall peakMB "forName T/FR/PR/UR" "paper T/FR/PR/UR" "classes/methods" "paper" | tee -a "$summary"
    for v in none local points-to casts sound; do
        db=$out/$p-$v.db
        spec=()
        if [ "$v" = sound ]; then
            # The casts run's targets, or where it did not finish the
            # points-to run's (then `sound` measures the cost of the
            # specification machinery rather than new targets).
            from=casts
            [ -d "$out/$p-casts.db" ] || from=points-to
            if [ ! -d "$out/$p-$from.db" ]; then
                printf '%-10s %s\n' "$v" "skipped: needs the casts or points-to run's targets as its specification" | tee -a "$summary"
                continue
            fi
            [ $from = casts ] || echo "(sound: specification from the points-to run's targets, the casts run did not finish)" | tee -a "$summary"
            "$bin" export targets "$out/$p-$from.db" > "$out/$p.spec"
            spec=(--spec "$out/$p.spec")
        fi
        set +e
        # On timeout, SIGINT: refract cancels the work as for Ctrl-C and
        # removes its staged database; -k 60 kills it if it has not stopped a
        # minute later (the next run into that directory removes what is left).
        /usr/bin/time -f "%e %M" -o "$out/time" timeout -s INT -k 60 "$limit" \
            "$bin" analyze "${a[@]}" --jdk "$jdk" --reflection "$v" "${spec[@]}" "${extra[@]}" -q -o "$db" 2> "$out/$p-$v.err"
        rc=$?
        set -e
        read -r t m < <(tail -1 "$out/time")
        if [ $rc -ne 0 ]; then
            why="failed (exit $rc)"; [ $rc -eq 124 ] && why="timeout after ${limit}s"
            printf '%-10s %8s %8s  %s\n' "$v" "${t}s" "$((m / 1024))" "$why" | tee -a "$summary"
            continue
        fi
        "$bin" report "$db" > "$out/$p-$v.report"
        fr=$(awk '$1 == "Class.forName" {print $2 "/" $3 "/" $4 "/" $5}' "$out/$p-$v.report")
        cg=$(awk '/^call graph:/ {print $3 "/" $5}' "$out/$p-$v.report")
        printf '%-10s %8s %8s  %-22s %-22s %-18s %-18s\n' "$v" "${t}s" "$((m / 1024))" "$fr" "$(paper6 "$p" "$v" | tr ' ' '/')" "$cg" "$(paper9 "$p" "$v" | tr ' ' '/')" | tee -a "$summary"
    done
done
echo "summary: $summary"
