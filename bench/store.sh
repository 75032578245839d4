#!/usr/bin/env bash
# bench/store.sh — store write throughput (ours vs raw LMDB MDB_APPEND of records of
# the same size, same run) and one-game query latency. Builds a Release tree unless
# BUILD is given. Usage: bench/store.sh [bench_store args...], e.g. --records 1000000
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="${BUILD:-$ROOT/build-bench}"
if [ ! -x "$BUILD/bench/bench_store" ]; then
  cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$BUILD" -j2 --target bench_store >/dev/null
fi
DIR="$(mktemp -d "${TMPDIR:-/tmp}/hs-bench-store.XXXXXX")"
trap 'rm -rf "$DIR"' EXIT
echo "# synced commits (durable, as the broker runs)"
"$BUILD/bench/bench_store" --dir "$DIR/sync" "$@"
echo "# unsynced commits (HS_STORE_NOSYNC / MDB_NOSYNC for both)"
"$BUILD/bench/bench_store" --dir "$DIR/nosync" --nosync "$@"
