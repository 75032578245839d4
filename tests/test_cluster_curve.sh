#!/usr/bin/env bash
# tests/test_cluster_curve.sh — a cluster closed by CURVE keys, as separate
# processes on tcp://127.0.0.1 (a port the kernel picks):
#   - keys made with `hyeongse keygen`; a broker with --key and allow-lists
#     (--workers by "@file.pub", --clients and --admins by key);
#   - a listed worker and `submit --wait` with a listed client key: the job
#     finishes, and `query --db` counts every position; an admin reads it
#     through the broker (`query --broker` with keys, options from --config);
#   - `status --cluster` with an admin key shows the worker; with a client key
#     it says that the key is not an admin key and exits 1; --key given a .pub
#     file says that it is the public half;
#   - refused, and told so by a timeout message that names the cause seen in
#     the connection's events: a plaintext client (the broker speaks CURVE), a
#     client with a key the broker does not list (refused), a client with the
#     wrong --server-key (the handshake never ends); an unknown worker never
#     gets a task and says why; after all of them the job list is what it was.
set -u
BIN=${HS_BIN:?HS_BIN must name the hyeongse binary}
tmp=$(mktemp -d /tmp/hs-test-cluster-curve-XXXXXX)
pids=()
fail=0
trap cleanup_pids EXIT
# check, start_broker_at
. "$(dirname "$0")/lib.sh"


# ---- inputs: 12 small 9x9 games, game i with 10 + i moves, never a capture
mkdir -p "$tmp/games"
letters=abcdefghi
expected=0
for i in $(seq 0 11); do
    n=$((10 + i))
    s="(;GM[1]FF[4]SZ[9]KM[7]PB[b$i]PW[w$i]RE[B+R]"
    for k in $(seq 0 $((n - 1))); do
        half=$((k / 2)); idx=$(((half + i) % 36)); x=$((idx % 4)); y=$((idx / 4))
        if [ $((k % 2)) -eq 0 ]; then s+=";B[${letters:x:1}${letters:y:1}]"
        else s+=";W[${letters:8-x:1}${letters:y:1}]"; fi
    done
    printf '%s)\n' "$s" > "$tmp/games/g$(printf %02d "$i").sgf"
    expected=$((expected + n + 1))
done

# ---- keys and lists
mkdir -p "$tmp/keys"
for k in broker w1 c1 admin unknown; do
    "$BIN" keygen --out "$tmp/keys/$k" > /dev/null || { echo "FAIL: keygen $k"; exit 1; }
done
echo "@w1.pub gpu-1" > "$tmp/keys/workers.list"
echo "$(cat "$tmp/keys/c1.pub") client-1" > "$tmp/keys/clients.list"
{ echo "# operators"; echo "$(cat "$tmp/keys/admin.pub") ops"; } > "$tmp/keys/admins.list"
K=$tmp/keys
SK=(--server-key "$K/broker.pub")

start_broker_at 'tcp://127.0.0.1:*' "$tmp/db" "$tmp/broker.log" --heartbeat-ms 200 \
    --key "$K/broker.key" --workers "$K/workers.list" --clients "$K/clients.list" \
    --admins "$K/admins.list" || exit 1
pids+=("$bpid")
echo "broker on $addr"

"$BIN" worker --connect "$addr" --threads 1 --heartbeat-ms 200 --name w1 --engines noop \
    --key "$K/w1" "${SK[@]}" 2> "$tmp/w1.log" &
wpid=$!; pids+=("$wpid")

# ---- the job, with a listed client key
timeout 120 "$BIN" submit "$tmp/games" --broker "$addr" --engines noop --wait \
    --key "$K/c1.key" "${SK[@]}" > "$tmp/submit.out" 2> "$tmp/submit.err"
check "submit --wait with a listed key: exit 0" "$?" 0
has "the job is done" "$tmp/submit.out" "job 1 done"
has "the worker connected" "$tmp/w1.log" "w1 connected to $addr"
positions=$("$BIN" query --db "$tmp/db" stats --json 2>/dev/null | grep -o '"positions": *[0-9]*' | grep -o '[0-9]*$')
check "query --db: every position stored" "${positions:-none}" "$expected"
printf 'broker %s\nkey %s/admin.key\nserver-key %s/broker.pub\n' "$addr" "$K" "$K" > "$tmp/admin.conf"
"$BIN" query --config "$tmp/admin.conf" stats --json > "$tmp/q.out" 2> "$tmp/q.err"
check "query --broker with an admin key (from --config): exit 0" "$?" 0
has "and the positions" "$tmp/q.out" "\"positions\""
jobs_before=$("$BIN" status --config "$tmp/admin.conf" --json 2>/dev/null | grep -o '"id":' | wc -l)
check "one job listed" "$jobs_before" 1

# ---- status --cluster is the admin's: a client key is told so, not shown an
# empty cluster as if the broker were older
"$BIN" status --cluster --config "$tmp/admin.conf" > "$tmp/cl-admin.out" 2>&1
check "status --cluster with an admin key: exit 0" "$?" 0
has "and the broker's line" "$tmp/cl-admin.out" "broker: up "
has "and the worker" "$tmp/cl-admin.out" "w1 "
for fmt in "" --json; do
    "$BIN" status --cluster $fmt --broker "$addr" --key "$K/c1" "${SK[@]}" \
        > "$tmp/cl-client.out" 2> "$tmp/cl-client.err"
    check "status --cluster $fmt with a client key: exit 1" "$?" 1
    has "that says it is not an admin key" "$tmp/cl-client.err" "this key is not an admin key"
    check "and prints no cluster $fmt" "$(wc -c < "$tmp/cl-client.out")" 0
done

# ---- --key given the public half: said so, not "cannot open X.pub.key"
"$BIN" status --broker "$addr" --key "$K/c1.pub" "${SK[@]}" > /dev/null 2> "$tmp/pubkey.err"
check "--key with the .pub file: exit 1" "$?" 1
has "says it is the public key file" "$tmp/pubkey.err" "is the public key file"
has "and names the secret one" "$tmp/pubkey.err" "$K/c1.key"

# ---- refused: plaintext, an unknown key, the wrong server key
"$BIN" status --broker "$addr" > /dev/null 2> "$tmp/plain.err"
check "a plaintext client is refused (exit 1)" "$?" 1
has "with a timeout" "$tmp/plain.err" "no answer from the broker"
has "that says keys may be needed" "$tmp/plain.err" "--key and --server-key"
has "since the broker speaks CURVE" "$tmp/plain.err" "it speaks CURVE and this client has no keys"
"$BIN" status --broker "$addr" --key "$K/unknown" "${SK[@]}" > /dev/null 2> "$tmp/unknown.err"
check "a client with an unknown key is refused (exit 1)" "$?" 1
has "with a timeout naming the list" "$tmp/unknown.err" "--clients or --admins list"
has "since the broker refused the key" "$tmp/unknown.err" "the broker refused this client's key"
"$BIN" cancel 1 --broker "$addr" --key "$K/c1" --server-key "$K/unknown.pub" > /dev/null 2> "$tmp/wrongsk.err"
check "a client with the wrong --server-key gets nothing (exit 1)" "$?" 1
has "with a timeout" "$tmp/wrongsk.err" "no answer from the broker"
has "that names --server-key (the handshake never ended)" "$tmp/wrongsk.err" \
    "is --server-key the broker's public key?"
hasnt_key_list() { if grep -qF -- "$2" "$1"; then echo "FAIL: $3"; fail=1; else echo "ok: $3"; fi; }
hasnt_key_list "$tmp/wrongsk.err" "--clients" "and not the lists (the key was not refused)"
# A submit that is never answered: stopped after a while; it must have created nothing.
timeout 5 "$BIN" submit "$tmp/games" --broker "$addr" --engines noop > /dev/null 2>&1
timeout 5 "$BIN" submit "$tmp/games" --broker "$addr" --engines noop \
    --key "$K/unknown" "${SK[@]}" > /dev/null 2>&1
# Workers: stopped once they have given up on a connection at least once
# (--verbose says "broker silent"), so they surely tried.
"$BIN" worker --connect "$addr" --threads 1 --heartbeat-ms 200 --name stranger --engines noop \
    --verbose --key "$K/unknown" "${SK[@]}" 2> "$tmp/stranger.log" &
spid=$!; pids+=("$spid")
"$BIN" worker --connect "$addr" --threads 1 --heartbeat-ms 200 --name plain --engines noop \
    --verbose 2> "$tmp/plainw.log" &
ppid=$!; pids+=("$ppid")
for _ in $(seq 300); do
    grep -q "broker silent" "$tmp/stranger.log" && grep -q "broker silent" "$tmp/plainw.log" && break
    sleep 0.1
done
kill -TERM "$spid" "$ppid"; wait "$spid" "$ppid" 2>/dev/null
has "an unknown worker is never answered" "$tmp/stranger.log" "without the broker at $addr ever answering"
has "and says which list to check" "$tmp/stranger.log" "--workers list"
has "a plaintext worker is never answered" "$tmp/plainw.log" "ever answering"
jobs_after=$("$BIN" status --config "$tmp/admin.conf" --json 2>/dev/null | grep -o '"id":' | wc -l)
check "the job list is unchanged" "$jobs_after" "$jobs_before"
"$BIN" status 1 --config "$tmp/admin.conf" --json > "$tmp/st.out" 2>&1
has "the job is still done" "$tmp/st.out" '"state":"done"'

kill -TERM "$wpid" "$bpid"
wait "$wpid"; check "the worker left cleanly" "$?" 0
wait "$bpid"; check "the broker stopped cleanly" "$?" 0
exit $fail
