#!/usr/bin/env bash
# bench/influence_tau.sh — Park's threshold sweep (tau = 0..200) on the pro archive:
# mean / mean deviation / standard deviation of the IP- and IA-based score error.
# usage: bench/influence_tau.sh [BUILD_DIR] [MAX_GAMES]   (Release build; default build-release)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build-release}
data=${HS_DATA_DIR:-$here/../../shared/data}
exec "$build/bench/bench_influence_tau" "$data/pro19/pro19-archive.tar.gz" "${2:-1000}"
