#!/usr/bin/env bash
# tests/test_judge_cli.sh — `hyeongse judge` arguments: a --move that is
# negative, past the game's end or not a whole number is a usage error (exit 2,
# a message naming the option, nothing on stdout), as are bad --game, --tau and
# --komi values, and --move with --final; a --move past an illegal move is
# exit 1; good calls judge the position asked for.
set -u
bin=${HS_BIN:?HS_BIN must name the hyeongse binary}
data=${HS_TEST_DATA:-$(dirname "$0")/data}
sgf=$data/sgf/fox-like.sgf          # 19x19, 4 moves after the setup
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
. "$(dirname "$0")/lib.sh"

# refused WHAT GREP ARGS...: exit 2, stderr matching GREP, empty stdout.
refused() {
    local what=$1 pattern=$2
    shift 2
    "$bin" judge "$@" >"$tmp/out" 2>"$tmp/err"
    check "$what: exit status" "$?" 2
    check "$what: says why" "$(grep -c -- "$pattern" "$tmp/err")" 1
    check "$what: prints no judgment" "$(wc -c <"$tmp/out")" 0
}

refused "--move -5" "--move needs a whole number >= 0, not '-5'" "$sgf" --move -5
refused "--move abc" "--move needs a whole number >= 0, not 'abc'" "$sgf" --move abc
refused "--move 1e20" "not '1e20'" "$sgf" --move 1e20
refused "--move 99999999999999999999" "not '99999999999999999999'" "$sgf" --move 99999999999999999999
refused "--move ''" "not ''" "$sgf" --move ''
refused "--move 3x" "not '3x'" "$sgf" --move 3x
refused "--move past the end" "game 1 has 4 moves; no move 5" "$sgf" --move 5
refused "--move without a value" "--move needs a value" "$sgf" --move
refused "--move with --final" "--move N or --final, not both" "$sgf" --move 2 --final
refused "--final with --move" "--move N or --final, not both" "$sgf" --final --move 2

# A game with an illegal second move: the final position is the one before
# it (a warning, exit 0); a --move past it is not judged (exit 1), since the
# position judged would not be the one asked for.
printf '(;GM[1]FF[4]SZ[9]KM[7];B[ee];W[ee];B[cc];W[dd])' > "$tmp/illegal.sgf"
"$bin" judge "$tmp/illegal.sgf" --json >"$tmp/out" 2>"$tmp/err"
check "illegal move, final position: exit status" "$?" 0
check "illegal move, final position: the one before it" "$(grep -o '"move":[0-9]*' "$tmp/out")" '"move":1'
"$bin" judge "$tmp/illegal.sgf" --move 3 --json >"$tmp/out" 2>"$tmp/err"
check "illegal move, --move past it: exit status" "$?" 1
check "illegal move, --move past it: says which move can be" "$(grep -c -- '--move 1 judges the last one' "$tmp/err")" 1
check "illegal move, --move past it: prints no judgment" "$(wc -c <"$tmp/out")" 0
"$bin" judge "$tmp/illegal.sgf" --move 1 >/dev/null 2>&1
check "illegal move, --move before it: exit status" "$?" 0
refused "--game -1" "--game needs a whole number >= 1, not '-1'" "$sgf" --game -1
refused "--game 0" "--game needs a whole number >= 1, not '0'" "$sgf" --game 0
refused "--game past the file" "holds 1 game(s); no game 2" "$sgf" --game 2

# Games of a file count from 1 wherever a user meets them: --game K, judge's
# own lines and the SGF reader's reasons ("game 2, line ..."), as in `inspect`
# and `ingest`. The second game of this collection is broken.
printf '(;GM[1]FF[4]SZ[9]KM[7];B[ee];W[cc])\n(;GM[1]FF[4]SZ[9]KM[7];B[ee];W[ee]\n(;GM[1]FF[4]SZ[9]KM[7];B[dd])' > "$tmp/three.sgf"
"$bin" judge "$tmp/three.sgf" --game 1 --json >"$tmp/out" 2>"$tmp/err"
check "--game 1 is the first game: exit status" "$?" 0
check "--game 1 is the first game: its 2 moves" "$(grep -o '"game":1,"size":9,"move":2' "$tmp/out")" '"game":1,"size":9,"move":2'
"$bin" judge "$tmp/three.sgf" --game 2 >"$tmp/out" 2>"$tmp/err"
check "--game 2, broken: exit status" "$?" 1
check "--game 2, broken: the reason names game 2 once" "$(grep -o 'game [0-9]' "$tmp/err" | sort -u | tr '\n' ' ')" "game 2 "
"$bin" inspect "$tmp/three.sgf" --game 2 >/dev/null 2>"$tmp/err2"
check "inspect --game 2 names the same game" "$(grep -o 'game [0-9]' "$tmp/err2" | sort -u | tr '\n' ' ')" "game 2 "
refused "--tau abc" "--tau needs a whole number 0..32767, not 'abc'" "$sgf" --tau abc
refused "--komi abc" "--komi needs a number -1000..1000, not 'abc'" "$sgf" --komi abc
refused "--komi 1e9" "--komi needs a number -1000..1000, not '1e9'" "$sgf" --komi 1e9

# Good calls: the move asked for, and the last move is the final position.
"$bin" judge "$sgf" --move 2 --json >"$tmp/m2" 2>"$tmp/err"
check "--move 2: exit status" "$?" 0
check "--move 2: one JSON line" "$(wc -l <"$tmp/m2")" 1
check "--move 2: judged after move 2" "$(grep -o '"move":[0-9]*' "$tmp/m2")" '"move":2'
"$bin" judge "$sgf" --move 0 --json >"$tmp/m0" 2>/dev/null
check "--move 0: the setup position" "$(grep -o '"move":[0-9]*' "$tmp/m0")" '"move":0'
"$bin" judge "$sgf" --move 4 --json --tau 120 --komi 0.5 >"$tmp/m4" 2>/dev/null
check "--move 4: exit status" "$?" 0
"$bin" judge "$sgf" --json --tau 120 --komi 0.5 >"$tmp/final" 2>/dev/null
check "--move 4 is the final position" "$(cmp -s "$tmp/m4" "$tmp/final" && echo same)" same
check "--komi and --tau are read" "$(grep -o '"komi":0.5,' "$tmp/m4")$(grep -o '"tau":120' "$tmp/m4")" \
      '"komi":0.5,"tau":120'

exit $fail
