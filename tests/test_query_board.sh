#!/usr/bin/env bash
# tests/test_query_board.sh — `hyeongse query --board FILE.sgf --move N` and
# `hyeongse index`: analyzes three 9×9 games (judge), then asks with an SGF that
# is one of them rotated and mirrored (another game id, never stored):
#   - the stored games that reached the board are found, at their move;
#   - the next moves come back in the asked file's orientation (GTP names of the
#     rotated record), merged and counted, with the players' results;
#   - --json is one object that python3 -m json.tool reads;
#   - a board no game reached: exit status 3; --broker: refused (exit status 2);
#   - a store whose index was dropped (as written before the index): a clear
#     error naming `hyeongse index`; `index` back-fills it (a second run adds
#     nothing), the answers are then the same, and `check` passes;
#   - `query stats` shows boards_bytes and boards_complete.
set -u
BIN=${HS_BIN:?HS_BIN must name the hyeongse binary}
DROP="$(dirname "$BIN")/../tests/test_board_index"   # `test_board_index drop DIR`
tmp=$(mktemp -d /tmp/hs-test-qboard-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
. "$(dirname "$0")/lib.sh"
command -v python3 > /dev/null || { echo "SKIP: python3 is needed"; exit 77; }

mkdir -p "$tmp/games"
# a and b share their first 5 moves (then a plays C5, b G5); c is another game.
printf '(;GM[1]FF[4]SZ[9]KM[7]PB[alice]PW[bob]RE[B+R];B[ee];W[cc];B[gc];W[cg];B[gg];W[ce];B[dd])\n' > "$tmp/games/a.sgf"
printf '(;GM[1]FF[4]SZ[9]KM[7]PB[carol]PW[dave]RE[W+R];B[ee];W[cc];B[gc];W[cg];B[gg];W[ge])\n' > "$tmp/games/b.sgf"
printf '(;GM[1]FF[4]SZ[9]KM[7]PB[erin]PW[frank]RE[B+2.5];B[cc];W[gg];B[cg];W[gc])\n' > "$tmp/games/c.sgf"

# rotate IN OUT: every point (x, y) -> (y, 8 - x) (a quarter turn: mirror x,
# then swap, symmetry 5 of core/symmetry.h); `name SGF N` prints the GTP name
# of move N (1-based) of a record.
rotate() {
    python3 - "$1" "$2" <<'EOF'
import re, sys
s = open(sys.argv[1]).read()
a = 'abcdefghi'
def rot(m):
    x, y = a.index(m.group(2)[0]), a.index(m.group(2)[1])
    return m.group(1) + '[' + a[y] + a[8 - x] + ']'
s = re.sub(r'(;[BW])\[([a-i]{2})\]', rot, s)
s = s.replace('KM[7]', 'KM[7]C[rotated]')   # another game id (no effect on the board)
open(sys.argv[2], 'w').write(s)
EOF
}
name() {
    python3 - "$1" "$2" <<'EOF'
import re, sys
m = re.findall(r';[BW]\[([a-i]{2})\]', open(sys.argv[1]).read())[int(sys.argv[2]) - 1]
x, y = 'abcdefghi'.index(m[0]), 'abcdefghi'.index(m[1])
print('ABCDEFGHJ'[x] + str(9 - y))
EOF
}
mkdir -p "$tmp/ask"
rotate "$tmp/games/a.sgf" "$tmp/ask/a-rot.sgf"
rotate "$tmp/games/b.sgf" "$tmp/ask/b-rot.sgf"
printf '(;GM[1]FF[4]SZ[9]KM[7];B[aa];W[ii];B[ai])\n' > "$tmp/ask/new.sgf"

"$BIN" analyze "$tmp/games" --db "$tmp/db" --threads 1 --engines judge --quiet > "$tmp/analyze.out" 2>&1
check "analyze exit status" "$?" 0

# After 4 moves a and b stand on the same board; both then play B G3 (rotated).
out=$("$BIN" query --db "$tmp/db" --board "$tmp/ask/a-rot.sgf" --move 4 2> "$tmp/q.err")
check "query --board: exit status" "$?" 0
check "both games found at move 4" "$(printf '%s\n' "$out" | grep -cE '^[0-9a-f]{32} +4$')" 2
want=$(name "$tmp/ask/a-rot.sgf" 5)
check "the next move in the asked orientation ($want), played twice, by B" \
      "$(printf '%s\n' "$out" | awk -v m="$want" '$1 == m { print $2, $3 }')" "B 2"
check "its players won 1 of 2 (a: B+R, b: W+R)" \
      "$(printf '%s\n' "$out" | awk -v m="$want" '$1 == m { print $4 }')" "50%"
check "the judge's eval after it" \
      "$(printf '%s\n' "$out" | awk -v m="$want" '$1 == m { print $7 }')" judge
check "note on stderr" "$(grep -c 'stored game positions' "$tmp/q.err")" 1

# After 5 moves the two games part: W's two replies, each in the asked orientation.
json=$("$BIN" query --db "$tmp/db" --board "$tmp/ask/b-rot.sgf" --move 5 --json)
check "--json: exit status" "$?" 0
check "--json parses" "$(printf '%s\n' "$json" | python3 -m json.tool > /dev/null && echo ok)" ok
check "--json: one line" "$(printf '%s\n' "$json" | wc -l)" 1
moves=$(printf '%s\n' "$json" | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(d["size"], len(d["games"]), " ".join(sorted(n["move"] + n["color"] + str(n["count"]) for n in d["next"])))')
ma=$(name "$tmp/ask/a-rot.sgf" 6); mb=$(name "$tmp/ask/b-rot.sgf" 6)
check "--json: two games, two replies ($ma, $mb) by W" "$moves" \
      "9 2 $(printf '%s\n' "${ma}W1" "${mb}W1" | sort | tr '\n' ' ' | sed 's/ $//')"
# The same game unrotated gives the same replies by their own names.
check "unrotated: the stored names" \
      "$("$BIN" query --db "$tmp/db" --board "$tmp/games/b.sgf" --move 5 --json | python3 -c '
import json, sys; print(" ".join(sorted(n["move"] for n in json.load(sys.stdin)["next"])))')" "C5 G5"

"$BIN" query --db "$tmp/db" --board "$tmp/ask/new.sgf" --move 3 > /dev/null 2>&1
check "a board no game reached: exit status 3" "$?" 3
"$BIN" query --db "$tmp/db" --board "$tmp/ask/new.sgf" --move 9 > /dev/null 2> "$tmp/e"
check "--move past the end: exit status 1" "$?" 1
"$BIN" query --db "$tmp/db" --board "$tmp/ask/new.sgf" > /dev/null 2> "$tmp/e"
check "--board without --move: usage (exit status 2)" "$?" 2
"$BIN" query --broker tcp://127.0.0.1:1 --board "$tmp/ask/new.sgf" --move 1 > /dev/null 2> "$tmp/e"
check "--board through a broker: refused (exit status 2)" "$?" 2
check "--board through a broker: says why" "$(grep -c -- '--board reads a local SGF file' "$tmp/e")" 1

stats=$("$BIN" query --db "$tmp/db" stats --json)
check "stats: boards_complete" "$(printf '%s\n' "$stats" | python3 -c 'import json,sys; print(json.load(sys.stdin)["boards_complete"])')" True
check "stats: boards_bytes > 0" "$(printf '%s\n' "$stats" | python3 -c 'import json,sys; print(json.load(sys.stdin)["boards_bytes"] > 0)')" True

# A store as written before the index: the index dropped.
cp -r "$tmp/db" "$tmp/old"
"$DROP" drop "$tmp/old"
check "index dropped" "$?" 0
"$BIN" query --db "$tmp/old" --board "$tmp/ask/a-rot.sgf" --move 4 > /dev/null 2> "$tmp/e"
check "incomplete index: exit status 1" "$?" 1
check "incomplete index: says what to run" \
      "$(grep -c "run \`hyeongse index --db $tmp/old\`" "$tmp/e")" 1
check "stats: boards_complete false" \
      "$("$BIN" query --db "$tmp/old" stats --json | grep -o '"boards_complete":[a-z]*')" '"boards_complete":false'
"$BIN" index --db "$tmp/old" > "$tmp/idx.out" 2> "$tmp/idx.err"
check "index: exit status" "$?" 0
check "index: what it did (3 games, 8 + 7 + 5 boards)" "$(cat "$tmp/idx.out")" "indexed 3 games, 20 boards"
check "index: progress on stderr" "$(grep -c 'indexing: 3 / 3 games' "$tmp/idx.err")" 1
check "index again: adds nothing" "$("$BIN" index --db "$tmp/old" 2> /dev/null)" "indexed 3 games, 0 boards"
check "after index: the same answer" \
      "$("$BIN" query --db "$tmp/old" --board "$tmp/ask/b-rot.sgf" --move 5 --json)" "$json"
"$BIN" check --db "$tmp/old" > "$tmp/check.out" 2>&1
check "check after index: exit status" "$?" 0
check "check walks the boards" "$(grep -c ' 20 boards' "$tmp/check.out")" 1
"$BIN" index --db "$tmp/none" > /dev/null 2>&1
check "index of no store: exit status 1" "$?" 1
check "index of no store: creates nothing" "$([ -e "$tmp/none" ] && echo made || echo none)" none

if [ "$fail" != 0 ]; then
    echo "--- analyze output"; cat "$tmp/analyze.out"
    exit 1
fi
echo "all query --board checks passed"
