#!/usr/bin/env bash
# tests/test_report_final.sh — what a report's final judgment is of, and what
# `report --job` reads. Four small 9x9 games counted by area (fast):
#   P  7 moves, KM[7], RE[B+R]: a --moves every:3 job judges it at move 6;
#   F  6 moves, KM[0], RE[W+5.5]: Fox's KM[0] cannot give half a point;
#   R  6 moves, KM[0], RE[W+R]: a resignation says nothing of the komi;
#   E  6 moves, KM[6.5], RE[B+0.5]: judged at its end, komi fits.
#   1. after the every:3 job alone: games.csv and report.json carry the move
#      each final judgment is of (final_move) and the komi; the summary's
#      final_known counts only R and E, P is final_partial, F
#      final_komi_unknown; index.html says both;
#   2. F's judgment reads "komi unknown" (index.html says why: "KM[0] cannot
#      give W+5.5"); R is compared with komi 0;
#   3. a later --moves all job over the same games: --job 1 reads the
#      positions every:3 names (3 of P's 8), --job 2 all of them, each says
#      which (summary.positions, the index's note); --all now judges P at its
#      end.
set -u
BIN=${HS_BIN:?HS_BIN must name the hyeongse binary}
tmp=$(mktemp -d /tmp/hs-test-report-final-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
. "$(dirname "$0")/lib.sh"

mkdir -p "$tmp/g"
printf '(;GM[1]FF[4]SZ[9]KM[7]PB[Pa]PW[Pb]RE[B+R];B[ee];W[cc];B[gg];W[cg];B[gc];W[dd];B[ff])\n' > "$tmp/g/p.sgf"
printf '(;GM[1]FF[4]SZ[9]KM[0]PB[Fa]PW[Fb]RE[W+5.5];B[ee];W[cc];B[gg];W[cg];B[gc];W[dd])\n' > "$tmp/g/f.sgf"
printf '(;GM[1]FF[4]SZ[9]KM[0]PB[Ra]PW[Rb]RE[W+R];B[dd];W[ff];B[cf];W[fc];B[ee];W[gg])\n' > "$tmp/g/r.sgf"
printf '(;GM[1]FF[4]SZ[9]KM[6.5]PB[Ea]PW[Eb]RE[B+0.5];B[ec];W[eg];B[ce];W[ge];B[dd];W[ff])\n' > "$tmp/g/e.sgf"
analyze() {   # MOVES-SPEC
    "$BIN" analyze "$tmp/g" --db "$tmp/db" --engines area --moves "$1" --threads 1 --quiet \
        > "$tmp/analyze.out" 2>&1
}
# field CSV ROW-KEY COLUMN: the column of the row whose source ends in ROW-KEY.
field() {
    python3 -c '
import csv, sys
for r in csv.DictReader(open(sys.argv[1], newline="")):
    if r.get("source", "").endswith(sys.argv[2]):
        print(r.get(sys.argv[3], "(no column)"))' "$@"
}
summary() {   # DIR COLUMN
    python3 -c '
import csv, sys
print(next(csv.DictReader(open(sys.argv[1] + "/csv/summary.csv", newline=""))).get(sys.argv[2], "(no column)"))' "$@"
}

# 1.
analyze every:3
check "1: analyze --moves every:3: exit status" "$?" 0
"$BIN" report --db "$tmp/db" --all --out "$tmp/r1" --quiet 2> "$tmp/err"
check "1: report --all: exit status" "$?" 0
check "1: games.csv: the columns, final_move and komi appended" "$(head -1 "$tmp/r1/csv/games.csv" | tr -d '\r')" \
      "game_id,black,white,date,result,moves,analysed,final_judgment,largest_loss_black,largest_loss_white,source,final_move,komi"
check "1: P: judged at move 6 of 7" "$(field "$tmp/r1/csv/games.csv" p.sgf moves)/$(field "$tmp/r1/csv/games.csv" p.sgf final_move)" 7/6
check "1: R: judged at its end" "$(field "$tmp/r1/csv/games.csv" r.sgf final_move)" 6
check "1: P: its judgment still given" "$(field "$tmp/r1/csv/games.csv" p.sgf final_judgment | grep -cE '^(agrees|differs)$')" 1
check "1: report.json's games: the same final_move and komi" "$(python3 -c '
import json, sys
g = {r["source"].rsplit("/", 1)[-1]: r for r in json.load(open(sys.argv[1]))["games"]}
print(" ".join("%s:%s:%s" % (k, g[k]["final_move"], g[k]["komi"]) for k in sorted(g)))' "$tmp/r1/report.json")" \
      "e.sgf:6:6.5 f.sgf:6:0.0 p.sgf:6:7.0 r.sgf:6:0.0"
check "1: summary: final_known counts only the games judged at their end (R, E)" "$(summary "$tmp/r1" final_known)" 2
check "1: summary: final_partial" "$(summary "$tmp/r1" final_partial)" 1
check "1: summary: final_komi_unknown" "$(summary "$tmp/r1" final_komi_unknown)" 1
check "1: summary: the columns, the new ones appended" "$(head -1 "$tmp/r1/csv/summary.csv" | tr -d '\r')" \
      "games,analysed,failed,final_known,final_agree,final_agree_rate,players,final_partial,final_komi_unknown,positions,engines"
check "1: report.json's summary: the same counts" "$(python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["summary"]
print(s["final_known"], s["final_partial"], s["final_komi_unknown"], s["positions"], s["engines"])' "$tmp/r1/report.json")" \
      "2 1 1 all any"
check "1: index.html: the games judged before their end, not counted" \
      "$(grep -c '<tr><td>Judged before their last position (not counted above)</td><td>1</td></tr>' "$tmp/r1/index.html")" 1
check "1: index.html: P's row names the move" "$(grep -cE '<td>(agrees|differs) \(at move 6\)</td>' "$tmp/r1/index.html")" 1

# 2.
check "2: F: komi unknown" "$(field "$tmp/r1/csv/games.csv" f.sgf final_judgment)" "komi unknown"
check "2: F: its komi" "$(field "$tmp/r1/csv/games.csv" f.sgf komi)" 0.000
check "2: R (resigned, KM[0]): compared with komi 0" "$(field "$tmp/r1/csv/games.csv" r.sgf final_judgment | grep -cE '^(agrees|differs)$')" 1
check "2: index.html: F's row says why" "$(grep -c '<td>komi unknown (KM\[0\] cannot give W+5.5)</td>' "$tmp/r1/index.html")" 1
check "2: index.html: the komi-unknown games, not counted" \
      "$(grep -c '<tr><td>Recorded result contradicts the komi (not counted above)</td><td>1</td></tr>' "$tmp/r1/index.html")" 1
check "2: the CSV's judgments and index.html's agree (komi unknown, at move N)" "$(python3 -c '
import csv, html, re, sys
page = open(sys.argv[1] + "/index.html").read()
cells = [html.unescape(c) for c in re.findall(r"<td>((?:agrees|differs|komi unknown)[^<]*)</td>", page)]
rows = list(csv.DictReader(open(sys.argv[1] + "/csv/games.csv", newline="")))
ok = sorted(c.split(" (")[0] for c in cells) == sorted(r["final_judgment"] for r in rows)
print("%d cells: %s" % (len(cells), "same" if ok else "differ"))' "$tmp/r1")" "4 cells: same"

# 3.
analyze all
check "3: analyze --moves all: exit status" "$?" 0
for j in 1 2; do
    "$BIN" report --db "$tmp/db" --job $j --out "$tmp/j$j" --quiet 2> "$tmp/err"
    check "3: report --job $j: exit status" "$?" 0
done
check "3: --job 1: P's positions every:3 names (0, 3, 6)" "$(field "$tmp/j1/csv/games.csv" p.sgf analysed)" 3
check "3: --job 2: P's every position" "$(field "$tmp/j2/csv/games.csv" p.sgf analysed)" 8
check "3: --job 1: P still judged at move 6" "$(field "$tmp/j1/csv/games.csv" p.sgf final_move)" 6
check "3: summary.positions" "$(summary "$tmp/j1" positions) $(summary "$tmp/j2" positions)" "every:3 all"
check "3: summary.engines: every stored engine there" "$(summary "$tmp/j1" engines)" any
check "3: --job 1: index.html says what the job scopes" \
      "$(grep -c '<p class="note job-scope">Job 1 (moves every:3, engines area): its 4 games, and of each game only the positions every:3 names' "$tmp/j1/index.html")" 1
check "3: --job 2: index.html says what the job scopes" \
      "$(grep -c '<p class="note job-scope">Job 2 (moves all, engines area): its 4 games, every position' "$tmp/j2/index.html")" 1
check "3: the two jobs' reports differ" "$(cmp -s "$tmp/j1/csv/games.csv" "$tmp/j2/csv/games.csv" && echo same || echo differ)" differ
check "3: --job 1: P's end map is not one of the job's positions" \
      "$(cat "$tmp"/j1/games/*.html | grep -c 'Move 7: not one of job 1&#39;s positions (every:3)')" 1
"$BIN" report --db "$tmp/db" --all --out "$tmp/r3" --quiet 2> "$tmp/err"
check "3: --all after both: P judged at its end" "$(field "$tmp/r3/csv/games.csv" p.sgf final_move) $(summary "$tmp/r3" final_partial)" "7 0"
check "3: --all: no job note" "$(grep -c 'job-scope' "$tmp/r3/index.html")" 0
exit $fail
