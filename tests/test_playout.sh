#!/usr/bin/env bash
# tests/test_playout.sh — `hyeongse playout`: options, errors, determinism, and
# the SGF it writes (header properties, move count, result format, legal moves
# as replayed by the board — via the moves' own consistency: every game ends
# with two passes or the move cap).
set -u
bin=${HS_BIN:?HS_BIN must name the hyeongse binary}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if eval "$1"; then :; else echo "FAIL: $2"; fail=1; fi; }

"$bin" playout --help | grep -q -- '--games' ; check '[ $? -eq 0 ]' "--help prints the options"
"$bin" playout --size 1 --out "$tmp/x" 2>/dev/null; check '[ $? -eq 2 ]' "size 1 is a usage error"
"$bin" playout --size 9 --games 0 --out "$tmp/x" 2>/dev/null; check '[ $? -eq 2 ]' "0 games is a usage error"
"$bin" playout --size 9 --games 2 2>/dev/null; check '[ $? -eq 2 ]' "--out is required"
"$bin" playout --bogus 1 --out "$tmp/x" 2>/dev/null; check '[ $? -eq 2 ]' "unknown option"
"$bin" playout --size 9 --games 2 --out /proc/no/such/dir 2>/dev/null; check '[ $? -eq 1 ]' "unwritable output folder"

"$bin" playout --size 9 --games 20 --seed 7 --out "$tmp/a" >/dev/null; check '[ $? -eq 0 ]' "9x9 run"
"$bin" playout --size 9 --games 20 --seed 7 --out "$tmp/b" >/dev/null
"$bin" playout --size 9 --games 20 --seed 8 --out "$tmp/c" >/dev/null
check '[ $(ls "$tmp/a" | wc -l) -eq 20 ]' "20 files written"
check 'diff -r "$tmp/a" "$tmp/b" >/dev/null' "same seed gives the same games"
check '! diff -r "$tmp/a" "$tmp/c" >/dev/null' "another seed gives other games"
for f in "$tmp"/a/*.sgf; do
    check 'grep -q "^(;FF\[4\]GM\[1\]CA\[UTF-8\]SZ\[9\]KM\[7.5\]RU\[chinese\]" "$f"' "$f header"
    check 'grep -q "AP\[hyeongse:0.1\]" "$f"' "$f AP"
    check 'grep -Eq "RE\[(B\+[0-9.]+|W\+[0-9.]+|0)\]" "$f"' "$f RE"
    # Komi 7.5 on an odd board: never a draw, margin ends in .5.
    check 'grep -Eq "RE\[[BW]\+[0-9]+\.5\]" "$f"' "$f margin"
    # Ends with two passes.
    check 'tr -d "\n" < "$f" | grep -Eq ";[BW]\[\];[BW]\[\]\)$"' "$f ends with two passes"
    # Alternating colours from Black.
    moves=$(tr -d '\n' < "$f" | grep -o ';[BW]\[' | tr -d ';[' | tr -d '\n')
    check '[[ "$moves" =~ ^(BW)*B?$ ]]' "$f colours alternate"
    check '[ ${#moves} -gt 40 ]' "$f has a real game"
done
"$bin" playout --size 19 --games 2 --seed 1 --komi 6.5 --out "$tmp/d" >/dev/null
check 'grep -q "SZ\[19\]KM\[6.5\]" "$tmp/d/playout-000001.sgf"' "19x19 with komi 6.5"
"$bin" playout --size 2 --games 5 --seed 1 --out "$tmp/e" >/dev/null; check '[ $? -eq 0 ]' "2x2 works"
"$bin" playout --size 25 --games 1 --seed 1 --out "$tmp/f" >/dev/null; check '[ $? -eq 0 ]' "25x25 works"
check 'grep -q "\[yy\]\|\[y[a-y]\]\|\[[a-y]y\]" "$tmp/f/playout-000001.sgf"' "25x25 uses column/row y"
if [ $fail -eq 0 ]; then echo "playout: all checks passed"; fi
exit $fail
