# bench/katago_peer_env.sh — sourced (not run) by the benches that set our
# search beside KataGo's on positions of real games (move_quality.sh,
# mcts_parity.sh): finds and checks what they share. Expects `here` (the
# bench folder) and `build`; sets hs, net, sgf_dir, katago, or exits with
# what is missing. Environment: HS_NET, SGF_DIR, KATAGO (as those scripts
# document).
net=${HS_NET:-$(find "$here/../../shared/nets/katago-g170-b6c96" -name 'g170-b6c96-*.bin.gz' 2>/dev/null | sort | head -1)}
sgf_dir=${SGF_DIR:-$here/../../shared/data/pro19-sample}
hs=$build/cli/hyeongse
[ -x "$hs" ] || { echo "no $hs: build with -DCMAKE_BUILD_TYPE=Release first" >&2; exit 1; }
[ -f "$net" ] || { echo "no net (set HS_NET)" >&2; exit 1; }
[ -d "$sgf_dir" ] || { echo "no $sgf_dir (set SGF_DIR)" >&2; exit 1; }
katago=${KATAGO:-/work/peers/katago-build/katago}
[ -x "$katago" ] || katago=$("$here/katago_build.sh" | tail -1)
