#!/usr/bin/env bash
# examples/make-examples.sh — builds the example archive of examples/ and the
# tests' fixed archive:
#   selfplay.tar.gz  real games of the tree search against itself
#                    (`hyeongse selfplay`): selfplay9/, 9x9 with rollouts, and
#                    selfplay19/, 19x19 with the b6c96 net (only where
#                    ../shared/nets holds it; few visits, so it takes minutes)
#   tests/data/random9.tar.gz   200 random-playout 9x9 games (`hyeongse
#                    playout`), the fixed input of tests/test_analyze.sh,
#                    test_net_analyze.sh, test_mcts_analyze.sh and
#                    test_store_faults.sh (they count on its 200 games); not
#                    an example any more, since random playouts are not Go
# Seeds are fixed, so the same program gives the same games (the DT of the
# self-play records aside); packed reproducibly (sorted names, fixed times
# and owners, gzip without a time stamp), then checked with `hyeongse ingest
# --dry-run`.
#
#   examples/make-examples.sh [HYEONGSE_BINARY]     (default: build-release/cli/hyeongse)
# Environment: HS_EXAMPLES=selfplay|random|all (default all); HS_EXAMPLE_GAMES
# (random games, 200); HS_NET (the 19x19 games' net, default
# ../shared/nets/katago-g170-b6c96/*.bin.gz); SP9_GAMES, SP9_VISITS (4, 1000),
# SP19_GAMES, SP19_VISITS (3, 48); HS_THREADS (leaves per search step, 8).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
bin=${1:-$root/build-release/cli/hyeongse}
[ -x "$bin" ] || { echo "no hyeongse binary at $bin (build first, or pass its path)" >&2; exit 1; }
what=${HS_EXAMPLES:-all}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

pack() {  # pack PATH.tar.gz DIR...: reproducible tar.gz of the folders in $tmp
    local name=$1
    shift
    (cd "$tmp" && tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner \
         -cf - "$@" | gzip -9n > "$name")
    echo "wrote $name"
    "$bin" ingest "$name" --dry-run --no-progress
}

if [ "$what" = all ] || [ "$what" = random ]; then
    games=${HS_EXAMPLE_GAMES:-200}
    "$bin" playout --size 9 --games "$games" --seed 20240901 --komi 7 --out "$tmp/random9"
    pack "$root/tests/data/random9.tar.gz" random9
fi

if [ "$what" = all ] || [ "$what" = selfplay ]; then
    threads=${HS_THREADS:-8}
    "$bin" selfplay --size 9 --visits "${SP9_VISITS:-1000}" --games "${SP9_GAMES:-4}" --seed 20261202 \
        --komi 7 --rules chinese --threads "$threads" --out "$tmp/selfplay9"
    dirs=(selfplay9)
    net=${HS_NET:-$(ls "$root"/../shared/nets/katago-g170-b6c96/*.bin.gz 2>/dev/null | head -1 || true)}
    if [ -n "$net" ] && [ -f "$net" ]; then
        "$bin" selfplay --size 19 --visits "${SP19_VISITS:-48}" --games "${SP19_GAMES:-3}" --seed 20261202 \
            --komi 7.5 --rules chinese --threads "$threads" --net "$net" --out "$tmp/selfplay19"
        dirs+=(selfplay19)
    else
        echo "no net (../shared/nets or HS_NET): selfplay.tar.gz gets no 19x19 games" >&2
    fi
    pack "$here/selfplay.tar.gz" "${dirs[@]}"
fi
