#!/usr/bin/env bash
# bench/judge_speed.sh — positions/s of influence + judgment on 19x19 pro positions,
# single thread, without deep reading and with the reader on.
# usage: bench/judge_speed.sh [BUILD_DIR] [MAX_POSITIONS]   (Release build; default build-release)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build-release}
data=${HS_DATA_DIR:-$here/../../shared/data}
exec "$build/bench/bench_judge_speed" "$data/pro19/pro19-archive.tar.gz" "${2:-4000}"
