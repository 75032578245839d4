#!/usr/bin/env bash
# bench/playouts.sh — light random playouts per second, one thread, 9x9 and
# 19x19, against the goals of issue 2 (100k/s on 9x9, 20k/s on 19x19 with a
# Release -O2 -march=native build). No peer program does the same work, so the
# script prints the goal ratio and, as context only, libego's published figure.
#
# usage: bench/playouts.sh [BUILD_DIR] [SECONDS_PER_SIZE]
#   BUILD_DIR defaults to build-release (configured and built here if missing).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-release}
secs=${2:-3}
if [ ! -x "$build/bench/bench_playouts" ]; then
    cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$build" -j2 --target bench_playouts >/dev/null
fi
echo "machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
"$build/bench/bench_playouts" "$secs"
