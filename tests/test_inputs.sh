#!/usr/bin/env bash
# tests/test_inputs.sh — bad input and bad arguments (issue 11), through the
# `hyeongse` program as a user meets them:
#   - `query --json` output is JSON even when a stored source path (a file name)
#     holds bytes that are not UTF-8;
#   - arguments that must be refused with a clear message and exit status 2;
#   - tar symlink / hardlink members and folder symlinks are reported, not
#     silently dropped or followed;
#   - a folder without game records is a job of no games, with a note saying
#     what was read and skipped (most likely the wrong path);
#   - `analyze --threads` beyond the file descriptors: exit 1 and why; 1024 runs;
#   - the games of a collection file count from 1 in every report of one;
#   - a recorded result that the recorded komi cannot give is counted and named.
# Engine "area" (fast, deterministic), one thread.
set -u
BIN=${HS_BIN:?HS_BIN must name the hyeongse binary}
tmp=$(mktemp -d /tmp/hs-test-inputs-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
# check
. "$(dirname "$0")/lib.sh"

game() { # game FILE PB MOVE: a tiny 9x9 game, 3 moves (MOVE makes it distinct)
    printf '(;GM[1]FF[4]SZ[9]KM[7]PB[%s]PW[bob]RE[B+R];B[ee];W[cc];B[%s])\n' "$2" "$3" > "$1"
}

# ---- query --json with a non-UTF-8 file name ----
mkdir -p "$tmp/games"
game "$tmp/games/$(printf 'caf\xe9-\xff.sgf')" latin gc
game "$tmp/games/plain.sgf" plain gd
"$BIN" analyze "$tmp/games" --db "$tmp/db" --threads 1 --engines area --quiet > "$tmp/analyze.out" 2>&1
check "analyze a folder with a Latin-1 file name" "$?" 0
"$BIN" query --db "$tmp/db" --json > "$tmp/q.jsonl"
check "query --json exit status" "$?" 0
# JSON is UTF-8: decode strictly (json.tool alone would take the raw bytes
# through Python's surrogateescape), then parse each line.
bad=0
while IFS= read -r line; do
    printf '%s\n' "$line" | python3 -c 'import sys; sys.stdin.buffer.read().decode("utf-8")' \
        2> /dev/null || bad=$((bad + 1))
    printf '%s\n' "$line" | python3 -m json.tool > /dev/null 2>&1 || bad=$((bad + 1))
done < "$tmp/q.jsonl"
check "query --json: every line is UTF-8 and parses as JSON" "$bad" 0
# The submitter sends a file name's invalid bytes as \xNN (two names never
# merge into one); JSON then escapes that backslash.
check "query --json: the bad bytes are \\xNN escapes" \
      "$(grep -c 'caf\\\\xE9-\\\\xFF.sgf' "$tmp/q.jsonl")" 4
"$BIN" query --db "$tmp/db" failed --json > /dev/null
check "query failed --json exit status" "$?" 0

# ---- arguments refused with a clear message and exit status 2 ----
# refused WHAT MESSAGE-PART COMMAND...: exit status 2 and the message on stderr.
refused() {
    local what=$1 want=$2; shift 2
    "$@" > "$tmp/r.out" 2> "$tmp/r.err"
    check "$what: exit status" "$?" 2
    check "$what: says why" "$(grep -c -- "$want" "$tmp/r.err")" 1
}
for v in abc 1e20 -5 0 99999999999999999999 ''; do
    refused "query --limit '$v'" "--limit needs a whole number" \
            "$BIN" query --db "$tmp/db" --limit "$v"
done
refused "query --move abc" "--move needs a whole number 0..65535, not 'abc'" \
        "$BIN" query --db "$tmp/db" --move abc
refused "query --swing inf" "--swing needs a positive number, not 'inf'" \
        "$BIN" query --db "$tmp/db" --swing inf
# Every numeric option of the cluster commands is read strictly (cli/args.h).
refused "worker --threads 0" "--threads needs a whole number 1..1024, not '0'" \
        "$BIN" worker --connect tcp://127.0.0.1:9 --threads 0
refused "worker --credit abc" "--credit needs a whole number" \
        "$BIN" worker --connect tcp://127.0.0.1:9 --credit abc
refused "broker --lease-ms 1e3" "--lease-ms needs a whole number" \
        "$BIN" broker --db "$tmp/never" --lease-ms 1e3
refused "broker --map-size -1" "--map-size needs a whole number" \
        "$BIN" broker --db "$tmp/never" --map-size -1
refused "submit --threads -3" "--threads needs a whole number 1..1024, not '-3'" \
        "$BIN" submit "$tmp/games" --broker tcp://127.0.0.1:9 --threads -3
refused "status --limit 0" "--limit needs a whole number 1..4096" \
        "$BIN" status --broker tcp://127.0.0.1:9 --limit 0
# ... and of the local commands: no silent clamping, no "-1" read as a huge
# seed, no NaN or infinite komi.
refused "solve --max-nodes -5" "--max-nodes needs a whole number >= 0, not '-5'" \
        "$BIN" solve --max-nodes -5
refused "solve --tt-bits 99" "--tt-bits needs a whole number 10..26, not '99'" \
        "$BIN" solve --tt-bits 99
refused "solve --max-depth -1" "--max-depth needs a whole number 1..250, not '-1'" \
        "$BIN" solve --max-depth -1
refused "solve --time-limit nan" "--time-limit needs a number 0..1000000000, not 'nan'" \
        "$BIN" solve --time-limit nan
refused "solve --size 6" "--size needs a whole number 2..5, not '6'" "$BIN" solve --size 6
refused "playout --seed -1" "--seed needs a whole number >= 0, not '-1'" \
        "$BIN" playout --out "$tmp/po" --seed -1
refused "playout --komi inf" "--komi needs a number -1000..1000, not 'inf'" \
        "$BIN" playout --out "$tmp/po" --komi inf
refused "selfplay --seed 1e3" "--seed needs a whole number >= 0, not '1e3'" \
        "$BIN" selfplay --size 9 --visits 1 --games 1 --out "$tmp/sp" --seed 1e3
refused "selfplay --komi 2000" "--komi needs a number -1000..1000, not '2000'" \
        "$BIN" selfplay --size 9 --visits 1 --games 1 --out "$tmp/sp" --komi 2000
refused "label --seed x" "--seed needs a whole number >= 0, not 'x'" \
        "$BIN" label "$tmp/games" --out "$tmp/lab" --seed x
refused "inspect --game 99999999999999999999" \
        "--game needs a whole number >= 1, not '99999999999999999999'" \
        "$BIN" inspect "$tmp/games/plain.sgf" --game 99999999999999999999
refused "inspect --move 1e3" "--move needs a whole number >= 0, not '1e3'" \
        "$BIN" inspect "$tmp/games/plain.sgf" --move 1e3
refused "ingest --threads 5000" "--threads needs a whole number 1..1024, not '5000'" \
        "$BIN" ingest "$tmp/games" --dry-run --threads 5000
refused "gtp --time -1" "--time needs a number 0..1000000, not '-1'" "$BIN" gtp --time -1
refused "analyze --net twice (the second replaced the first unseen)" "--net given twice" \
        "$BIN" analyze "$tmp/games" --db "$tmp/db-nets" --net a.bin.gz --net b.bin.gz
refused "label of a path that is not there" "$tmp/nothere: No such file or directory" \
        "$BIN" label "$tmp/nothere" --out "$tmp/lab"
refused "ingest of a path that is not there" "$tmp/nothere: No such file or directory" \
        "$BIN" ingest "$tmp/games" "$tmp/nothere" --dry-run
[ ! -e "$tmp/po" ] && [ ! -e "$tmp/sp" ] && [ ! -e "$tmp/lab" ]
check "refused local commands write nothing" "$?" 0
[ ! -e "$tmp/never" ]; check "a refused broker makes no store" "$?" 0
check "query --limit 2: two rows" "$("$BIN" query --db "$tmp/db" --limit 2 --json | wc -l)" 2
# --engine is read as every option is: the last one counts, and it is canonical.
check "query --engine noop --engine area@1 = --engine area" \
      "$("$BIN" query --db "$tmp/db" --engine noop --engine area@1 --json | md5sum)" \
      "$("$BIN" query --db "$tmp/db" --engine area --json | md5sum)"
check "query --engine area@1: rows" \
      "$("$BIN" query --db "$tmp/db" --engine noop --engine area@1 --json | grep -c '"engine":"area"')" 8
refused "query --engine influence:tau=abc" "option tau needs a whole number" \
        "$BIN" query --db "$tmp/db" --engine influence:tau=abc
refused "query --engine judge:tau=1" "judge has no option 'tau'" \
        "$BIN" query --db "$tmp/db" --engine judge:tau=1
refused "query --engine area,noop" "too many engines" \
        "$BIN" query --db "$tmp/db" --engine area,noop
# Engine options: unknown keys, bad values, out of range, bad syntax.
for spec in judge:tau=abc judge:tau=1 influence:tau=abc influence:tau=-1 influence:tau=99999 \
            influence:final_mc=1 judge:final_mc=2 judge:reader=yes noop:delay_us=5x \
            noop:delay=5 judge: judge:tau judge:=1 'judge:TAU=1' area:x=1; do
    refused "analyze --engines $spec" "$spec" \
            "$BIN" analyze "$tmp/games" --db "$tmp/db-bad" --threads 1 --engines "$spec" --quiet
    refused "submit --engines $spec" "$spec" \
            "$BIN" submit "$tmp/games" --broker tcp://127.0.0.1:1 --engines "$spec"
done
check "no store made by a refused analyze" "$(ls "$tmp/db-bad" 2>/dev/null | wc -l)" 0
"$BIN" analyze "$tmp/games" --db "$tmp/db-opt" --threads 1 --quiet \
       --engines influence:tau=120,judge:final_mc=0,noop:delay_us=1 > "$tmp/opt.out" 2>&1
check "analyze with good options in range" "$?" 0

# ---- links: tar link members, folder symlinks leading outside ----
mkdir -p "$tmp/t/g" "$tmp/outside/deep"
game "$tmp/t/g/real.sgf" real ge
ln -s real.sgf "$tmp/t/g/sym.sgf"
ln "$tmp/t/g/real.sgf" "$tmp/t/g/hard.sgf"
(cd "$tmp/t" && tar cf "$tmp/links.tar" g/real.sgf g/hard.sgf g/sym.sgf)
"$BIN" ingest "$tmp/links.tar" --dry-run --json > "$tmp/links.json" 2> "$tmp/links.err"
check "ingest a tar with link members" "$?" 0
py() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print($2)" "$1"; }
check "tar: one game read" "$(py "$tmp/links.json" 'r["games"]')" 1
check "tar: two link failures" "$(py "$tmp/links.json" 'r["failure_reasons"]["link"]')" 2
check "tar: the symlink member, with its reason" \
      "$(grep -c 'links.tar:g/sym.sgf.*symlink member not followed' "$tmp/links.json")" 1
check "tar: the hardlink member, with its reason" \
      "$(grep -c "links.tar:g/hard.sgf.*hardlink member: the same file as member 'g/real.sgf'" \
         "$tmp/links.json")" 1

game "$tmp/outside/o.sgf" outside gf
game "$tmp/outside/deep/d.sgf" deep gg
mkdir -p "$tmp/walk/in"
game "$tmp/walk/in/w.sgf" walk gh
ln -s "$tmp/outside" "$tmp/walk/outdir"                 # a folder outside: not followed
ln -s "$tmp/outside/o.sgf" "$tmp/walk/out.sgf"          # a file outside: not followed
ln -s in/w.sgf "$tmp/walk/inner.sgf"                    # a file inside: read
ln -s in "$tmp/walk/indir"                              # a folder inside: walked once
ln -s .. "$tmp/walk/in/up"                              # a loop
"$BIN" ingest "$tmp/walk" --dry-run --json > "$tmp/walk.json" 2> "$tmp/walk.err"
check "ingest a folder with symlinks" "$?" 0
check "folder: only the game inside (w.sgf twice = 1 duplicate)" \
      "$(py "$tmp/walk.json" '(r["games"], r["duplicates"])')" "(1, 1)"
check "folder: the two links outside reported" \
      "$(py "$tmp/walk.json" 'r["failure_reasons"]["link"]')" 2
check "folder: the folder link says why" \
      "$(grep -c 'walk/outdir.*symbolic link to a folder outside the folder, not followed' "$tmp/walk.json")" 1
"$BIN" ingest "$tmp/walk" --dry-run --json --follow-symlinks > "$tmp/walkf.json" 2> "$tmp/walkf.err"
check "ingest --follow-symlinks" "$?" 0
check "--follow-symlinks: the games outside are read too" \
      "$(py "$tmp/walkf.json" 'r["games"]')" 3
# in/up and indir/up both lead back to walk/, which is being walked.
check "--follow-symlinks: the loop reported, not walked again" \
      "$(grep -c 'symbolic link loop' "$tmp/walkf.json")" 2
"$BIN" analyze "$tmp/walk" --db "$tmp/db-walk" --threads 1 --engines area --quiet > /dev/null 2>&1
check "analyze: links outside are failures of the job" \
      "$("$BIN" query --db "$tmp/db-walk" failed --json | grep -c 'link: symbolic link to a')" 2
"$BIN" analyze "$tmp/walk" --db "$tmp/db-walkf" --threads 1 --engines area --quiet \
       --follow-symlinks > /dev/null 2>&1
check "analyze --follow-symlinks: 3 games" \
      "$("$BIN" query --db "$tmp/db-walkf" stats --json | grep -o '"games":[0-9]*')" '"games":3'

# ---- a folder without game records: a job of no games, and a note why ----
mkdir -p "$tmp/nogames"
echo "not a game" > "$tmp/nogames/notes.txt"
"$BIN" analyze "$tmp/nogames" --db "$tmp/db-none" --threads 1 --engines area --quiet \
    > /dev/null 2> "$tmp/none.err"
check "analyze of a folder without games: exit status" "$?" 0
check "analyze of a folder without games: says so, and what was skipped" \
      "$(grep -c 'no game records in .*nogames (0 file(s) read, 1 other file(s) skipped)' \
         "$tmp/none.err")" 1
"$BIN" analyze "$tmp/games" --db "$tmp/db-some" --threads 1 --engines area --quiet \
    > /dev/null 2> "$tmp/some.err"
check "analyze of a folder with games: no such note" "$(grep -c 'no game records' "$tmp/some.err")" 0

# ---- more --threads than the process may open sockets for ----
# Each engine thread holds a socket (a file descriptor): with too few, analyze
# stops with the reason (it waited for good for a worker that had gone), and
# the largest --threads its help allows, 1024, runs (ZeroMQ's default cap of
# 1023 sockets made it hang).
(ulimit -n 256; timeout 60 "$BIN" analyze "$tmp/games" --db "$tmp/db-fds" --threads 300 \
    --engines area --quiet > /dev/null 2> "$tmp/fds.err")
check "analyze --threads 300 with 256 descriptors: exit status" "$?" 1
check "analyze --threads 300 with 256 descriptors: says why" \
      "$(grep -c 'engine thread could not start.*ulimit -n' "$tmp/fds.err")" 1
timeout 60 "$BIN" analyze "$tmp/games" --db "$tmp/db-1024" --threads 1024 --engines area \
    --quiet > /dev/null 2> "$tmp/t1024.err"
check "analyze --threads 1024: exit status" "$?" 0

# ---- the games of a file count from 1, wherever a user meets them ----
# The SGF reader's reasons said "game 2" of the second game while ingest's
# list, its JSON and the stored source said 1 (and judge's --game took 1).
mkdir -p "$tmp/coll"
printf '(;GM[1]FF[4]SZ[9]KM[7];B[ee];W[cc])\n(;GM[1]FF[4]SZ[9]KM[7];B[ee]\n(;GM[1]FF[4]SZ[9]KM[7];B[dd])\n' \
    > "$tmp/coll/three.sgf"
"$BIN" ingest "$tmp/coll" --dry-run > "$tmp/coll.out" 2>&1
check "ingest: the broken second game is game 2, in the list and the reason" \
      "$(grep -o 'three.sgf game 2: truncated: game 2, line 3' "$tmp/coll.out" | wc -l)" 1
"$BIN" ingest "$tmp/coll" --dry-run --json > "$tmp/coll.json" 2>&1
check "ingest --json: \"game\": 2" "$(grep -c '"game": 2, "reason": "truncated"' "$tmp/coll.json")" 1
"$BIN" analyze "$tmp/coll" --db "$tmp/db-coll" --engines area --quiet > /dev/null 2>&1
"$BIN" query --db "$tmp/db-coll" failed > "$tmp/coll.failed" 2>&1
check "the stored failure is three.sgf#2" "$(grep -c 'three.sgf#2$' "$tmp/coll.failed")" 1

# ---- a recorded result that the recorded komi cannot give ----
# Fox writes KM[0] for games whose komi it does not record: W+5.5 under komi
# 0 cannot be a count. ingest counts such games, inspect says so; a whole
# margin under a whole komi and a resignation say nothing of the komi.
mkdir -p "$tmp/komi"
printf '(;GM[1]FF[4]SZ[9]KM[0]RE[W+5.5];B[ee];W[cc])\n' > "$tmp/komi/fox.sgf"
printf '(;GM[1]FF[4]SZ[9]KM[0]RE[W+5];B[ee];W[dc])\n' > "$tmp/komi/whole.sgf"
printf '(;GM[1]FF[4]SZ[9]KM[0]RE[W+R];B[ee];W[ec])\n' > "$tmp/komi/resign.sgf"
"$BIN" ingest "$tmp/komi" --dry-run > "$tmp/komi.out" 2>&1
check "ingest: one game whose komi cannot give its result" \
      "$(grep -c '^komi unknown  *1 ' "$tmp/komi.out")" 1
"$BIN" ingest "$tmp/komi" --dry-run --json > "$tmp/komi.json" 2>&1
check "ingest --json: komi_contradicted" "$(grep -c '"komi_contradicted": 1' "$tmp/komi.json")" 1
check "inspect says the komi cannot give the result" \
      "$("$BIN" inspect "$tmp/komi/fox.sgf" | grep -c 'recorded komi cannot give it')" 1
check "inspect: a whole margin under a whole komi is fine" \
      "$("$BIN" inspect "$tmp/komi/whole.sgf" | grep -c 'cannot give')" 0

exit $fail
