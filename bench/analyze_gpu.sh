#!/usr/bin/env bash
# bench/analyze_gpu.sh — the whole program on a GPU, end to end: `analyze`
# with the net engine and with the tree search on the cuda backend, and a
# `gtp` session (genmove, kata-raw-nn), on a folder of SGF files. It is the
# check bench/net_gpu.sh cannot make (that one builds the net engine alone).
#
#   bench/analyze_gpu.sh HYEONGSE MODEL GAMES [MCTS_SECONDS]
#     HYEONGSE      a hyeongse built with HS_CUDNN (any machine's build that
#                   runs here: docs/NET.md "On an H200" says how one was carried)
#     MODEL         the b6c96 .bin.gz
#     GAMES         SGF files or a folder (e.g. ../shared/data/pro19-sample)
#     MCTS_SECONDS  time given to the mcts:visits=100 run (default 130); a run
#                   stopped by it prints the positions stored by then
# Prints each run's summary (positions/s, the share of CPU in the engines,
# the search's mean leaf batch when it finishes). Stores go to a fresh
# temporary folder, removed at the end.
set -u
[ $# -ge 3 ] || { sed -n 2,16p "$0" >&2; exit 2; }
bin=$1 model=$2 games=$3 secs=${4:-130}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" --version || exit 2

echo "== analyze --engines net --backend cuda (every move)"
timeout 300 "$bin" analyze "$games" --db "$tmp/net" --engines net --net "$model" \
    --backend cuda --quiet 2>&1 | tail -6

echo "== analyze --engines mcts:visits=100 --backend cuda, at most $secs s"
t0=$(date +%s)
timeout "$secs" "$bin" analyze "$games" --db "$tmp/mcts" --engines mcts:visits=100 \
    --net "$model" --backend cuda --quiet > "$tmp/mcts.out" 2>&1
rc=$?
tail -6 "$tmp/mcts.out"
if [ $rc -eq 124 ]; then
    stored=$("$bin" query --db "$tmp/mcts" stats 2>/dev/null | awk '$1 == "positions" {print $2}')
    echo "stopped at $secs s: ${stored:-?} positions stored by then" \
         "($(awk -v p="${stored:-0}" -v s=$(( $(date +%s) - t0 )) 'BEGIN {printf "%.1f", p / s}') positions/s, a lower bound)"
fi

echo "== gtp --backend cuda"
printf 'boardsize 19\nclear_board\ngenmove b\ngenmove w\nkata-raw-nn 0\nquit\n' |
    timeout 60 "$bin" gtp --net "$model" --backend cuda --visits 400 2>&1 | grep -v '^$' | head -12
