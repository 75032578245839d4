# bench/katago_peer_env.sh — sourced (not run) by the benches that set our
# search beside KataGo's on positions of real games (move_quality.sh,
# mcts_parity.sh): finds and checks what they share. Expects `here` (the
# bench folder) and `build`; sets hs, net, sgf_dir, katago, or exits with
# what is missing (net and katago through katago_net_env.sh). Environment:
# HS_NET, SGF_DIR, KATAGO (as those scripts document).
sgf_dir=${SGF_DIR:-$here/../../shared/data/pro19-sample}
hs=$build/cli/hyeongse
[ -x "$hs" ] || { echo "no $hs: build with -DCMAKE_BUILD_TYPE=Release first" >&2; exit 1; }
[ -d "$sgf_dir" ] || { echo "no $sgf_dir (set SGF_DIR)" >&2; exit 1; }
. "$here/katago_net_env.sh"
