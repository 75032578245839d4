#!/usr/bin/env bash
# bench/scale.sh — broker throughput with 1..64 simulated no-op workers over TCP
# loopback, CURVE off and (with --curve) on, in the same run.
#   bench/scale.sh [--curve] [BUILD_DIR] [GAMES] [MOVES] [WORKER_COUNTS] [REPEATS]
#   defaults: build-release, 12000 games, 63 moves (64 positions = one task a game),
#   WORKER_COUNTS 1,2,4,8,16,32,64, REPEATS 3 (the median run is printed).
#
# Each run: a fresh `hyeongse broker` process (store with --no-sync as the other
# benches, --queue-max above the job), the job submitted first (`hyeongse
# submit`, noop engine, every position), then K simulated workers in
# min(K, 4) `bench_scale_host` processes (K/P worker threads each, every one its
# own socket, READY and 32 credits: workers in few processes, so that on a
# 2-core machine the count measures the broker, not the process scheduler).
# Timing is the broker's own: STATUS snapshots every 0.1 s (`bench_scale_host
# --poll`) carry its uptime and the workers' positions and tasks done (the
# fields of `status --cluster`); the window runs from the first snapshot that
# lists all K workers to the last one taken while the job still runs (so
# neither the hosts' start nor the job's tail counts, nor the time a poll takes).
# With --curve: `hyeongse keygen` makes broker, worker and client keys, the
# broker takes --key/--workers/--clients/--admins and every peer its keys: the
# same runs again, and the ratio CURVE on/off is printed per K.
set -eu
curve=0
if [ "${1:-}" = "--curve" ]; then curve=1; shift; fi
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build-release}
games=${2:-12000}
moves=${3:-63}
counts=${4:-1,2,4,8,16,32,64}
repeats=${5:-3}
BIN=$build/cli/hyeongse
HOST=$build/bench/bench_scale_host
if [ ! -x "$HOST" ] || [ ! -x "$BIN" ]; then
    cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$build" -j2 --target hyeongse bench_scale_host >/dev/null
fi
if [ $curve = 1 ] && ! "$BIN" broker --help 2>&1 | grep -q -- '--workers'; then
    echo "scale.sh: this hyeongse has no CURVE options (broker --key/--workers): build" \
         "one with issue 15's keys, or run without --curve" >&2
    exit 2
fi
tmp=$(mktemp -d /tmp/hs-bench-scale-XXXXXX)
bpid=
hpids=()
cleanup() {
    [ ${#hpids[@]} -gt 0 ] && kill "${hpids[@]}" 2>/dev/null
    [ -n "$bpid" ] && kill "$bpid" 2>/dev/null
    wait 2>/dev/null || true
    rm -rf "$tmp"
}
trap cleanup EXIT

# GAMES distinct 19x19 games of MOVES moves in one SGF collection: Black on
# columns A-J, White on the right, shifted by the game number, komi in half
# points so no two games share an id; no captures, every move legal.
python3 - "$games" "$moves" > "$tmp/games.sgf" <<'PY'
import sys
games, moves = int(sys.argv[1]), int(sys.argv[2])
c = "abcdefghijklmnopqrs"
out = []
for i in range(games):
    mv = []
    for k in range(moves):
        idx = (k // 2 + i) % 171
        x, y = idx % 9, idx // 9
        col = 18 - x if k % 2 else x
        mv.append(";%s[%s%s]" % ("W" if k % 2 else "B", c[col], c[y]))
    out.append("(;GM[1]FF[4]SZ[19]KM[%.1f]PB[b]PW[w]%s)" % (-999.5 + 0.5 * (i % 3999), "".join(mv)))
sys.stdout.write("\n".join(out) + "\n")
PY

bkeys=() ckeys=() hkeys=()
if [ $curve = 1 ]; then
    for k in broker worker client; do "$BIN" keygen --out "$tmp/$k" > /dev/null; done
    echo "@worker.pub sim" > "$tmp/workers.list"
    echo "@client.pub bench" > "$tmp/clients.list"
    bkeys=(--key "$tmp/broker.key" --workers "$tmp/workers.list" --clients "$tmp/clients.list"
           --admins "$tmp/clients.list")
    ckeys=(--key "$tmp/client.key" --server-key "$tmp/broker.pub")
    hkeys=("$tmp/worker.key" "$tmp/broker.pub")
fi

# json FILE EXPR: EXPR over the JSON in FILE (as j).
json() { python3 -c "import json,sys; j=json.load(open('$1')); print($2)" 2>/dev/null; }

# one_run K CURVE(0/1): prints "positions/s tasks/s" of one run.
one_run() {
    local k=$1 cv=$2 db=$tmp/db ready=$tmp/ready bk=() ck=() hk=()
    if [ "$cv" = 1 ]; then bk=("${bkeys[@]}"); ck=("${ckeys[@]}"); hk=("${hkeys[@]}"); fi
    rm -rf "$db" "$ready"
    "$BIN" broker --bind 'tcp://127.0.0.1:*' --db "$db" --ready-file "$ready" \
        --queue-max $((games * ((moves + 64) / 64) + 10)) ${bk[@]+"${bk[@]}"} 2>> "$tmp/broker.log" &
    bpid=$!
    for _ in $(seq 200); do [ -s "$ready" ] && break; sleep 0.05; done
    local addr; addr=$(head -1 "$ready")
    "$BIN" submit "$tmp/games.sgf" --broker "$addr" --engines noop --name scale \
        ${ck[@]+"${ck[@]}"} > /dev/null 2>> "$tmp/submit.log"
    local p=$(( k < 4 ? k : 4 )) i n left=$k
    hpids=()
    rm -f "$tmp"/host*.out
    for i in $(seq 0 $((p - 1))); do
        n=$(( left / (p - i) )); left=$((left - n))
        "$HOST" "$addr" "$n" "sim$i" ${hk[@]+"${hk[@]}"} > "$tmp/host$i.out" 2>> "$tmp/hosts.log" &
        hpids+=($!)
    done
    # A host that cannot start (bad keys, no broker) would leave the job, and
    # the poll below, waiting for ever: stop the bench with its message instead.
    sleep 1
    for i in "${hpids[@]}"; do
        kill -0 "$i" 2>/dev/null || { echo "scale.sh: a worker host exited:" >&2; cat "$tmp/hosts.log" >&2; exit 1; }
    done
    # Snapshots of `status --cluster`'s fields every 0.1 s (bench_scale_host
    # --poll, one process): the broker's uptime (its own clock, so the time a
    # poll takes does not count) and the workers' positions and tasks done. The
    # first snapshot listing all K workers starts the window; the last one
    # while the job runs ends it.
    "$HOST" --poll "$addr" ${hk[@]+"${hk[@]/worker.key/client.key}"} > "$tmp/poll.out"
    local first last
    first=$(awk -v k="$k" '$1 >= k && $5 > 0 { print $2, $3, $4; exit }' "$tmp/poll.out")
    last=$(awk -v k="$k" '$1 >= k && $5 > 0 { l = $2 " " $3 " " $4 } END { print l }' "$tmp/poll.out")
    "$BIN" status 1 --json --broker "$addr" ${ck[@]+"${ck[@]}"} > "$tmp/s.json"
    local st all
    st=$(json "$tmp/s.json" 'j["jobs"][0]["state"]')
    all=$(json "$tmp/s.json" 'j["jobs"][0]["positions_done"] == j["jobs"][0]["positions_total"]')
    [ "$st" = done ] && [ "$all" = True ] || echo "scale.sh: K=$k: the job ended '$st' (all positions: $all)" >&2
    if [ -z "$last" ] || [ "$first" = "$last" ]; then
        echo "scale.sh: K=$k: fewer than two snapshots with all workers in: raise GAMES" >&2
        first="0 0 0"; last="1 0 0"
    fi
    kill "${hpids[@]}" 2>/dev/null; wait "${hpids[@]}" 2>/dev/null || true
    hpids=()
    kill "$bpid" 2>/dev/null; wait "$bpid" 2>/dev/null || true
    bpid=
    set -- $first $last
    python3 -c "dt = ($4 - $1) / 1000; print('%.0f %.0f %.3f' % (($5 - $2) / dt, ($6 - $3) / dt, $2 / max($5, 1)) if dt > 0 else '0 0 0')"
}

# median of REPEATS runs (by positions/s): "positions/s tasks/s"
median_run() {
    local r
    for r in $(seq "$repeats"); do one_run "$1" "$2"; done | sort -n | sed -n "$(( (repeats + 1) / 2 ))p"
}

echo "scale: $games games x $moves moves ($((games * (moves + 1))) positions) per run, noop, TCP loopback, median of $repeats runs"
echo "$(nproc) CPUs; simulated workers in min(K, 4) processes"
printf "%8s %6s %12s %14s %10s\n" workers curve tasks/s positions/s "x 1 worker"
declare -A base
for cv in 0 $([ $curve = 1 ] && echo 1); do
    for k in ${counts//,/ }; do
        read -r pos tasks _ < <(median_run "$k" "$cv")
        [ -n "${base[$cv]:-}" ] || base[$cv]=$pos
        printf "%8d %6s %12.0f %14.0f %10.2f\n" "$k" "$([ $cv = 1 ] && echo on || echo off)" \
               "$tasks" "$pos" "$(python3 -c "print($pos / max(${base[$cv]}, 1))")"
        echo "$cv $k $pos" >> "$tmp/results"
    done
done
if [ $curve = 1 ]; then
    echo "CURVE on/off, positions/s:"
    for k in ${counts//,/ }; do
        off=$(awk -v k="$k" '$1 == 0 && $2 == k { print $3 }' "$tmp/results")
        on=$(awk -v k="$k" '$1 == 1 && $2 == k { print $3 }' "$tmp/results")
        printf "%8d %10.3f\n" "$k" "$(python3 -c "print($on / max($off, 1))")"
    done
fi
