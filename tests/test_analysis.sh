#!/usr/bin/env bash
# tests/test_analysis.sh — `hyeongse analysis`, KataGo's JSON analysis protocol:
# scripted sessions (tests/data/analysis/NAME.jsonl) checked by
# tests/data/analysis/check.py against NAME.expect (ids, turn numbers, errors and
# their fields exactly; the reply's shape and invariants for every analysis), run
# with rollouts on small boards, one thread and a seed. Then what needs two runs:
# the same session twice gives the same replies; one query searched alone or
# among others gives the same replies (the shared batches change nothing);
# turns of one query come in priority order when one search runs at a time;
# --report-as black/white/side turn the same numbers around; thisHash differs
# with the board size, the player to move and the ko point, symHash only
# between positions no symmetry maps onto each other; `moves` replayed
# as KataGo replays them (a ko recapture, a multi-stone suicide); per-move
# ownership; rootPolicyTemperature; bad options. Last,
# one session with the shared net (skipped where ../shared has no net).
set -u
bin=${HS_BIN:?HS_BIN must name the hyeongse binary}
here=$(cd "$(dirname "$0")" && pwd)
dir=$here/data/analysis
data=${HS_DATA_DIR:-$here/../../shared/data}
net=$data/../nets/katago-g170-b6c96/g170-b6c96-s175395328-d26788732.bin.gz
if ! command -v python3 >/dev/null; then
    echo "SKIP: python3 (the checker) is not installed"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
. "$here/lib.sh"

an() { "$bin" analysis --threads 1 --seed 7 "$@" 2>>"$tmp/stderr"; }
# session NAME [OPTIONS]: runs NAME.jsonl, checks it against NAME.expect.
session() {
    local name=$1
    shift
    an "$@" < "$dir/$name.jsonl" > "$tmp/$name.out"
    check "$name: exit status" "$?" 0
    if python3 "$dir/check.py" "$dir/$name.jsonl" "$tmp/$name.out" "$dir/$name.expect"; then
        echo "ok: $name: replies"
    else
        echo "FAIL: $name: replies (above)"
        fail=1
    fi
}
# The final replies, one a line, sorted (order between searches may vary).
finals() { grep '"isDuringSearch":false' "$1" | sort; }

# --- sessions against golden replies ---------------------------------------
session basic
session malformed
session concurrent --max-active 1
session terminate --max-active 1

# --- the same session twice: the same replies --------------------------------
an < "$dir/basic.jsonl" > "$tmp/basic2.out"
check "basic: same replies twice" "$(finals "$tmp/basic.out" | md5sum)" "$(finals "$tmp/basic2.out" | md5sum)"

# --- searched alone or together: the same replies ---------------------------
an --max-active 16 < "$dir/concurrent.jsonl" > "$tmp/concurrent16.out"
check "concurrent: 1 or 16 searches at a time, same replies" \
    "$(finals "$tmp/concurrent.out" | md5sum)" "$(finals "$tmp/concurrent16.out" | md5sum)"
grep '"id":"high"' "$dir/concurrent.jsonl" > "$tmp/high.jsonl"
an < "$tmp/high.jsonl" > "$tmp/high.out"
check "concurrent: a query alone gives what it gave among others" \
    "$(finals "$tmp/high.out" | md5sum)" \
    "$(grep '"id":"high"' "$tmp/concurrent16.out" | grep '"isDuringSearch":false' | md5sum)"
order=$(grep -o '"id":"pri","turnNumber":[0-9]' "$tmp/concurrent.out" | cut -d: -f3 | tr -d '\n')
check "concurrent: turns by priorities [0,5,-3,9] with one search at a time" "$order" 3102

# --- a line over the 4 MiB limit, then a good one -----------------------------
python3 -c 'print("{\"id\":\"huge\",\"x\":\"" + "a" * (5 << 20) + "\"}")' > "$tmp/long.jsonl"
echo '{"id":"ok","moves":[],"rules":"chinese","boardXSize":5,"boardYSize":5,"maxVisits":4}' >> "$tmp/long.jsonl"
an < "$tmp/long.jsonl" > "$tmp/long.out"
check "long line: refused, then the next query answered" \
    "$(cut -c1-40 "$tmp/long.out" | tr -d '\n')" \
    '{"error":"request line too long (over 4 {"id":"ok","turnNumber":0,"isDuringSearc'
check "long line: the error carries its id, found in the part kept" \
    "$(head -1 "$tmp/long.out")" '{"error":"request line too long (over 4 MiB), ignored","id":"huge"}'
# The id wherever it stands at the top level within the first 4 MiB (after
# nested objects with ids of their own, escaped, a number); an id after the cut,
# or in a line that is not an object, cannot be found: the error alone.
python3 - > "$tmp/longid.jsonl" <<'PY'
big = "a" * (5 << 20)
print('{"x":{"id":"inner","y":[1,"]}",{}]},"n":-1.5e3,"id":"q\\"\\u00e9","pad":"' + big + '"}')
print('{"id":42,"pad":"' + big + '"}')
print('{"pad":"' + big + '","id":"late"}')
print('[{"id":"arr"},"' + big + '"]')
PY
an < "$tmp/longid.jsonl" > "$tmp/longid.out"
check "long lines: the top-level id, escaped again; a number as written; none after the cut" \
    "$(python3 -c 'import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    print(r["error"] == "request line too long (over 4 MiB), ignored", repr(r.get("id")))' "$tmp/longid.out" | tr '\n' ' ')" \
    "True 'q\"é' True 42 True None True None "

# --- perspectives -------------------------------------------------------------
q='{"id":"p","moves":[["B","E5"],["W","C3"],["B","D6"]],"rules":"chinese","komi":7.5,"boardXSize":9,"boardYSize":9,"maxVisits":16,"includeOwnership":true}'
for p in black white side; do echo "$q" | an --report-as "$p" > "$tmp/$p.out"; done
python3 - "$tmp" <<'PY' && echo "ok: --report-as black/white/side" || { echo "FAIL: --report-as"; fail=1; }
import json, sys
d = {p: json.loads(open("%s/%s.out" % (sys.argv[1], p)).readline()) for p in ("black", "white", "side")}
b, w, s = d["black"], d["white"], d["side"]
assert b["rootInfo"]["currentPlayer"] == "W"          # White to move: side = white
assert s == w, "side to move (White) differs from white"
close = lambda x, y: abs(x - y) < 2e-6 * max(1, abs(x))
rb, rw = b["rootInfo"], w["rootInfo"]
assert close(rb["winrate"], 1 - rw["winrate"]) and close(rb["scoreLead"], -rw["scoreLead"])
assert close(rb["utility"], -rw["utility"]) and rb["visits"] == rw["visits"]
for mb, mw in zip(b["moveInfos"], w["moveInfos"]):
    assert mb["move"] == mw["move"] and mb["visits"] == mw["visits"]
    assert close(mb["winrate"], 1 - mw["winrate"]) and close(mb["scoreLead"], -mw["scoreLead"])
    assert close(mb["lcb"], 1 - mw["lcb"]) and close(mb["utility"], -mw["utility"])
assert all(close(x, -y) for x, y in zip(b["ownership"], w["ownership"]))
PY

# --- per-move ownership (includeMovesOwnership, includeMovesOwnershipStdev) ------
# check.py checks every moveInfo's arrays (size² values in range, present iff
# asked, a symmetric copy's the copied move's mapped: the empty board and
# the centre stone have eight symmetries); here the most visited move's
# stone is clearly the mover's in the report perspective (Black, then White
# to move; with --report-as side too: rollouts capture many a stone they
# play, so not every move's; with the net, below, every move's); without
# the options the replies are the same but for those arrays. (Each query
# has a tree of its own: nothing is kept.)
mq() { echo '{"id":"'$1'","moves":['$2'],"rules":"chinese","komi":7.5,"boardXSize":7,"boardYSize":7,"maxVisits":150'$3'}'; }
own=',"includeMovesOwnership":true,"includeMovesOwnershipStdev":true,"includeOwnership":true'
{ mq e "" "$own"; mq w '["B","D4"]' "$own"; mq s '["B","D4"],["W","C3"]' ',"includeMovesOwnershipStdev":true'; } > "$tmp/mown.jsonl"
{ mq e "" ',"includeOwnership":true'; mq w '["B","D4"]' ',"includeOwnership":true'; mq s '["B","D4"],["W","C3"]' ""; } > "$tmp/mplain.jsonl"
printf '%s\n' '{"id":"e","turnNumber":0,"isDuringSearch":false}' '{"id":"w","turnNumber":1,"isDuringSearch":false}' \
    '{"id":"s","turnNumber":2,"isDuringSearch":false}' > "$tmp/mown.expect"
an < "$tmp/mown.jsonl" > "$tmp/mown.out"
an < "$tmp/mplain.jsonl" > "$tmp/mplain.out"
an --report-as side < "$tmp/mown.jsonl" > "$tmp/mside.out"
for o in mown mside; do
    if python3 "$dir/check.py" "$tmp/mown.jsonl" "$tmp/$o.out" "$tmp/mown.expect"; then
        echo "ok: per-move ownership: $o: replies"
    else
        echo "FAIL: per-move ownership: $o: replies (above)"
        fail=1
    fi
done
python3 - "$tmp" <<'PY' && echo "ok: per-move ownership: the mover's stone, copies, the rest unchanged" || { echo "FAIL: per-move ownership"; fail=1; }
import json, sys
t = sys.argv[1]
rd = lambda f: {d["id"]: d for d in map(json.loads, open("%s/%s.out" % (t, f)))}
own, plain, side = rd("mown"), rd("mplain"), rd("mside")
cols = "ABCDEFG"
strong = 0
for view, reps in (("black", own), ("side", side)):
    for i in ("e", "w"):
        r = reps[i]
        mover = r["rootInfo"]["currentPlayer"]
        sign = 1 if view == "side" or mover == "B" else -1
        assert "ownership" in r and all("ownership" in m for m in r["moveInfos"]), i
        for m in r["moveInfos"]:
            if m["move"] == "pass" or m["order"] > 0:
                continue
            x, y = cols.index(m["move"][0]), 7 - int(m["move"][1:])
            assert sign * m["ownership"][y * 7 + x] > 0.3, (view, i, m["move"])
            strong += 1
assert strong == 4, strong
assert sum("isSymmetryOf" in m for m in own["e"]["moveInfos"]) >= 3
assert all("ownership" not in m and "ownershipStdev" in m for m in own["s"]["moveInfos"])
for i in own:   # the options change nothing else
    for m in own[i]["moveInfos"]:
        m.pop("ownership", None); m.pop("ownershipStdev", None)
    assert own[i] == plain[i], i
PY

# --- rootPolicyTemperature: the root's priors to p^(1/T), renormalised --------
# A moveInfo's prior is the tempered one (as KataGo's), the policy the
# evaluator's; T 3 flattens them; the field and the override alike; KataGo's
# range 0.01..100, with its message outside it.
tq() { echo '{"id":"'$1'","moves":[["B","C3"],["W","E5"]],"rules":"chinese","komi":7.5,"boardXSize":7,"boardYSize":7,"maxVisits":80,"includePolicy":true'$2'}'; }
{ tq t1 ""; tq t3 ',"rootPolicyTemperature":3'; tq o3 ',"overrideSettings":{"rootPolicyTemperature":3}'
  tq t0 ',"rootPolicyTemperature":0'; tq t101 ',"rootPolicyTemperature":101'
  tq tx ',"rootPolicyTemperature":"hot"'; tq ob ',"overrideSettings":{"rootPolicyTemperature":200}'; } > "$tmp/temp.jsonl"
cat > "$tmp/temp.expect" <<'JSON'
{"id":"t1","turnNumber":2,"isDuringSearch":false}
{"id":"t3","turnNumber":2,"isDuringSearch":false}
{"id":"o3","turnNumber":2,"isDuringSearch":false}
{"error":"Must be a number from 0.01 to 100.0","field":"rootPolicyTemperature","id":"t0"}
{"error":"Must be a number from 0.01 to 100.0","field":"rootPolicyTemperature","id":"t101"}
{"error":"Must be a number from 0.01 to 100.0","field":"rootPolicyTemperature","id":"tx"}
{"error":"Could not set settings: bad value for rootPolicyTemperature","field":"overrideSettings","id":"ob"}
JSON
an < "$tmp/temp.jsonl" > "$tmp/temp.out"
if python3 "$dir/check.py" "$tmp/temp.jsonl" "$tmp/temp.out" "$tmp/temp.expect"; then
    echo "ok: rootPolicyTemperature: replies and errors"
else
    echo "FAIL: rootPolicyTemperature: replies and errors (above)"
    fail=1
fi
python3 - "$tmp" <<'PY' && echo "ok: rootPolicyTemperature 3: priors p^(1/3) renormalised, the policy untouched" || { echo "FAIL: rootPolicyTemperature priors"; fail=1; }
import json, sys
r = {d["id"]: d for d in map(json.loads, open(sys.argv[1] + "/temp.out")) if "moveInfos" in d}
cols = "ABCDEFG"
idx = lambda mv: 49 if mv == "pass" else (7 - int(mv[1:])) * 7 + cols.index(mv[0])
pol = r["t1"]["policy"]
assert r["t3"]["policy"] == pol == r["o3"]["policy"]
z = sum(p ** (1 / 3) for p in pol if p >= 0)
for m in r["t1"]["moveInfos"]:
    assert abs(m["prior"] - pol[idx(m["move"])]) < 1e-6, m
for i in ("t3", "o3"):
    for m in r[i]["moveInfos"]:
        assert abs(m["prior"] - pol[idx(m["move"])] ** (1 / 3) / z) < 1e-5, (i, m["move"])
top = max(pol)
assert max(m["prior"] for m in r["t3"]["moveInfos"]) < top
assert r["t3"]["moveInfos"] == r["o3"]["moveInfos"]
PY

# --- thisHash: one per position (stones, size, player to move, ko) ------------
# The empty 9x9 and 19x19 boards, each with either player to move; a simple
# ko (Black may not retake E5) and the same stones set up without it; the
# same position twice hashes alike.
ko='["B","C5"],["W","E6"],["B","D6"],["W","E4"],["B","D4"],["W","F5"],["B","E5"],["W","D5"]'
stones='["B","C5"],["W","E6"],["B","D6"],["W","E4"],["B","D4"],["W","F5"],["W","D5"]'
{ for n in 9 19; do for p in B W; do
      echo '{"id":"e'$n$p'","moves":[],"initialPlayer":"'$p'","rules":"chinese","boardXSize":'$n',"boardYSize":'$n',"maxVisits":2}'
  done; done
  echo '{"id":"again","moves":[],"rules":"chinese","boardXSize":9,"boardYSize":9,"maxVisits":2}'
  echo '{"id":"ko","moves":['"$ko"'],"rules":"chinese","boardXSize":9,"boardYSize":9,"maxVisits":2}'
  echo '{"id":"noko","initialStones":['"$stones"'],"initialPlayer":"B","moves":[],"rules":"chinese","boardXSize":9,"boardYSize":9,"maxVisits":2}'
} | an > "$tmp/hash.out"
check "thisHash: distinct per size, player and ko" "$(python3 -c '
import json, sys
h = {d["id"]: d["rootInfo"]["thisHash"] for d in map(json.loads, open(sys.argv[1]))}
ids = ["e9B", "e9W", "e19B", "e19W", "ko", "noko"]
print(len(h), len({h[i] for i in ids}), h["again"] == h["e9B"], "0" * 16 in h.values())' "$tmp/hash.out")" "7 6 True False"

# symHash: the same for positions that a symmetry of the board maps onto
# each other (one stone at C3, G7 or C7), other for another position.
{ for v in C3 G7 C7 D3; do
      echo '{"id":"'$v'","moves":[["B","'$v'"]],"rules":"chinese","boardXSize":9,"boardYSize":9,"maxVisits":2}'
  done
} | an > "$tmp/sym.out"
check "symHash: one per position up to symmetry" "$(python3 -c '
import json, sys
r = {d["id"]: d["rootInfo"] for d in map(json.loads, open(sys.argv[1]))}
print(len({r[i]["thisHash"] for i in r}), len({r[i]["symHash"] for i in ("C3", "G7", "C7")}),
      r["D3"]["symHash"] != r["C3"]["symHash"])' "$tmp/sym.out")" "4 1 True"

# --- moves replayed as KataGo's makeBoardMoveTolerant ---------------------------
# A simple-ko recapture and a suicide of two stones are played whatever the
# rules (japanese forbids both); a single stone's suicide and an occupied
# point are still refused.
cat > "$tmp/tol.jsonl" <<JSON
{"id":"ko","moves":[$ko,["B","E5"]],"rules":"japanese","boardXSize":9,"boardYSize":9,"maxVisits":4}
{"id":"suicide2","moves":[["B","A1"],["W","B1"],["B","pass"],["W","B2"],["B","pass"],["W","A3"],["B","A2"]],"rules":"japanese","boardXSize":9,"boardYSize":9,"maxVisits":4}
{"id":"suicide1","moves":[["W","B1"],["B","E5"],["W","A2"],["B","A1"]],"rules":"japanese","boardXSize":9,"boardYSize":9,"maxVisits":4}
{"id":"occupied","moves":[["B","E5"],["W","E5"]],"rules":"tromp-taylor","boardXSize":9,"boardYSize":9,"maxVisits":4}
JSON
cat > "$tmp/tol.expect" <<'JSON'
{"id":"ko","turnNumber":9,"isDuringSearch":false,"rootInfo":{"currentPlayer":"W","visits":4}}
{"id":"suicide2","turnNumber":7,"isDuringSearch":false,"rootInfo":{"currentPlayer":"W","visits":4}}
{"error":"Illegal move 3: A1","field":"moves","id":"suicide1"}
{"error":"Illegal move 1: E5","field":"moves","id":"occupied"}
JSON
an < "$tmp/tol.jsonl" > "$tmp/tol.out"
if python3 "$dir/check.py" "$tmp/tol.jsonl" "$tmp/tol.out" "$tmp/tol.expect"; then
    echo "ok: tolerant replay: ko recapture and multi-stone suicide played"
else
    echo "FAIL: tolerant replay (above)"
    fail=1
fi
# the two suicided stones are gone: White may play on A1 and A2 (policy
# indices 72 and 63, row-major from A9); B2 is White's stone
# (check.py, which places stones without captures, would take them as there)
check "tolerant replay: the suicided stones removed" "$(grep '"id":"suicide2"' "$tmp/tol.jsonl" |
    sed 's/}$/,"includePolicy":true}/' | an | python3 -c '
import json, sys
p = json.loads(sys.stdin.readline())["policy"]
print(p[72] >= 0, p[63] >= 0, p[64])')" "True True -1"

# "\u0000" in a string: valid JSON, which KataGo reads; our reader hands
# strings over as C strings and refuses it with a parse error (documented
# in docs/ANALYSIS_PROTOCOL.md), and the next line is read as usual.
printf '%s\n' '{"id":"n\u0000l","moves":[],"rules":"chinese","boardXSize":5,"boardYSize":5,"maxVisits":2}' \
    '{"id":"after","moves":[],"rules":"chinese","boardXSize":5,"boardYSize":5,"maxVisits":2}' | an > "$tmp/nul.out"
check "\\u0000 in a string: refused, then the next line answered" \
    "$(grep -c 'u0000 is not accepted in strings' "$tmp/nul.out") $(grep -c '^{"id":"after"' "$tmp/nul.out")" "1 1"

# --- options ------------------------------------------------------------------
echo '{}' | "$bin" analysis --report-as sideways >/dev/null 2>&1
check "--report-as sideways: usage error" "$?" 2
echo '{}' | "$bin" analysis --threads 0 >/dev/null 2>&1
check "--threads 0: usage error" "$?" 2
echo '{}' | "$bin" analysis --net "$tmp/no-such-net.bin.gz" >/dev/null 2>&1
check "--net missing file: fails at start" "$?" 1

# --- KataGo's command line: -config, -override-config, -quit-without-waiting ----
q='{"id":"k","moves":[["B","E5"]],"rules":"chinese","boardXSize":9,"boardYSize":9,"typo":1}'
echo "$q" > "$tmp/k.jsonl"
"$bin" analysis -config "$dir/katago.cfg" < "$tmp/k.jsonl" > "$tmp/k.out" 2>>"$tmp/stderr"
check "-config: maxVisits from the file, no typo warning (warnUnusedFields = false)" \
    "$(python3 -c 'import json,sys; r=[json.loads(l) for l in open(sys.argv[1])]; print(len(r), r[-1]["rootInfo"]["visits"])' "$tmp/k.out")" "1 13"
echo "$q" | "$bin" analysis --report-as white --threads 2 --visits 13 --batch 8 \
    > "$tmp/k2.out" 2>>"$tmp/stderr"
check "-config: the same replies as its settings given as options" \
    "$(finals "$tmp/k.out" | md5sum)" "$(finals "$tmp/k2.out" | md5sum)"
echo "$q" | "$bin" analysis --threads 2 --visits 13 --batch 8 > "$tmp/k4.out" 2>>"$tmp/stderr"
if [ "$(finals "$tmp/k.out")" = "$(finals "$tmp/k4.out")" ]; then
    echo "FAIL: -config: reportAnalysisWinratesAs = WHITE made no difference"
    fail=1
fi
"$bin" analysis -config "$dir/katago.cfg" -override-config "maxVisits=17, warnUnusedFields=true" \
    < "$tmp/k.jsonl" > "$tmp/k3.out" 2>>"$tmp/stderr"
check "-override-config: maxVisits 17, and the typo warned again" \
    "$(python3 -c 'import json,sys; r=[json.loads(l) for l in open(sys.argv[1])]; print(r[0].get("field"), r[-1]["rootInfo"]["visits"])' "$tmp/k3.out")" "typo 17"
echo "$q" | "$bin" analysis -override-config "maxVisits=lots" >/dev/null 2>&1
check "-override-config: a bad value is a usage error" "$?" 2
echo '{"id":"q","moves":[],"rules":"chinese","boardXSize":9,"boardYSize":9,"maxVisits":100000000}' |
    "$bin" analysis -quit-without-waiting > "$tmp/q.out" 2>>"$tmp/stderr"
check "-quit-without-waiting: EOF ends an endless query, without a reply (as KataGo)" \
    "$?:$(grep -c '"id":"q"' "$tmp/q.out")" "0:0"

# KaTrain's command line: -analysis-threads N is read and skipped.
echo "$q" | "$bin" analysis -model "$tmp/none" -analysis-threads 2 --threads 1 --visits 5 \
    > /dev/null 2>&1
check "-analysis-threads 2 is KataGo's option: past the options (the missing net fails)" "$?" 1
echo "$q" | "$bin" analysis -analysis-threads 0 > /dev/null 2>&1
check "-analysis-threads 0: usage error" "$?" 2
# ... and as one word, -analysis-threads=N (some clients write it so), like
# every option with a value; a name we do not take stays an error with '='.
echo "$q" | "$bin" analysis -model "$tmp/none" -analysis-threads=2 --threads=1 --visits=5 \
    > /dev/null 2>&1
check "-analysis-threads=2: past the options (the missing net fails)" "$?" 1
echo "$q" | "$bin" analysis -model="$tmp/none" > /dev/null 2> "$tmp/eq.err"
check "-model=FILE: the file is the net (it is missing: exit 1)" "$?:$(grep -c "$tmp/none" "$tmp/eq.err")" "1:1"
echo "$q" | "$bin" analysis -analysis-threads=0 > /dev/null 2>&1
check "-analysis-threads=0: usage error" "$?" 2
echo "$q" | "$bin" analysis -override-config=maxVisits=lots > /dev/null 2>&1
check "-override-config=K=V: the value is K=V (a bad one: usage error)" "$?" 2
echo "$q" | "$bin" analysis -unknown-option=3 > /dev/null 2> "$tmp/eq.err"
check "-unknown-option=3: still unknown" "$?:$(grep -c 'unknown option -unknown-option' "$tmp/eq.err")" "2:1"

# --- winLossUtilityFactor, KataGo's override: the value's weight in the utility --
wl() {   # wl VALUE: rootInfo's utility, or the error or warning
    echo '{"id":"w","moves":[["B","E5"]],"rules":"chinese","boardXSize":9,"boardYSize":9,"maxVisits":20,"overrideSettings":{"winLossUtilityFactor":"'"$1"'"}}' |
        an | python3 -c 'import json,sys
for l in sys.stdin:
    r = json.loads(l)
    print(r.get("error") or r.get("warning") or "%.6f" % r["rootInfo"]["utility"])'
}
u1=$(wl 1.0); u0=$(wl 0)
check "winLossUtilityFactor 1 is the default's utility" "$u1" \
    "$(echo '{"id":"w","moves":[["B","E5"]],"rules":"chinese","boardXSize":9,"boardYSize":9,"maxVisits":20}' |
       an | python3 -c 'import json,sys; print("%.6f" % json.loads(sys.stdin.readline())["rootInfo"]["utility"])')"
check "winLossUtilityFactor 0: another utility, no warning" \
    "$([ -n "$u0" ] && [ "$u0" != "$u1" ] && python3 -c 'import sys; float(sys.argv[1])' "$u0" && echo ok)" ok
check "winLossUtilityFactor abc: KataGo's error" "$(wl abc)" \
    "Could not set settings: bad value for winLossUtilityFactor"

# --- input as KataGo reads it: a byte order mark, loose vertices ----------------
printf '\xef\xbb\xbf{"id":"bom","action":"query_version"}\n' |
    "$bin" analysis > "$tmp/bom.out" 2>>"$tmp/stderr"
check "a line opening with a byte order mark is read" "$(grep -c '"id":"bom","action"' "$tmp/bom.out")" 1
loose='{"id":"L","moves":[["B"," E5 "],["W","pss"],["B","E03"],["W","(2,2)"]],"rules":"chinese","boardXSize":9,"boardYSize":9,"maxVisits":5,"includePolicy":true}'
tight='{"id":"L","moves":[["B","E5"],["W","pass"],["B","E3"],["W","C7"]],"rules":"chinese","boardXSize":9,"boardYSize":9,"maxVisits":5,"includePolicy":true}'
echo "$loose" | an > "$tmp/loose.out"
echo "$tight" | an > "$tmp/tight.out"
check "vertices with blanks, pss and a leading zero: read as KataGo reads them" \
    "$(grep -c '"error"' "$tmp/loose.out"):$(cmp -s "$tmp/loose.out" "$tmp/tight.out"; echo $?)" "0:0"

# --- with the net -------------------------------------------------------------
if [ -f "$net" ]; then
    backend=ref
    if echo | "$bin" analysis --net "$net" --backend cpu >/dev/null 2>&1; then backend=cpu; fi
    cat > "$tmp/net.jsonl" <<JSON
{"id":"n19","moves":[["B","Q16"],["W","D4"],["B","Q3"]],"rules":"japanese","komi":6.5,"boardXSize":19,"boardYSize":19,"maxVisits":8,"analyzeTurns":[2,3],"includeOwnership":true,"includePolicy":true,"includePVVisits":true}
{"id":"n9","moves":[],"rules":"chinese","komi":7,"boardXSize":9,"boardYSize":9,"maxVisits":8}
{"id":"m","action":"query_models"}
JSON
    cat > "$tmp/net.expect" <<'JSON'
{"id":"n19","turnNumber":2,"rootInfo":{"visits":8,"currentPlayer":"B","rawWinrate":"$present"}}
{"id":"n19","turnNumber":3,"rootInfo":{"visits":8,"currentPlayer":"W"}}
{"id":"n9","turnNumber":0,"rootInfo":{"visits":8,"currentPlayer":"B"}}
{"id":"m","action":"query_models","models":[{"name":"g170-b6c96-s175395328-d26788732.bin.gz","version":"$present"}]}
JSON
    an --net "$net" --backend "$backend" < "$tmp/net.jsonl" > "$tmp/net.out"
    check "net ($backend): exit status" "$?" 0
    if python3 "$dir/check.py" "$tmp/net.jsonl" "$tmp/net.out" "$tmp/net.expect"; then
        echo "ok: net: replies"
    else
        echo "FAIL: net: replies"
        fail=1
    fi
    # KataGo's ignorePreRootHistory: one position reached in two move
    # orders is one analysis by default, two with the history shown
    cat > "$tmp/hist.jsonl" <<JSON
{"id":"a","moves":[["B","Q16"],["W","D4"],["B","Q3"],["W","D16"]],"rules":"chinese","komi":7.5,"boardXSize":19,"boardYSize":19,"maxVisits":1,"includePolicy":true}
{"id":"b","moves":[["B","Q3"],["W","D16"],["B","Q16"],["W","D4"]],"rules":"chinese","komi":7.5,"boardXSize":19,"boardYSize":19,"maxVisits":1,"includePolicy":true}
{"id":"ha","moves":[["B","Q16"],["W","D4"],["B","Q3"],["W","D16"]],"rules":"chinese","komi":7.5,"boardXSize":19,"boardYSize":19,"maxVisits":1,"includePolicy":true,"overrideSettings":{"ignorePreRootHistory":false}}
{"id":"hb","moves":[["B","Q3"],["W","D16"],["B","Q16"],["W","D4"]],"rules":"chinese","komi":7.5,"boardXSize":19,"boardYSize":19,"maxVisits":1,"includePolicy":true,"overrideSettings":{"ignorePreRootHistory":false}}
JSON
    an --net "$net" --backend "$backend" < "$tmp/hist.jsonl" > "$tmp/hist.out"
    # (batches of another size may round differently: equal within 1e-4)
    same=$(python3 -c '
import json, sys
r = {d["id"]: [d["rootInfo"]["rawWinrate"]] + d["policy"] for d in map(json.loads, open(sys.argv[1]))}
gap = lambda x, y: max(abs(u - v) for u, v in zip(r[x], r[y]))
print(int(gap("a", "b") < 1e-4), int(gap("ha", "hb") < 1e-3))' "$tmp/hist.out")
    check "ignorePreRootHistory: equal without the history, apart with it" "$same" "1 0"
    # per-move ownership with the net: every move's stone is clearly the
    # mover's (in the report perspective, White to move here), copies mapped
    echo '{"id":"mo","moves":[["B","D4"]],"rules":"chinese","komi":7.5,"boardXSize":9,"boardYSize":9,"maxVisits":40,"includeMovesOwnership":true,"includeMovesOwnershipStdev":true}' > "$tmp/nmo.jsonl"
    an --net "$net" --backend "$backend" < "$tmp/nmo.jsonl" > "$tmp/nmo.out"
    check "net: per-move ownership: replies" \
        "$(python3 "$dir/check.py" "$tmp/nmo.jsonl" "$tmp/nmo.out" >/dev/null && echo ok)" ok
    check "net: per-move ownership: each move's stone the mover's" "$(python3 -c '
import json, sys
r = json.loads(open(sys.argv[1]).readline())
n, cols = 9, "ABCDEFGHJ"
own = [-m["ownership"][(n - int(m["move"][1:])) * n + cols.index(m["move"][0])]
       for m in r["moveInfos"] if m["move"] != "pass" and m["visits"] >= 2]
print(len(own) > 0, all(o > 0.5 for o in own))' "$tmp/nmo.out")" "True True"
else
    echo "SKIP (part): no shared net at $net"
fi

# --- whole-valued floats where KataGo wants integers ----------------------------
# Python's json.dumps writes 2.0 for a float: KataGo reads analyzeTurns,
# priorities and turnNumbers written so; 1.5 (and a number past the range)
# is still refused with the message for a non-integer.
cat > "$tmp/float.jsonl" <<'JSON'
{"id":"f","moves":[["B","E5"],["W","C3"]],"rules":"chinese","boardXSize":9,"boardYSize":9,"maxVisits":4,"analyzeTurns":[0.0,2.0],"priorities":[1.0,-2e0]}
{"id":"half","moves":[["B","E5"]],"rules":"chinese","boardXSize":9,"boardYSize":9,"maxVisits":4,"analyzeTurns":[1.5]}
{"id":"huge","moves":[["B","E5"]],"rules":"chinese","boardXSize":9,"boardYSize":9,"maxVisits":4,"analyzeTurns":[1e300]}
{"id":"badp","moves":[["B","E5"]],"rules":"chinese","boardXSize":9,"boardYSize":9,"maxVisits":4,"analyzeTurns":[1],"priorities":[0.5]}
{"id":"t","action":"terminate","terminateId":"nothing","turnNumbers":[0.0,1.0]}
{"id":"t2","action":"terminate","terminateId":"nothing","turnNumbers":[0.5]}
JSON
cat > "$tmp/float.expect" <<'JSON'
{"id":"f","turnNumber":0,"isDuringSearch":false,"rootInfo":{"visits":4}}
{"id":"f","turnNumber":2,"isDuringSearch":false,"rootInfo":{"visits":4}}
{"error":"Must specify an array of integers indicating turns to analyze","field":"analyzeTurns","id":"half"}
{"error":"Must specify an array of integers indicating turns to analyze","field":"analyzeTurns","id":"huge"}
{"error":"Invalid priority","field":"priorities","id":"badp"}
{"id":"t","action":"terminate","terminateId":"nothing"}
{"error":"If provided, must be an array of integers indicating turns to terminate","field":"turnNumbers","id":"t2"}
JSON
an --max-active 1 < "$tmp/float.jsonl" > "$tmp/float.out"
if python3 "$dir/check.py" "$tmp/float.jsonl" "$tmp/float.out" "$tmp/float.expect"; then
    echo "ok: whole-valued floats read as integers, 1.5 refused"
else
    echo "FAIL: whole-valued floats (above)"
    fail=1
fi
check "priorities 1.0 and -2e0: turn 0 first" \
    "$(grep -o '"id":"f","turnNumber":[0-9]' "$tmp/float.out" | cut -d: -f3 | tr -d '\n')" 02

# --- -quit-without-waiting writes what KataGo writes: nothing more ----------------
# (KataGo closes its output queue at EOF and kills its searches)
q19='{"id":"ID","moves":[],"rules":"chinese","boardXSize":19,"boardYSize":19,"maxVisits":100000}'
{ echo "${q19/ID/w1}"; echo "${q19/ID/w2}"; echo '{"id":"v","action":"query_version"}'; } |
    timeout 60 "$bin" analysis --threads 1 -quit-without-waiting > "$tmp/qw.out" 2>>"$tmp/stderr"
check "-quit-without-waiting: two open queries at EOF, no reply for either" \
    "$?:$(grep -c '"id":"w[12]"' "$tmp/qw.out"):$(grep -c '"id":"v"' "$tmp/qw.out")" "0:0:1"

# --- a terminate right after a query: noResults, never an empty moveInfos ---------
# With the net, a 19x19 root evaluated at eight symmetries takes long enough
# that the terminate (50 ms after the query) lands while the root's own visit
# is made: no move has a visit then, which is noResults (the engine is given
# 1.5 s to load the net first, so that the query is not queued with it).
if [ -f "$net" ]; then
    for i in 1 2 3 4; do
        { sleep 1.5
          echo '{"id":"a","moves":[],"rules":"chinese","boardXSize":19,"boardYSize":19,"maxVisits":100000,"overrideSettings":{"rootNumSymmetriesToSample":8}}'
          sleep 0.05; echo '{"id":"t","action":"terminate","terminateId":"a"}'; } |
            timeout 120 "$bin" analysis --net "$net" --backend "$backend" --threads 1 2>>"$tmp/stderr" |
            grep '"id":"a"'
    done > "$tmp/term.out"
    check "terminate at once: one final reply per run" "$(grep -c '"isDuringSearch":false' "$tmp/term.out")" 4
    check "terminate at once: no empty moveInfos" "$(grep -c '"moveInfos":\[\]' "$tmp/term.out")" 0
fi

if [ "$fail" != 0 ]; then
    echo "--- stderr of the runs:"
    tail -20 "$tmp/stderr"
fi
exit $fail
