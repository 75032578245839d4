#!/usr/bin/env bash
# tests/test_omp_spin.sh — the program sets GNU OpenMP's spin count before the
# runtime reads it (cli/main.c, s_omp_spin_settle): a running `hyeongse`
# holds GOMP_SPINCOUNT=10000 in its environment, and a spin count or wait
# policy the user gave is left as it is. Read from /proc/PID/environ, which
# shows the environment the running image was started with.
set -u
bin=${HS_BIN:?HS_BIN must name the hyeongse binary}
if [ ! -e /proc/self/exe ]; then
    echo "SKIP: no /proc/self/exe here (the settling needs it)"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# The OpenMP variables of a `hyeongse gtp` that waits on a fifo for its input.
omp_env() {
    rm -f "$tmp/in"; mkfifo "$tmp/in"
    env "$@" "$bin" gtp < "$tmp/in" > "$tmp/out" 2>&1 &
    local pid=$! seen=""
    exec 3> "$tmp/in"
    echo name >&3
    # The reply to `name` comes after the re-exec and the start: then the
    # environment is the final one.
    for _ in $(seq 100); do grep -q '^= ' "$tmp/out" && break; sleep 0.05; done
    seen=$(tr '\0' '\n' < /proc/$pid/environ | grep -E '^(GOMP_SPINCOUNT|OMP_WAIT_POLICY)=' | sort | tr '\n' ' ')
    echo quit >&3
    exec 3>&-
    wait $pid || echo "exit $?"
    echo "$seen"
}

expect() {  # expected-output description env...
    local want=$1 what=$2; shift 2
    local got; got=$(omp_env "$@")
    if [ "$got" != "$want" ]; then echo "FAIL: $what: got '$got', want '$want'"; fail=1; fi
}
expect "GOMP_SPINCOUNT=10000 " "no setting: the program's spin count" -u GOMP_SPINCOUNT -u OMP_WAIT_POLICY
expect "GOMP_SPINCOUNT=7 " "the user's spin count stays" -u OMP_WAIT_POLICY GOMP_SPINCOUNT=7
expect "OMP_WAIT_POLICY=active " "the user's wait policy stays, alone" -u GOMP_SPINCOUNT OMP_WAIT_POLICY=active
[ $fail -eq 0 ] && echo "omp spin: ok"
exit $fail
