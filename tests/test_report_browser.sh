#!/usr/bin/env bash
# tests/test_report_browser.sh — a browser opens the report. Headless Chromium
# loads index.html and a game's page of a small job's report from file:// (no
# network) and dumps the DOM after its scripts ran: the graphs (SVG with a
# curve), the maps, the tables with their rows are there; the sorting script
# ran without breaking the page; and a screenshot of the game page is not
# blank (tests/png_stats.c counts its colours and ink).
set -u
BIN=${HS_BIN:?HS_BIN must name the hyeongse binary}
PNG_STATS=${HS_PNG_STATS:-}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ARCHIVE="$ROOT/examples/selfplay.tar.gz"
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROMIUM" ] || { echo "SKIP: no chromium (Debian package chromium; scripts/install-deps.sh installs it)"; exit 77; }
[ -x "$PNG_STATS" ] || { echo "SKIP: HS_PNG_STATS (tests/png_stats.c) is not built"; exit 77; }
tmp=$(mktemp -d /tmp/hs-test-browser-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
. "$(dirname "$0")/lib.sh"
report_job "$tmp"
check "analyze: exit status" "$?" 0
"$BIN" report --db "$tmp/db" --all --out "$tmp/r" --quiet 2> "$tmp/err"
check "report: exit status" "$?" 0
page=$(ls "$tmp/r/games/"*.html | head -1)

# --no-sandbox: CI runs as root, where Chromium refuses its sandbox. A profile of
# its own in $tmp, and no network at all.
browse() {
    timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run \
        --user-data-dir="$tmp/profile" --proxy-server=127.0.0.1:9 --proxy-bypass-list='<-loopback>' \
        "$@" 2>> "$tmp/chromium.log"
}
browse --dump-dom "file://$tmp/r/index.html" > "$tmp/index.dom"
check "index: the browser loaded it" "$(grep -c '</html>' "$tmp/index.dom")" 1
check "index: the players table with its two rows" \
      "$(sed -n '/id="players"/,/<\/table>/p' "$tmp/index.dom" | grep -c '<tr><td>')" 2
check "index: the summary table" "$(grep -c 'id="summary"' "$tmp/index.dom")" 1
check "index: four games listed" "$(grep -o 'href="games/[0-9a-f]*.html"' "$tmp/index.dom" | wc -l)" 4
check "index: the histograms" "$(grep -o '<figure class="histogram" id="[a-z-]*"><svg' "$tmp/index.dom" | wc -l)" 2

browse --dump-dom "file://$page" > "$tmp/game.dom"
check "game: the win-rate graph is an SVG" "$(grep -c '<figure class="graph" id="winrate"><svg' "$tmp/game.dom")" 1
check "game: the graph has a curve" "$(sed -n '/id="winrate"/,/<\/figure>/p' "$tmp/game.dom" | grep -c '<path\|<polyline' | awk '$1 >= 1 {print "yes"}')" yes
check "game: maps" "$(grep -o '<figure class="map [a-z]*"><svg' "$tmp/game.dom" | wc -l | awk '$1 >= 6 {print "yes"}')" yes
check "game: the mistakes tables" "$(grep -c 'id="mistakes-black"\|id="mistakes-white"' "$tmp/game.dom")" 2

# The sorting self-test: clicks every header of every sortable table twice and
# checks the clicked column is in order (the page's own order: numbers as
# numbers, before text) each time; names the tables whose rows never moved and
# counts the errors thrown. Its answer is a <pre id="sorttest"> in the DOM.
cat > "$tmp/sorttest.js" <<'JS'
(function () {
  var errors = [], bad = [], still = [], tables = 0;
  window.addEventListener('error', function (e) { errors.push(e.message); });
  function key(s) { s = s.trim(); return /^[-+]?[0-9.]+%?$/.test(s) ? parseFloat(s) : NaN; }
  function cmp(p, q) {
    var m = key(p), n = key(q);
    if (!isNaN(m) && !isNaN(n)) return m - n;
    if (!isNaN(m) || !isNaN(n)) return isNaN(m) ? 1 : -1;
    return p.localeCompare(q);
  }
  function column(t, i) {
    return Array.from(t.tBodies[0].rows).map(function (r) {
      return r.cells[i] ? r.cells[i].textContent : '?';
    });
  }
  function order(t) {
    return Array.from(t.tBodies[0].rows).map(function (r) { return r.textContent; }).join('|');
  }
  document.querySelectorAll('table.sortable').forEach(function (t) {
    var heads = t.tHead.rows[0].cells, first = order(t), moved = false;
    tables++;
    for (var i = 0; i < heads.length; i++)
      for (var d = 1; d >= -1; d -= 2) {
        heads[i].click();
        var v = column(t, i);
        for (var k = 1; k < v.length; k++)
          if (d * cmp(v[k - 1], v[k]) > 0) { bad.push(t.id + ':' + i + (d > 0 ? 'up' : 'down')); break; }
        moved = moved || order(t) !== first;
      }
    if (!moved) still.push(t.id);
  });
  var p = document.createElement('pre');
  p.id = 'sorttest';
  p.textContent = 'tables=' + tables + ' unsorted=' + (bad.join(',') || 'none') +
      ' unmoved=' + (still.join(',') || 'none') + ' errors=' + errors.length + ' ' + errors.join(';');
  document.body.appendChild(p);
})();
JS
# sorttest PAGE: the self-test's answer on a copy of PAGE beside it (its links
# stay relative), the script inline after the page's own: nothing is fetched.
sorttest() {
    local copy="${1%.html}-sorttest.html"
    { sed '$d' "$1"; printf '<script>'; cat "$tmp/sorttest.js"; printf '</script></body></html>\n'; } > "$copy"
    browse --dump-dom "file://$copy" | sed -n 's/.*<pre id="sorttest">\([^<]*\)<\/pre>.*/\1/p'
    rm -f "$copy"
}
check "index: its last line closes the page (the self-test's copy replaces it)" \
      "$(tail -1 "$tmp/r/index.html")" "</body></html>"
check "index: every sortable table sorts by the clicked column, no error" \
      "$(sorttest "$tmp/r/index.html")" "tables=4 unsorted=none unmoved=none errors=0 "
check "game: both mistakes tables sort by the clicked column, no error" \
      "$(sorttest "$page")" "tables=2 unsorted=none unmoved=none errors=0 "

browse --screenshot="$tmp/shot.png" --window-size=1100,1600 --hide-scrollbars "file://$page" > /dev/null
check "screenshot: written" "$(test -s "$tmp/shot.png" && echo yes)" yes
if [ -s "$tmp/shot.png" ]; then
    read -r w h colours ink < <("$PNG_STATS" "$tmp/shot.png")
    check "screenshot: not blank (> 100 colours, > 3% ink)" \
          "$(awk -v c="$colours" -v i="$ink" 'BEGIN {print (c > 100 && i > 0.03) ? "drawn" : "blank " c " " i}')" drawn
fi
[ $fail -eq 0 ] || tail -20 "$tmp/chromium.log"
exit $fail
