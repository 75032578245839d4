#!/usr/bin/env bash
# tests/test_cluster_ops.sh — what the operator and the users of a CURVE cluster
# see, as separate processes on tcp://127.0.0.1 (user QA's findings):
#   - a half key pair (--key without --server-key, or the other way) is a usage
#     error, exit 2, for status, submit, cancel and worker alike;
#   - submit with no broker at the address says so (is it running, is the
#     address right?) at its first retry, without a word of keys;
#   - the broker's log without --verbose: serving, a worker ready (and its key),
#     a worker using a client's key refused, jobs created (by which key), done
#     and canceled (by whom), a SUBMIT refused by --limit-jobs, a worker lost
#     after kill -9, the stop; no per-task line;
#   - a job waiting for an engine no worker offers: its reason names the
#     workers to an admin only; a client reads them counted;
#   - a job canceled by an admin tells its owner so ("canceled by an admin"),
#     one canceled by its owner says that;
#   - a job whose only game failed is "done" and says that nothing was analysed
#     (status, status --json, submit --wait, which exits 3); one with a good
#     game beside a failed one exits 0;
#   - SIGHUP stops a worker and the broker cleanly: exit 0, a last line that
#     names it, the broker's --ready-file removed (it killed both, exit 129).
set -u
BIN=${HS_BIN:?HS_BIN must name the hyeongse binary}
tmp=$(mktemp -d /tmp/hs-test-cluster-ops-XXXXXX)
pids=()
fail=0
trap cleanup_pids EXIT
# check, start_broker_at, free_port
. "$(dirname "$0")/lib.sh"

# wait_for FILE TEXT: until FILE holds TEXT (at most 20 s)
wait_for() {
    for _ in $(seq 200); do grep -qF -- "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done
    return 1
}

K=$tmp/keys
mkdir -p "$K"
for k in broker w1 alice bob admin; do
    "$BIN" keygen --out "$K/$k" > /dev/null || { echo "FAIL: keygen $k"; exit 1; }
done
echo "@w1.pub" > "$K/workers.list"
printf '@alice.pub\n@bob.pub\n' > "$K/clients.list"
echo "@admin.pub" > "$K/admins.list"
printf '(;GM[1]FF[4]SZ[9]KM[7];B[ee];W[cc];B[gg])\n' > "$tmp/good.sgf"
printf '(;GM[1]FF[4]SZ[9]KM[7];B[ee];W[ee])\n' > "$tmp/bad.sgf"   # W plays on a stone

# ---- a half key pair: exit 2 everywhere (status, submit and cancel said 1)
for half in "--key $K/alice.key" "--server-key $K/broker.pub"; do
    for cmd in status "cancel 1" "submit $tmp/good.sgf"; do
        # shellcheck disable=SC2086
        "$BIN" $cmd --broker tcp://127.0.0.1:9 $half > /dev/null 2> "$tmp/half.err"
        check "$cmd with only ${half%% *}: exit 2" "$?" 2
    done
    # shellcheck disable=SC2086
    "$BIN" worker --connect tcp://127.0.0.1:9 $half > /dev/null 2> "$tmp/half.err"
    check "worker with only ${half%% *}: exit 2" "$?" 2
done
has "and says what is missing" "$tmp/half.err" "--server-key needs --key"

# ---- no broker at the address: said first, keys not blamed
port=$(free_port)
timeout 6 "$BIN" submit "$tmp/good.sgf" --broker "tcp://127.0.0.1:$port" --engines noop \
    > /dev/null 2> "$tmp/nobroker.err"
has "submit with no broker: says nothing took the connection" "$tmp/nobroker.err" \
    "nothing accepted a connection at that address: is the broker running there, and is the address right?"
hasnt "and does not blame keys" "$tmp/nobroker.err" "--key"

# ---- the cluster: no --verbose; one job at a time per client key
start_broker_at 'tcp://127.0.0.1:*' "$tmp/db" "$tmp/broker.log" --heartbeat-ms 200 \
    --key "$K/broker.key" --workers "$K/workers.list" --clients "$K/clients.list" \
    --admins "$K/admins.list" --limit-jobs 1 || exit 1
pids+=("$bpid")
broker_pid=$bpid
broker_ready=$ready_file
for u in alice bob admin; do
    printf 'broker %s\nkey %s/%s.key\nserver-key %s/broker.pub\n' "$addr" "$K" "$u" "$K" > "$tmp/$u.conf"
done
SK=(--server-key "$K/broker.pub")
"$BIN" worker --connect "$addr" --threads 1 --heartbeat-ms 200 --name gpu-host-1 \
    --engines noop --key "$K/w1" "${SK[@]}" 2> "$tmp/w1.log" &
w1=$!; pids+=("$w1")
"$BIN" worker --connect "$addr" --threads 1 --heartbeat-ms 200 --name stray --engines noop \
    --key "$K/alice" "${SK[@]}" 2> "$tmp/stray.log" &
stray=$!; pids+=("$stray")
wait_for "$tmp/broker.log" "worker gpu-host-1 ready as w1"
has "log: a worker ready, with its key's name" "$tmp/broker.log" "worker gpu-host-1 ready as w1 (engines noop"
wait_for "$tmp/broker.log" "refused a worker message from alice"
has "log: a worker with a client's key is refused" "$tmp/broker.log" \
    "refused a worker message from alice: a client key, not in --workers"
kill -TERM "$stray"; wait "$stray" 2>/dev/null
"$BIN" worker --connect "$addr" --threads 1 --heartbeat-ms 200 --name gpu-host-3 \
    --engines noop --key "$K/w1" "${SK[@]}" 2> "$tmp/w3.log" &
pids+=("$!")
wait_for "$tmp/broker.log" "worker gpu-host-3 ready"

# ---- job 1 waits for an engine nobody offers: worker names for the admin only
"$BIN" submit "$tmp/good.sgf" --config "$tmp/alice.conf" --engines area > /dev/null 2>&1
check "alice's job 1" "$?" 0
for _ in $(seq 150); do
    "$BIN" status 1 --config "$tmp/alice.conf" > "$tmp/alice.st" 2>&1
    grep -q "reason: waiting" "$tmp/alice.st" && break
    sleep 0.1
done
has "client: the job says why it waits" "$tmp/alice.st" "reason: waiting: no live worker runs"
has "client: the workers counted, alike ones together" "$tmp/alice.st" "area; 2 workers offer noop"
hasnt "client: no worker name" "$tmp/alice.st" "gpu-host-"
"$BIN" status --config "$tmp/alice.conf" --json > "$tmp/alice.json" 2>&1
hasnt "client --json: no worker name" "$tmp/alice.json" "gpu-host-"
has "client: the count of live workers (harmless, documented)" "$tmp/alice.st" "workers: 2"
"$BIN" status 1 --config "$tmp/admin.conf" > "$tmp/admin.st" 2>&1
has "admin: the workers by name" "$tmp/admin.st" "area; gpu-host-1 offers noop; gpu-host-3 offers noop"
has "log: job 1 created by alice" "$tmp/broker.log" "job 1 created by alice (engines area"

# ---- --limit-jobs 1: alice's second job is refused, and logged
"$BIN" submit "$tmp/good.sgf" --config "$tmp/alice.conf" --engines noop > /dev/null 2> "$tmp/limit.err"
check "alice's second job is refused (exit 1)" "$?" 1
has "log: the refusal, by key" "$tmp/broker.log" "SUBMIT of alice refused: job limit:"

# ---- a job whose only game failed: done, and nothing analysed
"$BIN" submit "$tmp/bad.sgf" --config "$tmp/bob.conf" --engines noop --wait \
    > "$tmp/bad.out" 2> "$tmp/bad.err"
check "bob's job 2 (its one game fails): submit --wait exit 3 (done, nothing analysed)" "$?" 3
has "submit --wait says nothing was analysed" "$tmp/bad.out" "job 2 done: 0 games done, 1 failed, 0 positions (nothing analysed"
has "submit --wait: and on stderr how to see why" "$tmp/bad.err" \
    "hyeongse submit: nothing analysed: its one game failed (\`hyeongse query --db DIR failed\` says why, in the rows of job 2); DIR is the broker's store"
"$BIN" status 2 --config "$tmp/bob.conf" > "$tmp/bad.st" 2>&1
has "status: still done" "$tmp/bad.st" "     2  done              1         0       1"
has "status: the reason" "$tmp/bad.st" "reason: nothing analysed: its one game failed (\`hyeongse query failed\`"
"$BIN" status 2 --config "$tmp/bob.conf" --json > "$tmp/bad.json" 2>&1
has "status --json: the reason" "$tmp/bad.json" '"reason":"nothing analysed: its one game failed'
has "log: job 2 of bob done" "$tmp/broker.log" "job 2 of bob done: 1 games, 1 failed, 0 positions"
"$BIN" submit "$tmp/good.sgf" --config "$tmp/bob.conf" --engines noop --wait > "$tmp/good.out" 2> /dev/null
check "bob's job 3: done" "$?" 0
hasnt "a job that worked says nothing of the kind" "$tmp/good.out" "nothing analysed"

# ---- cancel: by an admin, by the owner
"$BIN" cancel 1 --config "$tmp/admin.conf" > /dev/null 2>&1
check "the admin cancels alice's job 1" "$?" 0
"$BIN" status 1 --config "$tmp/alice.conf" > "$tmp/c1.st" 2>&1
has "alice reads who canceled it" "$tmp/c1.st" "reason: canceled by an admin"
has "log: job 1 canceled, by whom" "$tmp/broker.log" "job 1 of alice canceled by admin (an admin key)"
"$BIN" submit "$tmp/good.sgf" --config "$tmp/alice.conf" --engines area > /dev/null 2>&1
"$BIN" cancel 4 --config "$tmp/alice.conf" > /dev/null 2>&1
check "alice cancels her job 4" "$?" 0
"$BIN" status 4 --config "$tmp/alice.conf" > "$tmp/c4.st" 2>&1
has "and reads that she did" "$tmp/c4.st" "reason: canceled by its owner"
has "log: job 4 canceled by alice" "$tmp/broker.log" "job 4 of alice canceled by alice"

# ---- a job with a failed game beside a good one: submit --wait exit 0
mkdir -p "$tmp/mixed"
cp "$tmp/good.sgf" "$tmp/bad.sgf" "$tmp/mixed/"
"$BIN" submit "$tmp/mixed" --config "$tmp/bob.conf" --engines noop --wait \
    > "$tmp/mixed.out" 2> "$tmp/mixed.err"
check "bob's job 5 (one of its two games fails): submit --wait exit 0" "$?" 0
has "and it says so" "$tmp/mixed.out" "job 5 done: 1 games done, 1 failed"
hasnt "and nothing of the kind on stderr" "$tmp/mixed.err" "nothing analysed"

# ---- another client's text on the admin's terminal: a job name holding an
# escape sequence, a newline and a bell shows them as '?' in the status table
# (they cleared the screen, or faked a row), and exactly in --json
evil=$(printf 'evil\033[2J\nfake row\a')
"$BIN" submit "$tmp/good.sgf" --config "$tmp/bob.conf" --engines noop --name "$evil" --wait \
    > /dev/null 2>&1
check "bob's job 6 (a name with control characters): done" "$?" 0
"$BIN" status 6 --config "$tmp/admin.conf" > "$tmp/evil.st" 2>&1
has "status table: the name, its control characters as '?'" "$tmp/evil.st" "evil?[2J?fake row?"
check "status table: no escape byte, no bell" "$(grep -c $'[\033\a]' "$tmp/evil.st")" 0
check "status table: no row faked by the newline" "$(grep -c '^fake row' "$tmp/evil.st")" 0
"$BIN" status 6 --config "$tmp/admin.conf" --json > "$tmp/evil.json" 2>&1
has "status --json: the name exactly" "$tmp/evil.json" '"name":"evil\u001b[2J\nfake row\u0007"'

# ---- job ids that are not ids: "-1" and one past 2^64 were read as the
# largest id, which the broker then called "no such job"
"$BIN" status --config "$tmp/admin.conf" -- -1 > /dev/null 2> "$tmp/badid.err"
check "status -1: a bad job id (exit 2)" "$?" 2
"$BIN" cancel 99999999999999999999999 --config "$tmp/admin.conf" > /dev/null 2>> "$tmp/badid.err"
check "cancel of an id past 2^64: a bad job id (exit 2)" "$?" 2
has "and says so" "$tmp/badid.err" "hyeongse cancel: bad job id '99999999999999999999999'"
hasnt "without asking the broker" "$tmp/badid.err" "no such job"

# ---- a worker lost (kill -9), one stopped by SIGHUP
kill -9 "$w1"; wait "$w1" 2>/dev/null
wait_for "$tmp/broker.log" "worker gpu-host-1 removed"
has "log: the lost worker" "$tmp/broker.log" "worker gpu-host-1 removed ("
"$BIN" worker --connect "$addr" --threads 1 --heartbeat-ms 200 --name gpu-host-2 \
    --engines noop --key "$K/w1" "${SK[@]}" 2> "$tmp/w2.log" &
w2=$!; pids+=("$w2")
wait_for "$tmp/w2.log" "gpu-host-2 connected"
kill -HUP "$w2"; wait "$w2"
check "worker: SIGHUP stops it cleanly (exit 0)" "$?" 0
has "and its last line says so" "$tmp/w2.log" "gpu-host-2 stopped by SIGHUP:"
wait_for "$tmp/broker.log" "worker gpu-host-2 removed"
has "log: the worker that left" "$tmp/broker.log" "worker gpu-host-2 removed (disconnected"

# ---- the broker: SIGHUP stops it cleanly too (no reload)
kill -HUP "$broker_pid"; wait "$broker_pid"
check "broker: SIGHUP stops it cleanly (exit 0)" "$?" 0
check "its --ready-file is removed" "$([ -e "$broker_ready" ] && echo there || echo gone)" gone
has "log: the stop line" "$tmp/broker.log" "hyeongse broker: stopping: "
has "log: stopped by SIGHUP, no reload" "$tmp/broker.log" "stopped by SIGHUP: the broker has no reload"
has "log: serving" "$tmp/broker.log" "serving on $addr"
check "log: no per-task line without --verbose" "$(grep -c ' task [0-9]' "$tmp/broker.log")" 0

# ---- an upload stopped by Ctrl-C says how to resume it: a broker whose queue
# holds one game and no worker empties it, so the upload waits for credit
# until SIGINT; its job and token are printed (they were printed nowhere), and
# once canceled the job no longer says "(receiving)"
mkdir -p "$tmp/three"
for m in aa bb cc; do
    printf '(;GM[1]FF[4]SZ[9]KM[7];B[ee];W[%s])\n' "$m" > "$tmp/three/$m.sgf"
done
start_broker_at 'tcp://127.0.0.1:*' "$tmp/db2" "$tmp/broker2.log" --heartbeat-ms 200 \
    --queue-max 1 || exit 1
pids+=("$bpid")
"$BIN" submit "$tmp/three" --broker "$addr" --engines noop --token stopme \
    > /dev/null 2> "$tmp/stop.err" &
sub=$!
wait_for "$tmp/stop.err" "waiting for room"
kill -INT "$sub"; wait "$sub"
check "submit stopped by SIGINT while it waits: exit 130" "$?" 130
has "it names the job and the token that resume it" "$tmp/stop.err" \
    "hyeongse submit: stopped by SIGINT: job 1 (token stopme) keeps the games sent so far; the same command with --token stopme resumes the upload"
"$BIN" status 1 --broker "$addr" > "$tmp/stop.st" 2>&1
has "the job still takes its upload" "$tmp/stop.st" "(receiving)"
"$BIN" cancel 1 --broker "$addr" > /dev/null 2>&1
"$BIN" status 1 --broker "$addr" > "$tmp/stop.st" 2>&1
has "canceled" "$tmp/stop.st" "canceled"
hasnt "and no longer receiving" "$tmp/stop.st" "(receiving)"
exit $fail
