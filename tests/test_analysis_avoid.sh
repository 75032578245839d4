#!/usr/bin/env bash
# tests/test_analysis_avoid.sh — avoidMoves / allowMoves of `hyeongse
# analysis` (KataGo's, docs/ANALYSIS_PROTOCOL.md), with rollouts on 9x9, one
# thread and a seed: the session tests/data/analysis/avoid.jsonl against
# avoid.expect (KataGo's errors and fields, and the engine answering the
# queries after them), then what the filter does to the replies: the root's
# most visited move avoided is gone from moveInfos; allowMoves of two moves
# lists those two; no PV has a filtered move before its untilDepth, for the
# player to move there, in every analysed turn; past untilDepth the moves
# are free again; a root with every move filtered answers its root's visit
# with no moves, and the next query is answered. Last, with a small random
# net (tests/make_hsn; graph search, root symmetry pruning): a filtered
# representative of symmetric moves leaves its copies searched.
set -u
bin=${HS_BIN:?HS_BIN must name the hyeongse binary}
here=$(cd "$(dirname "$0")" && pwd)
dir=$here/data/analysis
make_hsn=${HS_MAKE_HSN:-$(dirname "$bin")/../tests/make_hsn}
if ! command -v python3 >/dev/null; then
    echo "SKIP: python3 (the checker) is not installed"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
. "$here/lib.sh"

an() { "$bin" analysis --threads 1 --seed 7 "$@" 2>>"$tmp/stderr"; }

# --- the session: errors, then analyses --------------------------------------
an < "$dir/avoid.jsonl" > "$tmp/avoid.out"
check "avoid session: exit status" "$?" 0
if python3 "$dir/check.py" "$dir/avoid.jsonl" "$tmp/avoid.out" "$dir/avoid.expect"; then
    echo "ok: avoid session: replies"
else
    echo "FAIL: avoid session: replies (above)"
    fail=1
fi

# --- what the filter does ----------------------------------------------------
# pvcheck.py QUERIES REPLIES: every final reply of a query with avoidMoves or
# allowMoves keeps its filter along each PV (index i of a PV is depth i, its
# player the one to move there); prints the number of replies checked.
cat > "$tmp/pvcheck.py" <<'PY'
import json, sys
queries = {q["id"]: q for q in map(json.loads, open(sys.argv[1]))}
n = 0
for r in map(json.loads, open(sys.argv[2])):
    q = queries.get(r.get("id"))
    if q is None or "moveInfos" not in r or r.get("isDuringSearch"):
        continue
    allow = "allowMoves" in q
    entries = q.get("allowMoves", q.get("avoidMoves", []))
    norm = lambda m: m.upper() if not m.startswith("(") else m
    def banned(player, move, depth):
        for e in entries:
            if e["player"].upper()[0] != player or depth >= e["untilDepth"]:
                continue
            listed = {norm(m) for m in e["moves"]}
            if allow != (move in listed):
                return True
        return False
    to_move = r["rootInfo"]["currentPlayer"]
    other = {"B": "W", "W": "B"}
    for m in r["moveInfos"]:
        p = to_move
        for d, mv in enumerate(m["pv"]):
            assert not banned(p, mv, d), (r["id"], r["turnNumber"], m["pv"], d)
            p = other[p]
    n += 1
print(n)
PY
check "every PV keeps its filter (the session's 8 analyses)" \
    "$(python3 "$tmp/pvcheck.py" "$dir/avoid.jsonl" "$tmp/avoid.out")" 8

# jq-less reading of one reply: field.py FILE ID TURN EXPR (a Python expression of r).
cat > "$tmp/field.py" <<'PY'
import json, sys
f, id_, turn, expr = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
for r in map(json.loads, open(f)):
    if r.get("id") == id_ and r.get("turnNumber") == turn and not r.get("isDuringSearch"):
        print(eval(expr, {"r": r, "moves": [m["move"] for m in r.get("moveInfos", [])]}))
        break
PY
field() { python3 "$tmp/field.py" "$@"; }

check "allowMoves C7, G3: only those two, both searched" \
    "$(field "$tmp/avoid.out" allow 2 'sorted(moves)')" "['C7', 'G3']"
check "allowMoves for both players: Black's two at the root" \
    "$(field "$tmp/avoid.out" allowbw 2 'sorted(moves)')" "['C7', 'G3']"
check "avoidMoves D4, F6, pass: none of them at the root" \
    "$(field "$tmp/avoid.out" avoid 2 'sorted(set(moves) & {"D4", "F6", "pass"})')" "[]"
check "White's avoidMoves at White's turn: D4, F4 not listed" \
    "$(field "$tmp/avoid.out" avoidturns 1 'sorted(set(moves) & {"D4", "F4"})')" "[]"

# qq ID EXTRA: a query of the position (Black to move), EXTRA its last fields.
qq() { printf '{"id":"%s","moves":[["B","E5"],["W","C3"]],"rules":"chinese","komi":7.5,"boardXSize":9,"boardYSize":9,"maxVisits":200%s}\n' "$1" "${2:-}"; }
# filt KIND PLAYER MOVES DEPTH: ,"avoidMoves"/"allowMoves" of one entry (MOVES: "A1","B2").
filt() { printf ',"%sMoves":[{"player":"%s","moves":[%s],"untilDepth":%s}]' "$1" "$2" "$3" "$4"; }

# The root's most visited move, avoided: gone, and another one is first.
qq plain | an > "$tmp/plain.out"
top=$(field "$tmp/plain.out" plain 2 'moves[0]')
qq avoidtop "$(filt avoid B "\"$top\"" 1)" | an > "$tmp/top.out"
check "avoidMoves on the most visited move ($top): not in moveInfos" \
    "$(field "$tmp/top.out" avoidtop 2 '"'"$top"'" in moves or len(moves) < 2')" False
check "... and 200 visits on the others" "$(field "$tmp/top.out" avoidtop 2 'r["rootInfo"]["visits"]')" 200

# untilDepth: Black allowed A1, J9, C7 only. At untilDepth 1 Black's later
# moves (PV depth 2) are free: some PV plays another; at untilDepth 3 none
# does at depth 2 (the filter holds there).
for d in 1 3; do qq "depth$d" "$(filt allow B '"A1","J9","C7"' "$d")"; done > "$tmp/depth.jsonl"
an < "$tmp/depth.jsonl" > "$tmp/depth.out"
check "untilDepth 1 and 3: every PV keeps its filter" \
    "$(python3 "$tmp/pvcheck.py" "$tmp/depth.jsonl" "$tmp/depth.out")" 2
free='any(len(m["pv"]) > 2 and m["pv"][2] not in ("A1", "J9", "C7") for m in r["moveInfos"])'
check "untilDepth 1: Black's depth-2 moves past the filter" "$(field "$tmp/depth.out" depth1 2 "$free")" True
check "untilDepth 3: none at depth 2" "$(field "$tmp/depth.out" depth3 2 "$free")" False

# Every root move filtered: the root's visit, no moves; the engine goes on.
{ qq none "$(filt allow B '' 1)"; qq after; } > "$tmp/none.jsonl"
an < "$tmp/none.jsonl" > "$tmp/none.out"
check "nothing allowed: an answer with no moves and the root's one visit" \
    "$(field "$tmp/none.out" none 2 '(moves, r["rootInfo"]["visits"])')" "([], 1)"
check "... and the next query answered" "$(field "$tmp/none.out" after 2 'r["rootInfo"]["visits"]')" 200

# --- a net: graph search and root symmetry pruning ----------------------------
if [ -x "$make_hsn" ]; then
    "$make_hsn" "$tmp/rand.hsn" 1 8 3 4 4 4 8 5
    eq() { printf '{"id":"%s","moves":[],"rules":"chinese","boardXSize":9,"boardYSize":9,"maxVisits":60%s}\n' "$1" "${2:-}"; }
    eq plain > "$tmp/net1.jsonl"
    an --net "$tmp/rand.hsn" --backend ref < "$tmp/net1.jsonl" > "$tmp/net1.out"
    top=$(field "$tmp/net1.out" plain 0 'moves[0]')
    copies=$(field "$tmp/net1.out" plain 0 '" ".join(sorted(m["move"] for m in r["moveInfos"] if m.get("isSymmetryOf") == "'"$top"'"))')
    check "net: the empty board's first move ($top) has its copies listed" "$([ -n "$copies" ] && echo yes)" yes
    { cat "$tmp/net1.jsonl"; eq sym "$(filt avoid B "\"$top\"" 1)"; } > "$tmp/net.jsonl"
    an --net "$tmp/rand.hsn" --backend ref < "$tmp/net.jsonl" > "$tmp/net.out"
    check "net: $top avoided: not listed, its copies searched in its stead" \
        "$(field "$tmp/net.out" sym 0 '("'"$top"'" in moves, " ".join(sorted(set(moves) & set("'"$copies"'".split()))), r["rootInfo"]["visits"])')" \
        "(False, '$copies', 60)"
    check "net: PVs keep the filter" "$(python3 "$tmp/pvcheck.py" "$tmp/net.jsonl" "$tmp/net.out")" 2
else
    echo "SKIP (part): make_hsn is not built ($make_hsn): no net checks"
fi

if [ "$fail" != 0 ]; then
    echo "--- stderr of the runs:"
    tail -20 "$tmp/stderr"
fi
exit $fail
