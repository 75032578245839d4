#!/usr/bin/env bash
# bench/mcts_katago.sh — the search against KataGo v1.17 (Eigen, CPU) at 200
# visits a move, both with the same b6c96 net, 19x19, chinese rules, komi 7.5,
# colours alternating, refereed by bench/gtp_match.py; and in the same run the
# visits per second of both at equal threads on the same 20 positions.
#
# usage: bench/mcts_katago.sh [GAMES] [THREADS] [OUT_DIR]
#   GAMES     games of the match (default 100; 0: only the speed part)
#   THREADS   search threads of both (default: nproc, at most 16)
#   OUT_DIR   the match folder (default BUILD/bench-out/mcts-katago-tT); a rerun
#             with the same folder resumes the match (gtp_match.py skips the
#             games it has)
# Environment:
#   BUILD      a Release build of hyeongse (default build-release)
#   HS_NET     the net (default ../shared/nets/katago-g170-b6c96/g170-b6c96-*.bin.gz)
#   HS_NN_BACKEND  our backend (default: the fastest built)
#   HS_GTP_ARGS    more options for our engine, e.g. "--lcb 5" or "--set
#              subtreeValueBiasFactor=0" to measure one search term's share
#   VISITS     visits a move (default 200)
#   SIZE, KOMI the match's board and komi (default 19 and 7.5; the issue's goal
#              is on 19x19: a 9x9 match is a quicker reading of the search
#              against KataGo's, not that goal)
#   SPEED      0: skip the speed part (it always runs on 19x19)
#   LOAD       N busy processes (`yes > /dev/null`) beside the speed part, to
#              measure how each engine fares on a machine busy with other
#              work (default 0; the match always runs without them)
#   KATAGO     a katago binary (default /work/peers/katago-build/katago; built
#              with bench/katago_build.sh where missing)
#   SPEED_SGF  the record of the speed positions (default: the 270-move AlphaGo
#              Master game of ../shared/data/pro19-sample), SPEED_MOVES the move
#              numbers (default 20,30,...,210)
#
# The engines:
#   hyeongse gtp --net NET --visits V --threads T --rules chinese --seed GAME
#            (OMP_NUM_THREADS=T: the cpu backend gets the same cores as KataGo;
#            started anew each game with the game's number as its seed, so that
#            its symmetries differ from game to game as KataGo's random ones do;
#            seed 1 in the speed part)
#   katago gtp -model NET -config GENERATED: maxVisits V, numSearchThreads T,
#            rules chinese, no pondering, resignation at a win rate under 5% for
#            3 moves in a row (ours: --resign-threshold 0.05, late in the game),
#            logSearchInfo to stderr (the visits of the speed part).
# A finished game is scored by both engines' final_score (they share the net,
# so they rarely differ); GNU Go (--chinese-rules) decides a dispute where it
# is installed.
#
# Speed, how it is measured: for each position, `loadsgf SGF M+1` (the position
# after M moves; both engines then search a fresh tree), KataGo also
# `clear_cache` (no evaluation from its cache), then `genmove` for the side to
# move, timed from outside as the GTP round trip by gtp_match.py speed. Visits:
# KataGo's "Root visits: N" log line per genmove; ours reports none on stderr,
# so its figure is the budget V (root visits of a fresh tree, which the search
# stops at exactly). visits/s = all visits / all genmove seconds.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
games=${1:-100}
threads=${2:-$(n=$(nproc); echo $((n > 16 ? 16 : n)))}
build=${BUILD:-$here/../build-release}
out=${3:-$build/bench-out/mcts-katago-t$threads}
visits=${VISITS:-200}
size=${SIZE:-19}
komi=${KOMI:-7.5}
speed_sgf=${SPEED_SGF:-$here/../../shared/data/pro19-sample/alphago-vs-pro_master_48-2017.01.03-Master-Park_Jung-hwan.sgf}
speed_moves=${SPEED_MOVES:-$(seq -s, 20 10 210)}
hs=$build/cli/hyeongse
[ -x "$hs" ] || { echo "no $hs: build with -DCMAKE_BUILD_TYPE=Release first" >&2; exit 1; }
. "$here/katago_net_env.sh"
mkdir -p "$out"
out=$(cd "$out" && pwd)

cfg=$out/katago-gtp.cfg
"$here/katago_gtp_cfg.sh" "$cfg" "$visits" "$threads" true true

ours="env OMP_NUM_THREADS=$threads $hs gtp --net $net --visits $visits --threads $threads --rules chinese ${HS_NN_BACKEND:+--backend $HS_NN_BACKEND} ${HS_GTP_ARGS:-}"
theirs="$katago gtp -model $net -config $cfg"
gnugo=$(command -v gnugo || { [ -x /usr/games/gnugo ] && echo /usr/games/gnugo; } || true)

echo "== $(date -u +%FT%TZ) hyeongse $hs (scripts of $(git -C "$here/.." rev-parse --short HEAD 2>/dev/null || echo '?')) vs $("$katago" version 2>/dev/null | head -1)"
echo "   net $net, $visits visits, $threads threads, $(nproc) cores${HS_GTP_ARGS:+, ours with $HS_GTP_ARGS}"
echo
if [ "${SPEED:-1}" != 0 ]; then
    echo "== speed: genmove on $(echo "$speed_moves" | tr ',' '\n' | wc -l) positions of $(basename "$speed_sgf")$([ "${LOAD:-0}" -gt 0 ] && echo ", $LOAD busy processes beside")"
    load=()
    stop_load() { [ ${#load[@]} -eq 0 ] || kill "${load[@]}" 2>/dev/null || true; load=(); }
    trap stop_load EXIT
    for _ in $(seq "${LOAD:-0}"); do yes > /dev/null & load+=($!); done
    for side in ours theirs; do
        if [ $side = ours ]; then cmd="$ours --seed 1"; name=hyeongse; re=; else cmd=$theirs; name=katago; re='Root visits: ([0-9]+)'; fi
        python3 "$here/gtp_match.py" speed --engine "$cmd" --name "$name" --sgf "$speed_sgf" \
            --moves "$speed_moves" --budget "$visits" ${re:+--visits-re "$re"} \
            --stderr "$out/speed-$name.stderr" | tee "$out/speed-$name.txt" | tail -1
    done
    python3 - "$out/speed-hyeongse.txt" "$out/speed-katago.txt" <<'PY'
import re, sys
rate = lambda p: float(re.search(r"= ([0-9.]+) visits/s", open(p).read().splitlines()[-1]).group(1))
o, k = rate(sys.argv[1]), rate(sys.argv[2])
print(f"visits/s: hyeongse {o:.1f}, katago {k:.1f}, ratio {o / k if k else float('nan'):.2f} (goal >= 1.2)")
PY
    stop_load   # the match runs without them
fi

[ "$games" -gt 0 ] || exit 0
echo
echo "== match: $games games, ${size}x$size, komi $komi, chinese, in $out"
python3 "$here/gtp_match.py" match --a "$ours --seed {game}" --b "$theirs" --name-a hyeongse --name-b katago \
    --games "$games" --size "$size" --komi "$komi" --rules chinese --out "$out" \
    --visits-re-b 'Root visits: ([0-9]+)' ${gnugo:+--scorer "$gnugo --mode gtp --chinese-rules"}
