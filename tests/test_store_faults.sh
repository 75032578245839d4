#!/usr/bin/env bash
# tests/test_store_faults.sh — a store that is empty, truncated, corrupt, or on a
# full disk gives a clear error, never a crash:
#   - an empty data.mdb is refused by query, check and analyze (which must not
#     start a new store in it);
#   - a truncated data.mdb is refused before it is mapped (query stats used to
#     die of SIGBUS), by query, check and analyze (which must not extend it);
#   - bytes flipped at seeded random offsets of a small store, many trials:
#     query exits 0 with exactly the reference output, or non-zero with a
#     message; never a signal death or a hang; a changed output with exit 0 must
#     at least be flagged by `check`;
#   - check: exit 0 on a healthy store, 1 with the problem listed, 2 on usage;
#   - a store in a folder the reader may not write is read (without LMDB's lock
#     file), unless a writer holds it, which is refused with the reason;
#   - disk full: analyze on a small tmpfs stops with "disk full" (it used to die
#     of SIGBUS), keeps what it committed (check passes), and a rerun with more
#     space ends with the same evals as a run that never hit the limit. Needs
#     `mount -t tmpfs` (root); that case is skipped with a message otherwise.
set -u
BIN=${HS_BIN:?HS_BIN must name the hyeongse binary}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ARCHIVE=$ROOT/tests/data/random9.tar.gz
tmp=$(mktemp -d /tmp/hs-test-store-faults-XXXXXX)
mounted=""
trap '[ -n "$mounted" ] && umount "$mounted"; rm -rf "$tmp"' EXIT
fail=0
# check
. "$(dirname "$0")/lib.sh"

# not_signal DESCRIPTION RC: an exit status below 124 (124: timeout; >= 128: a signal).
not_signal() {
    if [ "$2" -lt 124 ]; then echo "ok: $1 (exit $2)"; else echo "FAIL: $1: exit $2 (signal or hang)"; fail=1; fi
}
# has DESCRIPTION FILE PATTERN: FILE contains the extended regex PATTERN.
has() {
    if grep -Eq "$3" "$2"; then echo "ok: $1"; else echo "FAIL: $1: no /$3/ in:"; head -5 "$2"; fail=1; fi
}
need_bytes() { "$BIN" check --db "$1" --json | grep -o '"need_bytes":[0-9]*' | cut -d: -f2; }
# The evals of a store, without the engines' timings (the only field that differs
# between two runs).
evals_of() { "$BIN" query --db "$1" --json | sed 's/,"timing_us":[0-9]*//' | sort | md5sum; }

# A small healthy store: 200 random 9x9 games, engine area (fast, deterministic).
"$BIN" analyze "$ARCHIVE" --db "$tmp/good" --threads 1 --engines area --quiet > "$tmp/good.out" 2>&1
check "analyze the small store" "$?" 0
"$BIN" query --db "$tmp/good" --json > "$tmp/good.json"
check "the small store's rows" "$(wc -l < "$tmp/good.json")" 21850
# The room reserved ahead of the map (a full disk is then an error, not a
# SIGBUS) is given back at a clean close: the file is as long as its pages.
check "a closed store's file is as long as its pages" \
      "$(stat -c %s "$tmp/good/data.mdb")" "$(need_bytes "$tmp/good")"

# ---- check on a healthy store, and its usage ----
"$BIN" check --db "$tmp/good" > "$tmp/check.out" 2>&1
check "check: healthy store" "$?" 0
has "check: says ok" "$tmp/check.out" "^ok: no problem found"
"$BIN" check > /dev/null 2>&1
check "check without --db: usage" "$?" 2
check "check --json: no problem" "$("$BIN" check --db "$tmp/good" --json | grep -o '"problems":[0-9]*')" '"problems":0'

# ---- a store with a failed game (its record sealed with a checksum since
# format 2, which check read as format 1 and called malformed) ----
mkdir "$tmp/withbad"
printf 'not an sgf' > "$tmp/withbad/broken.sgf"
cp "$ARCHIVE" "$tmp/withbad/"
"$BIN" analyze "$tmp/withbad" --db "$tmp/bad" --threads 1 --engines area --quiet > /dev/null 2>&1
check "analyze a folder with a broken file" "$?" 0
check "its store lists the failed game" "$("$BIN" query --db "$tmp/bad" failed | grep -c broken.sgf)" 1
"$BIN" check --db "$tmp/bad" > "$tmp/checkbad.out" 2>&1
check "check: a store with a failed game is healthy" "$?" 0

# ---- an empty data.mdb ----
mkdir "$tmp/empty" && : > "$tmp/empty/data.mdb"
"$BIN" query --db "$tmp/empty" stats > "$tmp/e.out" 2>&1
rc=$?; not_signal "query on an empty data.mdb" "$rc"; check "query on an empty data.mdb fails" "$([ $rc -ne 0 ] && echo yes)" yes
has "query: says the file is empty" "$tmp/e.out" "is empty \(0 bytes\): not a store; to start a new store, remove the folder"
"$BIN" analyze "$ARCHIVE" --db "$tmp/empty" --threads 1 --engines area --quiet > "$tmp/e.out" 2>&1
rc=$?; not_signal "analyze on an empty data.mdb" "$rc"; check "analyze on an empty data.mdb fails" "$([ $rc -ne 0 ] && echo yes)" yes
has "analyze: says the file is empty" "$tmp/e.out" "is empty \(0 bytes\)"
check "analyze left the empty file alone" "$(stat -c %s "$tmp/empty/data.mdb")" 0
"$BIN" check --db "$tmp/empty" > "$tmp/e.out" 2>&1
check "check on an empty data.mdb" "$?" 1

# ---- a truncated data.mdb ----
need=$(need_bytes "$tmp/good")
mkdir "$tmp/trunc" && cp --sparse=always "$tmp/good/data.mdb" "$tmp/trunc/"
truncate -s $((need / 2)) "$tmp/trunc/data.mdb"
"$BIN" query --db "$tmp/trunc" stats > "$tmp/t.out" 2>&1
rc=$?; not_signal "query stats on a truncated store" "$rc"; check "query stats on a truncated store fails" "$([ $rc -ne 0 ] && echo yes)" yes
has "query: says truncated, with both sizes" "$tmp/t.out" "store file is truncated: $((need / 2)) bytes, its meta pages say at least $need"
"$BIN" check --db "$tmp/trunc" > "$tmp/t.out" 2>&1
check "check on a truncated store" "$?" 1
has "check: lists the truncation" "$tmp/t.out" "^problem: .*truncated"
"$BIN" analyze "$ARCHIVE" --db "$tmp/trunc" --threads 1 --engines area --quiet > "$tmp/t.out" 2>&1
rc=$?; not_signal "analyze on a truncated store" "$rc"; check "analyze on a truncated store fails" "$([ $rc -ne 0 ] && echo yes)" yes
check "analyze did not extend the truncated file" "$(stat -c %s "$tmp/trunc/data.mdb")" $((need / 2))

# ---- flipped bytes ----
# flip FILE SEED RUNS LO HI: RUNS runs of 1-16 random bytes at seeded random
# offsets in [LO, HI) (one dd a run: hundreds of bytes a trial stay cheap).
flip() {
    local f=$1 n=$3 lo=$4 hi=$5 off len s h
    RANDOM=$2
    for _ in $(seq "$n"); do
        off=$((lo + ((RANDOM << 15 | RANDOM) % (hi - lo))))
        len=$((1 + RANDOM % 16)) s=""
        for _ in $(seq "$len"); do printf -v h '\\x%02x' $((RANDOM % 256)); s+=$h; done
        printf "$s" | dd of="$f" bs=1 seek="$off" conv=notrunc status=none
    done
}
trials=${HS_FAULT_TRIALS:-40}
same=0 errors=0 flagged=0 bad=0 faults=0
for seed in $(seq 1 "$trials"); do
    # Only the pages in use: the rest of the map is never read.
    rm -rf "$tmp/c" && mkdir "$tmp/c" && head -c "$need" "$tmp/good/data.mdb" > "$tmp/c/data.mdb"
    # A few bytes in some trials, hundreds in others; the meta pages (0, 1) too in every 5th.
    lo=8192; [ $((seed % 5)) = 0 ] && lo=0
    flip "$tmp/c/data.mdb" "$seed" $((1 + seed * 7 % 40)) "$lo" "$need"
    # Under ASan: the fault guard must see SIGSEGV/SIGBUS itself (ASan's handler
    # would abort first), and after a fault it leaves the store open on purpose
    # (LMDB's state is unknown), which the leak check would call a leak.
    ASAN_OPTIONS="${ASAN_OPTIONS:-}:handle_segv=0:handle_sigbus=0:detect_leaks=0" \
        timeout 60 "$BIN" query --db "$tmp/c" --json > "$tmp/c.json" 2> "$tmp/c.err"
    rc=$?
    if [ "$rc" -ge 124 ]; then
        echo "FAIL: flip seed $seed: query exit $rc (signal or hang)"; bad=$((bad + 1))
        tail -5 "$tmp/c.err"
    elif [ "$rc" -ne 0 ]; then
        if [ -s "$tmp/c.err" ]; then errors=$((errors + 1)); else
            echo "FAIL: flip seed $seed: exit $rc without a message"; bad=$((bad + 1)); fi
    elif cmp -s "$tmp/c.json" "$tmp/good.json"; then
        same=$((same + 1))
    else
        # Exit 0 with other rows: LMDB has no page checksums, so a damaged key can
        # hide rows from a reader; check must see it.
        ASAN_OPTIONS="${ASAN_OPTIONS:-}:handle_segv=0:handle_sigbus=0:detect_leaks=0" \
            "$BIN" check --db "$tmp/c" > "$tmp/c.check" 2>&1
        crc=$?
        if [ "$crc" = 1 ]; then flagged=$((flagged + 1)); else
            echo "FAIL: flip seed $seed: query exit 0 with $(wc -l < "$tmp/c.json") rows, check exit $crc"
            bad=$((bad + 1)); fi
    fi
    # check itself: never a crash; when LMDB faults under it, it names the table
    # it was walking (and does not tell the user to run check).
    ASAN_OPTIONS="${ASAN_OPTIONS:-}:handle_segv=0:handle_sigbus=0:detect_leaks=0" \
        timeout 60 "$BIN" check --db "$tmp/c" > "$tmp/c.check" 2>&1
    crc=$?
    if [ "$crc" -ge 124 ] || grep -q 'run `hyeongse check' "$tmp/c.check"; then
        echo "FAIL: flip seed $seed: check exit $crc: $(grep 'store:' "$tmp/c.check")"
        bad=$((bad + 1))
    elif grep -q "reading table '[a-z]*' made LMDB fault" "$tmp/c.check"; then
        faults=$((faults + 1))
    fi
done
echo "flips: $trials trials: $same same output, $errors errors with a message," \
     "$flagged changed output flagged by check, $bad bad; check caught $faults faults" \
     "of LMDB and named their tables"
check "flips: never a crash, a hang, a silent error or an unflagged change" "$bad" 0

# ---- a store in a folder the reader may not write (a colleague's copy on a
# read-only share): LMDB's lock.mdb cannot be opened for writing there, and
# query, report and check said "Permission denied" of a healthy store. They
# read it without the lock file while no writer holds the folder, and refuse,
# saying why, while one does. Needs a user other than root to be refused.
cp -r "$tmp/good" "$tmp/ro"
chmod -R a-w "$tmp/ro"; chmod a+rx "$tmp" "$tmp/ro"
as_reader=()
if [ "$(id -u)" = 0 ]; then
    command -v setpriv > /dev/null && as_reader=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi
if [ "$(id -u)" = 0 ] && [ ${#as_reader[@]} = 0 ]; then
    echo "SKIP: read-only store: root without setpriv cannot be refused a write"
else
    "${as_reader[@]}" "$BIN" query --db "$tmp/ro" --json > "$tmp/ro.json" 2> "$tmp/ro.err"
    check "read-only folder: query exit status" "$?" 0
    check "read-only folder: query reads every row" "$(cmp -s "$tmp/ro.json" "$tmp/good.json" && echo same)" same
    "${as_reader[@]}" "$BIN" check --db "$tmp/ro" > "$tmp/ro.check" 2>&1
    check "read-only folder: check finds no problem" "$?" 0
    # A writer holds the folder (flock, as analyze and the broker do).
    if command -v flock > /dev/null; then
        flock -x "$tmp/ro" sleep 30 & holder=$!
        sleep 0.3
        "${as_reader[@]}" "$BIN" query --db "$tmp/ro" stats > /dev/null 2> "$tmp/ro.err"
        check "read-only folder, a writer at work: query refuses" "$?" 1
        has "read-only folder, a writer at work: says why" "$tmp/ro.err" \
            "cannot read this store while another process writes it without write access"
        kill "$holder" 2> /dev/null; wait "$holder" 2> /dev/null
    fi
fi
chmod -R u+w "$tmp/ro"

# ---- a full disk ----
if ! command -v mount > /dev/null || ! mkdir "$tmp/small" ||
   ! mount -t tmpfs -o size=8m tmpfs "$tmp/small" 2> "$tmp/mount.err"; then
    echo "SKIP: disk full: cannot mount a tmpfs here ($(cat "$tmp/mount.err" 2>/dev/null))"
    exit $fail
fi
mounted=$tmp/small
# influence + judge with every map store ~12 MB for this archive: more than the
# 8 MB tmpfs (the default maps fit in it since the compact format).
"$BIN" analyze "$ARCHIVE" --db "$tmp/ref" --threads 1 --engines influence,judge --maps all --quiet > "$tmp/ref.out" 2>&1
check "reference run" "$?" 0
timeout 60 "$BIN" analyze "$ARCHIVE" --db "$tmp/small/db" --threads 1 --engines influence,judge --maps all \
    --quiet > "$tmp/full.out" 2>&1
rc=$?
not_signal "analyze on a full disk" "$rc"
check "analyze on a full disk fails" "$([ "$rc" -ne 0 ] && echo yes)" yes
has "analyze: says disk full, the file and the bytes needed" "$tmp/full.out" \
    "disk full: .*/data.mdb needs [0-9]+ bytes"
"$BIN" check --db "$tmp/small/db" > "$tmp/full.check" 2>&1
check "check after the disk filled" "$?" 0
stored=$("$BIN" query --db "$tmp/small/db" stats --json | grep -o '"positions":[0-9]*')
echo "stored before the disk filled: $stored"
mount -o remount,size=64m "$tmp/small"
"$BIN" analyze "$ARCHIVE" --db "$tmp/small/db" --threads 1 --engines influence,judge --maps all --quiet \
    > "$tmp/rerun.out" 2>&1
check "rerun with space" "$?" 0
for f in games positions evals; do
    check "rerun: $f as the reference" \
          "$("$BIN" query --db "$tmp/small/db" stats --json | grep -o "\"$f\":[0-9]*")" \
          "$("$BIN" query --db "$tmp/ref" stats --json | grep -o "\"$f\":[0-9]*")"
done
check "rerun: the same evals as the reference" "$(evals_of "$tmp/small/db")" "$(evals_of "$tmp/ref")"
"$BIN" check --db "$tmp/small/db" > "$tmp/rerun.check" 2>&1
check "check after the rerun" "$?" 0
exit $fail
