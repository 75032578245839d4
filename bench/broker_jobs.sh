#!/usr/bin/env bash
# bench/broker_jobs.sh — what a long-lived broker keeps for every job it has
# run: its anonymous memory (RssAnon) after 20 jobs and after N, each job one
# game of one move, run to its end by one no-op worker, one `submit --wait`
# after another; prints the bytes a job. Give two builds to compare them in
# the same run (the job count and the machine are the same for both).
#   bench/broker_jobs.sh [N] BUILD_DIR...     (default: 420 jobs, build-release)
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-420}
shift || true
[ $# -gt 0 ] || set -- "$here/build-release"
[ "$n" -gt 40 ] || { echo "N must be > 40"; exit 2; }
run() {   # run BUILD_DIR: one broker, one worker, n jobs
    local bin=$1/cli/hyeongse tmp addr bp wp r20 rn
    tmp=$(mktemp -d /tmp/hs-bench-jobs-XXXXXX)
    printf '(;GM[1]FF[4]SZ[9]KM[7];B[ee])\n' > "$tmp/one.sgf"
    "$bin" broker --bind 'tcp://127.0.0.1:*' --db "$tmp/db" --ready-file "$tmp/ready" 2>/dev/null &
    bp=$!
    for _ in $(seq 100); do [ -s "$tmp/ready" ] && break; sleep 0.1; done
    addr=$(head -1 "$tmp/ready")
    "$bin" worker --connect "$addr" --threads 1 --engines noop 2>/dev/null &
    wp=$!
    for i in $(seq "$n"); do
        "$bin" submit "$tmp/one.sgf" --broker "$addr" --engines noop --wait >/dev/null 2>&1
        [ "$i" = 20 ] && r20=$(awk '/RssAnon/ {print $2}' "/proc/$bp/status")
    done
    rn=$(awk '/RssAnon/ {print $2}' "/proc/$bp/status")
    echo "$1: RssAnon ${r20} kB after 20 jobs, ${rn} kB after $n: $(( (rn - r20) * 1024 / (n - 20) )) bytes a job"
    kill "$wp" "$bp"
    wait "$wp" "$bp" 2>/dev/null || true
    rm -rf "$tmp"
}
for b in "$@"; do
    run "$b"
done
