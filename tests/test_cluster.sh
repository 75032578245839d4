#!/usr/bin/env bash
# tests/test_cluster.sh — reliability of the cluster as separate processes on
# loopback (127.0.0.1, on a port the kernel picks, or for the restarts, a free one
# below the ephemeral range):
#   A. broker + 3 workers; `kill -9` one worker mid-job → the job completes, every
#      requested position is stored exactly once (counted in the store), and the
#      broken SGFs mixed into the archive are recorded failed with their reasons;
#      each worker says, without --verbose, when it connected and why it stopped;
#   B. `kill -9` the broker mid-job and start it again on the same store → the job
#      resumes and completes: nothing lost, nothing stored twice;
#   C. `hyeongse analyze` of the same archive: same counts, in one process;
#   D. `submit --token T` killed mid-upload with the broker (kill -9 both), the
#      broker restarted, the same archive submitted with the same token → the
#      same job id, completed, every game and position counted and stored once.
#   F. an upload waiting for credit (no worker, a full queue; it says so once)
#      is stopped, and the same archive with the same token waits for credit as
#      well instead of being refused at once, then finishes once workers drain
#      the queue; `cancel` of a done job and of no job say which (as `status`);
#   G. --bind and --broker with a tcp port out of 1..65535, --bind with an
#      unknown transport: refused at once with the reason;
#   E. heartbeat intervals that differ: an idle worker heartbeating every 200 ms
#      stays connected to a broker of the default 1 s interval (the broker
#      answers its HEARTBEATs), and an idle worker of the default interval to a
#      broker of 200 ms (the broker waits at least 3 s for a worker); before,
#      each side took the other for lost within 600 ms, over and over;
#   H. a worker without the engines of a job's first queued task runs the tasks
#      behind it that need only engines it has (a job adding an engine to games
#      an earlier job stored): it used to be offered the head task alone, and
#      waited idle while those tasks queued.
#   I. SIGTERM to a busy worker: it starts no new task, gives the queued ones
#      back and exits 0 within seconds (it ran until the job's queue was empty);
#      a second worker finishes the job, every position stored once;
#   J. a second SIGTERM: the worker leaves at once, without waiting for the
#      task under way;
#   K. a job of 12 engine specs (an engine thread held 8 specs, ever);
#   L. a worker whose broker does not answer says so after 10 s; its event
#      lines start with the UTC time, except under systemd's journal.
# Inputs are generated here (120 small 9x9 games + 5 broken files). The engine is
# noop with a delay per position, so the job lasts long enough to kill things.
set -u
BIN=${HS_BIN:?HS_BIN must name the hyeongse binary}
command -v mdb_stat >/dev/null || { echo "SKIP: mdb_stat (lmdb-utils) is needed to count"; exit 77; }

tmp=$(mktemp -d /tmp/hs-test-cluster-XXXXXX)
pids=()
fail=0
trap cleanup_pids EXIT

# check, free_port, start_broker_at
. "$(dirname "$0")/lib.sh"
# The UTC time that starts every event line of a worker or broker (core/log.h).
STAMP='[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z'

# ---- inputs: game i has Black on columns a-d and White on f-i, in an order
# rotated by i (never a capture, every move legal), 30 - 2*(i/36) moves.
mkdir -p "$tmp/games"
letters=abcdefghi
expected=0
for i in $(seq 0 119); do
    n=$((30 - 2 * (i / 36)))
    s="(;GM[1]FF[4]SZ[9]KM[7]PB[black$((i % 7))]PW[white$((i % 5))]RE[B+R]"
    for k in $(seq 0 $((n - 1))); do
        half=$((k / 2)); idx=$(((half + i) % 36)); x=$((idx % 4)); y=$((idx / 4))
        if [ $((k % 2)) -eq 0 ]; then s+=";B[${letters:x:1}${letters:y:1}]"
        else s+=";W[${letters:8-x:1}${letters:y:1}]"; fi
    done
    printf '%s)\n' "$s" > "$tmp/games/g$(printf %03d "$i").sgf"
    expected=$((expected + n + 1))
done
printf '(;GM[1]SZ[9];B[aa];W[' > "$tmp/games/broken1.sgf"           # truncated
printf '(;GM[1]SZ[9];B[ee];W[ee])\n' > "$tmp/games/broken2.sgf"     # occupied point
printf 'this is not SGF at all\n' > "$tmp/games/broken3.sgf"        # syntax
printf '(;GM[1]SZ[40];B[aa])\n' > "$tmp/games/broken4.sgf"          # board too big
: > "$tmp/games/broken5.sgf"                                        # empty
broken=5
games=120
echo "inputs: $games games ($expected positions) + $broken broken files"


count() {   # count DB NAME: entries of a named LMDB database
    mdb_stat -s "$2" "$1" 2>/dev/null | awk '/Entries:/ {print $2}'
}

stats_field() {   # stats_field DB FIELD: from `hyeongse query --db DB stats --json` when present
    "$BIN" query --db "$1" stats --json 2>/dev/null | grep -o "\"$2\": *[0-9]*" | grep -o '[0-9]*$'
}

job_field() {   # job_field ADDR JOB FIELD
    "$BIN" status "$2" --broker "$1" --json 2>/dev/null | grep -o "\"$3\":[^,}]*" | head -1 | cut -d: -f2 | tr -d '"'
}

wait_positions() {   # wait_positions ADDR JOB N: until N positions are done (30 s at most)
    for _ in $(seq 300); do
        local d
        d=$(job_field "$1" "$2" positions_done)
        [ -n "$d" ] && [ "$d" -ge "$3" ] && return 0
        sleep 0.1
    done
    return 1
}

wait_job_done() {   # wait_job_done ADDR JOB TENTHS: 0 once the job is done, 1 after TENTHS/10 s
    for _ in $(seq "$3"); do
        [ "$(job_field "$1" "$2" state)" = "done" ] && return 0
        sleep 0.1
    done
    return 1
}

wait_gone() {   # wait_gone PID TENTHS: 0 once PID has exited, 1 after TENTHS/10 s
    for _ in $(seq "$2"); do
        kill -0 "$1" 2>/dev/null || return 0
        sleep 0.1
    done
    return 1
}

start_broker() {   # start_broker ADDR DB LOG [OPTIONS]: serving on addr (ADDR may end in :*)
    local rc=0
    start_broker_at "$1" "$2" "$3" --heartbeat-ms 200 --verbose "${@:4}" || rc=1
    pids+=("$bpid")
    return $rc
}

start_workers() {   # start_workers ADDR: three worker processes, one thread each
    wpids=()
    for w in 1 2 3; do
        "$BIN" worker --connect "$1" --threads 1 --heartbeat-ms 200 --name "w$w" 2>>"$tmp/workers.log" &
        wpids+=("$!")
        pids+=("$!")
    done
}

stop_all() {   # stop_all LABEL: SIGTERM everyone; live workers and the broker leave cleanly (exit 0)
    local p rc
    for p in "${wpids[@]}" "$bpid"; do kill -TERM "$p" 2>/dev/null; done
    for p in "${wpids[@]}"; do
        wait "$p" 2>/dev/null; rc=$?
        [ "$p" = "${killed:-}" ] || check "$1: worker $p left cleanly on SIGTERM" "$rc" 0
    done
    wait "$bpid" 2>/dev/null; check "$1: broker stopped cleanly on SIGTERM" "$?" 0
}

verify_store() {   # verify_store DB LABEL
    check "$2: positions stored exactly once" "$(count "$1" moves)" "$expected"
    check "$2: failed games recorded" "$(count "$1" failed)" "$broken"
    check "$2: games stored" "$(count "$1" games)" "$games"
    local q
    q=$(stats_field "$1" positions)
    if [ -n "$q" ]; then
        check "$2: query stats positions" "$q" "$expected"
        check "$2: query stats failed_games" "$(stats_field "$1" failed_games)" "$broken"
    fi
}

ENGINES="noop:delay_us=2000"

# ---- A: kill -9 a worker mid-job ------------------------------------------
start_broker 'tcp://127.0.0.1:*' "$tmp/dbA" "$tmp/brokerA.log" || exit 1
start_workers "$addr"
"$BIN" submit "$tmp/games" --broker "$addr" --engines "$ENGINES" --wait >"$tmp/submitA.out" 2>"$tmp/submitA.err" &
spid=$!; pids+=("$spid")
if wait_positions "$addr" 1 300; then
    killed=${wpids[0]}
    kill -9 "$killed"
    echo "A: killed worker ${wpids[0]} at $(job_field "$addr" 1 positions_done) positions"
else
    echo "FAIL: A: job made no progress"; fail=1
fi
wait "$spid"; check "A: submit --wait exit status" "$?" 0
check "A: job state" "$(job_field "$addr" 1 state)" "done"
check "A: games done" "$(job_field "$addr" 1 games_done)" "$games"
check "A: games failed" "$(job_field "$addr" 1 games_failed)" "$broken"
check "A: positions done" "$(job_field "$addr" 1 positions_done)" "$expected"
grep -Eq "removed \((heartbeat expired|unreachable)\)" "$tmp/brokerA.log"; check "A: broker expired the killed worker" "$?" 0
stop_all A
# Without --verbose, a worker still says when the broker answered and why it stopped.
grep -Eq "^$STAMP hyeongse worker: w2 connected to $addr: 1 threads, engines " "$tmp/workers.log"
check "A: worker w2 said it connected" "$?" 0
grep -Eq "^$STAMP hyeongse worker: w2 stopped by SIGTERM: [0-9]+ tasks done" "$tmp/workers.log"
check "A: worker w2 said it stopped, and why" "$?" 0
verify_store "$tmp/dbA" A
# The reasons are kept: the truncated and the illegal game say why.
strings "$tmp/dbA/data.mdb" | grep -q "illegal" ; check "A: reason of the illegal game stored" "$?" 0

# ---- B: kill -9 the broker mid-job, restart it ----------------------------
# The restart must come back on the same address: a fixed free port.
port=$(free_port); [ "$port" != 0 ] || { echo "no free port"; exit 1; }
start_broker "tcp://127.0.0.1:$port" "$tmp/dbB" "$tmp/brokerB.log" || exit 1
start_workers "$addr"
"$BIN" submit "$tmp/games" --broker "$addr" --engines "$ENGINES" --wait >"$tmp/submitB.out" 2>"$tmp/submitB.err" &
spid=$!; pids+=("$spid")
if wait_positions "$addr" 1 400; then
    kill -9 "$bpid"; wait "$bpid" 2>/dev/null
    echo "B: killed the broker; restarting it"
    sleep 0.3
    start_broker "$addr" "$tmp/dbB" "$tmp/brokerB.log"
else
    echo "FAIL: B: job made no progress"; fail=1
fi
wait "$spid"; check "B: submit --wait exit status after the broker restart" "$?" 0
check "B: job state" "$(job_field "$addr" 1 state)" "done"
check "B: games done" "$(job_field "$addr" 1 games_done)" "$games"
check "B: positions done" "$(job_field "$addr" 1 positions_done)" "$expected"
grep -q "journal: 1 jobs, [0-9]* tasks pending" "$tmp/brokerB.log"; check "B: the restarted broker resumed from the journal" "$?" 0
killed=
stop_all B
verify_store "$tmp/dbB" B

# ---- D: a job token survives a broker restart --------------------------------
# A broker without workers and with a tiny queue makes the upload wait for credit;
# the client and then the broker are killed mid-upload (kill -9). Submitting the
# same archive with the same token to the restarted broker joins the SAME job: the
# games it took before are skipped, the job completes, and every game and position
# is counted and stored exactly once.
port=$(free_port); [ "$port" != 0 ] || { echo "no free port"; exit 1; }
token="resume-me-42"
start_broker "tcp://127.0.0.1:$port" "$tmp/dbD" "$tmp/brokerD.log" --queue-max 8 || exit 1
"$BIN" submit "$tmp/games" --broker "$addr" --engines "$ENGINES" --token "$token" >"$tmp/submitD1.out" 2>"$tmp/submitD1.err" &
spid=$!; pids+=("$spid")
taken=
for _ in $(seq 100); do
    taken=$(job_field "$addr" 1 games_total)
    [ -n "$taken" ] && [ "$taken" -ge 3 ] && break
    sleep 0.1
done
check "D: mid-upload, input not complete" "$(job_field "$addr" 1 input_complete)" "false"
kill -9 "$spid"; wait "$spid" 2>/dev/null
kill -9 "$bpid"; wait "$bpid" 2>/dev/null
echo "D: killed the client and the broker after $taken of $((games + broken)) games"
start_broker "$addr" "$tmp/dbD" "$tmp/brokerD.log"
start_workers "$addr"
"$BIN" submit "$tmp/games" --broker "$addr" --engines "$ENGINES" --token "$token" --wait >"$tmp/submitD2.out" 2>"$tmp/submitD2.err"
check "D: resubmit --wait exit status" "$?" 0
check "D: the same job id, token printed" "$(grep -c "^job 1 (token $token)" "$tmp/submitD2.out")" 1
check "D: one job only" "$("$BIN" status --broker "$addr" --json | grep -o '"id":' | wc -l)" 1
check "D: job state" "$(job_field "$addr" 1 state)" "done"
check "D: games counted once" "$(job_field "$addr" 1 games_total)" "$((games + broken))"
check "D: games done" "$(job_field "$addr" 1 games_done)" "$games"
check "D: games failed" "$(job_field "$addr" 1 games_failed)" "$broken"
check "D: positions done" "$(job_field "$addr" 1 positions_done)" "$expected"
killed=
stop_all D
verify_store "$tmp/dbD" D

# ---- F: an upload resumed while the queue is full ------------------------------
# No worker and a tiny queue: the upload waits for credit, and says so once on
# stderr (not a terminal here). It is stopped there, as by a Ctrl-C (SIGTERM:
# a script's background job ignores SIGINT); the same archive with the same
# token must wait for credit as the first did, not be refused at once ("game
# limit: ... granted 0 more games"), and finish once workers drain the queue:
# one job, each game counted once.
start_broker 'tcp://127.0.0.1:*' "$tmp/dbF" "$tmp/brokerF.log" --queue-max 8 || exit 1
token="resume-full-7"
"$BIN" submit "$tmp/games" --broker "$addr" --engines "$ENGINES" --token "$token" \
    >"$tmp/submitF1.out" 2>"$tmp/submitF1.err" &
spid=$!; pids+=("$spid")
for _ in $(seq 100); do
    grep -q "waiting for room" "$tmp/submitF1.err" && break
    sleep 0.1
done
check "F: the upload says once that it waits for credit" \
      "$(grep -c "^hyeongse submit: job 1: the broker gives no credit now.*waiting for room" "$tmp/submitF1.err")" 1
kill -TERM "$spid"; wait "$spid" 2>/dev/null
"$BIN" submit "$tmp/games" --broker "$addr" --engines "$ENGINES" --token "$token" --wait \
    >"$tmp/submitF2.out" 2>"$tmp/submitF2.err" &
spid=$!; pids+=("$spid")
for _ in $(seq 100); do
    grep -q "waiting for room" "$tmp/submitF2.err" && break
    kill -0 "$spid" 2>/dev/null || break
    sleep 0.1
done
kill -0 "$spid" 2>/dev/null; check "F: the resumed upload waits (not refused)" "$?" 0
check "F: and says so" "$(grep -c "^hyeongse submit: job 1: .*waiting for room" "$tmp/submitF2.err")" 1
start_workers "$addr"
wait "$spid"; check "F: the resumed upload finishes (exit 0)" "$?" 0
check "F: the same job, token printed" "$(grep -c "^job 1 (token $token)" "$tmp/submitF2.out")" 1
check "F: one job only" "$("$BIN" status --broker "$addr" --json | grep -o '"id":' | wc -l)" 1
check "F: job state" "$(job_field "$addr" 1 state)" "done"
check "F: games counted once" "$(job_field "$addr" 1 games_total)" "$((games + broken))"
check "F: positions done" "$(job_field "$addr" 1 positions_done)" "$expected"

# cancel tells a job that ended from one that never was (as `status JOB` does).
"$BIN" cancel 1 --broker "$addr" >"$tmp/cancel1.out" 2>&1
check "F: cancel of a done job: exit 1" "$?" 1
check "F: it says the job is done" "$(cat "$tmp/cancel1.out")" "job 1: not running (done: nothing to cancel)"
"$BIN" cancel 99 --broker "$addr" >"$tmp/cancel99.out" 2>&1
check "F: cancel of no job: exit 1" "$?" 1
check "F: it says there is no such job" "$(cat "$tmp/cancel99.out")" "hyeongse cancel: job 99: no such job"
"$BIN" status 99 --broker "$addr" >/dev/null 2>&1
check "F: as status does (exit 1)" "$?" 1
killed=
stop_all F

# ---- G: addresses libzmq would take wrong without a word ----------------------
# A port past 65535 binds its low 16 bits (99999: 34463); an unknown transport
# was called "reachable from the network". Refused at once, with the reason.
for bad in 99999 70000 -1; do
    timeout 10 "$BIN" broker --bind "tcp://127.0.0.1:$bad" --db "$tmp/dbG" >/dev/null 2>"$tmp/bindG.err"
    check "G: --bind port $bad: exit 2" "$?" 2
    check "G: and why" "$(grep -c "port $bad is out of range (1..65535" "$tmp/bindG.err")" 1
done
timeout 10 "$BIN" broker --bind "foo://bar" --db "$tmp/dbG" >/dev/null 2>"$tmp/bindG.err"
check "G: --bind foo://bar: exit 2" "$?" 2
check "G: an unknown transport, not a network address" \
      "$(grep -c "unknown transport 'foo'" "$tmp/bindG.err"),$(grep -c network "$tmp/bindG.err")" "1,0"
timeout 10 "$BIN" status --broker tcp://127.0.0.1:70000 >/dev/null 2>"$tmp/addrG.err"
check "G: status --broker with port 70000: exit 1" "$?" 1
check "G: and why" "$(grep -c "port 70000 is out of range" "$tmp/addrG.err")" 1

# ---- C: the embedded path --------------------------------------------------
"$BIN" analyze "$tmp/games" --db "$tmp/dbC" --threads 2 --engines area --quiet >"$tmp/analyze.out" 2>&1
check "C: analyze exit status" "$?" 0
verify_store "$tmp/dbC" C
grep -q "$games analyzed, $broken failed" "$tmp/analyze.out"; check "C: analyze summary" "$?" 0

# ---- E: heartbeat intervals that differ --------------------------------------
# s_mixed BROKER_HB WORKER_HB TAG: an idle broker and worker for 3 s; neither
# may give up on the other.
s_mixed() {
    local bopts=() wopts=()
    [ -n "$1" ] && bopts=(--heartbeat-ms "$1")
    [ -n "$2" ] && wopts=(--heartbeat-ms "$2")
    start_broker_at "tcp://127.0.0.1:*" "$tmp/db$3" "$tmp/broker$3.log" --verbose "${bopts[@]}" ||
        { check "$3: broker started" 1 0; return; }
    pids+=("$bpid")
    "$BIN" worker --connect "$addr" --threads 1 --name "w$3" --engines noop --verbose \
        "${wopts[@]}" 2>"$tmp/worker$3.log" &
    local wpid=$!
    pids+=("$wpid")
    sleep 3
    kill -TERM "$wpid" "$bpid" 2>/dev/null
    wait "$wpid" "$bpid" 2>/dev/null
    check "$3: the worker connected" "$(grep -c "w$3 connected to" "$tmp/worker$3.log")" 1
    check "$3: it never reconnected" "$(grep -c -E 'silent|again|reconnecting' "$tmp/worker$3.log")" 0
    check "$3: the broker never dropped it" \
          "$(grep -c -E 'removed \((heartbeat expired|unreachable)\)' "$tmp/broker$3.log")" 0
}
s_mixed "" 200 E1
s_mixed 200 "" E2

# ---- H: a worker runs the queued tasks it can, not only the first ----------
# Job 1 stores games 10-119 with area. Job 2 asks area and influence of all
# 120: games 0-9 (the head of its queue) need both, 10-119 influence only. A
# worker offering influence alone must run those 110 games while 0-9 wait.
mkdir -p "$tmp/later"
cp "$tmp"/games/g0[1-9]?.sgf "$tmp"/games/g1??.sgf "$tmp/later/"
start_broker 'tcp://127.0.0.1:*' "$tmp/dbH" "$tmp/brokerH.log" || exit 1
"$BIN" worker --connect "$addr" --threads 1 --heartbeat-ms 200 --name wH1 --engines area \
    2>>"$tmp/workersH.log" &
wpids=("$!"); pids+=("$!")
"$BIN" submit "$tmp/later" --broker "$addr" --engines area --wait >/dev/null 2>"$tmp/submitH1.err"
check "H: job 1 (area, games 10-119) exit status" "$?" 0
kill -TERM "${wpids[0]}"; wait "${wpids[0]}" 2>/dev/null
"$BIN" worker --connect "$addr" --threads 1 --heartbeat-ms 200 --name wH2 --engines influence \
    2>>"$tmp/workersH.log" &
wpids=("$!"); pids+=("$!")
"$BIN" submit "$tmp/games" --broker "$addr" --engines area,influence >/dev/null 2>"$tmp/submitH2.err"
check "H: job 2 (area,influence, every game) submitted" "$?" 0
done_h=0
for _ in $(seq 300); do
    done_h=$(job_field "$addr" 2 games_done)
    [ "${done_h:-0}" -ge 110 ] && break
    sleep 0.1
done
check "H: the influence-only worker ran the 110 games that needed only influence" "$done_h" 110
check "H: games 0-9 wait for a worker with area" "$(job_field "$addr" 2 state)" "running"
"$BIN" worker --connect "$addr" --threads 1 --heartbeat-ms 200 --name wH3 2>>"$tmp/workersH.log" &
wpids+=("$!"); pids+=("$!")
wait_job_done "$addr" 2 300; wait_done=$?
check "H: job 2 done once a worker with both engines came" "$wait_done" 0
check "H: job 2 games done" "$(job_field "$addr" 2 games_done)" "$games"
stop_all H
check "H: every position stored once" "$(count "$tmp/dbH" moves)" "$expected"

# ---- I: SIGTERM stops a busy worker ------------------------------------------
# The broker refills a worker's credit with every RESULT, so a worker that
# waited for its queue to empty on SIGTERM ran on for as long as the job had
# work (40+ s, thousands of positions). It must start no new task: the tasks
# under way finish and are sent, the queued ones go back to the broker with
# the DISCONNECT, and it exits 0 within seconds. A second worker then finishes
# the job: every position stored exactly once.
start_broker 'tcp://127.0.0.1:*' "$tmp/dbI" "$tmp/brokerI.log" || exit 1
"$BIN" worker --connect "$addr" --threads 1 --heartbeat-ms 200 --name wI1 2>"$tmp/workerI1.log" &
wI=$!; pids+=("$wI")
wpids=()
"$BIN" submit "$tmp/games" --broker "$addr" --engines "noop:delay_us=5000" >/dev/null 2>"$tmp/submitI.err"
check "I: job submitted" "$?" 0
if wait_positions "$addr" 1 200; then
    kill -TERM "$wI"
    wait_gone "$wI" 100; gone=$?
    check "I: the worker left within 10 s of SIGTERM" "$gone" 0
    [ "$gone" = 0 ] || kill -9 "$wI"
    wait "$wI"; check "I: its exit status" "$?" 0
    check "I: it left the job unfinished (no queue run to the end)" "$(job_field "$addr" 1 state)" "running"
    grep -Eq "^$STAMP hyeongse worker: wI1 stopped by SIGTERM: [0-9]+ tasks done, .*, [1-9][0-9]* tasks given back$" \
        "$tmp/workerI1.log"
    check "I: it said how many tasks it gave back" "$?" 0
else
    echo "FAIL: I: job made no progress"; fail=1
fi
"$BIN" worker --connect "$addr" --threads 4 --heartbeat-ms 200 --name wI2 2>"$tmp/workerI2.log" &
wpids=("$!"); pids+=("$!")
wait_job_done "$addr" 1 600; done_i=$?
check "I: a second worker finished the job" "$done_i" 0
check "I: positions done" "$(job_field "$addr" 1 positions_done)" "$expected"
check "I: games done" "$(job_field "$addr" 1 games_done)" "$games"
killed=
stop_all I
verify_store "$tmp/dbI" I

# ---- J: a second SIGTERM leaves at once ----------------------------------------
# Tasks of 1 s a position, one position an engine call (--batch 1): after the
# first SIGTERM the worker waits for the task under way (about 30 s); the
# second makes it disconnect at once and exit once the engine call returns.
start_broker 'tcp://127.0.0.1:*' "$tmp/dbJ" "$tmp/brokerJ.log" || exit 1
"$BIN" worker --connect "$addr" --threads 1 --batch 1 --heartbeat-ms 200 --name wJ \
    2>"$tmp/workerJ.log" &
wJ=$!; pids+=("$wJ")
"$BIN" submit "$tmp/games" --broker "$addr" --engines "noop:delay_us=1000000" >/dev/null 2>"$tmp/submitJ.err"
check "J: job submitted" "$?" 0
for _ in $(seq 100); do
    grep -q "wJ connected" "$tmp/workerJ.log" && break
    sleep 0.1
done
sleep 1.5
kill -TERM "$wJ"; sleep 1
kill -0 "$wJ" 2>/dev/null; check "J: after one SIGTERM it waits for the task under way" "$?" 0
kill -TERM "$wJ"
wait_gone "$wJ" 50; gone=$?
check "J: the second SIGTERM made it leave within 5 s" "$gone" 0
[ "$gone" = 0 ] || kill -9 "$wJ"
wait "$wJ"; check "J: its exit status" "$?" 0
grep -Eq "^$STAMP hyeongse worker: wJ stopped by SIGTERM twice \(left at once\): 0 tasks done, .*, [1-9][0-9]* tasks given back$" \
    "$tmp/workerJ.log"
check "J: it said it left at once, giving back its tasks" "$?" 0
kill -TERM "$bpid"; wait "$bpid"; check "J: broker stopped cleanly" "$?" 0

# ---- K: a job of 12 engine specs ------------------------------------------------
# An engine thread kept 8 engine instances for its life and never evicted one:
# a job of 9..16 specs (the wire allows 16) failed every task. One small game
# with 12 specs: every position evaluated by each (tests/test_worker_engines.c
# runs one thread through 24 specs in turn).
mkdir -p "$tmp/one"
cp "$tmp/games/g000.sgf" "$tmp/one/"
specs="influence:tau=1"
for t in $(seq 2 10); do specs+=",influence:tau=$t"; done
specs+=",judge,area"
"$BIN" analyze "$tmp/one" --db "$tmp/dbK" --threads 1 --engines "$specs" --quiet \
    >"$tmp/analyzeK.out" 2>&1
check "K: analyze of 12 specs: exit status" "$?" 0
check "K: engines stored" "$(count "$tmp/dbK" engines)" 12
check "K: every position by every spec" "$(count "$tmp/dbK" evaldata)" $((31 * 12))

# ---- L: a worker whose broker does not answer says so ---------------------------
# Nothing listens on the port: without --verbose the worker used to print
# nothing for as long as it ran. It must say so after about 10 s.
port=$(free_port); [ "$port" != 0 ] || { echo "no free port"; exit 1; }
"$BIN" worker --connect "tcp://127.0.0.1:$port" --threads 1 --name wL 2>"$tmp/workerL.log" &
wL=$!; pids+=("$wL")
said=1
for _ in $(seq 150); do
    grep -Eq "^$STAMP hyeongse worker: wL: no answer from tcp://127\.0\.0\.1:$port for 1[0-9] s: is the broker running, and is the address right\? still trying$" \
        "$tmp/workerL.log" && { said=0; break; }
    sleep 0.1
done
check "L: no answer for 10 s: said so within 15 s" "$said" 0
kill -TERM "$wL"; wait "$wL"; check "L: it stops on SIGTERM (exit 0)" "$?" 0
# Under systemd (JOURNAL_STREAM names stderr's device and inode) the journal
# stamps each line itself: the worker leaves its own stamp out.
: >"$tmp/workerJ.log"
JOURNAL_STREAM=$(stat -c '%d:%i' "$tmp/workerJ.log") "$BIN" worker \
    --connect "tcp://127.0.0.1:$port" --threads 1 --name wLJ 2>>"$tmp/workerJ.log" &
wLJ=$!; pids+=("$wLJ")
sleep 0.5; kill -TERM "$wLJ"; wait "$wLJ"
grep -Eq "^hyeongse worker: stopped by SIGTERM without the broker at tcp://127\.0\.0\.1:$port ever answering$" \
    "$tmp/workerJ.log"
check "L: under the journal, no stamp of its own" "$?" 0

if [ "$fail" != 0 ]; then
    echo "--- logs ---"; tail -n 20 "$tmp"/broker*.log "$tmp"/submit*.err "$tmp/analyze.out"
    exit 1
fi
echo "all cluster checks passed"
