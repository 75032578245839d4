#!/usr/bin/env bash
# tests/test_gtp.sh — `hyeongse gtp`: KataGo's golden session replayed through
# the GTP front end (every number of ../shared/nets/katago-g170-b6c96/
# golden-raw-nn.txt against our `kata-raw-nn 0` within 1e-3; NAN must be NAN),
# then the protocol itself: ids, errors, illegal moves, boardsize, showboard,
# `all`, quit, and a net file that cannot be read failing at start.
#
# The session is the golden file's: per block `loadsgf FILE MOVE`, `komi 6.5`,
# `kata-raw-nn 0`, in the file's order, in one process, so the rules carry
# over between files as KataGo's loadsgf carries them (RU[] when present, else
# the current rules stay). The cpu backend is used where this build has it
# (faster), else the reference backend.
set -u
bin=${HS_BIN:?HS_BIN must name the hyeongse binary}
data=${HS_DATA_DIR:-$(dirname "$0")/../../shared/data}
netdir=$data/../nets/katago-g170-b6c96
net=$netdir/g170-b6c96-s175395328-d26788732.bin.gz
golden=$netdir/golden-raw-nn.txt
if [ ! -f "$net" ] || [ ! -f "$golden" ] || [ ! -d "$data/pro19-sample" ]; then
    echo "SKIP: the shared net, its golden file or pro19-sample is not here ($netdir)"
    exit 77
fi
if ! command -v python3 >/dev/null; then
    echo "SKIP: python3 (the comparator) is not installed"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
. "$(dirname "$0")/lib.sh"

backend=ref
if echo quit | "$bin" gtp --net "$net" --backend cpu >/dev/null 2>&1; then backend=cpu; fi
echo "backend: $backend"
gtp() { "$bin" gtp --net "$net" --backend "$backend" "$@"; }

# --- the golden session ---------------------------------------------------
awk -v dir="$data/pro19-sample" '/^### / { n++; print n "1 loadsgf " dir "/" $2 " " $3;
    print n "2 komi 6.5"; print n "3 kata-raw-nn 0" } END { print "quit" }' "$golden" > "$tmp/session"
gtp < "$tmp/session" > "$tmp/out" 2> "$tmp/err"
check "golden session exit status" "$?" 0
python3 - "$golden" "$tmp/out" <<'PY'
import math, re, sys
TOL = 1e-3
golden_text, out_text = (open(p).read() for p in sys.argv[1:3])
blocks = re.split(r"^### .*\n", golden_text, flags=re.M)[1:]
resp = {}
for r in out_text.split("\n\n"):
    m = re.match(r"([=?])(\d+) ?(.*)", r, re.S)
    if m:
        resp[int(m.group(2))] = (m.group(1), m.group(3))
bad = compared = strict = matched = 0
for i, gold in enumerate(blocks, 1):
    for k in (1, 2, 3):
        st, text = resp.get(i * 10 + k, ("missing", ""))
        if st != "=":
            print(f"FAIL: block {i} command {k}: {st} {text}"); bad += 1
    ours = resp.get(i * 10 + 3, ("", ""))[1].split()
    gold = gold.strip().lstrip("=").split()
    if [t for t in ours if not re.match(r"^-?[0-9.]+$|^NAN$", t)] != \
       [t for t in gold if not re.match(r"^-?[0-9.]+$|^NAN$", t)] or len(ours) != len(gold):
        print(f"FAIL: block {i}: layout differs ({len(ours)} vs {len(gold)} words)"); bad += 1
        continue
    key, mean = None, 0.0
    for a, b in zip(ours, gold):
        if not re.match(r"^-?[0-9.]+$|^NAN$", b):
            key = b; continue
        if key == "symmetry":
            continue
        compared += 1
        if b == "NAN" or a == "NAN":
            ok = a == b; within = ok
        else:
            d = abs(float(a) - float(b)); within = d <= TOL
            tol = TOL
            if key == "whiteScoreSelfplay": mean = float(b)
            if key == "whiteScoreSelfplaySq":   # mean^2 + sd^2: 1e-3 of both carried through
                sd = math.sqrt(max(0.0, float(b) - mean * mean))
                tol = TOL + 2 * abs(mean) * TOL + 2 * sd * TOL
            ok = d <= tol
        strict += within
        matched += ok
        if not ok:
            bad += 1
            if bad < 20: print(f"FAIL: block {i} {key}: ours {a}, golden {b}")
print(f"golden via gtp: {len(blocks)} positions, {strict} of {compared} numbers within {TOL}"
      f" ({matched} counting the squared score's propagated tolerance)")
sys.exit(1 if bad or len(blocks) != 24 else 0)
PY
check "golden session matches KataGo" "$?" 0

# --- the protocol ---------------------------------------------------------
printf '%s\n' 'protocol_version' '12 play B D4' '13 play W D4' 'play B Z99' 'play X D5' \
    'frobnicate' '7 frobnicate' '  # a comment line' '' 'play	w	Q16   # tab, comment' \
    'showboard' 'known_command kata-raw-nn' 'known_command genmove' 'komi 7.3' 'komi x' \
    'kata-set-rules chinese' 'kata-get-rules' 'kata-set-rules bogus' \
    'loadsgf /no/such/file.sgf' 'loadsgf x 0' 'kata-raw-nn 8' \
    'boardsize 1' 'boardsize 9' '40 kata-raw-nn 0' '41 kata-raw-nn all' '42 kata-raw-nn mean' \
    'play B E5' 'play W E5' '50 quit' 'name' > "$tmp/basics"
gtp < "$tmp/basics" > "$tmp/bout" 2>/dev/null
check "basics exit status" "$?" 0
resp() { awk -v RS= -v n="$1" 'NR == n' "$tmp/bout"; }
check "protocol_version" "$(resp 1)" "= 2"
check "id on success" "$(resp 2)" "=12 "
check "id on failure, occupied point" "$(resp 3)" "?13 illegal move"
check "bad vertex" "$(resp 4)" "? Could not parse vertex: 'Z99'"
check "bad colour" "$(resp 5)" "? Could not parse color: 'X'"
check "unknown command" "$(resp 6)" "? unknown command"
check "unknown command with id" "$(resp 7)" "?7 unknown command"
check "tabs and comment" "$(resp 8)" "= "
check "showboard header" "$(resp 9 | head -1)" "= Moves: 2  Next player: Black  Rules: japanese  Komi: 6.5"
check "showboard D4 is black" "$(resp 9 | grep '^ 4 ' | cut -c10)" "X"
check "showboard Q16 is white" "$(resp 9 | grep '^16 ' | cut -c34)" "O"
check "known_command yes" "$(resp 10)" "= true"
check "known_command genmove" "$(resp 11)" "= true"
check "komi not in halves" "$(resp 12)" "? komi must be an integer or half-integer"
check "komi not a number" "$(resp 13)" "? Expected single float argument for komi"
check "kata-set-rules" "$(resp 14)" "= "
check "kata-get-rules: KataGo's JSON" "$(resp 15)" '= {"friendlyPassOk":true,"hasButton":false,"ko":"POSITIONAL","scoring":"AREA","suicide":false,"tax":"NONE","whiteHandicapBonus":"N"}'
check "kata-set-rules bogus" "$(resp 16 | cut -c1-23)" "? Unknown rules 'bogus'"
check "loadsgf missing file" "$(resp 17 | cut -c1-20)" "? cannot load file: "
check "loadsgf move 0" "$(resp 18)" "? Invalid value for moveNumber for loadsgf"
check "kata-raw-nn 8" "$(resp 19 | cut -c1-2)" "? "
check "boardsize 1" "$(resp 20)" "? unacceptable size"
check "boardsize 9" "$(resp 21)" "= "
r=$(resp 22)
check "9x9 raw-nn header" "$(echo "$r" | head -1)" "=40 symmetry 0"
check "9x9 policy rows" "$(echo "$r" | sed -n '/^policy$/,/^policyPass/p' | grep -cE '^( *([0-9.]+|NAN) ){9}$')" 9
check "9x9 ownership rows" "$(echo "$r" | sed -n '/^whiteOwnership$/,$p' | grep -cE '^-?[0-9.]+( -?[0-9.]+){8} ?$')" 9
check "9x9 empty board: no NAN" "$(echo "$r" | grep -c NAN)" 0
check "9x9 win+loss+noresult ~ 1" "$(echo "$r" | awk '/^white(Win|Loss) |^noResult /{s+=$2} END {print (s>0.999 && s<1.001)}')" 1
r=$(resp 23)
check "all: eight symmetries in order" "$(echo "$r" | grep -o 'symmetry [0-9]' | tr -d 'symetr \n')" "01234567"
check "all: no empty line inside" "$(echo "$r" | grep -c '^$')" 0
check "mean: one block" "$(resp 24 | head -1)" "=42 symmetry mean"
check "E5 then the same point" "$(resp 26)" "? illegal move"
check "quit answers" "$(resp 27)" "=50 "
check "nothing after quit" "$(resp 28)" ""

# After a move the point is NAN in the policy (illegal), and black to move's
# policy does not sum over it.
printf '%s\n' 'boardsize 9' 'play B E5' 'kata-raw-nn 0' > "$tmp/nan"
r=$(gtp < "$tmp/nan" 2>/dev/null | awk -v RS= 'NR == 3')
check "occupied point is NAN" "$(echo "$r" | sed -n '/^policy$/,/^policyPass/p' | sed -n 6p | awk '{print $5}')" "NAN"
check "policy sums to 1" "$(echo "$r" | sed -n '/^policy$/,/^whiteOwnership/p' | tr ' ' '\n' | awk '/^[0-9.]+$/{s+=$1} END {print (s>0.999 && s<1.001)}')" 1

# loadsgf: rules and komi from the record, setup stones, the move number; a
# record with an illegal move leaves the session as it was. A simple ko.
printf '(;GM[1]SZ[9]KM[7.5]RU[Chinese];B[ee];W[ee])' > "$tmp/bad.sgf"
printf '(;GM[1]SZ[9]KM[0.5]HA[2]RU[AGA]AB[cc][gg];W[ee];B[ce];W[ec])' > "$tmp/ha.sgf"
printf '%s\n' "loadsgf $tmp/bad.sgf" 'kata-get-rules' "loadsgf $tmp/ha.sgf 2" 'showboard' \
    "loadsgf $tmp/ha.sgf" 'kata-set-rules japanese' 'showboard' \
    'boardsize 5' 'play B A2' 'play W C1' 'play B B1' 'play W C3' 'play B B3' 'play W D2' \
    'play W B2' 'play B C2' 'play W B2' 'play W E5' 'play B E4' 'play W B2' 'showboard' \
    > "$tmp/load"
gtp < "$tmp/load" > "$tmp/lout" 2>/dev/null
lresp() { awk -v RS= -v n="$1" 'NR == n' "$tmp/lout"; }
check "loadsgf illegal record" "$(lresp 1)" "? cannot load file: move 2 (W E5) is illegal"
check "failed loadsgf keeps the rules" "$(lresp 2 | grep -o '"ko":"[A-Z]*","scoring":"[A-Z]*"')" '"ko":"SIMPLE","scoring":"TERRITORY"'
check "loadsgf 2: RU, KM, before move 2" "$(lresp 4 | head -1)" "= Moves: 1  Next player: Black  Rules: aga  Komi: 0.5"
check "loadsgf: setup stones" "$(lresp 4 | grep -E '^ [37] ' | tr -cd 'X' )" "XX"
check "loadsgf: W E5 played" "$(lresp 4 | grep "^ 5 " | cut -c12)" "O"
check "rules change keeps the moves" "$(lresp 7 | head -1)" "= Moves: 3  Next player: Black  Rules: japanese  Komi: 0.5"
check "ko: capture" "$(lresp 16)" "= "
check "ko: immediate retake" "$(lresp 17)" "? illegal move"
check "ko: retake after a ko threat" "$(lresp 20)" "= "
check "ko: captures" "$(lresp 21 | tail -2 | tr '\n' ' ')" "Captured by Black: 1 Captured by White: 1 "

# --- start-up failures ------------------------------------------------------
: > "$tmp/empty.bin.gz"
printf 'not a net\n' > "$tmp/junk.bin"
for f in "$tmp/empty.bin.gz" "$tmp/junk.bin" "$tmp/absent.bin.gz"; do
    echo protocol_version | "$bin" gtp --net "$f" --backend ref > "$tmp/o" 2> "$tmp/e"
    st=$?
    check "bad net $(basename "$f"): exit status" "$([ $st -ne 0 ] && echo nonzero)" nonzero
    check "bad net $(basename "$f"): no GTP answer" "$(cat "$tmp/o")" ""
    check "bad net $(basename "$f"): says why" "$(grep -c '^hyeongse gtp: ' "$tmp/e")" 1
done
r=$(echo "kata-raw-nn 0" | "$bin" gtp --backend ref 2>/dev/null)
check "no --net: rollouts, and kata-raw-nn says there is no net" "$r" "? kata-raw-nn: no net loaded"
"$bin" gtp --net "$net" --rules bogus </dev/null >/dev/null 2>&1
check "unknown --rules is a usage error" "$?" 2
"$bin" gtp --net "$net" --backend bogus </dev/null >/dev/null 2>&1
check "unknown --backend is a usage error" "$?" 2
exit $fail
