#!/usr/bin/env bash
# bench/judge_speed.sh — positions/s of influence + judgment on 19x19 pro positions,
# single thread, without deep reading and with the reader on.
# usage: bench/judge_speed.sh [BUILD_DIR] [MAX_POSITIONS] [MODES]   (Release build; default build-release)
# MODES: see bench_judge_speed.c ("2": judge + influence only; "c": checksums
# of every result, to diff two builds after an optimisation). Rates are per
# CPU-second of this process.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build-release}
data=${HS_DATA_DIR:-$here/../../shared/data}
exec "$build/bench/bench_judge_speed" "$data/pro19/pro19-archive.tar.gz" "${2:-4000}" ${3:+"$3"}
