#!/usr/bin/env bash
# bench/ingest.sh — the whole shared data through `hyeongse ingest --dry-run`
# with all threads (and with one, for the scaling figure).
#
#   bench/ingest.sh [BUILD_DIR] [RUNS]
#
# Uses hyperfine when present (RUNS runs, default 5) for the wall time, and the
# program's own JSON report for the counts. Prints games/s and MB/s.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
build=${1:-$root/build-release}
runs=${2:-5}
data=${HS_DATA_DIR:-$root/../shared/data}
bin=$build/cli/hyeongse
[ -x "$bin" ] || { echo "build first: $bin"; exit 1; }
[ -f "$data/SOURCES.md" ] || { echo "no shared data at $data (set HS_DATA_DIR)"; exit 77; }
inputs=("$data/pro19" "$data/9x9" "$data/amateur19" "$data/pro19-sample" "$data/sgf-edge")
threads=$(nproc)
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
report() {  # threads
    "$bin" ingest "${inputs[@]}" --dry-run --json --no-progress --threads "$1"
}
field() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d['$1'])"; }
for t in 1 "$threads"; do
    json=$(report "$t")
    games=$(field games <<<"$json"); bytes=$(field bytes <<<"$json")
    files=$(field files <<<"$json"); failed=$(field failed <<<"$json")
    if command -v hyperfine >/dev/null; then
        hyperfine -N -w 1 -r "$runs" --style none --export-json "$tmp" \
            "$bin ingest ${inputs[*]} --dry-run --json --no-progress --threads $t" >/dev/null
        secs=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['results'][0]['median'])" "$tmp")
    else
        secs=$(field seconds <<<"$json")
    fi
    awk -v t="$t" -v s="$secs" -v g="$games" -v b="$bytes" -v f="$files" -v x="$failed" 'BEGIN {
        printf "ingest --threads %d: %d files, %.2f MB, %d games (%d failed) in %.3f s: %.0f games/s, %.1f MB/s\n",
               t, f, b / 1e6, g, x, s, g / s, b / 1e6 / s }'
done
