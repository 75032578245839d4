#!/usr/bin/env bash
# bench/move_quality.sh — the search's moves beside KataGo v1.17's at the same
# visits, on the same positions of real games, each valued by a longer KataGo
# search (bench/move_quality.py): the quick screen of a search change. The
# issue's goal is the match (bench/mcts_katago.sh); this says in some twenty
# minutes, not ten hours, whether a change moves our moves towards or away
# from KataGo's. Both with the b6c96 net, 19x19, chinese, komi 7.5.
#
# usage: bench/move_quality.sh [POSITIONS] [THREADS] [OUT_DIR]
#   POSITIONS  positions (default 100: 3 a game from ../shared/data/pro19-sample)
#   THREADS    search threads of all three (default: nproc, at most 16)
#   OUT_DIR    default BUILD/bench-out/move-quality; the oracle's answers and
#              each engine's moves are cached there by name, so a rerun with
#              another NAME (another build or HS_GTP_ARGS) only searches anew
#              for what that engine chose
# Environment:
#   BUILD        a Release build of hyeongse (default build-release)
#   NAME         our engine's name in the output (default hyeongse-<commit>,
#                plus HS_GTP_ARGS)
#   HS_GTP_ARGS  more options for our engine (--lcb 5, --set K=V,...)
#   HS_NET, KATAGO, VISITS (default 200), ORACLE_VISITS (default 1600),
#   EVAL_VISITS (default 400), SGF_DIR (default ../shared/data/pro19-sample)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
positions=${1:-100}
threads=${2:-$(n=$(nproc); echo $((n > 16 ? 16 : n)))}
build=${BUILD:-$here/../build-release}
out=${3:-$build/bench-out/move-quality}
visits=${VISITS:-200}
. "$here/katago_peer_env.sh"
commit=$(git -C "$here/.." rev-parse --short HEAD 2>/dev/null || echo unknown)
name=${NAME:-hyeongse-$commit${HS_GTP_ARGS:+ $HS_GTP_ARGS}}
mkdir -p "$out"
out=$(cd "$out" && pwd)

"$here/katago_gtp_cfg.sh" "$out/katago-gtp.cfg" "$visits" "$threads"
cat > "$out/katago-oracle.cfg" <<EOF
# Written by bench/move_quality.sh: the oracle (KataGo's analysis engine).
logFile = /dev/null
logToStderr = false
numAnalysisThreads = 1
numSearchThreadsPerAnalysisThread = $threads
reportAnalysisWinratesAs = SIDETOMOVE
wideRootNoise = 0.0
EOF

echo "== $(date -u +%FT%TZ) $name vs $("$katago" version 2>/dev/null | head -1), $visits visits, $threads threads, $(nproc) cores"
python3 "$here/move_quality.py" \
    --a "env OMP_NUM_THREADS=$threads $hs gtp --net $net --visits $visits --threads $threads --rules chinese --resign-threshold 0 --seed {pos} ${HS_GTP_ARGS:-}" \
    --name-a "$name" \
    --b "$katago gtp -model $net -config $out/katago-gtp.cfg" --name-b "katago-v$visits" \
    --oracle "$katago analysis -model $net -config $out/katago-oracle.cfg" \
    --sgf-dir "$sgf_dir" --out "$out" --positions "$positions" \
    --oracle-visits "${ORACLE_VISITS:-1600}" --eval-visits "${EVAL_VISITS:-400}"
