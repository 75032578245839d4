#!/usr/bin/env bash
# bench/sgf_parse.sh — our SGF path vs @sabaki/sgf on the same files, same run.
#
#   bench/sgf_parse.sh [BUILD_DIR] [MIN_SECONDS]
#
# Extracts the pro19 archive (../shared/data, or $HS_DATA_DIR) into a temporary
# folder; both programs preload every .sgf there into memory and parse it on one
# thread, round after round for MIN_SECONDS (default 3). Ours also builds the game
# record, replays it with legality checks and computes its id; sabaki only
# parses. Prints both, then the ratios (ours / sabaki's faster mode).
# Needs: a Release build (default build-release/), node, and `npm ci` in bench/.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
build=${1:-$root/build-release}
secs=${2:-3}
data=${HS_DATA_DIR:-$root/../shared/data}
archive=$data/pro19/pro19-archive.tar.gz
[ -f "$archive" ] || { echo "no $archive (set HS_DATA_DIR)"; exit 77; }
[ -x "$build/bench/bench_sgf_parse" ] || { echo "build first: $build/bench/bench_sgf_parse"; exit 1; }
if [ ! -d "$here/node_modules/@sabaki/sgf" ]; then
    (cd "$here" && npm ci --no-audit --no-fund >/dev/null)
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar -xzf "$archive" -C "$tmp"

ours=$("$build/bench/bench_sgf_parse" "$tmp" "$secs")
peer=$(node "$here/sabaki_parse.js" "$tmp" "$secs")
echo "$ours"
echo "$peer"
field() { awk -v k="$2" '{ for (i = 1; i < NF; i++) if ($i == k) { print $(i + 1); exit } }' <<<"$1"; }
o_mb=$(field "$(grep 'parse+replay' <<<"$ours")" "MB/s")
o_gs=$(field "$(grep 'parse+replay' <<<"$ours")" "games/s")
best_mb=0; best_gs=0; best_mode=
while read -r line; do
    mb=$(field "$line" "MB/s"); gs=$(field "$line" "games/s")
    if awk -v a="$mb" -v b="$best_mb" 'BEGIN { exit !(a > b) }'; then
        best_mb=$mb; best_gs=$gs; best_mode=$(awk '{ sub(/:$/, "", $2); print $2 }' <<<"$line")
    fi
done <<<"$peer"
awk -v om="$o_mb" -v og="$o_gs" -v pm="$best_mb" -v pg="$best_gs" -v mode="$best_mode" 'BEGIN {
    printf "ratio (hyeongse parse+replay / sabaki %s): %.1fx MB/s, %.1fx games/s  (hyeongse %.1f MB/s, goal >= 20x and >= 150 MB/s)\n",
           mode, om / pm, og / pg, om }'
