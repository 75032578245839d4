#!/usr/bin/env bash
# bench/katago_lcb.sh — what KataGo's own move choice is worth to KataGo: KataGo
# v1.17 playing its search's most weighted move (no lower confidence bound, no
# temperature) against KataGo as it plays by default (the lower confidence
# bound, an early temperature), both with the same b6c96 net at 200 visits a
# move, 19x19, chinese, komi 7.5, colours alternating, refereed by
# bench/gtp_match.py. Issue 13 asks our search to play its most visited move
# and to win >= 45% against the second: this match says how far KataGo's own
# search gets under that rule, i.e. what the goal asks beyond parity with it.
#
# usage: bench/katago_lcb.sh [GAMES] [THREADS] [OUT_DIR]
#   GAMES    games (default 100); THREADS search threads of each (default 2)
#   OUT_DIR  the match folder (default /work/bench-out/katago-lcb); a rerun with
#            the same folder resumes the match
# Environment: HS_NET, VISITS, KATAGO as for bench/mcts_katago.sh.
#
# Engine A ("katago-mv") is KataGo with `useLcbForSelection = false`,
# `chosenMoveTemperatureEarly = 0` and `chosenMoveTemperature = 0`: it plays the
# child with the most weight, after KataGo cuts the weight a child got only by
# exploration — the nearest its config comes to the most visited move. Engine B
# ("katago") has bench/katago_gtp_cfg.sh's config, as in bench/mcts_katago.sh.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
games=${1:-100}
threads=${2:-2}
out=${3:-/work/bench-out/katago-lcb}
visits=${VISITS:-200}
. "$here/katago_net_env.sh"
mkdir -p "$out"
out=$(cd "$out" && pwd)

"$here/katago_gtp_cfg.sh" "$out/katago.cfg" "$visits" "$threads" true true
{ cat "$out/katago.cfg"
  printf '%s\n' "useLcbForSelection = false" "chosenMoveTemperatureEarly = 0" "chosenMoveTemperature = 0"
} > "$out/katago-mv.cfg"

echo "== $(date -u +%FT%TZ) $("$katago" version 2>/dev/null | head -1): most weighted move against its default"
echo "   net $net, $visits visits, $threads threads, $(nproc) cores, $games games in $out"
gnugo=$(command -v gnugo || { [ -x /usr/games/gnugo ] && echo /usr/games/gnugo; } || true)
python3 "$here/gtp_match.py" match \
    --a "$katago gtp -model $net -config $out/katago-mv.cfg" \
    --b "$katago gtp -model $net -config $out/katago.cfg" \
    --name-a katago-mv --name-b katago --games "$games" --size 19 --komi 7.5 --rules chinese \
    --out "$out" --visits-re-a 'Root visits: ([0-9]+)' --visits-re-b 'Root visits: ([0-9]+)' \
    ${gnugo:+--scorer "$gnugo --mode gtp --chinese-rules"}
