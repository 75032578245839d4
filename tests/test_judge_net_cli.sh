#!/usr/bin/env bash
# tests/test_judge_net_cli.sh — `hyeongse judge --engine net`: no --net (and
# no default model: HYEONGSE_MODELS names an empty folder), an unknown engine
# or backend, and --net without --engine net are usage errors
# (exit 2, a message, nothing on stdout); a missing or broken model file is an
# error (exit 1) that names the file. With the shared b6c96 net (skipped
# without it): a judgment whose JSON says the engine and the net.
set -u
bin=${HS_BIN:?HS_BIN must name the hyeongse binary}
data=${HS_TEST_DATA:-$(dirname "$0")/data}
sgf=$data/judge/dead_stones.sgf      # 9x9, 2 moves
net=${HS_DATA_DIR:-$(dirname "$0")/../../shared/data}/../nets/katago-g170-b6c96/g170-b6c96-s175395328-d26788732.bin.gz
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
. "$(dirname "$0")/lib.sh"
# --engine net without --net runs the default model: none here (test_net_default.sh has one)
mkdir "$tmp/nomodels"
export HYEONGSE_MODELS="$tmp/nomodels"

# fails WHAT STATUS GREP ARGS...: exit STATUS, stderr matching GREP, empty stdout.
fails() {
    local what=$1 status=$2 pattern=$3
    shift 3
    "$bin" judge "$@" >"$tmp/out" 2>"$tmp/err"
    check "$what: exit status" "$?" "$status"
    check "$what: says why" "$(grep -c -- "$pattern" "$tmp/err")" 1
    check "$what: prints no judgment" "$(wc -c <"$tmp/out")" 0
}

fails "--engine net without --net" 2 "no default model.*give --net FILE" "$sgf" --engine net
fails "--engine foo" 2 "--engine is static or net, not 'foo'" "$sgf" --engine foo
fails "--net without --engine net" 2 "are for --engine net" "$sgf" --net "$tmp/x.bin.gz"
fails "--engine without a value" 2 "--engine needs a value" "$sgf" --engine
fails "--net missing file" 1 "$tmp/none.bin.gz" "$sgf" --engine net --net "$tmp/none.bin.gz" --backend ref
printf 'not a model at all\n' >"$tmp/junk.bin.gz"
fails "--net a broken file" 1 "junk.bin.gz" "$sgf" --engine net --net "$tmp/junk.bin.gz" --backend ref
fails "--backend bogus" 2 "bogus" "$sgf" --engine net --net "$tmp/junk.bin.gz" --backend bogus

if [ ! -f "$net" ]; then
    echo "SKIP (rest): the shared net is not here ($net)"
    [ $fail = 0 ] && exit 77
    exit $fail
fi
"$bin" judge "$sgf" --engine net --net "$net" --backend ref --json >"$tmp/j" 2>"$tmp/err"
check "net judgment: exit status" "$?" 0
check "net judgment: engine and net in the JSON" \
      "$(grep -o '"engine":"net","net":"[0-9a-f]*"' "$tmp/j" | wc -l)" 1
check "net judgment: the net's lead" "$(grep -c '"net_lead":-\{0,1\}[0-9]' "$tmp/j")" 1
"$bin" judge "$sgf" --json >"$tmp/s" 2>/dev/null
check "static judgment says so" "$(grep -c '"engine":"static"' "$tmp/s")" 1
exit $fail
