#!/usr/bin/env bash
# tests/test_status_cluster.sh — `hyeongse status --cluster [--json]`:
#   - a job queued on a broker without workers: the queue depth (tasks queued,
#     positions pending, jobs running) and an empty worker list;
#   - two workers offering different engines run it: both are listed with their
#     engines, each did work (positions done > 0, rate > 0), their positions
#     add up to the job's, nothing is queued or leased after it and no job runs;
#   - the text table shows one line a worker, and the broker's line;
#   - --cluster with a JOB is refused;
#   - a lease that expires is counted against its worker (requeued), with no
#     positions done: a broker with --lease-ms 100 and one attempt, a worker
#     whose noop sleeps 1 s a position (the lease is long gone when it ends);
#   - a job whose engines no live worker runs says so, on the broker's stderr
#     once and as its reason in `status`, until a worker that runs them comes.
set -u
BIN=${HS_BIN:?HS_BIN must name the hyeongse binary}
command -v python3 > /dev/null || { echo "python3 not found: skipped"; exit 77; }
tmp=$(mktemp -d /tmp/hs-test-cluster-status-XXXXXX)
bpid=
wpids=()
trap 'kill "${wpids[@]}" $bpid 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT
fail=0
# check, start_broker_at
. "$(dirname "$0")/lib.sh"

# jq-free JSON reads: py EXPR evaluates EXPR with the last --json answer as j.
py() { python3 -c "import json,sys; j=json.load(open('$tmp/c.json')); print($1)"; }
cluster_json() { "$BIN" status --cluster --json --broker "$addr" > "$tmp/c.json"; }

tar xzf "$(dirname "$0")/../examples/selfplay.tar.gz" -C "$tmp" selfplay9 || exit 1
start_broker_at "tcp://127.0.0.1:*" "$tmp/db" "$tmp/broker.log" || exit 1

# --- a queued job, no worker ------------------------------------------------
# noop sleeps 20 ms a position (263 positions: about 5 s for one worker), so the
# second worker is in long before the first could finish alone, even on a loaded
# machine: two workers with one task at a time share it.
"$BIN" submit "$tmp/selfplay9" --broker "$addr" --engines noop:delay_us=20000 \
    --name queued > /dev/null 2>&1
check "submit exit status" "$?" 0
cluster_json
check "--cluster --json exit status" "$?" 0
check "no worker yet" "$(py 'len(j["worker_list"])')" 0
check "one job running" "$(py 'j["jobs_running"]')" 1
check "its tasks are queued" "$(py 'j["queued_tasks"] > 0 and j["leased_tasks"] == 0')" True
check "its positions are pending" "$(py 'j["positions_pending"] > 0')" True
check "uptime is said" "$(py 'j["uptime_s"] >= 0')" True
total=$("$BIN" status 1 --json --broker "$addr" | python3 -c \
        'import json,sys; print(json.load(sys.stdin)["jobs"][0]["positions_total"])')
check "pending = the job's positions" "$(py 'j["positions_pending"]')" "$total"

# --- two workers with different engines run it --------------------------------
"$BIN" worker --connect "$addr" --threads 1 --credit 1 --engines noop,area --name wA \
    2>> "$tmp/workers.log" &
wpids+=($!)
"$BIN" worker --connect "$addr" --threads 1 --credit 1 --engines noop,influence --name wB \
    2>> "$tmp/workers.log" &
wpids+=($!)
for _ in $(seq 600); do
    state=$("$BIN" status 1 --json --broker "$addr" 2>/dev/null | python3 -c \
            'import json,sys; print(json.load(sys.stdin)["jobs"][0]["state"])' 2>/dev/null)
    [ "$state" = done ] && break
    sleep 0.1
done
check "the job is done" "$state" done
cluster_json
check "both workers listed" "$(py 'sorted(w["name"] for w in j["worker_list"])')" \
      "['wA', 'wB']"
check "their engines" \
      "$(py '[",".join(e.split("@")[0] for e in w["engines"]) for w in sorted(j["worker_list"], key=lambda w: w["name"])]')" \
      "['noop,area', 'noop,influence']"
check "each did work" "$(py 'all(w["positions_done"] > 0 and w["tasks_done"] > 0 for w in j["worker_list"])')" True
check "each has a rate > 0" "$(py 'all(w["rate"] > 0 for w in j["worker_list"])')" True
# What they evaluated: the job's positions, less those a TASK left out because
# the store held their evals already (a repeat whose first eval was stored
# by then: broker_reuse.c), which depends on the timing.
check "their positions are the job's, less the repeats" \
      "$(py '0 < sum(w["positions_done"] for w in j["worker_list"]) <= '"$total")" True
check "no failure" "$(py 'sum(w["errors"] + w["requeued"] for w in j["worker_list"])')" 0
check "nothing leased now" "$(py '[w["tasks"] + w["leased_positions"] for w in j["worker_list"]]')" "[0, 0]"
check "the queue is empty" \
      "$(py '(j["queued_tasks"], j["leased_tasks"], j["positions_pending"], j["jobs_running"])')" \
      "(0, 0, 0, 0)"
check "backend key present" "$(py 'all("backend" in w and "nets" in w for w in j["worker_list"])')" True

# --- the table ------------------------------------------------------------------
"$BIN" status --cluster --broker "$addr" > "$tmp/c.txt"
check "--cluster exit status" "$?" 0
check "the broker's line" "$(grep -c '^broker: up .* 0 jobs running, 0 tasks queued' "$tmp/c.txt")" 1
check "the header" "$(grep -c '^WORKER  *ENGINES  *BACKEND  *TASKS' "$tmp/c.txt")" 1
check "wA's line" "$(grep -c '^wA  *noop,area[@0-9]* ' "$tmp/c.txt")" 1
check "wB's line" "$(grep -c '^wB  *noop,influence[@0-9]* ' "$tmp/c.txt")" 1
# Aligned: the ENGINES column starts at the same offset on every line.
check "aligned" "$(awk 'NR > 1 { print index($0, $2) }' "$tmp/c.txt" | sort -u | wc -l)" 1

"$BIN" status 1 --cluster --broker "$addr" > /dev/null 2>&1
check "--cluster with JOB is refused" "$?" 2
kill "${wpids[@]}" "$bpid" 2>/dev/null
wait "${wpids[@]}" "$bpid" 2>/dev/null
wpids=()

# --- an expired lease -----------------------------------------------------------
start_broker_at "tcp://127.0.0.1:*" "$tmp/db2" "$tmp/broker2.log" --lease-ms 100 \
    --max-attempts 1 || exit 1
printf '(;GM[1]FF[4]SZ[9]KM[7];B[ee])\n' > "$tmp/one.sgf"
"$BIN" worker --connect "$addr" --threads 1 --credit 1 --engines noop --name slow \
    2>> "$tmp/workers.log" &
wpids+=($!)
"$BIN" submit "$tmp/one.sgf" --broker "$addr" --engines noop:delay_us=1000000 \
    > /dev/null 2>&1
check "submit of the slow job" "$?" 0
state=
for _ in $(seq 600); do
    state=$("$BIN" status 1 --json --broker "$addr" 2>/dev/null | python3 -c \
            'import json,sys; print(json.load(sys.stdin)["jobs"][0]["state"])' 2>/dev/null)
    [ "$state" != running ] && [ -n "$state" ] && break
    sleep 0.1
done
check "the job ended" "$state" done
check "its game failed (its one attempt expired)" "$("$BIN" status 1 --json --broker "$addr" | \
      python3 -c 'import json,sys; print(json.load(sys.stdin)["jobs"][0]["games_failed"])')" 1
cluster_json
check "the expired lease counts against the worker" \
      "$(py '[(w["name"], w["requeued"], w["positions_done"], w["tasks"]) for w in j["worker_list"]]')" \
      "[('slow', 1, 0, 0)]"
kill -9 "${wpids[@]}" 2>/dev/null   # its 2-s task is nobody's any more
wait "${wpids[@]}" 2>/dev/null
kill "$bpid" 2>/dev/null; wait "$bpid" 2>/dev/null
wpids=()

# --- a job no live worker can run ---------------------------------------------
# heartbeats of 200 ms: the broker looks after 10 of them (2 s) without a lease.
start_broker_at "tcp://127.0.0.1:*" "$tmp/db3" "$tmp/broker3.log" --heartbeat-ms 200 || exit 1
"$BIN" worker --connect "$addr" --threads 1 --heartbeat-ms 200 --engines judge --name onlyjudge \
    2>> "$tmp/workers.log" &
wpids+=($!)
"$BIN" submit "$tmp/one.sgf" --broker "$addr" --engines area,judge > /dev/null 2>&1
why=
for _ in $(seq 100); do
    why=$("$BIN" status 1 --json --broker "$addr" 2>/dev/null | python3 -c \
          'import json,sys; print(json.load(sys.stdin)["jobs"][0].get("reason", ""))' 2>/dev/null)
    [ -n "$why" ] && break
    sleep 0.1
done
check "a job no worker runs: status says why" \
      "$(printf '%s' "$why" | grep -c 'no live worker runs the engines (and nets) of its queued tasks, area,judge; onlyjudge offers judge')" 1
check "a job no worker runs: the broker says it once" \
      "$(grep -c 'job 1 waiting: no live worker runs' "$tmp/broker3.log")" 1
"$BIN" worker --connect "$addr" --threads 1 --heartbeat-ms 200 --name all \
    2>> "$tmp/workers.log" &
wpids+=($!)
state=
for _ in $(seq 100); do
    state=$("$BIN" status 1 --json --broker "$addr" 2>/dev/null | python3 -c \
            'import json,sys; j=json.load(sys.stdin)["jobs"][0]; print(j["state"], "reason" in j)' 2>/dev/null)
    [ "$state" = "done False" ] && break
    sleep 0.1
done
check "a worker that runs them: done, and no reason left" "$state" "done False"
exit $fail
