#!/usr/bin/env bash
# tests/test_report.sh — `hyeongse report` end to end on a small job:
#   A. the job of tests/lib.sh's report_job (four 9x9 self-play games of two
#      players; judge, influence and rollout MCTS at every move, every map),
#      then report --all: index.html, a page and an annotated
#      SGF per game, every CSV table and report.json, in one run; the games
#      table in csv/games.csv and report.json's "games" too, with the values
#      of index.html's games table;
#   B. the pages are self-contained: no scripts, styles or images fetched, no
#      external links but the SVG namespace; the graphs, maps and tables are in
#      the page; report.json parses;
#   C. the annotated SGF round-trips: our own reader reads it back to the same
#      game id (same size, setup, moves and komi) and it holds C, TB/TW comments;
#   D. --format png,svg writes the pictures as files, and the PNGs are drawn
#      (not blank); --game ID alone; --player NAME;
#      --board FILE --move N: a mirrored copy of a game finds it, with the next
#      move in the asked orientation; without html, in csv, json and svg; the
#      histograms with --format svg alone, their labels short ("1.5M", never
#      "1.5e+06") and inside the picture, the count axis log when one bin
#      dwarfs another; the explorer's summary line says how many games reached
#      the board; a report into the folder of an earlier one warns about the
#      earlier one's pages (and deletes nothing), a same report again does not;
#   F. --job of later jobs over the same games (another engine; nothing left
#      to evaluate) holds those games;
#   G. a store of over 1,000 games (5x5 playouts): index.html shows the first
#      500 games and links to list/games-0001.html, -0002.html, each 1,000
#      games of the same table in the same order, their links (games, previous,
#      next, index) resolving; csv/games.csv and report.json keep every game;
#      the 4-game report of A writes no list/;
#   H. a game of area counts only, where no move loses anything: the page
#      says so (not "too few analysed moves"); a --moves past the game's end
#      is said on its page; a handicap game's page names its handicap;
#   E. bad input: no selection, two selections, a bad format, a bad game id, an
#      unknown game, job or player, --out naming a file, no store: a clear
#      message, exit 2 or 1.
set -u
BIN=${HS_BIN:?HS_BIN must name the hyeongse binary}
PNG_STATS=${HS_PNG_STATS:-}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ARCHIVE="$ROOT/examples/selfplay.tar.gz"
[ -f "$ARCHIVE" ] || { echo "SKIP: $ARCHIVE is missing"; exit 77; }
tmp=$(mktemp -d /tmp/hs-test-report-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
. "$(dirname "$0")/lib.sh"

# A.
report_job "$tmp"
check "A: analyze: exit status" "$?" 0
"$BIN" report --db "$tmp/db" --all --out "$tmp/r" > "$tmp/out" 2> "$tmp/err"
check "A: report --all: exit status" "$?" 0
check "A: the summary line" "$(grep -c '^report: 4 games, 0 failed, [0-9]* pictures, [0-9]* files in ' "$tmp/err")" 1
check "A: index.html" "$(test -s "$tmp/r/index.html" && echo yes)" yes
check "A: a page per game" "$(ls "$tmp/r/games/"*.html | wc -l)" 4
check "A: an annotated SGF per game" "$(ls "$tmp/r/games/"*.sgf | wc -l)" 4
for t in summary prediction players by_year by_opponent loss_histogram lead_histogram; do
    check "A: csv/$t.csv has a header" "$(head -1 "$tmp/r/csv/$t.csv" | grep -c ',')" 1
done
check "A: the result predicted at moves 0-49 (every position of four games)" \
      "$(awk -F, '$1 == "0" && $4 >= 200 {print "counted"}' "$tmp/r/csv/prediction.csv")" counted
check "A: csv/players.csv: the two players" "$(($(wc -l < "$tmp/r/csv/players.csv") - 1))" 2
check "A: csv/games.csv: a row per game" "$(($(wc -l < "$tmp/r/csv/games.csv") - 1))" 4
# Each game's row of index.html's games table (players, date, result, moves,
# analysed, final judgment, largest losses at the page's 1 decimal) against its
# rows of csv/games.csv and of report.json's "games".
check "A: csv/games.csv and report.json's games hold index.html's games table" "$(python3 -c '
import csv, html, json, re, sys
out = sys.argv[1]
page = open(out + "/index.html").read()
table = page[page.index("id=\"games\""):]
rows = re.findall(r"<tr><td><a href=\"games/([0-9a-f]{32})\.html\">(.*?)</a></td>(.*?)</tr>", table)
def cell(v):
    return "" if v in (None, "") else "%.1f" % v if isinstance(v, float) else str(v)
def flat(r):
    loss = [cell(float(r[k])) if r[k] not in (None, "") else "" for k in ("largest_loss_black", "largest_loss_white")]
    return [r["black"] + " \u2013 " + r["white"], r["date"] or "", r["result"] or "", str(r["moves"]),
            str(r["analysed"]), r["final_judgment"] or "\u2013"] + [l or "\u2013" for l in loss]
by_csv = {r["game_id"]: flat(r) for r in csv.DictReader(open(out + "/csv/games.csv", newline=""))}
by_json = {r["game_id"]: flat(r) for r in json.load(open(out + "/report.json"))["games"]}
bad = [i for i, who, rest in rows
       if [html.unescape(who)] + [html.unescape(c) for c in re.findall(r"<td>(.*?)</td>", rest)] != by_csv.get(i)
       or by_csv.get(i) != by_json.get(i)]
print("%d rows, %d csv, %d json, differ: %s" % (len(rows), len(by_csv), len(by_json), bad or "none"))
' "$tmp/r")" "4 rows, 4 csv, 4 json, differ: none"

# B.
page=$(ls "$tmp/r/games/"*.html | head -1)
for f in "$tmp/r/index.html" "$page"; do
    # url(#id) is a gradient inside the same SVG, not a fetch
    n=$(grep -o -E '(src|href)="(https?:)?//[^"]*"|<link |@import|url\([^#]' "$f" | wc -l)
    check "B: $(basename "$f"): nothing fetched" "$n" 0
done
check "B: the win-rate graph" "$(grep -c '<figure class="graph" id="winrate"><svg' "$page")" 1
check "B: the score-lead graph" "$(grep -c '<figure class="graph" id="lead"><svg' "$page")" 1
check "B: ownership maps" "$(grep -o '<figure class="map ownership">' "$page" | wc -l | awk '$1 >= 2 {print "yes"}')" yes
check "B: influence maps" "$(grep -o '<figure class="map influence">' "$page" | wc -l | awk '$1 >= 2 {print "yes"}')" yes
check "B: MCTS ownership maps" "$(grep -o '<figure class="map net">' "$page" | wc -l | awk '$1 >= 2 {print "yes"}')" yes
check "B: the mistakes tables" "$(grep -c 'id="mistakes-black"\|id="mistakes-white"' "$page")" 2
check "B: the players table sorts" "$(grep -c '<table class="sortable" id="players">' "$tmp/r/index.html")" 1
# Losses measured by the static judge alone (a group read dead, then alive) are
# said to be that, not a measure of play: the 19x19 self-play games judged
# only; the job above has MCTS, and no such note.
tar xzf "$(dirname "$0")/../examples/selfplay.tar.gz" -C "$tmp" selfplay19
"$BIN" analyze "$tmp/selfplay19" --db "$tmp/jdb" --engines judge --quiet > /dev/null 2>&1
"$BIN" report --db "$tmp/jdb" --all --out "$tmp/jr" --format html --quiet 2> /dev/null
check "B: judge-only losses: every mistakes table says how they were measured" \
      "$(cat "$tmp"/jr/games/*.html | grep -c 'id="mistakes-')" \
      "$(cat "$tmp"/jr/games/*.html | grep -c 'class="note judge-losses"')"
check "B: judge-only losses: there are some" \
      "$(cat "$tmp"/jr/games/*.html | grep -c 'class="note judge-losses"' | awk '$1 > 0 {print "yes"}')" yes
check "B: with MCTS, no such note" "$(cat "$tmp"/r/games/*.html | grep -c 'judge-losses')" 0
# Its accuracy is near 100% whoever played: the players' table says how much
# of it the judge alone measured (every move here), and the job with MCTS has
# no such note.
check "B: judge-only accuracy: the players' note says so" \
      "$(grep -c '<p class="note judge-accuracy">100% of these moves were measured by the static judge' "$tmp/jr/index.html")" 1
check "B: with MCTS, no judge-accuracy note" "$(grep -c 'judge-accuracy' "$tmp/r/index.html")" 0
check "B: four game rows" "$(grep -o 'href="games/[0-9a-f]*.html"' "$tmp/r/index.html" | wc -l)" 4
python3 -m json.tool "$tmp/r/report.json" > /dev/null
check "B: report.json parses" "$?" 0

# C.
sgf=$(ls "$tmp/r/games/"*.sgf | head -1)
id=$(basename "$sgf" .sgf)
check "C: our reader reads the annotated SGF back to the same game id" \
      "$("$BIN" inspect "$sgf" | grep -c "^game id: *$id$")" 1
check "C: comments" "$(grep -o 'C\[' "$sgf" | wc -l | awk '$1 >= 10 {print "yes"}')" yes
check "C: territory" "$(grep -c 'TB\[\|TW\[' "$sgf" | awk '$1 >= 1 {print "yes"}')" yes

# D.
"$BIN" report --db "$tmp/db" --game "$id" --out "$tmp/one" --format html,png,svg --quiet 2> "$tmp/err"
check "D: --game ID --format html,png,svg: exit status" "$?" 0
check "D: one page" "$(ls "$tmp/one/games/"*.html | wc -l)" 1
check "D: PNG files" "$(ls "$tmp/one/png/"*.png 2>/dev/null | wc -l | awk '$1 >= 6 {print "yes"}')" yes
check "D: as many SVG files" "$(ls "$tmp/one/svg/"*.svg | wc -l)" "$(ls "$tmp/one/png/"*.png | wc -l)"
if [ -x "$PNG_STATS" ]; then
    for p in "$tmp/one/png/$id-winrate.png" "$tmp/one/png/$id-m050-ownership.png"; do
        read -r w h colours ink < <("$PNG_STATS" "$p")
        check "D: $(basename "$p") is drawn (>= 100 px wide, > 20 colours, > 5% ink)" \
              "$(awk -v w="$w" -v c="$colours" -v i="$ink" 'BEGIN {print (w >= 100 && c > 20 && i > 0.05) ? "drawn" : "blank " w " " c " " i}')" drawn
    done
fi
player=$(sed -n '2p' "$tmp/r/csv/players.csv" | cut -d, -f1)
"$BIN" report --db "$tmp/db" --player "$player" --out "$tmp/pl" --format html --quiet 2> /dev/null
check "D: --player NAME: every game of the player" "$(ls "$tmp/pl/games/"*.html | wc -l)" 4

# The position explorer: the board after move 10 of a game of the job, asked
# mirrored left to right, is found in the index with the move played next.
one=$(ls "$tmp"/selfplay9/*.sgf | head -1)
python3 -c '
import re, sys
flip = {c: "abcdefghi"[8 - i] for i, c in enumerate("abcdefghi")}
print(re.sub(r"([BW])\[([a-i])([a-i])\]", lambda m: m[1] + "[" + flip[m[2]] + m[3] + "]", sys.stdin.read()))' < "$one" > "$tmp/mirrored.sgf"
"$BIN" report --db "$tmp/db" --board "$tmp/mirrored.sgf" --move 10 --out "$tmp/board" --quiet 2> "$tmp/err"
check "D: --board FILE --move 10: exit status" "$?" 0
check "D: --board: the explorer's section" "$(grep -c '<section id="board">' "$tmp/board/index.html")" 1
check "D: --board: the game that reached it" "$(grep -c 'reached in 1 stored game (any orientation)' "$tmp/board/index.html")" 1
check "D: --board: the summary line says what was written" \
      "$(grep -c '^report: position explorer: 1 game reached this board; 0 game pages, ' "$tmp/err")" 1
next=$(sed -n '/id="board-next"/,/<\/table>/p' "$tmp/board/index.html" | grep -o '<td>A</td><td>[A-J][0-9]</td>' | sed 's/.*<td>\([A-J][0-9]\)<\/td>/\1/')
move11=$(grep -o ';[BW]\[[a-i][a-i]\]' "$tmp/mirrored.sgf" | sed -n 11p | sed 's/.*\[\(.\)\(.\)\]/\1 \2/' |
         awk '{ c = index("abcdefghi", $1); r = index("abcdefghi", $2); printf "%s%d", substr("ABCDEFGHJ", c, 1), 10 - r }')
check "D: --board: move 11 as the next move, in the asked (mirrored) orientation" "$next" "$move11"
# Without html the explorer still answers, in each format asked.
"$BIN" report --db "$tmp/db" --board "$tmp/mirrored.sgf" --move 10 --out "$tmp/board2" \
    --format csv,json,svg --quiet 2> /dev/null
check "D: --board --format csv,json,svg: exit status" "$?" 0
check "D: --board without html: the next move in csv/board-next.csv" \
      "$(sed -n 2p "$tmp/board2/csv/board-next.csv" | cut -d, -f1)" "$move11"
check "D: --board without html: board.json, the object of query --board --json" \
      "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["next"][0]["move"])' \
         "$tmp/board2/board.json")" "$move11"
check "D: --board without html: the board's picture" "$(test -s "$tmp/board2/svg/board-query.svg" && echo yes)" yes
# With a selection, the explorer lists the selection's games only, each linked
# to its page: the empty board (every game of the job stood on it), one game.
gid=$("$BIN" query --db "$tmp/db" --path "$one" --json --limit 1 | grep -o '"game":"[0-9a-f]*"' | cut -d'"' -f4)
"$BIN" report --db "$tmp/db" --game "$gid" --board "$one" --move 0 --out "$tmp/board3" --quiet 2> /dev/null
check "D: --game ID --board: exit status" "$?" 0
check "D: --game ID --board: the selection's game of the four" \
      "$(grep -c "this report&rsquo;s: 1 of those 4" "$tmp/board3/index.html")" 1
check "D: --game ID --board: the game linked to its page" \
      "$(sed -n '/<section id="board">/,/<\/section>/p' "$tmp/board3/index.html" | grep -c "href=\"games/$gid.html\"")" 1
"$BIN" report --db "$tmp/db" --all --out "$tmp/svgonly" --format svg --quiet 2> "$tmp/err"
check "D: --format svg alone: the histograms too" "$(ls "$tmp/svgonly/svg/" | grep -c 'histogram')" 2
check "D: --format svg alone: pictures counted as files written" \
      "$(grep -o '[0-9]* pictures' "$tmp/err" | cut -d' ' -f1)" "$(ls "$tmp/svgonly/svg/" | wc -l)"
# The histograms' labels: short numbers ("1.5M", never "1.5e+06") and every
# text inside the picture (0.6 em a character, from its anchor). The count
# axis is log when the largest bin is over 50 times the smallest non-empty one.
for h in loss lead; do
    svg="$tmp/svgonly/svg/$h-histogram.svg"
    check "D: $h histogram: no e-notation" "$(grep '<text' "$svg" | grep -c 'e+')" 0
    check "D: $h histogram: every label inside the picture" "$(awk '
        /<svg/ { match($0, /width="[0-9.]+"/); w = substr($0, RSTART + 7, RLENGTH - 8) + 0 }
        /<text/ {
            match($0, / x="[-0-9.]+"/); x = substr($0, RSTART + 4, RLENGTH - 5) + 0
            match($0, /font-size="[0-9.]+"/); fs = substr($0, RSTART + 11, RLENGTH - 12) + 0
            t = $0; sub(/^.*<text[^>]*>/, "", t); sub(/<\/text>.*$/, "", t)
            tw = 0.6 * fs * length(t); left = x
            if ($0 ~ /text-anchor="end"/) left = x - tw; else if ($0 ~ /text-anchor="middle"/) left = x - tw / 2
            if (left < 0 || left + tw > w) out++
        }
        END { print out + 0 }' "$svg")" 0
    scale=$(awk -F, 'NR > 1 { c = $4 + 0; if (c > top) top = c; if (c > 0 && (least == 0 || c < least)) least = c }
                     END { print (least > 0 && top > 50 * least) ? "count, log scale" : "count" }' \
                "$tmp/r/csv/${h}_histogram.csv")
    check "D: $h histogram: the count axis says its scale" "$(grep -o '>count[^<]*</text>' "$svg")" ">$scale</text>"
done
check "D: the loss histogram of four games: bin 0 dwarfs the rest, a log axis" \
      "$(grep -c '>count, log scale</text>' "$tmp/svgonly/svg/loss-histogram.svg")" 1

# A report into the folder of an earlier one: the earlier one's pages of other
# games stay (nothing of it is deleted) and the summary says so; the same
# report again into its own folder says nothing.
cp -r "$tmp/r" "$tmp/reuse"
touch "$tmp/reuse/games/notes.txt"
"$BIN" report --db "$tmp/db" --game "$id" --out "$tmp/reuse" --quiet 2> "$tmp/err"
check "D: --out of an earlier report: exit status" "$?" 0
check "D: --out of an earlier report: says so" \
      "$(grep -c "^hyeongse report: warning: $tmp/reuse holds an earlier report: 3 games of it (6 files under games/, svg/, png/) are not part of this one" "$tmp/err")" 1
check "D: --out of an earlier report: nothing deleted" "$(ls "$tmp/reuse/games/" | wc -l)" 9
check "D: --out of an earlier report: the index lists this one's game" \
      "$(grep -o 'href="games/[0-9a-f]*.html"' "$tmp/reuse/index.html" | wc -l)" 1
"$BIN" report --db "$tmp/db" --all --out "$tmp/reuse" --quiet 2> "$tmp/err"
check "D: the same report again into its folder: no warning" "$(grep -c 'earlier report' "$tmp/err")" 0

# F. A second job over the same games (another engine): its report holds them,
# although the games' records name the first job; so does a third that finds
# every position evaluated already.
"$BIN" analyze "$tmp/selfplay9" --db "$tmp/db" --engines area --threads 2 --quiet > /dev/null 2>&1
"$BIN" analyze "$tmp/selfplay9" --db "$tmp/db" --engines area --threads 2 --quiet > /dev/null 2>&1
for j in 2 3; do
    "$BIN" report --db "$tmp/db" --job $j --out "$tmp/job$j" --format csv --quiet 2> "$tmp/err"
    check "F: --job $j: its four games" "$(grep -c '^report: 4 games,' "$tmp/err")" 1
done
check "F: check: the job lists agree with the store" "$("$BIN" check --db "$tmp/db" > /dev/null; echo $?)" 0

# G. 1,100 random 5x5 games take about 2 s to analyse and 1 s to report; a
# few fail to import, so the count is the summary's.
check "G: a 4-game report writes no list pages" "$(test -e "$tmp/r/list" && echo yes || echo no)" no
"$BIN" playout --size 5 --games 1100 --seed 1 --out "$tmp/many" > /dev/null 2>&1
"$BIN" analyze "$tmp/many" --db "$tmp/mdb" --engines area --quiet > /dev/null 2>&1
"$BIN" report --db "$tmp/mdb" --all --out "$tmp/m" --quiet 2> "$tmp/err"
check "G: report of the 1,100 games: exit status" "$?" 0
n=$(sed -n 's/^report: \([0-9]*\) games.*/\1/p' "$tmp/err")
check "G: over 1,000 games reported, two list pages" "$(awk -v n="$n" 'BEGIN {print (n > 1000 && n <= 1100) ? "yes" : n}')" yes
check "G: csv/games.csv: every game" "$(($(wc -l < "$tmp/m/csv/games.csv") - 1))" "$n"
check "G: the index's line to the list pages" \
      "$(grep -c "The first 500 of $(printf "%d,%03d" $((n / 1000)) $((n % 1000))) games; all of them, 1,000 a page: games list page <a href=\"list/games-0001.html\">1</a>, <a href=\"list/games-0002.html\">2</a>.</p>" "$tmp/m/index.html")" 1
check "G: the list pages" "$(cd "$tmp/m/list" && ls)" "$(printf 'games-0001.html\ngames-0002.html')"
check "G: a list page's table sorts" "$(grep -c '<table class="sortable" id="games">' "$tmp/m/list/games-0001.html")" 1
check "G: list pages: nothing fetched" \
      "$(cat "$tmp/m/list/"*.html | grep -o -E '(src|href)="(https?:)?//[^"]*"|<link |@import|url\([^#]' | wc -l)" 0
# Rows in order: the index's are csv/games.csv's first 500, the pages' all of
# them; every link of a page (a game, previous, next, the index) is a file.
check "G: the index's first 500, the pages' every game, each link a file" "$(python3 -c '
import csv, json, os, re, sys
out = sys.argv[1]
ids = [r["game_id"] for r in csv.DictReader(open(out + "/csv/games.csv", newline=""))]
def rows(path, prefix):
    return re.findall(r"<tr><td><a href=\"" + prefix + r"games/([0-9a-f]{32})\.html\">", open(path).read())
index = rows(out + "/index.html", "")
pages = [rows(out + "/list/games-%04d.html" % p, "../") for p in (1, 2)]
broken = []
for p in (1, 2):
    page = out + "/list/games-%04d.html" % p
    for href in re.findall(r"href=\"([^\"]*)\"", open(page).read()):
        if not os.path.isfile(os.path.join(os.path.dirname(page), href)):
            broken.append(href)
print("index %d first: %s; pages %d+%d all: %s; broken links: %d; json %d" % (len(index),
      index == ids[:500], len(pages[0]), len(pages[1]), pages[0] + pages[1] == ids, len(broken),
      len(json.load(open(out + "/report.json"))["games"])))
' "$tmp/m")" "index 500 first: True; pages 1000+$((n - 1000)) all: True; broken links: 0; json $n"
check "G: page 1 links page 2, not back; page 2 page 1, not on" \
      "$(grep -c '<a href="games-0002.html">next</a>' "$tmp/m/list/games-0001.html") $(grep -c '>previous</a>' "$tmp/m/list/games-0001.html") $(grep -c '<a href="games-0001.html">previous</a>' "$tmp/m/list/games-0002.html") $(grep -c '>next</a>' "$tmp/m/list/games-0002.html")" "2 0 2 0"

# E.
expect_fail() {   # DESCRIPTION STATUS MESSAGE-PATTERN ARGS...
    local what=$1 status=$2 pattern=$3
    shift 3
    "$BIN" report "$@" > /dev/null 2> "$tmp/err"
    check "E: $what: exit status" "$?" "$status"
    check "E: $what: says why" "$(grep -c -- "$pattern" "$tmp/err")" 1
}
expect_fail "no selection" 2 "choose exactly one of" --db "$tmp/db" --out "$tmp/e1"
expect_fail "two selections" 2 "choose exactly one of" --db "$tmp/db" --out "$tmp/e1" --all --game "$id"
expect_fail "a bad format" 2 "unknown report format 'pdf'" --db "$tmp/db" --out "$tmp/e1" --all --format html,pdf
expect_fail "a bad game id" 2 "32 hex digits" --db "$tmp/db" --out "$tmp/e1" --game xyz
expect_fail "an unknown game" 1 "no game 0000" --db "$tmp/db" --out "$tmp/e1" --game 00000000000000000000000000000000
touch "$tmp/file"
expect_fail "--out names a file" 2 "is a file, not a folder" --db "$tmp/db" --out "$tmp/file" --all
expect_fail "no store" 1 "no store in" --db "$tmp/nothing" --out "$tmp/e1" --all
expect_fail "an unknown job" 1 "no job 99 in the store" --db "$tmp/db" --out "$tmp/e1" --job 99
expect_fail "an unknown player" 1 "no stored game of a player named exactly 'nobody'; names that begin with it: none" --db "$tmp/db" --out "$tmp/enobody" --player nobody
check "E: an unknown player: no folder made" "$(test -e "$tmp/enobody" && echo made || echo none)" none
expect_fail "a player by a prefix" 1 "names that begin with it: .*game" --db "$tmp/db" --out "$tmp/e1" --player "$(printf '%s' "$("$BIN" query --db "$tmp/db" players --format csv | sed -n 2p | cut -c1-2)")"
expect_fail "bad --moves" 2 "--moves takes" --db "$tmp/db" --out "$tmp/e1" --all --moves 10,x
check "E: bad --moves: one message" "$(wc -l < "$tmp/err")" 1
expect_fail "--move without --board" 2 "go with --board FILE" --db "$tmp/db" --out "$tmp/e1" --all --move 5
"$BIN" report --db "$tmp/db" --all --out "$tmp/new/a/b" --format csv --quiet 2> /dev/null
check "E: --out with folders still to make: made, as mkdir -p" "$(ls "$tmp/new/a/b/csv" | wc -l | awk '$1 > 0 {print "yes"}')" yes
# ---- H. a game counted by area alone, no capture: each move adds its own
# stone, so no move of either side loses anything; the page says so, not that
# too few moves were analysed. The pass into the record's last position is the
# judge kind's change of method, no loss either.
printf '(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]PB[Ann]PW[Bo];B[ee];W[cc];B[gc];W[cg];B[gg];W[])\n' \
    > "$tmp/area.sgf"
"$BIN" analyze "$tmp/area.sgf" --db "$tmp/adb" --engines area --threads 1 --quiet > /dev/null 2>&1
"$BIN" report --db "$tmp/adb" --all --out "$tmp/arep" --quiet 2> "$tmp/err"
check "H: report of an area-only game: exit status" "$?" 0
page=$(ls "$tmp"/arep/games/*.html 2>/dev/null | head -n 1)
check "H: both sides: no move lost points" \
    "$(grep -o 'No move of this side lost points or win rate' "${page:-/dev/null}" | wc -l)" 2
check "H: never 'too few analysed moves'" "$(grep -c 'too few analysed' "${page:-/dev/null}")" 0
# A map move past the game's end is said on the page, not dropped unseen.
"$BIN" report --db "$tmp/adb" --all --out "$tmp/arep2" --moves 2,999 --quiet 2> /dev/null
page=$(ls "$tmp"/arep2/games/*.html 2>/dev/null | head -n 1)
check "H: --moves past the end: said on the page" \
    "$(grep -c 'No map at move 999: the game has 6 moves' "${page:-/dev/null}")" 1
# A handicap game's page names its handicap (the curve starts far from even).
printf '(;GM[1]FF[4]SZ[9]KM[0.5]HA[2]AB[cc][gg]PB[Ann]PW[Bo];W[gc];B[cg];W[ee])\n' > "$tmp/ha.sgf"
"$BIN" analyze "$tmp/ha.sgf" --db "$tmp/hdb" --engines area --threads 1 --quiet > /dev/null 2>&1
"$BIN" report --db "$tmp/hdb" --all --out "$tmp/hrep" --quiet 2> /dev/null
page=$(ls "$tmp"/hrep/games/*.html 2>/dev/null | head -n 1)
check "H: a handicap game's page names its handicap" \
    "$(grep -c '<tr><th>Handicap</th><td>2</td></tr>' "${page:-/dev/null}")" 1
# A short game's curve has a tick at every move, not a lone 0.
"$BIN" report --db "$tmp/adb" --all --out "$tmp/arep3" --format svg --quiet 2> /dev/null
graph=$(ls "$tmp"/arep3/svg/*-lead.svg 2>/dev/null | head -n 1)
check "H: a 6-move game's curve: ticks 1..6" \
    "$(grep -o '>[1-6]</text>' "${graph:-/dev/null}" | sort -u | wc -l)" 6
# --moves every:N measures no move's loss and may skip the last position: the
# report says why the mistakes are empty (not "too few analysed moves"), and
# which move the final judgment is of.
printf '(;GM[1]FF[4]SZ[9]KM[7]PB[Ann]PW[Bo]RE[B+R];B[ee];W[cc];B[gg];W[cg];B[gc];W[dd];B[ff])\n' > "$tmp/e.sgf"
"$BIN" analyze "$tmp/e.sgf" --db "$tmp/edb" --engines area --moves every:3 --threads 1 --quiet > /dev/null 2>&1
"$BIN" report --db "$tmp/edb" --all --out "$tmp/erep" --quiet 2> /dev/null
page=$(ls "$tmp"/erep/games/*.html 2>/dev/null | head -n 1)
check "H: every:N: the mistakes say why they are empty" \
    "$(grep -c 'no two consecutive positions of this game were analysed' "${page:-/dev/null}")" 2
check "H: every:N: the players table says why no loss was measured" \
    "$(grep -c 'class="note no-losses"' "$tmp/erep/index.html")" 1
check "H: every:N: the final judgment names its move" \
    "$(grep -Ec '<td>(agrees|differs) \(at move 6\)</td>' "$tmp/erep/index.html")" 1
exit $fail
