#!/usr/bin/env bash
# tests/test_report_sgf_sabaki.sh — the annotated SGF of reports/game_report.h
# read by a parser that is not ours: @sabaki/sgf (the library Sabaki opens files
# with), pinned in bench/package.json. tests/test_game_report writes the SGF of
# its hand-built game (HS_REPORT_SGF_OUT); node parses it and checks the main
# line's moves, a comment, the escaped player name and the territory markup.
# Skips (77) when node or bench/node_modules/@sabaki/sgf is absent
# (install with `cd bench && npm ci`).
set -u
here=$(cd "$(dirname "$0")" && pwd)
sabaki="$here/../bench/node_modules/@sabaki/sgf"
if ! command -v node >/dev/null 2>&1; then
    echo "SKIP: node is not installed; this test parses the SGF with @sabaki/sgf"
    exit 77
fi
if [ ! -d "$sabaki" ]; then
    echo "SKIP: $sabaki is absent; install it with 'cd bench && npm ci'"
    exit 77
fi
BIN=${HS_BIN:?HS_BIN must name the hyeongse binary}
writer="$(dirname "$BIN")/../tests/test_game_report"
if [ ! -x "$writer" ]; then
    echo "FAIL: $writer (which writes the annotated SGF) is not built"
    exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hs-test-sabaki-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

if ! HS_REPORT_SGF_OUT="$tmp/game.sgf" "$writer" > "$tmp/writer.out" 2>&1; then
    cat "$tmp/writer.out"
    echo "FAIL: test_game_report failed"
    exit 1
fi

SABAKI="$sabaki" node - "$tmp/game.sgf" <<'EOF'
'use strict'
const sgf = require(process.env.SABAKI)
const text = require('fs').readFileSync(process.argv[2], 'utf8')
let fail = 0
function check(what, got, want) {
  const ok = JSON.stringify(got) === JSON.stringify(want)
  console.log(`${ok ? 'ok' : 'FAIL'}: ${what}: ${JSON.stringify(got)}` +
              (ok ? '' : ` (expected ${JSON.stringify(want)})`))
  if (!ok) fail = 1
}
const roots = sgf.parse(text)
check('game trees', roots.length, 1)
const root = roots[0]
// The main line: every node's first child, as Sabaki walks it.
const line = []
for (let n = root.children[0]; n; n = n.children[0]) line.push(n)
const moves = line.map(n => n.data.B ? 'B' + n.data.B[0] : n.data.W ? 'W' + n.data.W[0] : '?')
check('moves', moves, ['Bee', 'Wcc', 'Bgc', 'Wcg', 'Bgg', 'Wce', 'Bdc', 'W'])
check('size and komi', [root.data.SZ, root.data.KM], [['9'], ['7']])
check('escaped player name', root.data.PB, ['Kim ] Black'])
check('comment at move 5', line[4].data.C,
      ['Black win rate 60.0% (net), lead B+1.0\nLoss: 3.0 points, 12.0% win rate'])
check('root comment', root.data.C, ['Black win rate 50.0% (MCTS), lead even, best E5'])
const last = line[line.length - 1]
check('TB at the end', last.data.TB, ['aa', 'ba', 'ca', 'cc', 'ce'])
check('TW at the end', last.data.TW, ['ee', 'gi', 'hi', 'ii'])
check('MA at the end', last.data.MA, ['cc', 'ce', 'ee'])
process.exit(fail)
EOF
