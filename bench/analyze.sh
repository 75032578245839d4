#!/usr/bin/env bash
# bench/analyze.sh — end-to-end `hyeongse analyze` of the pro archive with the
# influence and judge engines: positions/s, and the share of time outside the
# engines, measured two ways in the same run:
#   1. analyze's own summary, "cpu" line: CPU time of the engine threads inside
#      engine calls (CLOCK_THREAD_CPUTIME_ID) over the process's CPU time
#      (CLOCK_PROCESS_CPUTIME_ID): other processes on the machine don't count.
#      (Its "wall" line, engine wall time / threads / wall time, counts CPU
#      contention as "outside" and is shown for comparison only.)
#   2. the same archive with the noop engine (the cluster alone: ingest, broker,
#      store, wire) divided by the influence+judge run.
#   3. the store's size: bytes of data.mdb in use (LMDB's last page, free pages
#      included) per stored position, the figure of docs/STORE.md's goal; and
#      what data.mdb takes on disk, with the room the store reserves ahead.
#   bench/analyze.sh [BUILD_DIR] [ARCHIVE] [THREADS] [MOVES] [MAPS]
#   (MOVES: all, every:N; MAPS: analyze --maps, default the store's default)
#   HS_NET=FILE: the net engine instead (`--engines net --net FILE`, backend
#   HS_NN_BACKEND or analyze's default); THREADS "" then leaves the engine
#   threads to analyze (one thread driving a backend that uses every core).
#   HS_ENGINES=LIST: these engines instead (with HS_NET, bound to that net:
#   HS_ENGINES=mcts:visits=100 HS_NET=FILE is the tree search on the net).
#   HS_GAMES=N: only the archive's first N games (.sgf members in its order),
#   extracted into the bench's temporary folder.
#   The issue's bulk-speed run (100 pro games, mcts with 100 visits on the CPU):
#     HS_ENGINES=mcts:visits=100 HS_NET=../shared/nets/katago-g170-b6c96/*.bin.gz \
#     HS_GAMES=100 bench/analyze.sh build-release "" ""
#   prints positions/s and the search's mean leaf batch (evaluator calls and
#   leaves, from analyze's summary).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build-release}
archive=${2:-}
archive=${archive:-$here/../shared/data/pro19/pro19-archive.tar.gz}
threads=${3-$(nproc)}
moves=${4:-all}
maps=${5:+--maps $5}
[ -e "$archive" ] || { echo "no archive at $archive"; exit 1; }
if [ ! -x "$build/cli/hyeongse" ]; then
    cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$build" -j2 --target hyeongse >/dev/null
fi
db=$(mktemp -d /tmp/hs-bench-analyze-XXXXXX)
trap 'rm -rf "$db"' EXIT
if [ -n "${HS_GAMES:-}" ]; then   # the first N games: a folder of them
    mkdir -p "$db/games"
    tar tf "$archive" 2>/dev/null | grep -i '\.sgf$' | head -n "$HS_GAMES" > "$db/members" || true
    tar xf "$archive" -C "$db/games" -T "$db/members"
    echo "== the first $(wc -l < "$db/members") games of $archive"
    archive=$db/games
fi
engines=(--engines "${HS_ENGINES:-influence,judge}")
[ -n "${HS_NET:-}" ] && engines=(--engines "${HS_ENGINES:-net}" --net "$HS_NET"
                                 ${HS_NN_BACKEND:+--backend $HS_NN_BACKEND})
threads_arg=(${threads:+--threads "$threads"})
echo "== ${engines[*]} on $archive (${threads:-the default} threads, moves $moves)"
"$build/cli/hyeongse" analyze "$archive" --db "$db/a" "${threads_arg[@]}" --moves "$moves" \
    "${engines[@]}" $maps --quiet | tee "$db/a.out"
"$build/cli/hyeongse" query --db "$db/a" stats > "$db/a.stats"
echo "== noop on the same archive (the cluster's own cost)"
"$build/cli/hyeongse" analyze "$archive" --db "$db/b" "${threads_arg[@]}" --moves "$moves" \
    --engines noop --quiet | tee "$db/b.out"
ta=$(grep -o 'done in [0-9.]*' "$db/a.out" | awk '{print $3}')
tb=$(grep -o 'done in [0-9.]*' "$db/b.out" | awk '{print $3}')
awk -v a="$ta" -v b="$tb" 'BEGIN { printf "== share of time outside the engines (noop run / engine run): %.1f%% (%.2f s / %.2f s)\n", 100 * b / a, b, a }'
grep -o 'cpu .*inside engines, [0-9.]*% outside' "$db/a.out" | \
    sed 's/^cpu */== share of CPU time outside the engines (engine thread CPU \/ process CPU): /'
grep -o '[0-9]* positions evaluated ([0-9.]* positions/s)' "$db/a.out" | sed 's/^/== speed: /'
grep -o '[0-9]* leaf evaluator calls, [0-9]* leaves, mean batch [0-9.]*' "$db/a.out" | \
    sed 's/^/== search batching: /' || true
awk '$1 == "positions" { p = $2 } $1 == "map_used" { u = $2 }
     END { if (p > 0) printf "== store: %.0f bytes a position (%.0f MB in use / %d positions)\n", u / p, u / 1e6, p }' \
    "$db/a.stats"
# What the disk holds: the file's length and its allocated blocks (the store
# reserves room ahead of its map with posix_fallocate, so that a full disk is
# an error and not a SIGBUS: store/store.c).
p=$(awk '$1 == "positions" { print $2 }' "$db/a.stats")
flen=$(stat -c %s "$db/a/data.mdb"); falloc=$(du -B1 "$db/a/data.mdb" | cut -f1)
awk -v p="$p" -v l="$flen" -v a="$falloc" 'BEGIN { if (p > 0) printf "== disk: data.mdb %.0f MB long, %.0f MB allocated: %.0f bytes a position on disk\n", l / 1e6, a / 1e6, a / p }'
