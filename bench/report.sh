#!/usr/bin/env bash
# bench/report.sh — the report of a 1,000-game job: `hyeongse report --all`
# wall time and peak memory, the report's time per game, and beside it the
# time `analyze` took for the same job in the same run (the report must cost a
# small fraction of the analysis it reads).
#   bench/report.sh [BUILD_DIR] [GAMES] [ENGINES] [FORMATS]
#   defaults: build-release, 1000 games of the pro archive, judge, the report's
#   default formats (html,csv,json,sgf); FORMATS=all adds every picture as SVG
#   and PNG files.
# Peak memory is /usr/bin/time's maximum resident set size of the report alone; it
# counts the store's pages LMDB maps read-only (page cache) as well as the heap.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build-release}
games=${2:-1000}
engines=${3:-judge}
formats=${4:-html,csv,json,sgf}
archive=$here/../shared/data/pro19/pro19-archive.tar.gz
[ -e "$archive" ] || { echo "no archive at $archive"; exit 1; }
[ -x /usr/bin/time ] || { echo "bench/report.sh needs GNU time (/usr/bin/time; Debian package time)"; exit 1; }
if [ ! -x "$build/cli/hyeongse" ]; then
    cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$build" -j2 --target hyeongse >/dev/null
fi
tmp=$(mktemp -d /tmp/hs-bench-report-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/games"
tar tf "$archive" 2>/dev/null | grep -i '\.sgf$' | head -n "$games" > "$tmp/members" || true
tar xf "$archive" -C "$tmp/games" -T "$tmp/members"
n=$(wc -l < "$tmp/members")
echo "== analyze --engines $engines of the first $n games of $archive"
/usr/bin/time -f '%e %M' -o "$tmp/analyze.time" "$build/cli/hyeongse" analyze "$tmp/games" \
    --db "$tmp/db" --engines "$engines" --quiet > "$tmp/analyze.out"
grep -E 'games|positions evaluated' "$tmp/analyze.out" | head -3
echo "== report --all --format $formats"
/usr/bin/time -f '%e %M' -o "$tmp/report.time" "$build/cli/hyeongse" report --db "$tmp/db" \
    --all --out "$tmp/r" --format "$formats" --quiet 2> "$tmp/report.err"
cat "$tmp/report.err"
# The program's own start (its shared libraries: with the cuda backend built,
# cuBLAS alone maps and relocates a few hundred MB) is measured apart, so the
# report's memory can be told from it.
/usr/bin/time -f '%e %M' -o "$tmp/start.time" "$build/cli/hyeongse" --version > /dev/null
read -r ta _ < "$tmp/analyze.time"
read -r tr kb < "$tmp/report.time"
read -r ts kb0 < "$tmp/start.time"
games_done=$(grep -o '^report: [0-9]* games' "$tmp/report.err" | awk '{print $2}')
out_mb=$(du -sm "$tmp/r" | cut -f1)
awk -v n="$games_done" -v ta="$ta" -v tr="$tr" -v kb="$kb" -v kb0="$kb0" -v ts="$ts" -v mb="$out_mb" 'BEGIN {
    printf "== report: %.1f s for %d games (%.1f ms a game), %d MB written\n", tr, n, 1000 * tr / n, mb
    printf "== peak memory: %.0f MB; the program alone (hyeongse --version): %.0f MB and %.2f s; the report: %.0f MB above that\n", kb / 1024, kb0 / 1024, ts, (kb - kb0) / 1024
    printf "== analyze: %.1f s for the same games (%.1f ms a game): the report takes %.1f%% of the analysis time\n", ta, 1000 * ta / n, 100 * tr / ta }'
