#!/usr/bin/env bash
# bench/broker.sh — broker throughput with the no-op engine (1, 2, 4, 8 worker
# processes over TCP loopback) beside a raw ZeroMQ ROUTER/DEALER echo in the same
# run; prints tasks/s, positions/s and the ratio to the echo rate.
#   bench/broker.sh [BUILD_DIR] [GAMES] [MOVES] [WORKER_COUNTS]
#   (default build: build-release; WORKER_COUNTS a comma list, default 1,2,4,8).
# The clock starts once every worker process has registered. For the per-task
# cost use 1-move games and enough of them to run a few seconds:
#   bench/broker.sh BUILD 50000 1
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build-release}
games=${2:-2000}
moves=${3:-250}
if [ ! -x "$build/bench/bench_broker" ]; then
    cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$build" -j2 --target hyeongse bench_broker >/dev/null
fi
exec "$build/bench/bench_broker" "$build/cli/hyeongse" "$games" "$moves" ${4:+"$4"}
