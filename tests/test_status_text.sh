#!/usr/bin/env bash
# tests/test_status_text.sh — what the broker's clients see of names and jobs:
#   - `analyze` of a tar whose member names are Latin-1 bytes (not UTF-8): every
#     game is evaluated (the client sends the names escaped as \xNN, the wire
#     carries only UTF-8), none is failed, and `query failed` is empty;
#   - `status` through a broker with more jobs than a page: the default shows the
#     newest page and says how many more there are; --limit N shows N; --all
#     lists every job once, newest first; --state keeps the jobs in that state;
#     --json carries "total" and "more"; bad options are refused.
set -u
BIN=${HS_BIN:?HS_BIN must name the hyeongse binary}
tmp=$(mktemp -d /tmp/hs-test-status-XXXXXX)
bpid=
trap '[ -n "$bpid" ] && kill "$bpid" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT
fail=0
# check, start_broker_at
. "$(dirname "$0")/lib.sh"

# --- non-UTF-8 member names -------------------------------------------------
mkdir -p "$tmp/latin1"
printf '(;GM[1]FF[4]SZ[9]KM[7]PB[a]PW[b];B[ee];W[cc];B[gc])\n' > "$tmp/latin1/caf"$'\xe9'".sgf"
printf '(;GM[1]FF[4]SZ[9]KM[7]PB[c]PW[d];B[ee];W[cc];B[gg])\n' > "$tmp/latin1/na"$'\xefve'".sgf"
printf '(;GM[1]FF[4]SZ[9]KM[7]PB[e]PW[f];B[dd];W[ff])\n' > "$tmp/latin1/plain.sgf"
(cd "$tmp" && tar cf latin1.tar latin1)
"$BIN" analyze "$tmp/latin1.tar" --db "$tmp/db" --threads 1 --engines area --quiet \
    > "$tmp/analyze.out" 2>&1
check "analyze of non-UTF-8 member names: exit status" "$?" 0
check "every game stored" \
      "$("$BIN" query --db "$tmp/db" stats --json | grep -o '"games":[0-9]*')" '"games":3'
check "no failed game" "$("$BIN" query --db "$tmp/db" failed | grep -c 'sgf')" 0
"$BIN" query --db "$tmp/db" --path "$tmp/latin1.tar:latin1/caf\\xE9.sgf" > /dev/null 2>&1
check "the game is known by its escaped name" "$?" 0

# --- status pages -------------------------------------------------------------
start_broker_at "tcp://127.0.0.1:*" "$tmp/bdb" "$tmp/broker.log" || exit 1
printf '(;GM[1]FF[4]SZ[9]KM[7];B[ee])\n' > "$tmp/one.sgf"
for i in $(seq 1 7); do
    "$BIN" submit "$tmp/one.sgf" --broker "$addr" --engines noop --name "job-$i" \
        > /dev/null 2>&1 || { check "submit $i" "$?" 0; break; }
done
# One more job, canceled while it waits (no worker is connected).
"$BIN" submit "$tmp/one.sgf" --broker "$addr" --engines noop:delay_us=1 --name "to-cancel" \
    > /dev/null 2>&1
"$BIN" cancel 8 --broker "$addr" > /dev/null 2>&1
check "cancel exit status" "$?" 0

out=$("$BIN" status --broker "$addr" --limit 3)
check "--limit 3: three job rows" "$(printf '%s\n' "$out" | grep -c 'job-\|to-cancel')" 3
check "--limit 3: the newest first" "$(printf '%s\n' "$out" | sed -n 3p | awk '{print $1}')" 8
check "--limit 3: says how many more" \
      "$(printf '%s\n' "$out" | grep -c '^(5 older jobs not shown')" 1
all=$("$BIN" status --broker "$addr" --all --limit 2 --json)
check "--all: every job once" "$(printf '%s\n' "$all" | grep -o '"id":[0-9]*' | tr '\n' ' ')" \
      '"id":8 "id":7 "id":6 "id":5 "id":4 "id":3 "id":2 "id":1 '
check "--all --json: total, nothing more" \
      "$(printf '%s\n' "$all" | grep -o '"total":[0-9]*,"more":[a-z]*')" '"total":8,"more":false'
page=$("$BIN" status --broker "$addr" --limit 2 --json)
check "--json page: total and more" \
      "$(printf '%s\n' "$page" | grep -o '"total":[0-9]*,"more":[a-z]*')" '"total":8,"more":true'
check "--state canceled" \
      "$("$BIN" status --broker "$addr" --state canceled --json | grep -o '"id":[0-9]*')" '"id":8'
check "--state running: the seven waiting jobs" \
      "$("$BIN" status --broker "$addr" --state running --all --json | grep -o '"id":' | wc -l)" 7
check "the default page shows all 8" \
      "$("$BIN" status --broker "$addr" | grep -c 'job-\|to-cancel')" 8
"$BIN" status --broker "$addr" --state sleeping > /dev/null 2>&1
check "--state sleeping is refused" "$?" 2
"$BIN" status --broker "$addr" --limit 0 > /dev/null 2>&1
check "--limit 0 is refused" "$?" 2
"$BIN" status 3 --broker "$addr" --all > /dev/null 2>&1
check "JOB with --all is refused" "$?" 2

kill "$bpid" 2>/dev/null
wait "$bpid" 2>/dev/null
bpid=
exit $fail
