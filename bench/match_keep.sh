#!/usr/bin/env bash
# bench/match_keep.sh — keeps a match's records in the repository, under
# bench/results/NAME, so that a match longer than a machine's life (100 games
# at 200 visits on 2 cores take some four hours) goes on where it stopped on
# another: bench/gtp_match.py resumes from the records in its folder. Kept:
# match.json (the engines' command lines), the KataGo configs (*.cfg), game-NNNN.sgf and
# .json, and summary.txt; not the engines' logs. bench/results/README.md says
# which build each folder is.
#
# usage: bench/match_keep.sh MATCH_DIR NAME            records into bench/results/NAME
#        bench/match_keep.sh --restore NAME MATCH_DIR  and back into a match folder
# A match resumes only with the same command lines (gtp_match.py refuses
# others): restore into the folder match.json names, with the same build at
# the path it names (e.g. `git worktree add` of that commit, built there).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
copy() {   # FROM TO
    mkdir -p "$2"
    local f n=0
    for f in "$1"/match.json "$1"/*.cfg "$1"/summary.txt "$1"/game-*.sgf "$1"/game-*.json; do
        [ -f "$f" ] || continue
        cp -p "$f" "$2/"
        n=$((n + 1))
    done
    echo "match_keep: $n files from $1 to $2" >&2
}
if [ "${1:-}" = "--restore" ]; then
    [ $# -eq 3 ] || { echo "usage: $0 --restore NAME MATCH_DIR" >&2; exit 2; }
    [ -f "$here/results/$2/match.json" ] || { echo "no match named $2 in $here/results" >&2; exit 1; }
    copy "$here/results/$2" "$3"
else
    [ $# -eq 2 ] || { echo "usage: $0 MATCH_DIR NAME | --restore NAME MATCH_DIR" >&2; exit 2; }
    [ -f "$1/match.json" ] || { echo "$1 is not a match folder (no match.json)" >&2; exit 1; }
    case "$2" in */* | .* | "") echo "NAME: one plain folder name" >&2; exit 2 ;; esac
    copy "$1" "$here/results/$2"
fi
