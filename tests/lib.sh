# tests/lib.sh — what the shell tests share (sourced, not a test itself: the test
# glob takes tests/test_*.sh only). The sourcing test sets fail=0 first.

# check DESCRIPTION ACTUAL EXPECTED: prints ok/FAIL and sets fail=1 on a mismatch.
check() {
    if [ "$2" = "$3" ]; then echo "ok: $1 ($2)"; else echo "FAIL: $1: got '$2', expected '$3'"; fail=1; fi
}

# A TCP port on 127.0.0.1 that nothing answered on a moment ago, or 0.
free_port() {
    local p
    for _ in $(seq 50); do
        p=$((20000 + RANDOM % 40000))
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "$p"; return; fi
    done
    echo 0
}
