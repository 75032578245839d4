#!/usr/bin/env bash
# bench/board_index.sh — `query --board` on the pro archive: the latency of board
# queries from the board index (p50 / p99, goal p99 <= 50 ms) beside the scan by
# position key they replace (the peer, same positions, same run), and the
# index's size against the store's (goal <= 10%).
#   bench/board_index.sh [DB_DIR]
# Without DB_DIR it builds a store of the pro archive with
# `analyze --engines judge` (every move) in a temporary folder and removes it
# afterwards; with DB_DIR it reuses that store (an older one needs
# `hyeongse index --db DB_DIR` first).
#   BUILD=DIR       the build tree (default build-release; built when missing)
#   ARCHIVE=FILE    another archive (default ../shared/data/pro19/pro19-archive.tar.gz)
#   HS_GAMES=N      only the archive's first N games (a quick check)
#   QUERIES=N       board queries (default 1000); PEER=P scans (default 100:
#                   each reads every stored position)
#   SEED=S          which positions (default 1)
# Quick check: HS_GAMES=50 QUERIES=100 PEER=20 bench/board_index.sh
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$here/build-release}
archive=${ARCHIVE:-$here/../shared/data/pro19/pro19-archive.tar.gz}
if [ ! -x "$build/bench/bench_board" ] || [ ! -x "$build/cli/hyeongse" ]; then
    cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$build" -j2 --target hyeongse bench_board >/dev/null
fi
tmp=$(mktemp -d /tmp/hs-bench-boards-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
db=${1:-}
if [ -z "$db" ]; then
    [ -e "$archive" ] || { echo "no archive at $archive"; exit 1; }
    if [ -n "${HS_GAMES:-}" ]; then   # the first N games: a folder of them
        mkdir -p "$tmp/games"
        tar tf "$archive" 2>/dev/null | grep -i '\.sgf$' | head -n "$HS_GAMES" > "$tmp/members" || true
        tar xf "$archive" -C "$tmp/games" -T "$tmp/members"
        echo "== the first $(wc -l < "$tmp/members") games of $archive"
        archive=$tmp/games
    fi
    db=$tmp/db
    echo "== analyze --engines judge $archive"
    "$build/cli/hyeongse" analyze "$archive" --db "$db" --engines judge --quiet | \
        grep -E 'done in|games |store '
fi
"$build/bench/bench_board" --db "$db" --queries "${QUERIES:-1000}" \
    --peer-queries "${PEER:-100}" --seed "${SEED:-1}"
