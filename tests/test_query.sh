#!/usr/bin/env bash
# tests/test_query.sh — `hyeongse query --position FILE.sgf --move N`: analyzes a tiny
# archive with `hyeongse analyze`, then looks positions up from the SGF files:
#   - every position of every game is found, with exactly the eval the game query
#     (`query --path`) shows for that move (the key is computed as the worker does,
#     setup stones and captures included);
#   - a position two games share lists both games, one game's own position only it;
#   - the same moves with another komi (not analyzed) have no eval (exit status 3):
#     komi is part of the key; a move past the end is an error (exit status 1);
#   - --no-games lists no games;
#   - an --engine the store holds no evals of (a typo, a revision never
#     analysed) is "not found", exit status 3, quoted as typed with the stored
#     engines listed; rows carry the record's komi, RE and komi_fits; JSON
#     keeps the stored floats whole; CSV rows are as wide as their header;
#     stats honours --format csv; --ownership is JSON only (field by field:
#     test_query_format.c);
#   - through a broker (`query --broker ADDR`): stats, a game by id, by player,
#     every game, failed, in every format, print byte for byte what `query --db`
#     prints; bad queries fail with a clear message and a non-zero exit status.
# Engine "area" (fast, deterministic), one thread.
set -u
BIN=${HS_BIN:?HS_BIN must name the hyeongse binary}
tmp=$(mktemp -d /tmp/hs-test-query-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
# check, free_port
. "$(dirname "$0")/lib.sh"

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

# Engine revisions (worker/engine.h): "area@1" is "area"; a revision this build
# does not compute is refused by analyze, with the reason.
check "query --engine area@1 = --engine area" \
      "$("$BIN" query --db "$tmp/db" --path "$tmp/games/a.sgf" --engine area@1 --json | md5sum)" \
      "$("$BIN" query --db "$tmp/db" --path "$tmp/games/a.sgf" --engine area --json | md5sum)"
check "query --engine area: 8 rows" \
      "$("$BIN" query --db "$tmp/db" --path "$tmp/games/a.sgf" --engine area --json | grep -c '"engine":"area"')" 8
# The same path with "./" parts and a doubled slash, as a shell types it.
check "--path with ./ and // finds the stored source" \
      "$("$BIN" query --db "$tmp/db" --path "$tmp/./games//a.sgf" --engine area --json | grep -c '"engine":"area"')" 8
check "--path of no stored source: says how sources are stored" \
      "$("$BIN" query --db "$tmp/db" --path "$tmp/games/zz.sgf" 2>&1 >/dev/null | grep -c 'stored as analyze was given it')" 1
check "stats: the engine specs stored" \
      "$("$BIN" query --db "$tmp/db" stats --json | grep -o '"engines":\[[^]]*\]')" '"engines":["area"]'
# A revision the store does not hold is no engine of it: "not found" (exit 3,
# as an unknown game id), never another revision's rows or an empty success.
"$BIN" query --db "$tmp/db" --path "$tmp/games/a.sgf" --engine area@2 --json > "$tmp/rev.json" 2> "$tmp/rev.err"
check "query --engine area@2 (not stored): exit status" "$?" 3
check "query --engine area@2: no rows" "$(grep -c '"engine"' "$tmp/rev.json")" 0
check "query --engine area@2: names it as typed, and the stored engines" \
      "$(grep -c "^hyeongse query: --engine 'area@2': the store holds no evals of that engine; its engines: area " "$tmp/rev.err")" 1
"$BIN" analyze "$tmp/games" --db "$tmp/db-rev" --engines area@2 --quiet > "$tmp/rev.out" 2>&1
check "analyze --engines area@2: usage error" "$?" 2
check "analyze --engines area@2: says why" \
      "$(grep -c 'this build computes area revision 1, not 2' "$tmp/rev.out")" 1

# `players [PREFIX]`: every name once with its games, in byte order; a name
# that matches no game points to the names that begin with it.
check "players: every name once, with its games" \
      "$("$BIN" query --db "$tmp/db" players 2>/dev/null | tail -n +2 | tr -s ' ' | tr '\n' '|')" \
      " 1 alice| 1 bob| 1 carol| 1 dave| 1 erin| 1 frank|"
check "players PREFIX --format csv" "$("$BIN" query --db "$tmp/db" players da --format csv)" \
      "$(printf 'player,games\ndave,1')"
# CSV keeps its header over no row too: a CSV reader wants its columns.
check "players with no match --format csv: the header alone" \
      "$("$BIN" query --db "$tmp/db" players zzz --format csv)" "player,games"
check "failed with no failed game --format csv: the header alone" \
      "$("$BIN" query --db "$tmp/db" failed --format csv)" "source,reason,job"
check "players --json --limit 2" "$("$BIN" query --db "$tmp/db" players --json --limit 2 | tr '\n' '|')" \
      '{"player":"alice","games":1}|{"player":"bob","games":1}|'
"$BIN" query --db "$tmp/db" --player al > /dev/null 2> "$tmp/al.err"
check "--player al (no game): exit status" "$?" 0
check "--player al: the names that begin with it" \
      "$(grep -c "no stored game of a player named exactly 'al'; names that begin with it: alice (1 game)" "$tmp/al.err")" 1
"$BIN" query --db "$tmp/db" players --player alice > /dev/null 2>&1
check "players with --player: refused" "$?" 2

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
# A table's numbers line up under their headers whatever their width or sign.
aligned() {   # aligned: of stdin's table, the rows whose score does not end under "score"
    awk 'NR == 1 { c = index($0, "score") + 4; next }
         substr($0, c, 1) !~ /[0-9-]/ || (substr($0, c + 1, 1) != " ") { bad++ }
         END { print bad + 0 }'
}
check "game table: scores under the header" \
      "$("$BIN" query --db "$tmp/db" 2>/dev/null | aligned)" 0
check "position table: scores under the header" \
      "$("$BIN" query --db "$tmp/db" --position "$tmp/games/a.sgf" --move 5 2>/dev/null | sed -n '2,/^reached/p' | grep -v '^reached' | aligned)" 0
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
check "--help explains --broker" "$("$BIN" query --help | grep -c -- '--broker ADDR')" 2
"$BIN" query --db "$tmp/db" --broker tcp://127.0.0.1:1 stats > /dev/null 2>&1
check "--db with --broker: exit status" "$?" 2
"$BIN" query stats > /dev/null 2>&1
check "neither --db nor --broker: exit status" "$?" 2
# One selection at a time: a second one was silently ignored.
aid=$("$BIN" query --db "$tmp/db" --path "$tmp/games/a.sgf" --json --limit 1 | grep -o '"game":"[0-9a-f]*"' | cut -d'"' -f4)
for args in "game $aid --player nobody" "game $aid --path $tmp/games/b.sgf" "stats failed" \
            "stats --player alice" "failed game $aid" "stats --limit 1"; do
    # shellcheck disable=SC2086
    "$BIN" query --db "$tmp/db" $args > /dev/null 2> "$tmp/err"
    check "query $args: refused (exit status)" "$?" 2
    check "query $args: says why" "$(grep -c 'choose one of\|queries: ask for one\|about the whole store' "$tmp/err")" 1
done
# The table prints whole ids (report --game and query take them back) and specs.
check "table: the whole game id" \
      "$("$BIN" query --db "$tmp/db" --path "$tmp/games/a.sgf" --limit 1 2>/dev/null | sed -n 2p | cut -d' ' -f1)" "$aid"
# A player's name with a newline stays on its row in the table.
printf '(;GM[1]FF[4]SZ[9]KM[7]PB[two\nlines]PW[bob];B[ee];W[dd])\n' > "$tmp/other/nl.sgf"
"$BIN" analyze "$tmp/other/nl.sgf" --db "$tmp/db-nl" --threads 1 --engines area --quiet > /dev/null 2>&1
check "table: a newline in a name does not split the row (3 positions, 1 header)" \
      "$("$BIN" query --db "$tmp/db-nl" 2>/dev/null | wc -l)" 4
"$BIN" query --db "$tmp/db" --engine judge > "$tmp/out" 2> "$tmp/err"
check "--engine the store does not hold: exit status 3 (not found)" "$?" 3
check "--engine the store does not hold: says so, with the engines it holds" \
      "$(grep -c "^hyeongse query: --engine 'judge': the store holds no evals of that engine; its engines: area " "$tmp/err")" 1
check "--engine the store does not hold: no table" "$(wc -c < "$tmp/out")" 0
# A name this build does not know (a typo) is looked up as typed, and refused alike.
"$BIN" query --db "$tmp/db" --engine jugde --json > /dev/null 2> "$tmp/err"
check "--engine jugde: exit status" "$?" 3
check "--engine jugde: quoted as typed" "$(grep -c "'jugde'.*its engines: area" "$tmp/err")" 1
"$BIN" query --db "$tmp/db" --position "$tmp/games/a.sgf" --move 5 --engine jugde > /dev/null 2> "$tmp/err"
check "--position --engine jugde: exit status" "$?" 3
check "--position --engine jugde: says why" "$(grep -c "'jugde': the store holds no evals" "$tmp/err")" 1

# ---- the rows' fields (docs/QUERY.md, "Rows"; field by field in test_query_format.c)
# The record's komi, RE as written and whether they agree, on every row.
check "game rows: komi, RE and komi_fits (c.sgf: KM[0.5] RE[B+R])" \
      "$("$BIN" query --db "$tmp/db" --path "$tmp/games/c.sgf" --move 0 --json | grep -o '"komi":[^,]*,"re":[^,]*,"komi_fits":[a-z]*')" \
      '"komi":0.5,"re":"B+R","komi_fits":true'
mkdir -p "$tmp/fox"
printf '(;GM[1]FF[4]SZ[9]KM[0]PB[x]PW[y]RE[W+5.5];B[ee];W[cc])\n' > "$tmp/fox/km0.sgf"
"$BIN" analyze "$tmp/fox" --db "$tmp/db-fox" --threads 1 --engines area --quiet > /dev/null 2>&1
check "KM[0] with RE[W+5.5]: komi_fits false (json)" \
      "$("$BIN" query --db "$tmp/db-fox" --json --move 0 | grep -o '"komi":[^,]*,"re":[^,]*,"komi_fits":[a-z]*')" \
      '"komi":0.0,"re":"W+5.5","komi_fits":false'
check "KM[0] with RE[W+5.5]: komi_fits false (csv)" \
      "$("$BIN" query --db "$tmp/db-fox" --format csv --move 0 | sed -n 2p | grep -c ',y,[^,]*km0.sgf,0.0,W+5.5,false,')" 1
check "position game lines: komi, RE and komi_fits" \
      "$("$BIN" query --db "$tmp/db-fox" --position "$tmp/fox/km0.sgf" --move 1 --json | grep -c '^{"kind":"game",.*"komi":0.0,"re":"W+5.5","komi_fits":false}$')" 1
# Every CSV row has its header's columns (the position's game rows had fewer).
check "position csv: every row as wide as the header" \
      "$("$BIN" query --db "$tmp/db" --position "$tmp/games/a.sgf" --move 5 --format csv | awk -F, 'NR == 1 { n = NF; next } NF != n { bad++ } END { print bad + 0 }')" 0
# The floats as stored, not rounded to 2 or 4 decimals: the search's leads
# over 8 visits are eighths (0.625 was written 0.62), and each swing is the
# difference of the two leads as printed (a researcher recomputes them).
mkdir -p "$tmp/one"
cp "$tmp/games/a.sgf" "$tmp/one/"
"$BIN" analyze "$tmp/one" --db "$tmp/db-mcts" --threads 1 --engines mcts:visits=8 --quiet > /dev/null 2>&1
"$BIN" query --db "$tmp/db-mcts" --json > "$tmp/mcts.json"
check "json: a lead in eighths keeps its third decimal" \
      "$(grep -c '"score_lead":-*[0-9]*\.[0-9][0-9]5,' "$tmp/mcts.json" | awk '{ print ($1 > 0) }')" 1
check "json: every swing is the difference of the leads as printed" \
      "$(sed 's/.*"score_lead":\([^,]*\),"win_rate":[^,]*,"swing":\([^,]*\),.*/\1 \2/' "$tmp/mcts.json" |
         awk 'NR > 1 && $2 + 0 != $1 - prev { bad++ } { prev = $1 } END { print NR ":" bad + 0 }')" "8:0"
# stats honours --format; --ownership is JSON only.
check "stats --format csv: a header and one row" \
      "$("$BIN" query --db "$tmp/db" stats --format csv | sed -n 1p | cut -d, -f1-3)" "games,failed_games,positions"
check "stats --format csv: the engines column" \
      "$("$BIN" query --db "$tmp/db" stats --format csv | sed -n 2p | awk -F, '{ print NF ":" $NF }')" "19:area"
"$BIN" query --db "$tmp/db" --ownership --format csv > /dev/null 2> "$tmp/err"
check "--ownership --format csv: refused" "$?" 2
check "--ownership --format csv: says it is JSON only" "$(grep -c 'ownership is JSON only' "$tmp/err")" 1

# `query failed` lists what analyze could not read, with the reason (analyze's
# summary points users to it).
mkdir -p "$tmp/broken"
printf '(;GM[1]FF[4]SZ[9];B[ee];W[ee])\n' > "$tmp/broken/occupied.sgf"
# A legal game the wire cannot carry (5,000 passes, more than a TASK's 4,096 moves):
# failed with the reason, and the other games still complete.
{ printf '(;GM[1]FF[4]SZ[9]'; for i in $(seq 2500); do printf ';B[];W[]'; done; printf ')\n'; } \
    > "$tmp/broken/long.sgf"
cp "$tmp/games/a.sgf" "$tmp/broken/good.sgf"
# A komi the wire refuses fails that game alone; a name longer than the wire's
# strings is cut, and its game is analyzed.
printf '(;GM[1]FF[4]SZ[9]KM[5000.5];B[ee];W[cc])\n' > "$tmp/broken/komi.sgf"
{ printf '(;GM[1]FF[4]SZ[9]PB['; head -c 6000 /dev/zero | tr '\0' a; printf '];B[ff];W[cc])\n'; } \
    > "$tmp/broken/longname.sgf"
"$BIN" analyze "$tmp/broken" --db "$tmp/db2" --threads 1 --engines area --quiet > /dev/null 2>&1
check "analyze of a broken game: exit status" "$?" 0
check "query failed lists it with its reason" \
      "$("$BIN" query --db "$tmp/db2" failed --json 2>/dev/null | grep -c '"source":"[^"]*occupied.sgf[^"]*","reason":"[^"]*move 2')" 1
check "a game too long for the wire is failed with its reason" \
      "$("$BIN" query --db "$tmp/db2" failed --json 2>/dev/null | grep -c '"source":"[^"]*long.sgf[^"]*","reason":"[^"]*too many moves')" 1
check "a komi out of the wire's range is failed with its reason" \
      "$("$BIN" query --db "$tmp/db2" failed --json 2>/dev/null | grep -c '"source":"[^"]*komi.sgf[^"]*","reason":"[^"]*komi out of range')" 1
check "the good games next to them are stored (a: 8 positions, longname: 3)" \
      "$("$BIN" query --db "$tmp/db2" stats --json | grep -o '"positions":[0-9]*')" '"positions":11'
check "query failed --limit 1: one row" "$("$BIN" query --db "$tmp/db2" failed --json --limit 1 | wc -l)" 1
# A second job over the same folder records its own failures: still 3 broken games.
"$BIN" analyze "$tmp/broken" --db "$tmp/db2" --threads 1 --engines noop --quiet > /dev/null 2>&1
check "failed games of two jobs: stats counts each source once" \
      "$("$BIN" query --db "$tmp/db2" stats --json | grep -o '"failed_games":[0-9]*')" '"failed_games":3'
check "failed games of two jobs: listed for each job, and the note says so" \
      "$("$BIN" query --db "$tmp/db2" failed 2>&1 >/dev/null)" "6 rows: 3 failed games, each listed for every job that met it"

# ---- through a broker: `query --broker` prints exactly what `query --db` prints.
start_broker() {   # start_broker DB: sets addr and bpid once the broker serves
    start_broker_at 'tcp://127.0.0.1:*' "$1" "$tmp/broker.log" --verbose
}
same() {   # same DESCRIPTION DB ARGS...: stdout and exit status of --broker and --db agree
    local desc=$1 db=$2; shift 2
    "$BIN" query --db "$db" "$@" > "$tmp/local.out" 2> "$tmp/local.err"; local lrc=$?
    "$BIN" query --broker "$addr" "$@" > "$tmp/remote.out" 2> "$tmp/remote.err"; local rrc=$?
    if cmp -s "$tmp/local.out" "$tmp/remote.out" && [ "$lrc" = "$rrc" ] && [ -s "$tmp/local.out" ]; then
        echo "ok: --broker = --db: $desc ($(wc -l < "$tmp/local.out") lines, exit $lrc)"
    else
        echo "FAIL: --broker != --db: $desc (exit $rrc vs $lrc)"; diff "$tmp/local.out" "$tmp/remote.out" | head -5
        fail=1
    fi
}
trap 'kill "${bpid:-}" 2>/dev/null; rm -rf "$tmp"' EXIT
start_broker "$tmp/db" || exit 1
# The broker writes the store: a second writer is refused, and it never took the
# broker down (it used to, with SIGBUS); readers read meanwhile.
"$BIN" analyze "$tmp/games" --db "$tmp/db" --engines area --quiet > /dev/null 2> "$tmp/second.err"
check "a second writer: exit status" "$?" 1
check "a second writer: says why" "$(grep -c 'another process is writing this store' "$tmp/second.err")" 1
"$BIN" index --db "$tmp/db" > /dev/null 2> "$tmp/second.err"
check "index beside the broker: refused" "$?:$(grep -c 'one writer at a time' "$tmp/second.err")" "1:1"
kill -0 "$bpid"; check "the broker still runs" "$?" 0
gid=$("$BIN" query --db "$tmp/db" --path "$tmp/games/a.sgf" --json | head -1 | grep -o '"game":"[0-9a-f]*"' | cut -d'"' -f4)
check "game id of a.sgf found" "${#gid}" 32
same "stats --json" "$tmp/db" stats --json
same "stats (table)" "$tmp/db" stats
same "game ID (table)" "$tmp/db" game "$gid"
same "game ID --json --ownership" "$tmp/db" game "$gid" --json --ownership
same "--player alice --format csv" "$tmp/db" --player alice --format csv
same "players --json" "$tmp/db" players --json
same "every game --json" "$tmp/db" --json
same "--swing 1 --limit 3" "$tmp/db" --swing 1 --limit 3
"$BIN" query --broker "$addr" --player alice 2> "$tmp/remote.err" > /dev/null
check "table through the broker: the row count on stderr" "$(grep -c '^[0-9]* rows$' "$tmp/remote.err")" 1
# Bad queries over the broker: a clear error, a non-zero exit status.
# A malformed game id is a usage error, refused before anything is sent (the
# broker reads the same parser, store/query_args.c, and refuses it too).
"$BIN" query --broker "$addr" game 0123 > "$tmp/remote.out" 2> "$tmp/remote.err"
check "bad game id through the broker: exit status" "$?" 2
check "bad game id through the broker: says why" "$(grep -c '32 hex digits' "$tmp/remote.err")" 1
check "bad game id through the broker: no output" "$(wc -c < "$tmp/remote.out")" 0
"$BIN" query --broker "$addr" --path nothere.sgf > /dev/null 2> "$tmp/remote.err"
check "unknown source through the broker: exit status" "$?" 3
"$BIN" query --broker "$addr" --engine jugde > "$tmp/remote.out" 2> "$tmp/remote.err"
check "unknown engine through the broker: exit status" "$?" 3
check "unknown engine through the broker: says why, no output" \
      "$(grep -c "'jugde': the store holds no evals of that engine; its engines: area" "$tmp/remote.err"):$(wc -c < "$tmp/remote.out")" "1:0"
same "stats --format csv" "$tmp/db" stats --format csv
"$BIN" query --broker "$addr" --position "$tmp/games/a.sgf" --move 1 > /dev/null 2> "$tmp/remote.err"
check "--position through the broker: refused (exit status)" "$?" 2
"$BIN" query --broker "$addr" --frobnicate > /dev/null 2>&1
check "unknown argument with --broker: exit status" "$?" 2
kill "$bpid"; wait "$bpid"; check "broker stopped cleanly" "$?" 0
check "the broker logged the port it bound" "$(grep -c "serving on $addr," "$tmp/broker.log")" 1
check "--ready-file removed on a clean stop" "$([ -e "$ready_file" ] && echo left || echo removed)" removed
start_broker "$tmp/db2" || exit 1
same "failed --json" "$tmp/db2" failed --json
same "failed (table)" "$tmp/db2" failed
kill "$bpid"; wait "$bpid"; check "second broker stopped cleanly" "$?" 0
"$BIN" query --broker "$addr" --timeout 300 stats > /dev/null 2> "$tmp/remote.err"
check "no broker: exit status" "$?" 1
check "no broker: says so at the end" "$(grep -c 'no answer from the broker .* after 3 tries' "$tmp/remote.err")" 1
# ... and at the first retry, so that a wrong address does not look like a hang.
check "no broker: says it tries again" \
      "$(grep -c "no answer from the broker at $addr in 0.3 s; trying 2 more time" "$tmp/remote.err")" 1

# ---- a corrected file analysed again: its players and result replace the
# stored ones (the same game from another file keeps them).
mkdir -p "$tmp/fix"
printf '(;GM[1]FF[4]SZ[9]KM[7]PB[Student Ann]PW[Teacher]RE[W+R];B[ee];W[cc];B[gg])\n' > "$tmp/fix/a.sgf"
"$BIN" analyze "$tmp/fix" --db "$tmp/fixdb" --engines area --threads 1 --quiet > /dev/null 2>&1
printf '(;GM[1]FF[4]SZ[9]KM[7]PB[Ann Lee]PW[Teacher]RE[B+R];B[ee];W[cc];B[gg])\n' > "$tmp/fix/a.sgf"
"$BIN" analyze "$tmp/fix" --db "$tmp/fixdb" --engines area --threads 1 --quiet > "$tmp/fix.out" 2>&1
check "corrected file: analyze says the record was replaced" \
      "$(grep -c '^  records    1 game(s) stored before from the same file now read differently' "$tmp/fix.out")" 1
check "corrected file: the new name is the player" \
      "$("$BIN" query --db "$tmp/fixdb" players --format csv | sort | tr '\n' ';')" \
      "Ann Lee,1;Teacher,1;player,games;"
check "corrected file: the rows name the new player" \
      "$("$BIN" query --db "$tmp/fixdb" --json --limit 1 | grep -o '"black":"[^"]*"')" '"black":"Ann Lee"'
printf '(;GM[1]FF[4]SZ[9]KM[7]PB[Other]PW[Names];B[ee];W[cc];B[gg])\n' > "$tmp/other.sgf"
"$BIN" analyze "$tmp/other.sgf" --db "$tmp/fixdb" --engines area --threads 1 --quiet > /dev/null 2>&1
check "the same game from another file keeps the stored names" \
      "$("$BIN" query --db "$tmp/fixdb" players --format csv | sort | tr '\n' ';')" \
      "Ann Lee,1;Teacher,1;player,games;"
check "stats count the replaced record" \
      "$("$BIN" query --db "$tmp/fixdb" stats --json | grep -o '"games_refreshed":[0-9]*')" '"games_refreshed":1'
"$BIN" check --db "$tmp/fixdb" > /dev/null 2>&1; check "corrected file: check passes" "$?" 0

if [ "$fail" != 0 ]; then
    echo "--- analyze output"; cat "$tmp/analyze.out"
    echo "--- broker log"; cat "$tmp/broker.log" 2>/dev/null
    exit 1
fi
echo "all query checks passed"
