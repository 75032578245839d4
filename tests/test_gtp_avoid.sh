#!/usr/bin/env bash
# tests/test_gtp_avoid.sh — `avoid` / `allow` in `hyeongse gtp`'s analysis
# commands (KataGo's syntax: avoid PLAYER MOVES UNTILDEPTH, MOVES comma-
# separated; docs/GTP.md), with rollouts on 9x9, one thread and a seed: the
# move genmove_analyze plays, avoided, is neither listed nor played; allow of
# two moves lists and plays only those (minmoves adds no other); no PV breaks
# its filter before the filter's depth, for the player to move there; the
# filter ends with its command (a genmove after it is free); KataGo's
# refusals (a bad depth, player or vertex, allow twice or after avoid for a
# player) answer the analyze error and the session goes on; every move
# filtered ends genmove_analyze as KataGo's does (an empty response, the
# error on stderr).
set -u
bin=${HS_BIN:?HS_BIN must name the hyeongse binary}
if ! command -v python3 >/dev/null; then
    echo "SKIP: python3 (the report parser) is not installed"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
. "$(dirname "$0")/lib.sh"

# g COMMAND...: a session of 9x9 after B E5, W C3 (Black to move) with the
# given commands, its replies on stdout.
g() {
    printf '%s\n' 'boardsize 9' 'play b E5' 'play w C3' "$@" |
        timeout 120 "$bin" gtp --visits 200 --threads 1 --seed 3 2>>"$tmp/stderr"
}
# The report parser: reports.py FILTERS < replies, FILTERS "B:MOVES:DEPTH:KIND ..."
# (KIND avoid/allow); for each genmove_analyze response: its played move,
# the root moves listed, and "ok" or the first PV that breaks a filter.
cat > "$tmp/reports.py" <<'PY'
import sys
filters = [f.split(":") for f in sys.argv[1].split()] if len(sys.argv) > 1 else []
def banned(player, move, depth):
    for p, moves, until, kind in filters:
        if p == player and depth < int(until) and (move in moves.split(",")) == (kind == "avoid"):
            return True
    return False
last = None
for line in sys.stdin.read().split("\n"):
    if line.startswith("info "):
        last = line
    elif line.startswith("play ") and last:
        moves, bad = [], "ok"
        for part in last.split("info move ")[1:]:
            moves.append(part.split()[0])
            pv = part.split(" pv ")[1].split()
            pv = pv[:pv.index("pvVisits")] if "pvVisits" in pv else pv
            for d, mv in enumerate(pv):
                if banned("BW"[d % 2], mv, d):   # Black to move at the root
                    bad = " ".join(pv)
        print(line[5:], " ".join(moves), bad)
        last = None
PY
rep() { python3 "$tmp/reports.py" "$@"; }
# listed LINE: the root moves of a rep line, one a line; status LINE: its last word.
listed() { echo "$1" | awk '{ for (i = 2; i < NF; i++) print $i }'; }
status() { echo "$1" | awk '{ print $NF }'; }

# The move genmove_analyze plays, then avoided: not listed, not played.
top=$(g 'kata-genmove_analyze b 0' | rep | cut -d' ' -f1)
out=$(g "kata-genmove_analyze b 0 avoid b $top 1" | rep "B:$top:1:avoid")
check "avoid $top (the move played without it): not played" "$(echo "$out" | cut -d' ' -f1 | grep -c "^$top$")" 0
check "... not listed, PVs keep the filter" "$(listed "$out" | grep -c "^$top$"):$(status "$out")" 0:ok

# allow two: only those listed (also with minmoves) and played.
out=$(g 'lz-genmove_analyze b 0 allow b C7,G3 1 minmoves 6' | rep "B:C7,G3:1:allow")
check "allow C7,G3: listed" "$(listed "$out" | sort | tr '\n' ' '):$(status "$out")" "C7 G3 :ok"
check "allow C7,G3: played one of them" "$(echo "$out" | cut -d' ' -f1 | grep -cE '^(C7|G3)$')" 1

# Depths: allow C7,G3 until 3 (Black's depth-2 moves too), avoid for White
# until 2 and two avoids for Black at once; PVs checked at every depth.
out=$(g 'kata-genmove_analyze b 0 allow b C7,G3 3 pvVisits true' | rep "B:C7,G3:3:allow")
check "allow until 3: PVs keep it" "$(status "$out")" ok
out=$(g 'kata-genmove_analyze b 0 avoid w D4,F4,pass 2 avoid b D6 1 avoid b F6 1' |
      rep "W:D4,F4,pass:2:avoid B:D6:1:avoid B:F6:1:avoid")
check "avoid for both players, Black's twice: PVs keep them" "$(status "$out")" ok
check "... neither D6 nor F6 at the root, nor played" \
    "$( (echo "$out" | cut -d' ' -f1; listed "$out") | grep -cE '^(D6|F6)$')" 0

# The filter is the command's own: a genmove after a filtered analysis is free.
out=$(g 'kata-analyze b 0 allow b A1 1' '' 'genmove b' | tail -2 | head -1)
check "genmove after kata-analyze allow A1: not forced to A1" "$(echo "$out" | grep -c '^= A1$')" 0
check "... it plays a move" "$(echo "$out" | grep -cE '^= [A-HJ][1-9]$')" 1

# KataGo's refusals, then the session goes on.
g 'kata-analyze 0 avoid b D4 0' 'kata-analyze 0 avoid b D4 -1' 'kata-analyze 0 avoid b D4 1.5' \
  'kata-analyze 0 avoid b D4' 'kata-analyze 0 avoid x D4 1' 'kata-analyze 0 avoid b Z9 1' \
  'kata-analyze 0 avoid b D4,,E10 1' 'lz-analyze 0 allow b D4 1 allow b E4 1' \
  'lz-analyze 0 avoid b D4 1 allow b E4 1' 'lz-analyze 0 allow w D4 1 avoid w E4 1' \
  'kata-genmove_analyze b avoid b D4 x' 'name' > "$tmp/errors.out"
grep '^?' "$tmp/errors.out" > "$tmp/errors"
cat > "$tmp/errors.want" <<'EOF'
? Could not parse analyze arguments or arguments out of range: '0 avoid b D4 0'
? Could not parse analyze arguments or arguments out of range: '0 avoid b D4 -1'
? Could not parse analyze arguments or arguments out of range: '0 avoid b D4 1.5'
? Could not parse analyze arguments or arguments out of range: '0 avoid b D4'
? Could not parse analyze arguments or arguments out of range: '0 avoid x D4 1'
? Could not parse analyze arguments or arguments out of range: '0 avoid b Z9 1'
? Could not parse analyze arguments or arguments out of range: '0 avoid b D4,,E10 1'
? Could not parse analyze arguments or arguments out of range: '0 allow b D4 1 allow b E4 1'
? Could not parse analyze arguments or arguments out of range: '0 avoid b D4 1 allow b E4 1'
? Could not parse analyze arguments or arguments out of range: '0 allow w D4 1 avoid w E4 1'
? Could not parse genmove_analyze arguments or arguments out of range: 'b avoid b D4 x'
EOF
check "refusals: KataGo's messages" "$(diff "$tmp/errors.want" "$tmp/errors" && echo same)" same
check "... and the session goes on" "$(tail -2 "$tmp/errors.out" | head -1)" "= hyeongse"

# Every Black move filtered (an empty allow): genmove_analyze answers an empty
# response, KataGo's error on stderr; the next genmove plays.
g 'lz-genmove_analyze b 0 allow b , 1' 'genmove b' > "$tmp/none.out"
check "nothing allowed: an empty response, then genmove" \
    "$(sed -n '7,$p' "$tmp/none.out" | tr '\n' '|' | sed -E 's/= [A-HJ][1-9]/= MOVE/')" "=||= MOVE||"
check "... the error on stderr" "$(grep -c 'genmove returned null location or illegal move' "$tmp/stderr")" 1

exit $fail
