#!/usr/bin/env bash
# tests/test_net_default.sh — the default model (worker/nn/model.h,
# hs_nn_default_model_path): with HYEONGSE_MODELS naming a folder that holds
# hyeongse-default.hsn (a small random .hsn written by tests/make_hsn),
# `judge --engine net` and `analyze --engines net` without --net run it (the
# same net hash as with --net FILE); with the folder empty, judge, analyze,
# submit and worker refuse with a message that says where they looked and
# that --net FILE is the alternative; a broken default model is named.
# Needs no ../shared.
set -u
BIN=${HS_BIN:?HS_BIN must name the hyeongse binary}
MAKE_HSN=${HS_MAKE_HSN:-$(dirname "$BIN")/../tests/make_hsn}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SGF="$ROOT/tests/data/judge/dead_stones.sgf"
ARCHIVE="$ROOT/tests/data/random9.tar.gz"
[ -x "$MAKE_HSN" ] || { echo "SKIP: make_hsn is not built ($MAKE_HSN)"; exit 77; }
tmp=$(mktemp -d /tmp/hs-test-netdefault-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
. "$(dirname "$0")/lib.sh"

mkdir -p "$tmp/models" "$tmp/empty" "$tmp/bad"
"$MAKE_HSN" "$tmp/models/hyeongse-default.hsn" 1 8 3 4 4 4 8 5
check "make_hsn wrote the model" "$?" 0
printf 'HSNET\0\r\nnot a net\n' > "$tmp/bad/hyeongse-default.hsn"

# judge --engine net: the default model is the one --net names
"$BIN" judge "$SGF" --engine net --net "$tmp/models/hyeongse-default.hsn" --backend ref \
    --json > "$tmp/with" 2> "$tmp/err"
check "judge --net FILE: exit status" "$?" 0
hash=$(grep -o '"net":"[0-9a-f]*"' "$tmp/with" | cut -d'"' -f4)
check "judge --net FILE: the net's hash" "${#hash}" 32
HYEONGSE_MODELS="$tmp/models" "$BIN" judge "$SGF" --engine net --backend ref --json \
    > "$tmp/without" 2> "$tmp/err"
check "judge without --net: exit status" "$?" 0
check "judge without --net: the default model ran" \
    "$(grep -o '"net":"[0-9a-f]*"' "$tmp/without" | cut -d'"' -f4)" "$hash"
check "judge without --net: the same judgment" "$(cmp -s "$tmp/with" "$tmp/without"; echo $?)" 0

# analyze --engines net
HYEONGSE_MODELS="$tmp/models" "$BIN" analyze "$ARCHIVE" --db "$tmp/db" --engines net \
    --backend ref --moves every:40 --batch 4 > "$tmp/out" 2> "$tmp/err"
check "analyze without --net: exit status" "$?" 0
check "analyze without --net: the spec names the default model" \
    "$(grep -c "net:net=$hash" "$tmp/out")" 1
check "analyze without --net: says it runs the default model" \
    "$(grep -c "default model .*$hash" "$tmp/err")" 1
"$BIN" query --db "$tmp/db" --engine "net:net=$hash" --limit 2 --json > "$tmp/q" 2>&1
check "query: positions of the default model" "$(grep -c "\"engine\":\"net:net=$hash\"" "$tmp/q")" 2

# absent: a clear refusal (exit 2) naming the place and --net FILE
absent() {   # absent WHAT COMMAND...
    local what=$1; shift
    HYEONGSE_MODELS="$tmp/empty" timeout 30 "$@" > "$tmp/a.out" 2> "$tmp/a.err"
    check "$what, no default model: exit status" "$?" 2
    check "$what: says where it looked" "$(grep -c "no default model: hyeongse-default.hsn is not in \$HYEONGSE_MODELS ($tmp/empty)" "$tmp/a.err")" 1
    check "$what: names --net FILE" "$(grep -c -- "give --net FILE" "$tmp/a.err")" 1
}
absent "judge" "$BIN" judge "$SGF" --engine net --backend ref
absent "analyze" "$BIN" analyze "$ARCHIVE" --db "$tmp/db2" --engines net --backend ref --quiet
check "analyze: no store made" "$([ -e "$tmp/db2/data.mdb" ] && echo made || echo none)" none
absent "submit" "$BIN" submit "$SGF" --broker tcp://127.0.0.1:1 --engines net
absent "worker" "$BIN" worker --connect tcp://127.0.0.1:1 --engines net --backend ref

# a broken default model: an error naming the file
HYEONGSE_MODELS="$tmp/bad" "$BIN" judge "$SGF" --engine net --backend ref > /dev/null 2> "$tmp/err"
check "broken default model: exit status" "$?" 1
check "broken default model: named" "$(grep -c "$tmp/bad/hyeongse-default.hsn" "$tmp/err")" 1
exit $fail
