#!/usr/bin/env bash
# bench/judge_middle.sh — the middle game: on the counted pro games (pro19,
# bench_judge_final.c's filter: counted RE, no Fox record), the score
# estimates after moves 100, 150 and 200 against the recorded result: mean
# absolute error and how often the winner is predicted, for the static judge
# (the "judge" engine's mid-game rules, no stability map), the net judge's
# count and the net's own score lead, in one run (bench_judge_net --middle).
#
# usage: bench/judge_middle.sh NET.bin.gz [BUILD_DIR] [MOVES]
#   NET        a KataGo model (e.g. ../shared/nets/katago-g170-b6c96/*.bin.gz)
#   BUILD_DIR  a Release build (default build-release)
#   MOVES      comma-separated move numbers (default 100,150,200)
# HS_NN_BACKEND=B picks the backend (ref, cpu, cuda); HS_BENCH_EVERY=K keeps
# the games whose id/2 is a multiple of K (a sample for the ref backend);
# HS_WITH_FOX=1 adds the Fox records whose KM is a Fox komi code (183 of the
# 633 counted ones; KM[0] is not trusted): pro19 has only 15 others, the
# AlphaGo games.
# Data: HS_DATA_DIR (default ../shared/data).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
net=${1:?usage: bench/judge_middle.sh NET.bin.gz [BUILD_DIR] [MOVES]}
build=${2:-$here/../build-release}
moves=${3:-100,150,200}
data=${HS_DATA_DIR:-$here/../../shared/data}
bin=$build/bench/bench_judge_net
[ -x "$bin" ] || { echo "no $bin: build with -DCMAKE_BUILD_TYPE=Release first" >&2; exit 1; }
"$bin" --middle --moves "$moves" --net "$net" ${HS_NN_BACKEND:+--backend "$HS_NN_BACKEND"} \
    --every "${HS_BENCH_EVERY:-1}" ${HS_WITH_FOX:+--with-fox} "$data/pro19/pro19-archive.tar.gz"
