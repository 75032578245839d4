# tests/lib.sh — what the shell tests share (sourced, not a test itself: the test
# glob takes tests/test_*.sh only). The sourcing test sets fail=0 first.

# check DESCRIPTION ACTUAL EXPECTED: prints ok/FAIL and sets fail=1 on a mismatch.
check() {
    if [ "$2" = "$3" ]; then echo "ok: $1 ($2)"; else echo "FAIL: $1: got '$2', expected '$3'"; fail=1; fi
}

# has DESCRIPTION FILE TEXT: ok when FILE holds TEXT (a fixed string), else FAIL
# with FILE shown; hasnt: the other way round.
has() {
    if grep -qF -- "$3" "$2"; then echo "ok: $1"; else echo "FAIL: $1: no '$3' in:"; cat "$2"; fail=1; fi
}
hasnt() {
    if grep -qF -- "$3" "$2"; then echo "FAIL: $1: '$3' in:"; cat "$2"; fail=1; else echo "ok: $1"; fi
}

# cleanup_pids: the EXIT trap of a test that starts programs in the background
# (their pids in the array pids): kills them, waits, removes $tmp.
cleanup_pids() {
    for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
    wait 2>/dev/null
    rm -rf "$tmp"
}

# A TCP port on 127.0.0.1 that nothing answered on a moment ago, or 0. Only for a
# broker that must come back on the same port after a restart; otherwise bind
# tcp://127.0.0.1:* and read --ready-file (start_broker_at). The port is taken
# below the kernel's ephemeral range: there, no outgoing connection of another
# test can be given it between this probe and the bind (CI saw exactly that).
free_port() {
    local p lo
    lo=$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)
    [ "${lo:-0}" -gt 12000 ] 2>/dev/null || lo=32768
    for _ in $(seq 50); do
        p=$((10000 + RANDOM % (lo - 10000)))
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "$p"; return; fi
    done
    echo 0
}

# start_broker_at ADDR DB LOG [BROKER OPTIONS...]: starts `hyeongse broker` in the
# background (pid in bpid), waits until it serves, and sets addr to the address it
# bound (ADDR may be tcp://127.0.0.1:*) and ready_file to its --ready-file.
# Returns 1, saying why, when the broker exits or does not serve within 20 s, so a
# test fails at once instead of waiting on a broker that is not there.
start_broker_at() {
    local bind=$1 db=$2 log=$3 ready
    shift 3
    ready=$(mktemp -u "${tmp:-${TMPDIR:-/tmp}}/ready-XXXXXX")
    ready_file=$ready
    "$BIN" broker --bind "$bind" --db "$db" --ready-file "$ready" "$@" 2>>"$log" &
    bpid=$!
    for _ in $(seq 200); do
        if [ -s "$ready" ]; then addr=$(head -1 "$ready"); return 0; fi
        kill -0 "$bpid" 2>/dev/null || break
        sleep 0.1
    done
    echo "FAIL: the broker on $db ($bind) does not serve; its log ends:"; tail -3 "$log"
    fail=1
    return 1
}

# report_job DIR: the small job the report tests read: the four 9x9 self-play
# games of examples/ as played by two players (Black and White alternate, one
# game a year from 2017), analysed with judge, influence and rollout MCTS at
# every move with every map into DIR/db. Returns analyze's status.
report_job() {
    local dir=$1 i=0 b w f
    tar xzf "$(dirname "${BASH_SOURCE[0]}")/../examples/selfplay.tar.gz" -C "$dir" selfplay9 || return 1
    for f in "$dir"/selfplay9/*.sgf; do
        i=$((i + 1))
        if [ $((i % 2)) -eq 1 ]; then b="Lee Sedol"; w="Park Junghwan"; else b="Park Junghwan"; w="Lee Sedol"; fi
        sed -i "s/PB\[[^]]*\]/PB[$b]/; s/PW\[[^]]*\]/PW[$w]/; s/DT\[[^]]*\]/DT[$((2016 + i))-01-01]/" "$f"
    done
    "$BIN" analyze "$dir/selfplay9" --db "$dir/db" --engines judge,influence,mcts:visits=16 \
        --maps all --threads 2 --quiet > "$dir/analyze.out" 2>&1
}
