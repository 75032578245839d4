#!/usr/bin/env bash
# bench/store.sh — store write throughput (ours vs raw LMDB MDB_APPEND of records of
# the same size, same run) and one-game query latency (wall and CPU p99, first
# touch and mapped). Builds a Release tree unless BUILD is given. The machines are
# shared and noisy: RUNS=N (default 1) repeats each configuration N times; read
# the median. Usage: [RUNS=3] bench/store.sh [bench_store args...], e.g.
# --records 1000000, --no-query.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="${BUILD:-$ROOT/build-bench}"
RUNS="${RUNS:-1}"
if [ ! -x "$BUILD/bench/bench_store" ]; then
  cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$BUILD" -j2 --target bench_store >/dev/null
fi
DIR="$(mktemp -d "${TMPDIR:-/tmp}/hs-bench-store.XXXXXX")"
trap 'rm -rf "$DIR"' EXIT
for run in $(seq "$RUNS"); do
  echo "# run $run/$RUNS: synced commits (durable, as the broker runs)"
  "$BUILD/bench/bench_store" --dir "$DIR/sync" "$@"
  echo "# run $run/$RUNS: unsynced commits (HS_STORE_NOSYNC / MDB_NOSYNC for both)"
  "$BUILD/bench/bench_store" --dir "$DIR/nosync" --nosync "$@"
done
