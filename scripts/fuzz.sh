#!/usr/bin/env bash
# Fuzzes refract's readers on a stable toolchain, through the plain
# mutation driver in fuzz/driver (cargo-fuzz's targets in fuzz/ need
# nightly; they share the entry points refract::facts::fuzz_one and
# refract::datalog::fuzz_one).
#
#   scripts/fuzz.sh [class_reader|datalog|classpath|all] [SECONDS] [OUT_DIR]
#
# Defaults: all targets, 600 s each, OUT_DIR=target/fuzz. Seeds: the
# fixtures' class files (and the hang reproducers) for class_reader; the
# shipped queries, bddbddb's programs and the hostile .dl files for
# datalog; for classpath, the driver's own (zip bombs, class directories
# with symbolic-link loops), which its structured mutations vary. The driver restarts after a hang or an abort until the time
# is up. Findings (panic-*, hang-*, abort-*, killed-*) go to OUT_DIR/TARGET/findings;
# commit each as a regression test. Prints executions and findings per
# target.
set -euo pipefail
cd "$(dirname "$0")/.."
which=${1:-all}
seconds=${2:-600}
out=${3:-target/fuzz}
(cd fuzz/driver && cargo build --release --quiet)
driver=fuzz/driver/target/release/refract-fuzz-driver

seed_class_reader() {
    find fixtures/classes tests/data/hangs -name '*.class' -exec cp {} "$1" \;
}

seed_datalog() {
    cp queries/*.dl "$1"
    cp tests/data/bddbddb/c_pa.datalog tests/data/bddbddb/pa/pa.datalog "$1"
    cp tests/data/hostile/*.dl "$1" 2>/dev/null || true
    printf 'V 4\nR(a:V0) printsize\nR(0).\nR(x)?\n' > "$1/small.dl"
}

seed_classpath() {
    : # built into the driver
}

run_target() {
    local t=$1 corpus=$out/$1/corpus findings=$out/$1/findings
    mkdir -p "$corpus" "$findings"
    "seed_$t" "$corpus"
    local end=$(( $(date +%s) + seconds )) total=0 seed=1
    while :; do
        local left=$(( end - $(date +%s) ))
        [ "$left" -gt 0 ] || break
        set +e
        line=$(REFRACT_FUZZ_LAST_STATUS=${status:-0} "$driver" "$t" "$left" "$corpus" "$findings" "$seed" | tail -1; exit "${PIPESTATUS[0]}")
        status=$?
        set -e
        [ "$status" = 0 ] || [ "$status" = 3 ] || echo "$t: the driver ended with status $status" >&2
        n=$(awk '{print $1}' <<<"${line:-0}")
        total=$(( total + ${n:-0} ))
        seed=$(( seed + 1 ))
    done
    local found
    found=$(find "$findings" -maxdepth 1 -type f ! -name '.current' | wc -l)
    echo "$t: $total executions in $seconds s, $found findings in $findings"
}

case $which in
    all) run_target class_reader; run_target datalog; run_target classpath ;;
    class_reader|datalog|classpath) run_target "$which" ;;
    *) echo "unknown target $which (class_reader, datalog, classpath, all)" >&2; exit 2 ;;
esac
