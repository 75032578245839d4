#!/usr/bin/env bash
# bench/katago_gtp_cfg.sh — writes the `katago gtp` config that the search
# benchmarks give KataGo (bench/mcts_katago.sh, bench/move_quality.sh):
# VISITS visits and THREADS search threads a move, chinese rules, no
# pondering, random symmetries, logs to stderr only as asked. KataGo's GTP
# refuses a config without its log and resignation keys, so all are here.
#
# usage: bench/katago_gtp_cfg.sh FILE VISITS THREADS [RESIGN [LOG_SEARCH]]
#   RESIGN      true: resign below 5% for 3 moves in a row (a match); false
#               (default): never (moves judged one by one)
#   LOG_SEARCH  true: the search's log on stderr ("Root visits: N", for the
#               visits/s figures); false (default): silent
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: $0 FILE VISITS THREADS [RESIGN [LOG_SEARCH]]" >&2; exit 2; }
cat > "$1" <<CFG
# Written by bench/katago_gtp_cfg.sh.
logFile = /dev/null
logToStderr = ${5:-false}
logSearchInfo = ${5:-false}
logAllGTPCommunication = false
rules = chinese
maxVisits = $2
numSearchThreads = $3
ponderingEnabled = false
allowResignation = ${4:-false}
resignThreshold = -0.90
resignConsecTurns = 3
nnRandomize = true
CFG
