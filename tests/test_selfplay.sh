#!/usr/bin/env bash
# tests/test_selfplay.sh — `hyeongse selfplay` with the rollout evaluator on 9x9
# (2 games, few visits: seconds): usage errors, the SGF it writes (SZ KM RU PB
# PW DT RE, colours alternating, an end the game loop allows), that our own
# reader takes the games (`ingest --dry-run --json`: replayed with full
# legality checks, every game with a result), determinism with --seed, and the
# one-file collection form of --out.
set -u
bin=${HS_BIN:?HS_BIN must name the hyeongse binary}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if eval "$1"; then :; else echo "FAIL: $2"; fail=1; fi; }
json_field() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval("d"+sys.argv[2]))' "$@"; }

"$bin" selfplay --help | grep -q -- '--visits'; check '[ $? -eq 0 ]' "--help prints the options"
"$bin" selfplay --size 1 --out "$tmp/x" 2>/dev/null; check '[ $? -eq 2 ]' "size 1 is a usage error"
"$bin" selfplay --size 20 --out "$tmp/x" 2>/dev/null; check '[ $? -eq 2 ]' "size 20 is a usage error"
"$bin" selfplay --games 0 --out "$tmp/x" 2>/dev/null; check '[ $? -eq 2 ]' "0 games is a usage error"
"$bin" selfplay --visits abc --out "$tmp/x" 2>/dev/null; check '[ $? -eq 2 ]' "--visits abc"
"$bin" selfplay --games 1 2>/dev/null; check '[ $? -eq 2 ]' "--out is required"
"$bin" selfplay --rules nonsense --out "$tmp/x" 2>/dev/null; check '[ $? -eq 2 ]' "unknown rules"
"$bin" selfplay --bogus 1 --out "$tmp/x" 2>/dev/null; check '[ $? -eq 2 ]' "unknown option"
"$bin" selfplay --size 5 --visits 2 --out /proc/no/such/dir 2>/dev/null; check '[ $? -eq 1 ]' "unwritable folder"
"$bin" selfplay --net "$tmp/none.bin.gz" --out "$tmp/x" 2>/dev/null; check '[ $? -eq 1 ]' "missing net file"

run() { "$bin" selfplay --size 9 --visits 24 --games 2 --komi 7 --threads 2 "$@"; }
run --seed 5 --out "$tmp/a" > "$tmp/a.out" 2> "$tmp/a.err"; check '[ $? -eq 0 ]' "9x9 rollout run"
run --seed 5 --out "$tmp/b" > /dev/null 2>&1
run --seed 6 --out "$tmp/c" > /dev/null 2>&1
check '[ $(ls "$tmp/a" | wc -l) -eq 2 ]' "2 files written"
check '[ $(grep -c "^hyeongse selfplay: game [12]/2: " "$tmp/a.err") -eq 2 ]' "progress per game on stderr"
check 'grep -q "^wrote 2 games" "$tmp/a.out"' "summary on stdout"
# DT is the day of the run; everything else must repeat.
strip_dt() { sed 's/DT\[[0-9-]*\]//' "$1"; }
same=1
for f in "$tmp"/a/*.sgf; do
    g="$tmp/b/$(basename "$f")"
    [ -f "$g" ] && diff <(strip_dt "$f") <(strip_dt "$g") > /dev/null || same=0
done
check '[ $same -eq 1 ]' "the same seed gives the same games"
check '! diff -r "$tmp/a" "$tmp/c" > /dev/null' "another seed gives other games"
check '! diff "$tmp/a/selfplay-000001.sgf" "$tmp/a/selfplay-000002.sgf" > /dev/null' "two games differ"

for f in "$tmp"/a/*.sgf; do
    check 'grep -q "^(;FF\[4\]GM\[1\]CA\[UTF-8\]AP\[hyeongse:selfplay\]SZ\[9\]KM\[7\]RU\[chinese\]" "$f"' "$f header"
    check 'grep -q "PB\[hyeongse selfplay (rollouts) 24 visits\]PW\[hyeongse selfplay (rollouts) 24 visits\]" "$f"' "$f players"
    check 'grep -Eq "DT\[[0-9]{4}-[0-9]{2}-[0-9]{2}\]" "$f"' "$f DT"
    check 'grep -Eq "RE\[([BW]\+([0-9.]+|R)|0)\]" "$f"' "$f RE"
    moves=$(tr -d '\n' < "$f" | grep -o ';[BW]\[' | tr -d ';[' | tr -d '\n')
    check '[[ "$moves" =~ ^(BW)*B?$ ]]' "$f colours alternate from Black"
    check '[ ${#moves} -gt 20 ]' "$f is a real game (${#moves} moves)"
    # The end: two passes, a resignation, or the cap (2 * 81 moves).
    check 'tr -d "\n" < "$f" | grep -Eq ";[BW]\[\];[BW]\[\]\)$" || grep -q "RE\[[BW]+R\]" "$f" || [ ${#moves} -eq 162 ]' "$f ends as the loop allows"
done

"$bin" ingest "$tmp/a" --dry-run --no-progress --json > "$tmp/a.json" 2>/dev/null
check '[ "$(json_field "$tmp/a.json" "[\"games\"]")" = 2 ]' "our reader takes both games"
check '[ "$(json_field "$tmp/a.json" "[\"failed\"]")" = 0 ]' "no game fails the replay's legality checks"
check '[ "$(json_field "$tmp/a.json" "[\"winners\"][\"unknown\"]")" = 0 ]' "every game has a winner or a draw"
check '[ "$(json_field "$tmp/a.json" "[\"rules\"][\"chinese\"]")" = 2 ]' "RU read as chinese"

# One collection file, Tromp-Taylor rules (the plain count at the end).
"$bin" selfplay --size 7 --visits 16 --games 2 --seed 3 --rules tromp-taylor --out "$tmp/all.sgf" > /dev/null 2>&1
check '[ $? -eq 0 ]' "collection run"
check '[ $(grep -c "^(;FF" "$tmp/all.sgf") -eq 2 ]' "two game trees in one file"
"$bin" ingest "$tmp/all.sgf" --dry-run --no-progress --json > "$tmp/all.json" 2>/dev/null
check '[ "$(json_field "$tmp/all.json" "[\"games\"]")" = 2 ]' "the collection's games read"
check '[ "$(json_field "$tmp/all.json" "[\"failed\"]")" = 0 ]' "the collection replays"
"$bin" inspect "$tmp/a/selfplay-000001.sgf" > "$tmp/inspect.out" 2>&1
check 'grep -q "^result: *[BW0]" "$tmp/inspect.out"' "inspect reads the result"

if [ $fail -eq 0 ]; then echo "selfplay: all checks passed"; fi
exit $fail
