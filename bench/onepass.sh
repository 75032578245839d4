#!/usr/bin/env bash
# bench/onepass.sh — issue 11's CPU goal (< 10% of the CPU outside the engines
# in the README's first command) against a path of another shape: `hyeongse
# analyze` (the cluster in one process: broker thread, wire, per-position
# B-tree entries) beside bench_onepass (bench/bench_onepass.c: engine threads
# take whole games and encode their evals as the store does, one writer stores
# each game and its evals as one value, the position index is written in key
# order at the end), alternating, on the same archive, engines and threads.
#   bench/onepass.sh [BUILD_DIR] [ARCHIVE] [THREADS] [ROUNDS]
# Each round runs, in this order: analyze; bench_onepass storing everything
# (one index entry a position and engine); the same with one index entry a
# position (--shared-index); storing the games only (--store games); storing
# nothing (--store none: the threads' own work, the floor of such a path);
# storing nothing and keeping no map (--maps none). Prints each run's share
# of the CPU outside the engines and where it went.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build-release}
archive=${2:-}
archive=${archive:-$here/../shared/data/pro19/pro19-archive.tar.gz}
threads=${3:-2}
rounds=${4:-1}
[ -e "$archive" ] || { echo "no archive at $archive"; exit 1; }
if [ ! -x "$build/cli/hyeongse" ] || [ ! -x "$build/bench/bench_onepass" ]; then
    cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$build" -j2 --target hyeongse bench_onepass >/dev/null
fi
tmp=$(mktemp -d /tmp/hs-bench-onepass-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
engines=${HS_ENGINES:-influence,judge}
echo "== $engines on $archive, $threads threads, $rounds round(s); load: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$rounds"); do
    rm -rf "$tmp/a"
    echo "-- round $r: hyeongse analyze"
    "$build/cli/hyeongse" analyze "$archive" --db "$tmp/a" --threads "$threads" \
        --engines "$engines" --quiet | grep -E '^ *(cpu|outside|this run) '
    for opts in "" "--shared-index" "--store games" "--store none" "--store none --maps none"; do
        rm -rf "$tmp/o"
        echo "-- round $r: bench_onepass ${opts:-(everything stored)}"
        # shellcheck disable=SC2086
        "$build/bench/bench_onepass" "$archive" --db "$tmp/o" --threads "$threads" \
            --engines "$engines" $opts | grep -E '^ *(cpu|outside|evals) '
    done
done
echo "== load after: $(cut -d' ' -f1-3 /proc/loadavg)"
