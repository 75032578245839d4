#!/usr/bin/env bash
# tests/test_net_analyze.sh — `hyeongse analyze --engines net --net FILE` end to
# end, then `query`:
#   A. the tiny model (tests/fuzz/corpus/nnmodel, no ../shared needed) on the
#      example archive with the ref backend: the spec becomes net:net=<hash>,
#      and query shows win rate, lead, spread and the top 8 moves in its table,
#      CSV and JSON, the ownership with --ownership; a store read with that
#      spec and no --net;
#   B. errors: net without --net, a missing or non-model --net, a spec naming
#      another net, a bad --backend / --batch: exit 2 and a message that says so;
#   C. two nets, one archive: two jobs (the resume token holds the hash), two
#      engine specs in the store; a 25x25 game the net cannot take fails
#      alone, not the 9x9 games that shared its engine batch; with the judge
#      beside the net it is not lost: the judge's evals stored, the net's
#      carrying its reason;
#   D. the real b6c96 net on a few games of ../shared/data/pro19-sample, every
#      50th move, --backend ref: the stored lead and win rate of one position
#      equal hs_nn_evaluate's (tests/test_net_engine.c "direct"). Skipped with
#      a message where ../shared is absent.
set -u
BIN=${HS_BIN:?HS_BIN must name the hyeongse binary}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ARCHIVE="$ROOT/tests/data/random9.tar.gz"
TINY="$ROOT/tests/fuzz/corpus/nnmodel/tiny-v8.bin.gz"
TINY2="$ROOT/tests/fuzz/corpus/nnmodel/tiny-v11.bin.gz"
DIRECT="$(dirname "$BIN")/../tests/test_net_engine"
[ -f "$ARCHIVE" ] && [ -f "$TINY" ] || { echo "SKIP: $ARCHIVE or $TINY is missing"; exit 77; }
tmp=$(mktemp -d /tmp/hs-test-net-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
. "$(dirname "$0")/lib.sh"
# --engines net without --net loads the default model: none here (test_net_default.sh has one)
mkdir "$tmp/nomodels"
export HYEONGSE_MODELS="$tmp/nomodels"

# A. analyze + query
"$BIN" analyze "$ARCHIVE" --db "$tmp/db" --engines net --net "$TINY" --backend ref \
    --moves every:20 --batch 4 --quiet > "$tmp/out" 2> "$tmp/err"
check "analyze with the tiny net: exit status" "$?" 0
spec=$(grep -o 'net:net=[0-9a-f]*' "$tmp/out" | head -1)
check "the spec names the net by its 32-digit hash" "${#spec}" 40
"$BIN" query --db "$tmp/db" --json --limit 1 > "$tmp/j"
check "json: the spread" "$(grep -c '"score_stdev":[0-9.]*' "$tmp/j")" 1
check "json: 8 policy moves" "$(grep -o '{"move":"[A-Z]*[0-9]*","prob":0\.[0-9]*}' "$tmp/j" | wc -l)" 8
check "json: win rate and lead" "$(grep -c '"score_lead":-*[0-9.]*,"win_rate":0\.[0-9]*' "$tmp/j")" 1
"$BIN" query --db "$tmp/db" --json --limit 1 --ownership > "$tmp/jo"
check "json --ownership: 81 values" \
      "$(grep -o '"ownership":\[[-0-9,]*\]' "$tmp/jo" | tr ',' '\n' | wc -l)" 81
"$BIN" query --db "$tmp/db" --format csv --limit 2 > "$tmp/c" 2>/dev/null
check "csv: header ends with the net's and the search's columns" "$(head -1 "$tmp/c" | grep -c ',error,score_stdev,policy,visits,best,pv,moves$')" 1
check "csv: a row's policy column (before the search's four) holds 8 moves" \
      "$(sed -n 2p "$tmp/c" | awk -F, '{ print $(NF-4) }' | tr ';' '\n' | grep -c '^[A-Z][0-9]* 0\.[0-9]*$')" 8
"$BIN" query --db "$tmp/db" --limit 1 > "$tmp/t" 2>/dev/null
check "table: a line with the spread and the policy" "$(grep -c '^ *spread [0-9.]*  policy [A-Z][0-9]* ' "$tmp/t")" 1
"$BIN" query --db "$tmp/db" --engine "$spec" --limit 3 --json > "$tmp/e" 2>&1
check "query --engine net:net=<hash> reads without --net" "$(grep -c "\"engine\":\"$spec\"" "$tmp/e")" 3

# B. errors
expect_status() {   # expect_status STATUS DESCRIPTION PATTERN ARGS...: STATUS and PATTERN on stderr
    local status=$1 desc=$2 pat=$3; shift 3
    "$BIN" analyze "$ARCHIVE" --db "$tmp/dberr" --quiet "$@" > /dev/null 2> "$tmp/err"
    local rc=$?
    check "$desc: exit status" "$rc" "$status"
    check "$desc: says why" "$(grep -c -- "$pat" "$tmp/err")" 1
}
expect_2() { expect_status 2 "$@"; }
expect_2 "net without --net" "give --net FILE" --engines net
# A net that does not load is exit 1, as in gtp, analysis, selfplay and worker.
expect_status 1 "--net of a missing file" "nothere.bin.gz" --engines net --net "$tmp/nothere.bin.gz"
expect_status 1 "--net of a file that is no model" "--net $ARCHIVE" --engines net --net "$ARCHIVE" --backend ref
expect_2 "a spec naming another net" "spec names net 0123456789abcdef0123456789abcdef but --net" \
    --engines net:net=0123456789abcdef0123456789abcdef --net "$TINY" --backend ref
expect_2 "a spec naming a net, no --net" "spec names net 0123456789abcdef0123456789abcdef but no net is loaded" \
    --engines net:net=0123456789abcdef0123456789abcdef
expect_2 "an mcts spec naming a net, no --net" "but no net is loaded" \
    --engines mcts:visits=2,net=0123456789abcdef0123456789abcdef
expect_status 1 "a spec's net=FILE that is not there" "net=$tmp/nothere.bin.gz: cannot open the model" \
    --engines "mcts:visits=2,net=$tmp/nothere.bin.gz"
expect_2 "a bad --backend" "backend" --net "$TINY" --backend tpu
expect_2 "--batch 0" "batch" --net "$TINY" --backend ref --batch 0
check "no store made by a refused command" "$([ -e "$tmp/dberr/data.mdb" ] && echo made || echo none)" none

# C. another net on the same archive: its own job and engine spec
"$BIN" analyze "$ARCHIVE" --db "$tmp/db" --net "$TINY2" --backend ref --moves every:20 \
    --quiet > "$tmp/out2" 2> "$tmp/err2"
check "a second net: exit status" "$?" 0
check "a second net: not taken for a resume of the first" "$(grep -c 'resum' "$tmp/err2" "$tmp/out2" | awk -F: '{ s += $2 } END { print s }')" 0
check "a second net: two net specs in the store" \
      "$("$BIN" query --db "$tmp/db" stats --json | grep -o 'net:net=[0-9a-f]*' | sort -u | wc -l)" 2
# `query --engine net` stands for the store's one net spec; with two it names both.
"$BIN" query --db "$tmp/db" --engine net --limit 3 > /dev/null 2> "$tmp/qn2.err"
check "query --engine net over two nets: exit status" "$?" 1
check "query --engine net over two nets: names both" \
      "$(grep -c 'the store has 2 engines of that name, give one whole: net:net=[0-9a-f]*, net:net=' "$tmp/qn2.err")" 1

# A bare spec binds to --net's nets only, not to one a spec loaded (net=FILE):
# the bare mcts stays the rollout search.
"$BIN" analyze "$ARCHIVE" --db "$tmp/dbbind" --engines "mcts:visits=2,mcts:visits=1,net=$TINY" \
    --backend ref --moves last --quiet > "$tmp/outbind" 2>&1
check "a bare mcts beside mcts:net=FILE: exit status" "$?" 0
check "a bare mcts beside mcts:net=FILE: stays rollouts" \
      "$(grep -c 'engines: mcts@[0-9]*:visits=2,mcts@[0-9]*:visits=1,net=[0-9a-f]*$' "$tmp/outbind")" 1

# A game the net cannot take (25x25: its inputs hold 19x19 at most) fails alone
# (the cpu backend: it batches positions of several games; ref takes one),
# with its reason, and not the games that shared its engine batch.
mkdir -p "$tmp/mixed"
tar -xzf "$ARCHIVE" -C "$tmp/mixed"
printf '(;GM[1]FF[4]SZ[25]KM[6.5]RE[B+R];B[aa];W[bb];B[cc])' > "$tmp/mixed/z25.sgf"
"$BIN" analyze "$tmp/mixed" --db "$tmp/dbmix" --net "$TINY" --backend cpu --moves every:10 \
    --quiet > /dev/null 2> "$tmp/errmix"
check "a 25x25 game among 9x9 ones: exit status" "$?" 0
"$BIN" query --db "$tmp/dbmix" failed > "$tmp/failmix" 2>/dev/null
check "a 25x25 game among 9x9 ones: only it failed" \
      "$(grep -c '^[^ ]' "$tmp/failmix") $(grep -c '^[^ ].*z25.sgf$' "$tmp/failmix")" "1 1"
check "a 25x25 game among 9x9 ones: its reason" "$(grep -c 'board size 25' "$tmp/failmix")" 1
# With another engine in the job, the game is not lost: the judge's evals are
# stored, and the net's evals of it are its reason (query shows it as an error).
"$BIN" analyze "$tmp/mixed" --db "$tmp/dbmix2" --engines net,judge --net "$TINY" --backend cpu \
    --moves every:10 --quiet > /dev/null 2> "$tmp/errmix2"
check "net,judge with a 25x25 game: exit status" "$?" 0
"$BIN" query --db "$tmp/dbmix2" failed > "$tmp/failmix2" 2>/dev/null
check "net,judge with a 25x25 game: no game failed" "$(grep -c '^[^ ]' "$tmp/failmix2")" 0
"$BIN" query --db "$tmp/dbmix2" --path "$tmp/mixed/z25.sgf" > "$tmp/q25" 2>&1
check "net,judge with a 25x25 game: the judge's eval of it (move 0, every:10)" \
      "$(grep -c ' judge .*W+6.5' "$tmp/q25")" 1
check "net,judge with a 25x25 game: the net's, its reason" \
      "$(grep -c 'net:net=.*error: net inputs: board size 25' "$tmp/q25")" 1
check "query --engine net: the store's one net" \
      "$("$BIN" query --db "$tmp/dbmix2" --engine net --format csv | tail -n +2 | grep -c ',net:net=')" \
      "$("$BIN" query --db "$tmp/dbmix2" --format csv | tail -n +2 | grep -c ',net:net=')"

# D. the real net
NET="$ROOT/../shared/nets/katago-g170-b6c96/g170-b6c96-s175395328-d26788732.bin.gz"
PRO="$ROOT/../shared/data/pro19-sample"
if [ ! -f "$NET" ] || [ ! -d "$PRO" ]; then
    echo "skip: D. the b6c96 net or pro19-sample is absent (../shared)"
elif [ ! -x "$DIRECT" ]; then
    echo "FAIL: $DIRECT is not built"; fail=1
else
    mkdir -p "$tmp/pro"
    ls "$PRO"/*.sgf | head -3 | while read -r f; do cp "$f" "$tmp/pro/"; done
    "$BIN" analyze "$tmp/pro" --db "$tmp/dbpro" --engines net --net "$NET" --backend ref \
        --moves every:50 --quiet > "$tmp/outp" 2> "$tmp/errp"
    check "b6c96 on 3 pro games: exit status" "$?" 0
    game=$(ls "$tmp/pro"/*.sgf | head -1)
    stored=$("$BIN" query --db "$tmp/dbpro" --path "$game" --move 50 --json |
             grep -o '"score_lead":[-0-9.]*,"win_rate":[0-9.]*')
    direct=$("$DIRECT" direct "$NET" "$game" 50)
    echo "stored: $stored"
    check "b6c96: the stored lead and win rate at move 50 are hs_nn_evaluate's" "$stored" "$direct"
fi
exit $fail
