#!/usr/bin/env bash
# tests/test_gtp_search.sh — `hyeongse gtp` searching with rollouts (no net,
# no ../shared needed): scripted sessions against golden replies, the
# analysis commands' structure, and the options.
#
# Golden sessions: every tests/data/gtp/NAME.in is sent to one `hyeongse gtp`
# with the options of its "# args:" line (a GTP comment, so the engine ignores
# it) and the replies must equal NAME.out byte for byte. They run 9x9 with
# --threads 1 and a --seed, so the search repeats exactly. When the search
# itself changes on purpose, HS_GTP_REGEN=1 rewrites the .out files (then
# read the diff before committing it).
#
# Analysis replies depend on timing (how many reports fit in an interval), so
# only their structure is checked: the answer line first, every report line
# parses (info fields, ownership with size*size numbers in [-1, 1]), the line
# after the analysis is answered as a command, and the values are the side to
# move's (Black well ahead: Black's win rate > 0.5, White's < 0.5). Every
# analysis reports at least once before it stops, so nothing here waits on
# a clock to pass.
set -u
bin=${HS_BIN:?HS_BIN must name the hyeongse binary}
golden=${HS_TEST_DATA:-$(dirname "$0")/data}/gtp
if ! command -v python3 >/dev/null; then
    echo "SKIP: python3 (the report parser) is not installed"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
. "$(dirname "$0")/lib.sh"

# --- golden sessions --------------------------------------------------------
for in in "$golden"/*.in; do
    name=$(basename "$in" .in)
    # shellcheck disable=SC2046 # the args line is words
    timeout 300 "$bin" gtp $(sed -n 's/^# args: //p' "$in") < "$in" > "$tmp/$name.out" 2> "$tmp/$name.err"
    check "session $name: exit status" "$?" 0
    if [ "${HS_GTP_REGEN:-0}" = 1 ]; then
        cp "$tmp/$name.out" "$golden/$name.out"
        echo "regenerated $golden/$name.out"
    elif diff -u "$golden/$name.out" "$tmp/$name.out" > "$tmp/$name.diff"; then
        echo "ok: session $name matches $name.out"
    else
        echo "FAIL: session $name differs from $name.out:"
        head -40 "$tmp/$name.diff"
        fail=1
    fi
done

# Twice the same genmoves with a seed and one thread: the same moves.
printf '%s\n' 'boardsize 9' 'genmove b' 'genmove w' 'genmove b' > "$tmp/twice"
a=$("$bin" gtp --visits 32 --threads 1 --seed 5 < "$tmp/twice" 2>/dev/null)
b=$("$bin" gtp --visits 32 --threads 1 --seed 5 < "$tmp/twice" 2>/dev/null)
check "same seed, same moves" "$a" "$b"
check "three moves answered" "$(echo "$a" | grep -cE '^= ([A-HJ][1-9]|pass)$')" 3

# One visit (the root's own, KataGo's policy-only setting): no root move has
# a visit, and genmove plays the move of the highest prior, not pass.
printf '%s\n' 'boardsize 9' 'genmove b' 'lz-genmove_analyze w 1' 'kata-genmove_analyze b 1' |
    "$bin" gtp --visits 1 > "$tmp/v1" 2>/dev/null
check "--visits 1: genmove and genmove_analyze play moves" \
    "$(grep -cE '^(=|play) ?[A-HJ][1-9]$' "$tmp/v1")" 3

# The tree is kept across commands: after genmove, a search of the position
# one move on starts with the chosen move's subtree (its visits are already
# there); after another move instead it starts from nothing.
kept() { "$bin" gtp --visits 200 --threads 1 --seed 5 2>/dev/null | grep -o 'rootInfo visits [0-9]*' |
    awk '{ print $3 }'; }
check "tree reused after genmove" "$(printf '%s\n' 'boardsize 9' 'genmove b' 'kata-analyze 0 rootInfo true' | kept | awk '{ print ($1 > 20) }')" 1
check "tree not reused after another move" "$(printf '%s\n' 'boardsize 9' 'genmove b' 'undo' 'play b A1' 'kata-analyze 0 rootInfo true' | kept)" 2

# --- analysis ---------------------------------------------------------------
# The report parser: python3 parse.py SIZE KIND < one response (its lines).
cat > "$tmp/parse.py" <<'PY'
import re, sys
size, kind = int(sys.argv[1]), sys.argv[2]        # kind: kata, lz, kata-genmove, lz-genmove
lines = sys.stdin.read().strip("\n").split("\n")
vertex = re.compile(r"^([A-HJ-T]([1-9]|1[0-9])|pass)$")
def num(t, lo=None, hi=None, integer=False):
    v = int(t) if integer else float(t)
    assert (lo is None or v >= lo) and (hi is None or v <= hi), t
    return v
assert re.match(r"^=\d*$", lines[0]), "answer line: " + lines[0]
body = lines[1:]
if kind.endswith("genmove"):
    assert vertex.match(body[-1].split(" ", 1)[1]) and body[-1].startswith("play "), body[-1]
    body = body[:-1]
assert body, "no report"
reports = 0
for line in body:
    toks = line.split(" ")
    assert toks[0] == "info", line[:60]
    i, infos = 0, 0
    while i < len(toks):
        key = toks[i]
        if key == "info":
            infos += 1; i += 1
            seen = {}
            while i < len(toks) and toks[i] not in ("info", "rootInfo", "ownership", "ownershipStdev"):
                k = toks[i]
                if k in ("movesOwnership", "movesOwnershipStdev"):
                    vals = [num(v, -1 if k == "movesOwnership" else 0, 1)
                            for v in toks[i + 1:i + 1 + size * size]]
                    assert len(vals) == size * size, (k, len(vals))
                    seen[k] = vals; i += 1 + size * size
                elif k in ("pv", "pvVisits", "pvEdgeVisits"):
                    i += 1; vals = []
                    while i < len(toks) and (vertex.match(toks[i]) if k == "pv" else toks[i].isdigit()):
                        vals.append(toks[i]); i += 1
                    seen[k] = vals
                else:
                    seen[k] = toks[i + 1]; i += 2
            assert vertex.match(seen["move"]), seen
            num(seen["visits"], 0, integer=True); num(seen["order"], 0, integer=True)
            if kind.startswith("kata"):
                num(seen["winrate"], 0, 1); num(seen["prior"], 0, 1); num(seen["scoreLead"])
                num(seen["lcb"]); num(seen["utility"]); num(seen["scoreStdev"], 0)
            else:
                num(seen["winrate"], 0, 10000, True); num(seen["prior"], 0, 10000, True)
                num(seen["lcb"], integer=True)
            assert seen["pv"] and seen["pv"][0] == seen["move"], seen
            if "pvVisits" in seen:
                assert len(seen["pvVisits"]) == len(seen["pv"]), seen
                assert int(seen["pvVisits"][0]) == int(seen["visits"]), seen
            if "pvEdgeVisits" in seen:
                assert len(seen["pvEdgeVisits"]) == len(seen["pv"]), seen
                assert int(seen["pvEdgeVisits"][0]) == int(seen["edgeVisits"]), seen
                assert all(int(e) <= int(v) for e, v in zip(seen["pvEdgeVisits"], seen["pvVisits"])), seen
            if kind.startswith("kata"):
                assert int(seen["edgeVisits"]) <= int(seen["visits"]), seen
        elif key == "rootInfo":
            i += 1
            while i < len(toks) and toks[i] not in ("ownership", "ownershipStdev"):
                num(toks[i + 1]); i += 2
        elif key in ("ownership", "ownershipStdev"):
            vals = toks[i + 1:i + 1 + size * size]
            for v in vals:
                num(v, -1 if key == "ownership" else 0, 1)
            assert len(vals) == size * size, (key, len(vals))
            i += 1 + size * size
        else:
            raise AssertionError("unexpected " + key)
    assert infos >= 1
    reports += 1
print(reports)
PY
# parse N KIND SIZE: the N-th response of $tmp/aout through the parser.
parse() {
    awk -v RS= -v n="$1" 'NR == n' "$tmp/aout" | python3 "$tmp/parse.py" "$3" "$2" > "$tmp/p" 2>&1 &&
        [ "$(cat "$tmp/p")" -ge 1 ] && echo ok || { cat "$tmp/p" >&2; echo bad; }
}
# The next lines arrive while the analysis runs (or after it reached its
# visits: it waits for them either way).
{ printf '%s\n' 'boardsize 9' \
    '1 kata-analyze interval 2 ownership true ownershipStdev true pvVisits true pvEdgeVisits true rootInfo true'
  sleep 1; printf '%s\n' '2 lz-analyze 2 maxmoves 3 minmoves 2'
  sleep 1; printf '%s\n' '3 protocol_version' '4 kata-genmove_analyze b interval 1 ownership true' \
    '5 lz-genmove_analyze w 1' '6 kata-analyze w 10 maxmoves 5'
  sleep 1; printf '%s\n' '7 showboard'; } |
    timeout 300 "$bin" gtp --visits 40 --analysis-visits 300 --threads 1 --seed 2 > "$tmp/aout" 2>/dev/null
check "analysis session: exit status" "$?" 0
check "kata-analyze reports parse" "$(parse 2 kata 9)" ok
check "kata-analyze ownership and stdev" "$(awk -v RS= 'NR == 2' "$tmp/aout" | tail -1 | grep -c ' ownership .* ownershipStdev ')" 1
check "lz-analyze reports parse" "$(parse 3 lz 9)" ok
check "lz-analyze maxmoves 3" "$(awk -v RS= 'NR == 3' "$tmp/aout" | sed 1d | awk '{ n = gsub(/info move/, ""); if (n > 3) bad++ } END { print bad + 0 }')" 0
check "the line after an analysis is a command" "$(awk -v RS= 'NR == 4' "$tmp/aout")" "=3 2"
check "kata-genmove_analyze parses" "$(parse 5 kata-genmove 9)" ok
check "lz-genmove_analyze parses" "$(parse 6 lz-genmove 9)" ok
check "kata-analyze maxmoves 5" "$(awk -v RS= 'NR == 7' "$tmp/aout" | sed 1d | awk '{ n = gsub(/info move/, ""); if (n > 5) bad++ } END { print bad + 0 }')" 0
check "kata-analyze for White parses" "$(parse 7 kata 9)" ok
check "genmove_analyze played both moves" "$(awk -v RS= 'NR == 8' "$tmp/aout" | head -1)" "=7 Moves: 2  Next player: Black  Rules: japanese  Komi: 6.5"

# movesOwnership / movesOwnershipStdev (kata-): after each move's pv, size²
# numbers each (the parser checks them), the most visited move's stone the
# side to move's; in the tree kept after genmove, a move has both or
# neither (neither: not evaluated since the tree was kept, not known), and
# those with new visits have them.
{ printf '%s\n' 'boardsize 9' '1 kata-analyze 0 movesOwnership true movesOwnershipStdev true'
  sleep 1; printf '%s\n' '2 genmove b' '3 kata-analyze 0 movesOwnership true movesOwnershipStdev true'
  sleep 1; printf '%s\n' '4 protocol_version'; } |
    timeout 300 "$bin" gtp --visits 100 --analysis-visits 150 --threads 1 --seed 3 > "$tmp/aout" 2>/dev/null
check "movesOwnership: fresh tree parses" "$(parse 2 kata 9)" ok
check "movesOwnership: kept tree parses" "$(parse 4 kata 9)" ok
mown() { awk -v RS= -v n="$1" 'NR == n' "$tmp/aout" | tail -1 | python3 -c '
import sys
toks = sys.stdin.read().split()
infos = " ".join(toks).split("info move ")[1:]
both = [("movesOwnership " in i) == ("movesOwnershipStdev " in i) for i in infos]
have = [i for i in infos if "movesOwnership " in i]
first = infos[0].split()
own = [float(v) for v in first[first.index("movesOwnership") + 1:][:81]] if "movesOwnership" in first else []
col = "ABCDEFGHJ".index(first[0][0]) if first[0] != "pass" else -1
mine = own and col >= 0 and own[(9 - int(first[0][1:])) * 9 + col] > 0.3
print(len(infos) > 0, all(both), len(have) == len(infos), len(have) > 0, bool(mine))'; }
check "movesOwnership: every move of a fresh tree, its stone the mover's" "$(mown 2)" "True True True True True"
check "movesOwnership: kept tree: both or neither, some known" "$(mown 4 | cut -d' ' -f1,2,4)" "True True True"

# The end of input ends an analysis too (no limit but the 10^6 visits).
printf '%s\n' 'boardsize 9' '9 lz-analyze 1' | timeout 300 "$bin" gtp > "$tmp/aout" 2>/dev/null
check "EOF ends lz-analyze" "$?" 0
check "its reports parse" "$(parse 2 lz 9)" ok

# Values are the side to move's: Black has walled off 36 points to White's 27
# and gets 20.5 points of reverse komi (Chinese rules): a lead of 29.5, so
# that even the noisy rollout averages of a 200-visit search (which let White
# invade) agree on its sign. Black's search says Black wins, White's that
# White loses. genmove_analyze, not analyze: it searches its whole budget
# whatever the input (the queued next line would stop an analysis at once).
{ printf '%s\n' 'boardsize 9' 'komi -20.5' 'kata-set-rules chinese'
  for y in 1 2 3 4 5 6 7 8 9; do printf 'play B E%d\nplay W F%d\n' "$y" "$y"; done
  printf '%s\n' 'kata-genmove_analyze b 0 rootInfo true' 'undo' 'kata-genmove_analyze w 0 rootInfo true' \
      'undo' 'lz-genmove_analyze w 0'; } |
    timeout 300 "$bin" gtp --visits 200 --resign-threshold 0 --threads 1 --seed 4 > "$tmp/aout" 2>/dev/null
root() { awk -v RS= -v n="$1" 'NR == n' "$tmp/aout" | tail -2 | head -1 | sed 's/.*rootInfo //' | awk -v k="$2" '{ for (i = 1; i < NF; i += 2) if ($i == k) print $(i + 1) }'; }
check "Black ahead: Black's win rate > 0.5" "$(root 22 winrate | awk '{ print ($1 > 0.5) }')" 1
check "Black ahead: Black's lead > 0" "$(root 22 scoreLead | awk '{ print ($1 > 0) }')" 1
check "Black ahead: White's win rate < 0.5" "$(root 24 winrate | awk '{ print ($1 < 0.5) }')" 1
check "Black ahead: White's lead < 0" "$(root 24 scoreLead | awk '{ print ($1 < 0) }')" 1
check "lz- for White: the best move's win rate below 5000" "$(awk -v RS= 'NR == 26' "$tmp/aout" | tail -2 | head -1 | awk '{ for (i = 1; i < NF; i++) if ($i == "order" && $(i + 1) == 0) print (w < 5000); else if ($i == "winrate") w = $(i + 1) }')" 1

# minmoves lists moves the search has not visited (3 visits: at most 2 searched).
printf '%s\n' 'boardsize 9' 'kata-analyze 0 minmoves 20' | "$bin" gtp --analysis-visits 3 > "$tmp/aout" 2>/dev/null
check "minmoves 20" "$(awk -v RS= 'NR == 2' "$tmp/aout" | tail -1 | grep -o 'info move' | wc -l)" 20
check "minmoves: the reports parse" "$(parse 2 kata 9)" ok

# --- options ----------------------------------------------------------------
for bad in "--visits 0" "--visits x" "--threads 0" "--time -1" "--resign-threshold 2" \
           "--seed -3" "--analysis-visits 0" "--lcb -1" "--lcb x" "--confirm -1" \
           "--confirm x" "--set confirmStdevs=x" "--bogus 1" \
           "--set bogus=1" "--set lcbStdevs=x" "--set maxVisits=3" \
           "--set subtreeValueBiasFactor=2" "--set cpuctExploration" \
           "--set useGraphSearch=maybe" "--set rootPolicyTemperature=0" \
           "--set rootPolicyTemperature=101"; do
    # shellcheck disable=SC2086 # the option and its value are two words
    "$bin" gtp $bad </dev/null >/dev/null 2>&1
    check "usage error: $bad" "$?" 2
done
# rootPolicyTemperature at run time: KataGo's range 0.01..100
check "kata-set-param rootPolicyTemperature" "$(printf '%s\n' 'kata-set-param rootPolicyTemperature 2' \
    'kata-get-param rootPolicyTemperature' 'kata-set-param rootPolicyTemperature 0.001' |
    "$bin" gtp 2>/dev/null | grep -v '^$' | tr '\n' '|')" \
    "= |= 2.0|? Could not set params: Could not parse '0.001' for key 'rootPolicyTemperature'|"
printf '%s\n' 'boardsize 9' 'genmove b' | "$bin" gtp --visits 50 --lcb 5 --seed 1 > "$tmp/lcb" 2>/dev/null
check "--lcb 5: genmove plays a move" "$(grep -c '^= [A-HJ][1-9]$' "$tmp/lcb")" 1
# --set: KataGo's names reach the search (one thread and a seed repeat exactly)
ga() { printf '%s\n' 'boardsize 9' 'kata-genmove_analyze b' | "$bin" gtp --visits 60 --seed 1 "$@" 2>/dev/null; }
check "--set: kata-genmove_analyze plays" "$(ga --set useLcbForSelection=true | grep -c '^play ')" 1
check "--set useLcbForSelection=true plays as --lcb 5" "$(ga --set useLcbForSelection=true | md5sum)" \
    "$(ga --lcb 5 | md5sum)"
check "--set confirmStdevs=0 plays as --confirm 0" "$(ga --set confirmStdevs=0 | md5sum)" \
    "$(ga --confirm 0 | md5sum)"
check "--set cpuctExploration=20 searches otherwise" \
    "$(test "$(ga --set cpuctExploration=20,fpuReductionMax=0 | md5sum)" != "$(ga | md5sum)" && echo differs)" differs
"$bin" gtp --help > "$tmp/help"
check "--help names the search options" "$(grep -o -- '--visits\|--threads\|--seed\|--time\|--resign-threshold' "$tmp/help" | sort -u | wc -l)" 5
# --- live analysis: the answer line at once, reports after the visits -------
# The producer copies what the engine wrote so far while the analysis still
# runs (its next line not sent yet): the "=" line must be out at once, even
# with interval 0 (no reports), and once the search reached
# --analysis-visits the last report comes again every interval, as KataGo
# keeps reporting until the next line.
{ printf '%s\n' 'boardsize 9' '1 kata-analyze 0'; sleep 1.5; cp "$tmp/live" "$tmp/live.a"; } |
    timeout 60 "$bin" gtp --analysis-visits 100000000 --threads 1 > "$tmp/live" 2>/dev/null
check "kata-analyze: the answer line before the next line" "$(sed -n 3p "$tmp/live.a")" "=1"
{ printf '%s\n' 'boardsize 9' '2 lz-analyze 20'; sleep 2.5; cp "$tmp/live" "$tmp/live.b"
  printf '%s\n' '3 kata-analyze 20 rootInfo true'; sleep 2.5; cp "$tmp/live" "$tmp/live.c"; } |
    timeout 60 "$bin" gtp --analysis-visits 20 --threads 1 > "$tmp/live" 2>/dev/null
check "lz-analyze done: answer line out" "$(sed -n 3p "$tmp/live.b")" "=2"
check "lz-analyze done: reports every interval before the next line" \
    "$(grep -c '^info ' "$tmp/live.b" | awk '{ print ($1 >= 3) }')" 1
check "lz-analyze done: the same report each time" "$(grep '^info ' "$tmp/live.b" | sort -u | wc -l)" 1
check "kata-analyze done: reports every interval" \
    "$(grep -c '^info .* rootInfo visits 20 ' "$tmp/live.c" | awk '{ print ($1 >= 3) }')" 1

# --- KataGo's run-time commands -----------------------------------------------
# (their exact answers are the golden session tests/data/gtp/params.in; here
# what they change)
gp() { timeout 120 "$bin" gtp --visits 200 --threads 1 --seed 5 2>/dev/null; }
check "kata-set-param maxVisits: genmove's budget" \
    "$(printf '%s\n' 'boardsize 9' 'kata-set-param maxVisits 9' 'kata-genmove_analyze b 0 rootInfo true' | gp |
       grep -o 'rootInfo visits [0-9]*' | tail -1)" "rootInfo visits 9"
check "clear_cache: the tree kept after genmove is gone" \
    "$(printf '%s\n' 'boardsize 9' 'genmove b' 'clear_cache' 'kata-analyze 0 rootInfo true' | gp |
       grep -o 'rootInfo visits [0-9]*' | awk '{ print $3 }')" 2
check "kata-set-param numSearchThreads 4: searches" \
    "$(printf '%s\n' 'boardsize 9' 'kata-set-param numSearchThreads 4' 'kata-get-param numSearchThreads' 'genmove b' | gp |
       grep -v '^$' | sed 1,2d | tr '\n' ' ' | grep -cE '^= 4 = [A-HJ][1-9] $')" 1
exit $fail
