#!/usr/bin/env bash
# bench/mcts_parity.sh — our search's tree beside KataGo v1.17's on the same
# evaluations (bench/mcts_parity.py says how): one search thread each, every
# evaluation at symmetry 0, KataGo without graph search, wide root noise and
# root symmetry pruning (ours has none of them), the b6c96 net, chinese, komi
# 7.5, positions of real games. Not a timing: it says whether the two
# searches spend their visits alike, in a few minutes.
#
# usage: bench/mcts_parity.sh [POSITIONS] [OUT_DIR]
#   POSITIONS  default 40 (2 a game from ../shared/data/pro19-sample)
#   OUT_DIR    default BUILD/bench-out/mcts-parity (the engines' stderr)
# Environment:
#   BUILD, HS_NET, KATAGO, VISITS (default 200), SGF_DIR as in
#   bench/move_quality.sh; OVERRIDES: K=V,... for both engines' configs, e.g.
#   dynamicScoreUtilityFactor=0 to see one term's share; VERBOSE=1: per
#   position
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
positions=${1:-40}
build=${BUILD:-$here/../build-release}
out=${2:-$build/bench-out/mcts-parity}
visits=${VISITS:-200}
. "$here/katago_peer_env.sh"
mkdir -p "$out"
out=$(cd "$out" && pwd)
cfg=$out/parity.cfg
cat > "$cfg" <<EOF
# Written by bench/mcts_parity.sh: both engines read it.
logFile = /dev/null
logToStderr = false
logSearchInfo = false
numAnalysisThreads = 1
numSearchThreadsPerAnalysisThread = 1
reportAnalysisWinratesAs = BLACK
maxVisits = $visits
nnRandomize = false
useGraphSearch = false
wideRootNoise = 0.0
rootSymmetryPruning = false
EOF
ov=${OVERRIDES:+-override-config $OVERRIDES}
echo "== $(date -u +%FT%TZ) hyeongse $(git -C "$here/.." rev-parse --short HEAD 2>/dev/null || echo '?') vs $("$katago" version 2>/dev/null | head -1), $visits visits${OVERRIDES:+, $OVERRIDES}"
python3 "$here/mcts_parity.py" \
    --ours "env OMP_NUM_THREADS=$(nproc) $hs analysis -model $net -config $cfg $ov" \
    --katago "$katago analysis -model $net -config $cfg $ov" \
    --sgf-dir "$sgf_dir" --positions "$positions" --visits "$visits" --out "$out" \
    ${VERBOSE:+--verbose}
