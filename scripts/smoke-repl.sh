#!/usr/bin/env bash
# Drives `refract repl` in tmux as a person would: types queries with
# send-keys and checks the captured screen. Covers the prompt, a query
# answered as a table, tab completion of a command, a relation and a
# quoted name, a rule typed over two lines at the continuation prompt,
# Ctrl-C dropping an unfinished statement, an error that the shell
# survives, lines typed ahead while a command runs, Ctrl-C cancelling a
# long evaluation, the history file, and Ctrl-D leaving.
#
#   scripts/smoke-repl.sh            # builds refract (release) first
#   REFRACT=path/to/refract scripts/smoke-repl.sh
set -euo pipefail
cd "$(dirname "$0")/.."
command -v tmux >/dev/null || { echo "smoke-repl: tmux is not installed" >&2; exit 2; }
if [ -z "${REFRACT:-}" ]; then
    cargo build --release --quiet
    REFRACT=${CARGO_TARGET_DIR:-$PWD/target}/release/refract
fi
work=$(mktemp -d)
session=refract-smoke-$$
cleanup() { tmux kill-session -t "$session" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

"$REFRACT" analyze fixtures/classes/reflection --main Invoke --jdk none -q -o "$work/inv.db"
# A chain 0 -> 1 -> ... -> 200000 whose closure takes one iteration per
# link: long enough to interrupt.
seq 0 199999 | awk '{print $1 "\t" $1 + 1}' > "$work/edge.facts"

fail() {
    echo "smoke-repl: FAILED: $1" >&2
    echo "---- screen ----" >&2
    tmux capture-pane -p -t "$session" -S -100 >&2
    exit 1
}
screen() { tmux capture-pane -p -t "$session" -S -200; }
# Waits until the screen shows a line matching $1 (grep -E), up to $2 s.
wait_for() {
    local deadline=$((SECONDS + ${2:-20}))
    until screen | grep -Eq -- "$1"; do
        [ $SECONDS -lt $deadline ] || fail "no line matching: $1"
        sleep 0.2
    done
}
# Waits until $2 lines match $1 (grep -E), up to $3 s: for a line that an
# earlier step printed too.
wait_count() {
    local deadline=$((SECONDS + ${3:-20}))
    until [ "$(screen | grep -Ec -- "$1")" -ge "$2" ]; do
        [ $SECONDS -lt $deadline ] || fail "fewer than $2 lines matching: $1"
        sleep 0.2
    done
}
# Waits until the shell is at an empty prompt again (the screen's last
# non-blank line), so that keys sent next reach the line editor.
wait_prompt() {
    local deadline=$((SECONDS + ${1:-20}))
    until [ "$(screen | grep -v '^[[:space:]]*$' | tail -n 1)" = "refract>" ]; do
        [ $SECONDS -lt $deadline ] || fail "no prompt"
        sleep 0.2
    done
}
type_line() { tmux send-keys -t "$session" -l -- "$1"; tmux send-keys -t "$session" Enter; }

tmux new-session -d -s "$session" -x 250 -y 50 \
    "cd $work && REFRACT_HISTORY=$work/history $REFRACT repl $work/inv.db; echo SHELL-EXITED-\$?; sleep 30"
wait_for '^refract>'

# A query, answered as a table with its count.
type_line 'IEr(i, m)?'
wait_for '^4 tuples$'
screen | grep -q '<r.Upper: java.lang.String run(java.lang.String)>' || fail "IEr rows"

# Tab completes a command ...
tmux send-keys -t "$session" -l '.cou'
tmux send-keys -t "$session" Tab
tmux send-keys -t "$session" -l ' vP'
tmux send-keys -t "$session" Enter
wait_for '^vP: 30 tuples$'
# ... a relation name ...
tmux send-keys -t "$session" -l 'newInstanceT'
tmux send-keys -t "$session" Tab
tmux send-keys -t "$session" -l '(i, t)?'
tmux send-keys -t "$session" Enter
wait_for 'newInstanceTargets\(i, t\)\?'
wait_for '<r.Upper: void <init>\(\)>|^ r.Upper'
# ... and a name from the maps inside quotes.
tmux send-keys -t "$session" -l 'reach("<r.Upper: java.lang.String ru'
tmux send-keys -t "$session" Tab
tmux send-keys -t "$session" -l ')?'
tmux send-keys -t "$session" Enter
wait_for 'reach\("<r.Upper: java.lang.String run\(java.lang.String\)>"\)\?'
wait_for '^yes$'

# A rule typed over two lines, the second at the continuation prompt,
# then used.
type_line 'plain(m) :- reach(m),'
wait_for '^   \.\.\.>$'
type_line '    !IEr(_, m).'
type_line '.count plain'
wait_for '^plain: 3 tuples$'

# Ctrl-C drops a statement that is not finished.
type_line 'reach(m'
wait_for '^   \.\.\.>$'
tmux send-keys -t "$session" C-c
wait_for '^\(statement dropped\)$'
type_line '.count IEr'
wait_for '^IEr: 4 tuples$'

# An error is shown with its position, and the shell goes on.
type_line 'nosuch(x)?'
wait_for 'error: <input>:[0-9]+:1: unknown relation nosuch'
type_line '.count reach'
wait_for '^reach: 7 tuples$'

# Lines typed while a command runs are kept: the three after the input
# wait while its 200,000 rows load. (Without rustyline's buffer-redux,
# each prompt read the terminal through a buffer of its own and dropped
# what it had read past its line.)
type_line 'K 262144'
type_line 'edge (a:K0, b:K1) input'
type_line '.count edge'
type_line 'path(a, b) :- edge(a, b).'
type_line '.count path'
# Lines typed ahead are echoed by the terminal, so an answer may follow
# them on the same line.
wait_for 'edge: [0-9]+ tuples$' 60
wait_for 'path: [0-9]+ tuples$' 60
wait_prompt

# Ctrl-C cancels a long evaluation; the shell stays.
type_line 'path(a, c) :- path(a, b), edge(b, c).'
sleep 1
tmux send-keys -t "$session" C-c
wait_for 'error: cancelled \(Ctrl-C\)' 30
# The cancelled rule left path as it was (the second such answer).
type_line '.count path'
deadline=$((SECONDS + 20))
until [ "$(screen | grep -c '^path: 200000 tuples$')" -ge 2 ]; do
    [ $SECONDS -lt $deadline ] || fail "path changed after Ctrl-C"
    sleep 0.2
done

# Ctrl-C also stops a single long product promptly: the closure of a
# random graph of 300,000 edges, whose first joins alone take minutes.
awk 'BEGIN { srand(7); for (i = 0; i < 300000; i++) printf "%d\t%d\n", int(rand() * 131072), int(rand() * 131072) }' > "$work/redge.facts"
type_line 'R 131072'
type_line 'redge (a:R0, b:R1) input'
type_line '.count redge'
type_line 'rpath(a, b) :- redge(a, b).'
type_line '.count rpath'
wait_for 'rpath: [0-9]+ tuples$' 60
wait_prompt
type_line 'rpath(a, c) :- rpath(a, b), redge(b, c).'
sleep 2
tmux send-keys -t "$session" C-c
deadline=$((SECONDS + 10))
until [ "$(screen | grep -c 'error: cancelled (Ctrl-C)')" -ge 2 ]; do
    [ $SECONDS -lt $deadline ] || fail "a long product ran on for 10 s after Ctrl-C"
    sleep 0.2
done
type_line '.count reach'
wait_count '^reach: 7 tuples$' 2
wait_prompt

# Ctrl-D leaves; the history was saved.
tmux send-keys -t "$session" C-d
wait_for '^SHELL-EXITED-0$'
grep -q 'IEr(i, m)?' "$work/history" || fail "history file"
echo "smoke-repl: ok (prompt, tables, completion, multi-line, errors, Ctrl-C, history, Ctrl-D)"
