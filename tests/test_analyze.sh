#!/usr/bin/env bash
# tests/test_analyze.sh — `hyeongse analyze` when things go wrong:
#   A. a store that is garbage, or whose meta pages are damaged → exit 1 within
#      60 s with the store's message (never a hang);
#   B. a store error in the middle of a run (the root page of the "moves" table
#      zeroed: the first RESULT stored hits it) → exit 1 within 60 s with the
#      store's message, instead of waiting for ever on a broker that is gone;
#   C. `kill -9` during a run, then the same command again → it says it resumes
#      job 1, evaluates fewer positions than the archive holds, and the store
#      ends equal to a run that was never interrupted (counts, and every row of
#      `query --format csv`), with one job in the journal;
#      the same after SIGINT, which exits 130 saying how to resume;
#      A run after the job is done is a new job that evaluates no position again
#      (each game's positions already have evals of its engines);
#   (A also reads the summary's split of the CPU outside the engines by thread.)
#   D. numeric options out of range or not numbers → exit 2 with a message;
#   E. a job that adds an engine to a store runs only the new engine on the
#      stored games (the task's engine mask, broker_jobs.c s_game_needs): its
#      puts are one per position, its store equal to one job of both engines
#      (`query --format csv`); a third job of the same engines is done at once;
#      killed mid-run and resumed, the job keeps running only the new engine
#      (the mask is in the task record).
#   F. a game that shares its opening with a stored one: only its other
#      positions are evaluated (broker_reuse.c), and its rows are whole.
#   G. a job whose every game failed (only broken SGF files, a folder or a
#      .tar.gz of them) exits 3 and says on stderr that nothing was analysed
#      and how to see why; a folder with a good game beside them exits 0.
# A timeout is a failure: `timeout 60` ends a hang with status 124.
set -u
BIN=${HS_BIN:?HS_BIN must name the hyeongse binary}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ARCHIVE="$ROOT/tests/data/random9.tar.gz"
command -v python3 >/dev/null || { echo "SKIP: python3 is needed to damage a store"; exit 77; }
[ -f "$ARCHIVE" ] || { echo "SKIP: $ARCHIVE is missing"; exit 77; }

tmp=$(mktemp -d /tmp/hs-test-analyze-XXXXXX)
apid=
cleanup() {
    [ -n "$apid" ] && kill -9 "$apid" 2>/dev/null
    wait 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
fail=0
. "$(dirname "$0")/lib.sh"

stat_of() {   # stat_of DB NAME: one figure of `query stats`
    "$BIN" query --db "$1" stats 2>/dev/null | awk -v k="$2" '$1 == k { print $2 }'
}

# kill_after DB STAT ABOVE CMD...: runs CMD in the background and kills it (-9,
# or the signal $KILL_SIG) once DB's `query stats` STAT is above ABOVE (polled
# every 50 ms, at most 60 s); its exit status in $killed_rc.
kill_after() {
    local db=$1 stat=$2 above=$3 v
    shift 3
    "$@" &
    apid=$!
    for _ in $(seq 1200); do
        v=$(stat_of "$db" "$stat")
        [ "${v:-0}" -gt "$above" ] && break
        kill -0 "$apid" 2>/dev/null || break
        sleep 0.05
    done
    kill "-${KILL_SIG:-9}" "$apid" 2>/dev/null
    wait "$apid" 2>/dev/null
    killed_rc=$?
    apid=
}

# Zeroes page(s) of an LMDB file: "meta" (pages 0 and 1), or the root page of
# the named table (read from the newest meta page and the main table's leaf).
cat > "$tmp/damage.py" <<'EOF'
import struct, sys
path, what = sys.argv[1], sys.argv[2]
with open(path, 'r+b') as f:
    head = f.read(4096)
    psize = struct.unpack_from('<I', head, 40)[0]     # mm_dbs[FREE].md_pad
    if what == 'meta':
        f.seek(0); f.write(b'\0' * 2 * psize); sys.exit(0)
    metas = []
    for pg in (0, 1):
        f.seek(pg * psize); b = f.read(psize)
        metas.append((struct.unpack_from('<Q', b, 144)[0], struct.unpack_from('<Q', b, 128)[0]))
    f.seek(max(metas)[1] * psize); p = f.read(psize)
    flags, lower = struct.unpack_from('<HH', p, 10)
    if not flags & 2: sys.exit('the main table is not one leaf page')
    for i in range((lower - 16) // 2):
        off = struct.unpack_from('<H', p, 16 + 2 * i)[0]
        ksize = struct.unpack_from('<H', p, off + 6)[0]
        if p[off + 8:off + 8 + ksize] == what.encode():
            root = struct.unpack_from('<Q', p, off + 8 + ksize + 40)[0]
            f.seek(root * psize); f.write(b'\0' * psize); sys.exit(0)
    sys.exit('no table ' + what)
EOF

# ---- A. garbage and damaged meta pages: refused at once, with the store's words.
mkdir -p "$tmp/garbage"
head -c 1048576 /dev/urandom > "$tmp/garbage/data.mdb"
timeout 60 "$BIN" analyze "$ARCHIVE" --db "$tmp/garbage" --engines area --threads 2 --quiet \
    > "$tmp/a1.out" 2>&1
check "A: garbage data.mdb: exit status" "$?" 1
grep -q "not an LMDB store" "$tmp/a1.out"; check "A: garbage data.mdb: the store's message" "$?" 0

"$BIN" analyze "$ARCHIVE" --db "$tmp/good" --engines area --threads 2 --quiet > "$tmp/good.out" 2>&1
check "A: a good store to damage" "$?" 0
# The summary's "outside" line splits the CPU outside the engines by thread;
# its three parts add up to the "cpu" line's process CPU less engine CPU.
python3 - "$tmp/good.out" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
c = re.search(r"\(([0-9.]+) s engine CPU of ([0-9.]+) s process CPU\)", t)
o = re.search(r"outside +([0-9.]+) s broker thread .*, ([0-9.]+) s engine threads outside "
              r"engine calls, ([0-9.]+) s other threads", t)
assert c and o, "no cpu or outside line"
parts = sum(float(x) for x in o.groups())
assert abs(parts - (float(c[2]) - float(c[1]))) <= 0.03, (parts, c.groups())
assert float(o[1]) > 0, "the broker thread stored the results: some CPU"
PY
check "A: the outside line adds up to process CPU less engine CPU" "$?" 0
cp -r "$tmp/good" "$tmp/meta"
python3 "$tmp/damage.py" "$tmp/meta/data.mdb" meta
timeout 60 "$BIN" analyze "$ARCHIVE" --db "$tmp/meta" --engines area --threads 2 --quiet \
    > "$tmp/a2.out" 2>&1
check "A: damaged meta pages: exit status" "$?" 1
grep -q "not an LMDB store" "$tmp/a2.out"; check "A: damaged meta pages: the store's message" "$?" 0

# ---- B. a store error mid-run: the "moves" table's root zeroed. Another engine
# than the good store's, so results are stored and reach the damaged table.
cp -r "$tmp/good" "$tmp/moves"
python3 "$tmp/damage.py" "$tmp/moves/data.mdb" moves
timeout 60 "$BIN" analyze "$ARCHIVE" --db "$tmp/moves" --engines noop --threads 2 --quiet \
    > "$tmp/b.out" 2>&1
st=$?
check "B: store error mid-run: exit status (124 = hung)" "$st" 1
grep -q "broker stopped: moves: MDB_CORRUPTED" "$tmp/b.out"
check "B: store error mid-run: the store's message" "$?" 0

# ---- C. kill -9, rerun: resumed, not redone. The no-op engine's delay makes the
# run last some ten seconds, so that the kill lands mid-run even where each
# poll below (a `query stats`) takes seconds: a build under ASan on a busy
# machine (at 300 us the run once ended between two polls); area gives evals
# to compare.
run=("$BIN" analyze "$ARCHIVE" --engines "area,noop:delay_us=1000" --threads 2 --quiet --db)
timeout 300 "${run[@]}" "$tmp/ref" > "$tmp/ref.out" 2>&1 || { echo "FAIL: reference run"; fail=1; }
total=$(stat_of "$tmp/ref" positions)
# until some results are committed
kill_after "$tmp/killed" positions 0 "${run[@]}" "$tmp/killed" > "$tmp/c1.out" 2>&1
stored=$(stat_of "$tmp/killed" positions)
echo "killed with $stored of $total positions stored"
if [ "${stored:-0}" -le 0 ] || [ "$stored" -ge "${total:-0}" ]; then
    echo "FAIL: C: the kill did not land mid-run ($stored of $total stored)"; fail=1
fi
timeout 300 "${run[@]}" "$tmp/killed" > "$tmp/c2.out" 2>&1
check "C: rerun: exit status" "$?" 0
grep -q "resuming job 1 " "$tmp/c2.out"; check "C: rerun says it resumes job 1" "$?" 0
grep -q "^analyze: job 1 done" "$tmp/c2.out"; check "C: rerun ends job 1 done" "$?" 0
evaluated=$(sed -n 's/^  this run *\([0-9]*\) positions evaluated.*/\1/p' "$tmp/c2.out")
echo "the rerun evaluated $evaluated positions of $total"
[ -n "$evaluated" ] && [ "$evaluated" -lt "${total:-0}" ]
check "C: rerun evaluated fewer positions than the archive holds" "$?" 0
check "C: one job in the journal" "$(stat_of "$tmp/killed" jobs)" 1
for k in games failed_games positions evals; do
    check "C: $k equal to the uninterrupted run's" "$(stat_of "$tmp/killed" "$k")" \
          "$(stat_of "$tmp/ref" "$k")"
done
# Every row: game, move, engine, evals (the source path is the same file).
"$BIN" query --db "$tmp/ref" --format csv | sort > "$tmp/ref.csv"
"$BIN" query --db "$tmp/killed" --format csv | sort > "$tmp/killed.csv"
cmp -s "$tmp/ref.csv" "$tmp/killed.csv"; check "C: query --format csv equal (sorted)" "$?" 0
check "C: csv rows" "$(wc -l < "$tmp/killed.csv")" "$(wc -l < "$tmp/ref.csv")"

# Ctrl-C (SIGINT): the run stops within seconds (the task under way is left
# for the rerun), says it can be resumed, and exits 130; the rerun resumes it.
KILL_SIG=INT kill_after "$tmp/int" positions 0 "${run[@]}" "$tmp/int" > "$tmp/i1.out" 2>&1
check "C: SIGINT: exit status 130" "$killed_rc" 130
grep -q "stopped by SIGINT; what was stored is kept: run the same command again to resume" \
    "$tmp/i1.out"; check "C: SIGINT: says how to resume" "$?" 0
timeout 300 "${run[@]}" "$tmp/int" > "$tmp/i2.out" 2>&1
check "C: SIGINT: rerun exit status" "$?" 0
grep -q "resuming job 1 " "$tmp/i2.out"; check "C: SIGINT: rerun resumes job 1" "$?" 0
check "C: SIGINT: evals equal to the uninterrupted run's" "$(stat_of "$tmp/int" evals)" \
      "$(stat_of "$tmp/ref" evals)"

# A run after the job is done starts a new job (a done job is not joined).
timeout 300 "${run[@]}" "$tmp/killed" > "$tmp/c3.out" 2>&1
check "C: a run after the job is done: exit status" "$?" 0
grep -q "^analyze: job 2 done" "$tmp/c3.out"; check "C: ... is a new job" "$?" 0
# ... which evaluates nothing again: every position of every game has its evals
# of these engines already (broker: s_game_covered), and the store is unchanged.
check "C: ... evaluates no position again" \
      "$(sed -n 's/^  this run *\([0-9]*\) positions evaluated.*/\1/p' "$tmp/c3.out")" 0
check "C: ... counts every game done" "$(grep -c "^  games *$(stat_of "$tmp/ref" games) analyzed" "$tmp/c3.out")" 1
check "C: ... the store's evals unchanged" "$(stat_of "$tmp/killed" evals)" "$(stat_of "$tmp/ref" evals)"
# A subset of the stored engines is covered; an engine spec the store lacks
# (plain "noop": it holds "noop:delay_us=1000") has every game evaluated.
timeout 300 "$BIN" analyze "$ARCHIVE" --engines area --threads 2 --quiet --db "$tmp/killed" \
    > "$tmp/c4.out" 2>&1
check "C: a run of a subset of the engines evaluates nothing" \
      "$(sed -n 's/^  this run *\([0-9]*\) positions evaluated.*/\1/p' "$tmp/c4.out")" 0
evals0=$(stat_of "$tmp/killed" evals)
timeout 300 "$BIN" analyze "$ARCHIVE" --engines area,noop --threads 2 --quiet --db "$tmp/killed" \
    > "$tmp/c5.out" 2>&1
# Each distinct position once at least (the new engine's evals), every one at
# most: a position repeated in the archive is left out of a TASK when its
# first eval is stored by then (broker_reuse.c), which depends on the timing.
evaluated=$(sed -n 's/^  this run *\([0-9]*\) positions evaluated.*/\1/p' "$tmp/c5.out")
distinct=$(( $(stat_of "$tmp/killed" evals) - evals0 ))
check "C: a run with an engine not stored evaluates every distinct position" \
      "$(( ${evaluated:-0} >= distinct && ${evaluated:-0} <= total ))" 1

# ---- D. numeric options.
for bad in "--threads 0" "--threads -3" "--threads abc" "--threads 2x" "--threads 99999999999" \
           "--chunk 0" "--chunk abc" "--moves every:0" "--moves every:x"; do
    # shellcheck disable=SC2086
    timeout 60 "$BIN" analyze "$ARCHIVE" --db "$tmp/never" $bad > "$tmp/d.out" 2>&1
    check "D: analyze $bad: exit status" "$?" 2
    grep -q "hyeongse analyze: " "$tmp/d.out"; check "D: analyze $bad: says why" "$?" 0
done
[ ! -e "$tmp/never" ]; check "D: no store made for a refused command" "$?" 0

# ---- E. a job adding an engine runs only that engine on the stored games.
# $tmp/ref is one job of both engines ("${run[@]}" above): the same puts, the
# same duplicates (positions repeated inside the archive) and the same rows.
add=("$BIN" analyze "$ARCHIVE" --threads 2 --quiet --db)
puts_ref=$(stat_of "$tmp/ref" result_puts)
timeout 300 "${add[@]}" "$tmp/two" --engines area > "$tmp/e1.out" 2>&1
check "E: first job (area): exit status" "$?" 0
check "E: first job: one put a position" "$(stat_of "$tmp/two" result_puts)" "$total"
timeout 300 "${add[@]}" "$tmp/two" --engines "area,noop:delay_us=1000" > "$tmp/e2.out" 2>&1
check "E: second job (area,noop): exit status" "$?" 0
# Without the mask the second job puts area's evals again: 3 puts a position.
check "E: second job runs only noop: puts as one job of both engines" \
      "$(stat_of "$tmp/two" result_puts)" "$puts_ref"
check "E: ... duplicates as one job of both engines" "$(stat_of "$tmp/two" result_dups)" \
      "$(stat_of "$tmp/ref" result_dups)"
"$BIN" query --db "$tmp/two" --format csv | sort > "$tmp/two.csv"
cmp -s "$tmp/ref.csv" "$tmp/two.csv"; check "E: query --format csv equal to one job's" "$?" 0
timeout 300 "${add[@]}" "$tmp/two" --engines "area,noop:delay_us=1000" > "$tmp/e3.out" 2>&1
check "E: third job of the same engines: exit status" "$?" 0
check "E: ... is done at once: no position evaluated" \
      "$(sed -n 's/^  this run *\([0-9]*\) positions evaluated.*/\1/p' "$tmp/e3.out")" 0
check "E: ... no put" "$(stat_of "$tmp/two" result_puts)" "$puts_ref"
# Killed in the second job, then resumed: the journal's tasks keep their mask.
timeout 300 "${add[@]}" "$tmp/mask" --engines area > "$tmp/e4.out" 2>&1
area_evals=$(stat_of "$tmp/mask" evals)
# until some noop evals are committed
kill_after "$tmp/mask" evals "${area_evals:-0}" "${add[@]}" "$tmp/mask" \
    --engines "area,noop:delay_us=1000" > "$tmp/e5.out" 2>&1
puts_killed=$(stat_of "$tmp/mask" result_puts)
echo "killed with $puts_killed of $puts_ref puts"
if [ "${puts_killed:-0}" -le "$total" ] || [ "$puts_killed" -ge "${puts_ref:-0}" ]; then
    echo "FAIL: E: the kill did not land mid-run"; fail=1
fi
timeout 300 "${add[@]}" "$tmp/mask" --engines "area,noop:delay_us=1000" > "$tmp/e6.out" 2>&1
check "E: resumed: exit status" "$?" 0
grep -q "resuming job 2 " "$tmp/e6.out"; check "E: resumed job 2" "$?" 0
check "E: resumed: puts as one job of both engines (only noop ran)" \
      "$(stat_of "$tmp/mask" result_puts)" "$puts_ref"
"$BIN" query --db "$tmp/mask" --format csv | sort > "$tmp/mask.csv"
cmp -s "$tmp/ref.csv" "$tmp/mask.csv"; check "E: resumed: query --format csv equal" "$?" 0

# ---- F. positions the store has evals of are not evaluated again: a game
# sharing its first six moves with a stored one (seven positions: the empty
# board and six after it) has only its other positions evaluated, and every
# position of it still has its row, the shared ones the stored game's values.
mkdir -p "$tmp/f1" "$tmp/f2"
head='(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese];B[cc];W[gg];B[cg];W[gc];B[ee];W[ec]'
echo "$head;B[dc];W[fd];B[ed];W[fe])" > "$tmp/f1/one.sgf"
echo "$head;B[eg];W[fg];B[dg];W[ge];B[fh])" > "$tmp/f2/two.sgf"
timeout 120 "$BIN" analyze "$tmp/f1" --engines area,influence --quiet --db "$tmp/f" > "$tmp/f1.out" 2>&1
check "F: first game: exit status" "$?" 0
evals1=$(stat_of "$tmp/f" evals)
timeout 120 "$BIN" analyze "$tmp/f2" --engines area,influence --quiet --db "$tmp/f" > "$tmp/f2.out" 2>&1
check "F: second game: exit status" "$?" 0
check "F: ... its 12 positions in the job" \
      "$(sed -n 's/^  positions *\([0-9]*\) in the job.*/\1/p' "$tmp/f2.out")" 12
check "F: ... 5 evaluated, the 7 shared ones reused" \
      "$(sed -n 's/^  this run *\([0-9]*\) positions evaluated.*/\1/p' "$tmp/f2.out")" 5
check "F: ... 5 new evals of each engine" "$(( $(stat_of "$tmp/f" evals) - evals1 ))" 10
check "F: ... 14 of its 24 results are repeats" "$(stat_of "$tmp/f" result_dups)" 14
rows() {   # rows SGF: move, engine, lead and win rate of the game's rows
    "$BIN" query --db "$tmp/f" --path "$1" --format csv | tail -n +2 | cut -d, -f2-5
}
check "F: ... a row for each position and engine" "$(rows "$tmp/f2/two.sgf" | wc -l)" 24
check "F: ... the shared positions' rows are the first game's" \
      "$(rows "$tmp/f2/two.sgf" | awk -F, '$1 <= 6' | sort)" \
      "$(rows "$tmp/f1/one.sgf" | awk -F, '$1 <= 6' | sort)"
"$BIN" check --db "$tmp/f" > "$tmp/f3.out" 2>&1; check "F: check of the store" "$?" 0

# ---- G. every game failed: exit 3, and why on stderr; one good game: 0.
mkdir -p "$tmp/g1" "$tmp/g2"
printf '(;GM[1]FF[4]SZ[9];B[ee];W[ee])\n' > "$tmp/g1/occupied.sgf"   # W plays on a stone
printf 'not an sgf' > "$tmp/g1/garbage.sgf"
tar czf "$tmp/broken.tar.gz" -C "$tmp/g1" occupied.sgf garbage.sgf
cp "$tmp/g1/occupied.sgf" "$tmp/g1/garbage.sgf" "$tmp/g2/"
printf '(;GM[1]FF[4]SZ[9]KM[7];B[ee];W[cc];B[gg])\n' > "$tmp/g2/good.sgf"
timeout 120 "$BIN" analyze "$tmp/g1" --engines area --quiet --db "$tmp/g1db" \
    > "$tmp/g1.out" 2> "$tmp/g1.err"
check "G: a folder of broken games only: exit status 3" "$?" 3
has "G: ... says nothing was analysed, and where to read why" "$tmp/g1.err" \
    "hyeongse analyze: nothing analysed: all 2 games failed (\`hyeongse query --db $tmp/g1db failed\` says why, in the rows of job 1)"
has "G: ... the summary still says done" "$tmp/g1.out" "analyze: job 1 done"
timeout 120 "$BIN" analyze "$tmp/broken.tar.gz" --engines area --quiet --db "$tmp/g3db" \
    > "$tmp/g3.out" 2> "$tmp/g3.err"
check "G: a .tar.gz of broken games only: exit status 3" "$?" 3
has "G: ... says nothing was analysed" "$tmp/g3.err" "nothing analysed: all 2 games failed"
timeout 120 "$BIN" analyze "$tmp/g2" --engines area --quiet --db "$tmp/g2db" \
    > "$tmp/g2.out" 2> "$tmp/g2.err"
check "G: broken games beside a good one: exit status 0" "$?" 0
hasnt "G: ... no such line" "$tmp/g2.err" "nothing analysed"

if [ "$fail" -ne 0 ]; then
    for f in a1 a2 b c1 c2 c3 c4 c5 e1 e2 e3 e4 e5 e6 f1 f2 f3 g1 g2 g3; do echo "--- $f.out"; tail -n 12 "$tmp/$f.out"; done
fi
exit "$fail"
