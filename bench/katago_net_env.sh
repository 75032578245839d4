# bench/katago_net_env.sh — sourced (not run) by every bench that runs KataGo
# on the shared b6c96 net (mcts_katago.sh, katago_lcb.sh, and through
# katago_peer_env.sh move_quality.sh and mcts_parity.sh): sets net (an
# absolute path) and katago, building KataGo with katago_build.sh where the
# binary is missing, or exits saying what is missing. Expects `here` (the
# bench folder). Environment: HS_NET (the net), KATAGO (the binary).
net=${HS_NET:-$(ls "$here"/../../shared/nets/katago-g170-b6c96/g170-b6c96-*.bin.gz 2>/dev/null | head -1)}
[ -f "$net" ] || { echo "no net (set HS_NET)" >&2; exit 1; }
net=$(cd "$(dirname "$net")" && pwd)/$(basename "$net")
katago=${KATAGO:-/work/peers/katago-build/katago}
[ -x "$katago" ] || katago=$("$here/katago_build.sh" | tail -1)
