#!/usr/bin/env bash
# tests/test_query.sh — `hyeongse query --position FILE.sgf --move N`: analyzes a tiny
# archive with `hyeongse analyze`, then looks positions up from the SGF files:
#   - every position of every game is found, with exactly the eval the game query
#     (`query --path`) shows for that move (the key is computed as the worker does,
#     setup stones and captures included);
#   - a position two games share lists both games, one game's own position only it;
#   - the same moves with another komi (not analyzed) have no eval (exit status 3):
#     komi is part of the key; a move past the end is an error (exit status 1);
#   - --no-games lists no games; --help says --broker is not supported.
# Engine "area" (fast, deterministic), one thread.
set -u
BIN=${HS_BIN:?HS_BIN must name the hyeongse binary}
tmp=$(mktemp -d /tmp/hs-test-query-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() {   # check DESCRIPTION ACTUAL EXPECTED
    if [ "$2" = "$3" ]; then echo "ok: $1 ($2)"; else echo "FAIL: $1: got '$2', expected '$3'"; fail=1; fi
}

mkdir -p "$tmp/games"
# a and b share their first 5 moves; c has setup stones and a capture (W takes at
# move 3); other/ holds a copy of a with another komi, never analyzed.
printf '(;GM[1]FF[4]SZ[9]KM[7]PB[alice]PW[bob]RE[B+R];B[ee];W[cc];B[gc];W[cg];B[gg];W[ce];B[dd])\n' > "$tmp/games/a.sgf"
printf '(;GM[1]FF[4]SZ[9]KM[7]PB[carol]PW[dave]RE[W+R];B[ee];W[cc];B[gc];W[cg];B[gg];W[ge])\n' > "$tmp/games/b.sgf"
printf '(;GM[1]FF[4]SZ[9]KM[0.5]HA[2]AB[cc][gg]PB[erin]PW[frank]RE[B+R];W[ba];B[aa];W[ab];B[ee];W[dd];B[ed];W[dc])\n' > "$tmp/games/c.sgf"
mkdir -p "$tmp/other"
sed 's/KM\[7\]/KM[6.5]/' "$tmp/games/a.sgf" > "$tmp/other/a65.sgf"

"$BIN" analyze "$tmp/games" --db "$tmp/db" --threads 1 --engines area --quiet > "$tmp/analyze.out" 2>&1
check "analyze exit status" "$?" 0
check "games stored" "$("$BIN" query --db "$tmp/db" stats --json | grep -o '"games":[0-9]*')" '"games":3'

# Every position of every game: one eval, equal to the game query's row for that move.
for spec in a:7 b:6 c:7; do
    g=${spec%%:*}; n=${spec##*:}
    bad=0
    for m in $(seq 0 "$n"); do
        pos=$("$BIN" query --db "$tmp/db" --position "$tmp/games/$g.sgf" --move "$m" --json --no-games)
        rc=$?
        rows=$(printf '%s\n' "$pos" | grep -c '"engine"')
        want=$("$BIN" query --db "$tmp/db" --path "$tmp/games/$g.sgf" --move "$m" --json \
               | grep -o '"score_lead":[^,]*')
        got=$(printf '%s\n' "$pos" | grep -o '"score_lead":[^,]*')
        if [ "$rc" != 0 ] || [ "$rows" != 1 ] || [ -z "$want" ] || [ "$got" != "$want" ]; then
            echo "  $g.sgf move $m: rc $rc, $rows rows, position says '$got', game says '$want'"
            bad=$((bad + 1))
        fi
    done
    check "$g.sgf: positions 0..$n found with the game's own eval (mismatches)" "$bad" 0
done

# Shared opening position: both games, each at move 5; b's own last position: b only.
out=$("$BIN" query --db "$tmp/db" --position "$tmp/games/a.sgf" --move 5 --json)
check "shared position: games listed" "$(printf '%s\n' "$out" | grep -c '"game"')" 2
check "shared position: both sources" \
      "$(printf '%s\n' "$out" | grep -o '"source":"[^"]*"' | sed 's#.*/##' | sort | tr -d '\n')" \
      'a.sgf"b.sgf"'
check "shared position: at move 5" "$(printf '%s\n' "$out" | grep -c '"move":5')" 2
out=$("$BIN" query --db "$tmp/db" --position "$tmp/games/b.sgf" --move 6 --json)
check "b's own position: games listed" "$(printf '%s\n' "$out" | grep -c '"game"')" 1
check "b's own position: it is b" "$(printf '%s\n' "$out" | grep -c 'b.sgf')" 1
# The table and CSV formats print the same position.
check "table format lists both games" \
      "$("$BIN" query --db "$tmp/db" --position "$tmp/games/a.sgf" --move 5 2>/dev/null | grep -c ' move ')" 2
check "csv format: one eval row" \
      "$("$BIN" query --db "$tmp/db" --position "$tmp/games/a.sgf" --move 5 --format csv | grep -c '^eval,')" 1

# Komi is in the key: the same moves at komi 6.5 were never analyzed.
out=$("$BIN" query --db "$tmp/db" --position "$tmp/other/a65.sgf" --move 5 --json)
rc=$?
check "other komi: exit status" "$rc" 3
check "other komi: no eval rows" "$(printf '%s' "$out" | grep -c '"engine"')" 0
# Errors.
"$BIN" query --db "$tmp/db" --position "$tmp/games/a.sgf" --move 99 > /dev/null 2>&1
check "move past the end: exit status" "$?" 1
"$BIN" query --db "$tmp/db" --position "$tmp/games/a.sgf" > /dev/null 2>&1
check "--position without --move: exit status" "$?" 2
"$BIN" query --db "$tmp/db" --position "$tmp/games/a.sgf" --move 1 --game 3 > /dev/null 2>&1
check "--game K past the file's games: exit status" "$?" 1
check "--help: --broker not supported yet" \
      "$("$BIN" query --help | grep -c 'Not yet: querying through a broker')" 1
"$BIN" query --db "$tmp/db" --broker tcp://127.0.0.1:1 stats > /dev/null 2>&1
check "--broker refused: exit status" "$?" 2

# `query failed` lists what analyze could not read, with the reason (analyze's
# summary points users to it).
mkdir -p "$tmp/broken"
printf '(;GM[1]FF[4]SZ[9];B[ee];W[ee])\n' > "$tmp/broken/occupied.sgf"
"$BIN" analyze "$tmp/broken" --db "$tmp/db2" --threads 1 --engines area --quiet > /dev/null 2>&1
check "analyze of a broken game: exit status" "$?" 0
check "query failed lists it with its reason" \
      "$("$BIN" query --db "$tmp/db2" failed --json 2>/dev/null | grep -c '"source":"[^"]*occupied.sgf[^"]*","reason":"[^"]*move 2')" 1

if [ "$fail" != 0 ]; then
    echo "--- analyze output"; cat "$tmp/analyze.out"
    exit 1
fi
echo "all query checks passed"
