#!/usr/bin/env bash
# bench/mcts_gnugo.sh — the search without a net (rollouts) against GNU Go 3.8
# at level 10: 9x9, komi 7, chinese rules, colours alternating, refereed by
# bench/gtp_match.py. Goal (issue 13): >= 50% at <= 10,000 visits a move.
#
# usage: bench/mcts_gnugo.sh [GAMES] [VISITS] [OUT_DIR]
#   GAMES     games (default 100)
#   VISITS    our visits a move (default 10000; the goal allows at most that)
#   OUT_DIR   the match folder (default BUILD/bench-out/mcts-gnugo-vV); a rerun
#             with the same folder resumes the match
# Environment:
#   BUILD      a Release build of hyeongse (default build-release)
#   THREADS    our rollout threads and leaves per search step (default nproc)
#   GNUGO      the GNU Go binary (default: gnugo on PATH, else /usr/games/gnugo)
#
# The engines:
#   hyeongse gtp --visits V --threads T --rules chinese --seed GAME   (no --net: rollouts)
#   gnugo --mode gtp --level 10 --chinese-rules
# GNU Go is deterministic and so is our search given its seed: our engine is
# started anew for every game with the game's number as its seed
# (gtp_match.py's {game}), or the match would be two games played 50 times.
# A finished game is scored by
# both engines' final_score; a third GNU Go (plain, level 10) decides a
# dispute.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
games=${1:-100}
visits=${2:-10000}
build=${BUILD:-$here/../build-release}
out=${3:-$build/bench-out/mcts-gnugo-v$visits}
threads=${THREADS:-$(nproc)}
hs=$build/cli/hyeongse
gnugo=${GNUGO:-$(command -v gnugo || echo /usr/games/gnugo)}
[ -x "$hs" ] || { echo "no $hs: build with -DCMAKE_BUILD_TYPE=Release first" >&2; exit 1; }
[ -x "$gnugo" ] || { echo "GNU Go not found (apt-get install gnugo)" >&2; exit 1; }
[ "$visits" -le 10000 ] || echo "note: $visits visits is over the goal's 10,000" >&2

echo "== $(date -u +%FT%TZ) hyeongse $(git -C "$here/.." rev-parse --short HEAD 2>/dev/null || echo '?') (rollouts, $visits visits, $threads threads) vs $("$gnugo" --version | head -1) level 10"
python3 "$here/gtp_match.py" match \
    --a "$hs gtp --visits $visits --threads $threads --rules chinese --seed {game}" --name-a hyeongse-rollouts \
    --b "$gnugo --mode gtp --level 10 --chinese-rules" --name-b gnugo-level10 \
    --games "$games" --size 9 --komi 7 --rules chinese --out "$out" \
    --scorer "$gnugo --mode gtp --chinese-rules"
