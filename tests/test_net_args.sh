#!/usr/bin/env bash
# tests/test_net_args.sh — `--net FILE` and `--backend` of `worker` and `submit`
# (docs/PROTOCOL.md, "Nets"), through the `hyeongse` program:
#   - a missing or truncated net, a bad or absent backend, a ninth --net: a
#     clear message and a non-zero exit before anything connects;
#   - a worker holding two nets tells the broker their hashes and its backend
#     in READY (the broker's --verbose line) and says so when connected;
#     `status` shows them (text: 8 hex digits each; JSON: whole hashes);
#   - submit: --net without a net engine, a net engine without --net, a
#     net= value that is not a hash, a broken net: refused before reading games.
# The nets are the hand-made ones of the nnmodel fuzz corpus.
set -u
BIN=${HS_BIN:?HS_BIN must name the hyeongse binary}
tmp=$(mktemp -d /tmp/hs-test-netargs-XXXXXX)
pids=()
trap cleanup_pids EXIT
fail=0
# check, start_broker_at
. "$(dirname "$0")/lib.sh"
# --engines net without --net loads the default model: none here (test_net_default.sh has one)
mkdir "$tmp/nomodels"
export HYEONGSE_MODELS="$tmp/nomodels"

nets=$(cd "$(dirname "$0")/fuzz/corpus/nnmodel" && pwd)
v8=$nets/tiny-v8.bin.gz
v11=$nets/tiny-v11.bin.gz
head -c 1000 "$nets/tiny-v8.bin" > "$tmp/cut.bin"
printf '(;GM[1]FF[4]SZ[9]KM[7];B[ee];W[cc])\n' > "$tmp/g.sgf"

# refused STATUS WHAT MESSAGE-PART COMMAND...: that exit status, the message on
# stderr. `timeout`: a command that wrongly went on to connect to the dead
# address below would retry for ever; it fails the test instead of hanging it.
refused() {
    local want_rc=$1 what=$2 want=$3; shift 3
    timeout 30 "$@" > "$tmp/r.out" 2> "$tmp/r.err"
    check "$what: exit status" "$?" "$want_rc"
    grep -qF -- "$want" "$tmp/r.err"
    check "$what: says '$want'" "$?" 0
}
dead=tcp://127.0.0.1:1

refused 1 "worker, missing net" "/nonexistent/net.bin.gz: cannot open" \
    "$BIN" worker --connect $dead --net /nonexistent/net.bin.gz
refused 1 "worker, truncated net" "$tmp/cut.bin" \
    "$BIN" worker --connect $dead --net "$tmp/cut.bin"
refused 2 "worker, unknown backend" "backend 'gpu'" \
    "$BIN" worker --connect $dead --net "$v8" --backend gpu
many=()
for _ in $(seq 9); do many+=(--net "$v8"); done
refused 2 "worker, nine nets" "at most 8 nets" "$BIN" worker --connect $dead "${many[@]}"
if "$BIN" worker --help | grep -q "default cuda"; then
    echo "skip: this machine runs cuda, so an absent backend cannot be shown"
else
    refused 1 "worker, cuda without a GPU or cuDNN" "--backend cuda" \
        "$BIN" worker --connect $dead --net "$v8" --backend cuda
fi

refused 2 "submit, --net without a net engine" "no engine of 'judge' runs a net" \
    "$BIN" submit "$tmp/g.sgf" --broker $dead --engines judge --net "$v8"
refused 2 "submit, net engine without --net" "give --net FILE" \
    "$BIN" submit "$tmp/g.sgf" --broker $dead --engines net
refused 2 "submit, net= not a hash" "net=<32 lowercase hex digits>" \
    "$BIN" submit "$tmp/g.sgf" --broker $dead --engines net:net=0123
refused 1 "submit, truncated net" "$tmp/cut.bin" \
    "$BIN" submit "$tmp/g.sgf" --broker $dead --engines net --net "$tmp/cut.bin"
refused 2 "submit, nine nets" "at most 8 nets" \
    "$BIN" submit "$tmp/g.sgf" --broker $dead --engines net "${many[@]}"

# ---- a worker's nets reach the broker ----
if start_broker_at "tcp://127.0.0.1:*" "$tmp/db" "$tmp/broker.log" --heartbeat-ms 200 --verbose; then
    pids+=("$bpid")
    "$BIN" worker --connect "$addr" --threads 1 --engines noop --net "$v8" --net "$v11" \
        --backend ref --name netw --heartbeat-ms 200 2> "$tmp/worker.err" &
    wpid=$!
    pids+=("$wpid")
    # Waits for the broker's line about the worker (not a timed check: 20 s is
    # only how long to wait before calling it lost).
    for _ in $(seq 200); do
        grep -q "worker netw ready" "$tmp/broker.log" && grep -q connected "$tmp/worker.err" && break
        sleep 0.1
    done
    grep -q "worker netw ready (.*2 nets, backend ref)" "$tmp/broker.log"
    check "READY carried 2 nets and the backend" "$?" 0
    grep -Eq "connected to .*engines noop, nets [0-9a-f]{8},[0-9a-f]{8} on ref" "$tmp/worker.err"
    check "the worker says which nets it holds" "$?" 0
    "$BIN" status --broker "$addr" > "$tmp/status.txt"
    grep -Eq "^  netw +0 tasks  nets [0-9a-f]{8},[0-9a-f]{8} on ref$" "$tmp/status.txt"
    check "status lists the worker's nets and backend" "$?" 0
    "$BIN" status --broker "$addr" --json > "$tmp/status.json"
    python3 -c 'import json,sys; w=json.load(open(sys.argv[1]))["worker_list"][0]
assert w["name"] == "netw" and w["backend"] == "ref" and len(w["nets"]) == 2, w
assert all(len(h) == 32 for h in w["nets"]), w' "$tmp/status.json"
    check "status --json lists the worker's nets (full hashes)" "$?" 0
    kill -TERM "$wpid"; wait "$wpid"; check "worker left cleanly" "$?" 0
    kill -TERM "$bpid"; wait "$bpid"; check "broker stopped cleanly" "$?" 0
    pids=()
fi
[ "$fail" = 0 ] || { echo "--- broker log"; tail -5 "$tmp/broker.log"; echo "--- worker";
                     cat "$tmp/worker.err" 2>/dev/null; }
exit "$fail"
