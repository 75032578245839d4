#!/usr/bin/env bash
# bench/store_engines.sh — store writes/s and bytes per position for every
# engine, on one fixed slice of the pro archive (`hyeongse analyze`, embedded
# broker and workers, a fresh store per engine):
#   bench/store_engines.sh [BUILD_DIR] [GAMES] [MOVES] [THREADS]
#   defaults: build-release, the archive's first 20 games, every move, 2 threads.
#   HS_STORE_ENGINES: the engine specs to loop over, ';'-separated (default
#   "noop;influence;judge;net;mcts:visits=16"); net and mcts without a net spec
#   option: net runs the b6c96 net of ../shared/nets (cpu backend), mcts
#   without a net runs its rollout evaluator.
# Per engine: positions evaluated, wall seconds and positions/s (analyze's own
# summary: every evaluated position is one eval record written into the
# store, so this is the store's write rate with that engine in front of it),
# then the store: bytes of data.mdb in use per position (`query stats`
# map_used / positions) and allocated on disk per position (du of data.mdb).
# The store keeps the default maps (ownership, classes) of each engine that
# gives them.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build-release}
games=${2:-20}
moves=${3:-all}
threads=${4:-2}
archive=$here/../shared/data/pro19/pro19-archive.tar.gz
net=$(ls "$here"/../shared/nets/katago-g170-b6c96/*.bin.gz 2>/dev/null | head -1)
[ -e "$archive" ] || { echo "no archive at $archive"; exit 1; }
BIN=$build/cli/hyeongse
tmp=$(mktemp -d /tmp/hs-bench-store-engines-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/games"
tar tf "$archive" 2>/dev/null | grep -i '\.sgf$' | head -n "$games" > "$tmp/members" || true
tar xf "$archive" -C "$tmp/games" -T "$tmp/members"
echo "== the first $(wc -l < "$tmp/members") games of the pro archive, moves $moves, $threads threads"
printf "%-18s %10s %9s %12s %12s %12s\n" engine positions seconds positions/s "B/pos used" "B/pos disk"
IFS=';' read -r -a specs <<< "${HS_STORE_ENGINES:-noop;influence;judge;net;mcts:visits=16}"
for spec in "${specs[@]}"; do
    extra=()
    if [ "${spec%%:*}" = net ]; then
        [ -n "$net" ] || { echo "$spec: no net in ../shared/nets: skipped"; continue; }
        extra=(--net "$net")
    fi
    db=$tmp/db-${spec%%:*}
    "$BIN" analyze "$tmp/games" --db "$db" --threads "$threads" --moves "$moves" \
        --engines "$spec" "${extra[@]}" --quiet > "$tmp/out" 2>&1 || { cat "$tmp/out"; continue; }
    pos=$(grep -o '[0-9]* positions evaluated' "$tmp/out" | awk '{ print $1 }')
    rate=$(grep -o 'positions evaluated ([0-9.]* positions/s)' "$tmp/out" | grep -o '([0-9.]*' | tr -d '(')
    secs=$(grep -o 'done in [0-9.]*' "$tmp/out" | awk '{ print $3 }')
    "$BIN" query --db "$db" stats > "$tmp/stats"
    used=$(awk '$1 == "map_used" { print $2 }' "$tmp/stats")
    sp=$(awk '$1 == "positions" { print $2 }' "$tmp/stats")
    alloc=$(du -B1 "$db/data.mdb" | cut -f1)
    awk -v s="$spec" -v p="$pos" -v t="$secs" -v r="$rate" -v u="$used" -v sp="$sp" -v a="$alloc" \
        'BEGIN { printf "%-18s %10d %9.1f %12.0f %12.0f %12.0f\n", s, p, t, r, u / sp, a / sp }'
    rm -rf "$db"
done
