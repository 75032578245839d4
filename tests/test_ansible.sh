#!/usr/bin/env bash
# tests/test_ansible.sh — the Ansible deployment (ansible/) as CI runs it:
#   A. `ansible-playbook --syntax-check` of site.yml and teardown.yml with both
#      inventories, and ansible-lint (profile production: ansible/.ansible-lint);
#      which binary each host of the example inventory gets (hs_binary, and
#      hs_binary_gpu on gpu_workers) and how a source build is configured there;
#      `--check` of a fresh local deploy passes and writes nothing;
#   B. the local mode (inventory.local.ini): site.yml into a temp prefix (under
#      $TMPDIR, default /tmp) as the user running the test, a broker on
#      127.0.0.1 and one worker as plain processes, the keys made by
#      `hyeongse keygen` (broker, worker, operator)
#      and the allow-lists built from them; the program and the default model
#      (models/) installed, the worker loading the model;
#   C. site.yml again: nothing changes and nothing restarts, and --check finds
#      nothing to change; once more with one option changed (hs_verbose): both
#      services restart, with it;
#   D. `submit --wait` of tests/data/random9.tar.gz with the operator's admin
#      key and the broker's public key; every position of the archive (counted
#      by `ingest --dry-run`) is in the store (`query --db ... stats`); the
#      operator's `status` sees it done, a client without keys gets no answer;
#      a `submit --engines net` job (the default model) is done too;
#   E. a new worker key pair (its files removed, site.yml again) restarts the
#      worker and the broker with it; a binary that would not start on the host
#      (a library ldd cannot find, SIGILL at --version, no cuda backend for a
#      cuda worker) fails the deploy with the fix in its message and leaves the
#      installed program and the running services alone (needs a C compiler);
#   F. teardown.yml stops both; no process of the prefix is left.
# A failure anywhere still stops every process of the prefix (trap).
set -u
BIN=${HS_BIN:?HS_BIN must name the hyeongse binary}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ARCHIVE="$ROOT/tests/data/random9.tar.gz"
for c in ansible-playbook ansible-lint; do
    command -v "$c" >/dev/null || { echo "SKIP: $c is needed (Debian: apt-get install ansible ansible-lint)"; exit 77; }
done
[ -f "$ARCHIVE" ] || { echo "SKIP: $ARCHIVE is missing"; exit 77; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/hs-test-ansible-XXXXXX")
prefix=$tmp/prefix
fail=0
. "$(dirname "$0")/lib.sh"

# The pids of every process started from the prefix's program.
prefix_pids() {
    local d cmd
    for d in /proc/[0-9]*; do
        cmd=$(tr '\0' ' ' 2>/dev/null <"$d/cmdline") || continue
        case $cmd in *"$prefix/bin/hyeongse "*) echo "${d#/proc/}" ;; esac
    done
}
cleanup() {
    local p
    for p in $(prefix_pids); do kill -9 "$p" 2>/dev/null; done
    rm -rf "$tmp"
}
trap cleanup EXIT
trap "exit 1" INT TERM HUP

# Ansible writes nothing in $HOME: its temp files, caches and facts go to $tmp.
export ANSIBLE_HOME="$tmp/ansible-home" ANSIBLE_LOCAL_TEMP="$tmp/ansible-local" \
    ANSIBLE_REMOTE_TEMP="$tmp/ansible-remote" XDG_CACHE_HOME="$tmp/cache" \
    ANSIBLE_NOCOLOR=1 ANSIBLE_FORCE_COLOR=0 ANSIBLE_RETRY_FILES_ENABLED=0 \
    ANSIBLE_DEPRECATION_WARNINGS=0 ANSIBLE_LOCALHOST_WARNING=0 NO_COLOR=1
cd "$ROOT/ansible" || exit 1

# ---- A: syntax and lint -----------------------------------------------------------
for inv in inventory.example.ini inventory.local.ini; do
    for pb in site.yml teardown.yml; do
        ansible-playbook -i "$inv" "$pb" --syntax-check >"$tmp/syntax.out" 2>&1
        rc=$?
        check "A: syntax-check $pb with $inv" "$rc" 0
        [ "$rc" = 0 ] || cat "$tmp/syntax.out"
    done
done
ansible-lint >"$tmp/lint.out" 2>&1
rc=$?
check "A: ansible-lint (profile production)" "$rc" 0
[ "$rc" = 0 ] || tail -n 30 "$tmp/lint.out"

# Which program each host gets: the debug module runs on the controller, so the
# example inventory's hosts are never contacted.
hostvar() {   # hostvar VAR HOST: VAR as the example inventory gives it to HOST
    grep "^$2 " "$tmp/$1.out" | sed -n "s/.*\"$1\": \"\([^\"]*\)\".*/\1/p"
}
for v in hs__binary hs_cmake_args; do
    ansible all -i inventory.example.ini -m ansible.builtin.debug -a "var=$v" -o \
        -e hs_binary=/cpu/hyeongse -e hs_binary_gpu=/gpu/hyeongse >"$tmp/$v.out" 2>&1
done
check "A: the broker gets hs_binary" "$(hostvar hs__binary broker1.example.org)" /cpu/hyeongse
check "A: a CPU worker gets hs_binary" "$(hostvar hs__binary cpu1.example.org)" /cpu/hyeongse
check "A: a GPU worker gets hs_binary_gpu" "$(hostvar hs__binary gpu1.example.org)" /gpu/hyeongse
check "A: a CPU worker's source build has no cuDNN" "$(hostvar hs_cmake_args cpu1.example.org)" \
    "-DCMAKE_BUILD_TYPE=Release -DHS_CUDNN=OFF"
check "A: a GPU worker's source build has cuDNN" "$(hostvar hs_cmake_args gpu1.example.org)" \
    "-DCMAKE_BUILD_TYPE=Release -DHS_CUDNN=ON"

port=$(free_port); [ "$port" != 0 ] || { echo "FAIL: no free port"; exit 1; }
addr="tcp://127.0.0.1:$port"
opts=(-e "hs_prefix=$prefix" -e "hs_port=$port" -e "hs_binary=$BIN")

# --check of a fresh deploy: no key exists yet, so the allow-lists and the
# broker's key cannot be read; it passes, saying a real run writes them.
ansible-playbook -i inventory.local.ini site.yml --check "${opts[@]}" >"$tmp/check.log" 2>&1
rc=$?
check "A: --check of a fresh local deploy" "$rc" 0
[ "$rc" = 0 ] || tail -n 30 "$tmp/check.log"
grep -q "the allow-lists written, by a real run" "$tmp/check.log"
check "A: --check says the allow-lists are written by a real run" "$?" 0
check "A: --check writes nothing" "$([ -e "$prefix" ] && echo yes || echo no)" no

# ---- B: the local deployment ------------------------------------------------------
deploy() {   # deploy LOG [MORE -e OPTIONS]: site.yml in the local mode
    local log=$1
    shift
    ansible-playbook -i inventory.local.ini site.yml "${opts[@]}" "$@" >"$log" 2>&1
}
recap() {   # recap LOG FIELD: a number of the PLAY RECAP line (changed, failed)
    grep -E '^localhost +:' "$1" | grep -o "$2=[0-9]*" | cut -d= -f2
}
pid_of() { cat "$prefix/var/run/$1.pid" 2>/dev/null; }
alive() { [ -n "$1" ] && kill -0 "$1" 2>/dev/null && echo yes || echo no; }

deploy "$tmp/deploy1.log"
rc=$?
check "B: site.yml in the local mode" "$rc" 0
[ "$rc" = 0 ] || tail -n 30 "$tmp/deploy1.log"
bpid=$(pid_of broker); wpid=$(pid_of worker)
check "B: the broker runs" "$(alive "$bpid")" yes
check "B: the worker runs" "$(alive "$wpid")" yes
check "B: the broker serves on its port" "$(head -1 "$prefix/var/run/broker.ready" 2>/dev/null)" "$addr"
check "B: the broker reads its options file" "$(tr '\0' ' ' 2>/dev/null <"/proc/$bpid/cmdline")" \
    "$prefix/bin/hyeongse broker --config $prefix/etc/broker.conf "
grep -q "^key $prefix/keys/broker.key\$" "$prefix/etc/broker.conf"; check "B: CURVE: the broker's options name its key" "$?" 0
grep -q "^server-key $prefix/keys/server.pub\$" "$prefix/etc/worker.conf"; check "B: the worker's options name the broker's key" "$?" 0
check "B: the worker's secret key is its owner's only" "$(stat -c %a "$prefix/keys/worker.key" 2>/dev/null)" 600
check "B: the broker's public key, as the worker got it" "$(cat "$prefix/keys/server.pub" 2>/dev/null)" \
    "$(cat "$prefix/keys/broker.pub" 2>/dev/null)"
# Z85 keys hold regex characters (* + ^ ...): fixed-string matches.
wkey=$(awk '{print $1; exit}' "$prefix/keys/worker.pub" 2>/dev/null)
okey=$(awk '{print $1; exit}' "$prefix/controller/operator.pub" 2>/dev/null)
check "B: the worker's key in the broker's worker list" "$(grep -cxF -e "$wkey localhost" "$prefix/etc/workers.list")" 1
check "B: the operator's key in the broker's admin list" "$(grep -cxF -e "$okey operator" "$prefix/etc/admins.list")" 1
check "B: the operator's secret key is its owner's only" "$(stat -c %a "$prefix/controller/operator.key" 2>/dev/null)" 600
cmp -s "$BIN" "$prefix/bin/hyeongse"; check "B: the program installed is hs_binary" "$?" 0
model=$prefix/share/hyeongse/models/hyeongse-default.hsn
cmp -s "$ROOT/models/hyeongse-default.hsn" "$model"; check "B: the default model installed from models/" "$?" 0
grep -qxF "net $model" "$prefix/etc/worker.conf"; check "B: the worker loads the default model" "$?" 0

# ---- C: idempotent; a changed option restarts -------------------------------------
deploy "$tmp/deploy2.log"
check "C: site.yml again" "$?" 0
check "C: the second run changes nothing" "$(recap "$tmp/deploy2.log" changed)" 0
check "C: the broker was not restarted" "$(pid_of broker)" "$bpid"
check "C: the worker was not restarted" "$(pid_of worker)" "$wpid"
ansible-playbook -i inventory.local.ini site.yml --check "${opts[@]}" >"$tmp/check2.log" 2>&1
check "C: --check of the deployed cluster" "$?" 0
check "C: --check finds nothing to change" "$(recap "$tmp/check2.log" changed)" 0
deploy "$tmp/deploy3.log" -e hs_verbose=true
rc=$?
check "C: site.yml with hs_verbose=true" "$rc" 0
[ "$rc" = 0 ] || tail -n 30 "$tmp/deploy3.log"
[ "$(pid_of broker)" != "$bpid" ] && [ "$(alive "$(pid_of broker)")" = yes ]
check "C: the broker restarted on its changed options" "$?" 0
[ "$(pid_of worker)" != "$wpid" ] && [ "$(alive "$(pid_of worker)")" = yes ]
check "C: the worker restarted on its changed options" "$?" 0
check "C: the old broker is gone" "$(alive "$bpid")" no
grep -q '^verbose true$' "$prefix/etc/broker.conf"; check "C: broker.conf says verbose" "$?" 0

# ---- D: a job through the deployed cluster ----------------------------------------
expected=$("$BIN" ingest --dry-run "$ARCHIVE" 2>/dev/null | awk '$1 == "positions" { print $2 }')
"$BIN" submit "$ARCHIVE" --config "$prefix/controller/operator.conf" --engines area --wait >"$tmp/submit.out" 2>&1
rc=$?
check "D: submit --wait with the operator's key" "$rc" 0
[ "$rc" = 0 ] || tail -n 5 "$tmp/submit.out"
stat_of() { "$BIN" query --db "$prefix/var/db" stats 2>/dev/null | awk -v k="$1" '$1 == k { print $2 }'; }
check "D: every position of the archive is in the store" "$(stat_of positions)" "$expected"
check "D: every game" "$(stat_of games)" 200
check "D: no failed game" "$(stat_of failed_games)" 0
"$BIN" status 1 --config "$prefix/controller/operator.conf" --json >"$tmp/status.out" 2>&1
check "D: the operator sees the job done" "$(grep -o '"state": *"[a-z]*"' "$tmp/status.out" | head -1 | tr -d ' ')" '"state":"done"'
# The deployed broker speaks CURVE only: a client without keys gets no answer.
"$BIN" status --broker "$addr" >"$tmp/anon.out" 2>&1
[ $? -ne 0 ] && ! grep -q done "$tmp/anon.out"
check "D: a client without a key is not answered" "$?" 0
# --engines net without --net names the default model by its hash: the worker
# loaded that model, so the job does not wait for ever.
HYEONGSE_MODELS=$prefix/share/hyeongse/models timeout 300 "$BIN" submit "$ARCHIVE" \
    --config "$prefix/controller/operator.conf" --engines net --wait >"$tmp/submit-net.out" 2>&1
rc=$?
check "D: a job of the default model (--engines net) is done" "$rc" 0
[ "$rc" = 0 ] || { tail -n 3 "$tmp/submit-net.out"; "$BIN" status --config "$prefix/controller/operator.conf"; }

# ---- E: a new key pair; a program that would not start --------------------------
bpid=$(pid_of broker); wpid=$(pid_of worker)
rm -f "$prefix/keys/worker.key" "$prefix/keys/worker.pub"
deploy "$tmp/deploy-key.log"
rc=$?
check "E: site.yml after the worker's key pair was removed" "$rc" 0
[ "$rc" = 0 ] || tail -n 30 "$tmp/deploy-key.log"
wkey2=$(awk '{print $1; exit}' "$prefix/keys/worker.pub" 2>/dev/null)
check "E: a new worker key" "$([ -n "$wkey2" ] && [ "$wkey2" != "$wkey" ] && echo new)" new
check "E: the new key in the broker's worker list" "$(grep -cxF -e "$wkey2 localhost" "$prefix/etc/workers.list")" 1
check "E: the old key is out of it" "$(grep -cF -e "$wkey" "$prefix/etc/workers.list")" 0
[ "$(pid_of broker)" != "$bpid" ] && [ "$(alive "$(pid_of broker)")" = yes ]
check "E: the broker restarted with the new list" "$?" 0
[ "$(pid_of worker)" != "$wpid" ] && [ "$(alive "$(pid_of worker)")" = yes ]
check "E: the worker restarted with its new key" "$?" 0
timeout 120 "$BIN" submit "$ARCHIVE" --config "$prefix/controller/operator.conf" --engines influence \
    --wait >"$tmp/submit-key.out" 2>&1
check "E: a job is done by the worker with its new key" "$?" 0

bpid=$(pid_of broker); wpid=$(pid_of worker)
if command -v cc >/dev/null; then
    # bad_deploy NAME BINARY WHAT_THE_MESSAGE_SAYS [MORE -e OPTIONS]
    bad_deploy() {
        local name=$1 bin=$2 says=$3
        shift 3
        local rc
        deploy "$tmp/deploy-$name.log" -e "hs_binary=$bin" "$@"
        rc=$?
        check "E: $name: the deploy fails" "$([ "$rc" -ne 0 ] && echo failed)" failed
        grep -q -e "$says" "$tmp/deploy-$name.log"
        check "E: $name: the message says $says" "$?" 0
        cmp -s "$BIN" "$prefix/bin/hyeongse"; check "E: $name: the installed program stays" "$?" 0
        check "E: $name: the broker was not restarted" "$(pid_of broker)" "$bpid"
        check "E: $name: the worker was not restarted" "$(pid_of worker)" "$wpid"
    }
    mkdir -p "$tmp/fake"
    echo 'int hs_fake_missing(void) { return 0; }' >"$tmp/fake/lib.c"
    echo 'int hs_fake_missing(void); int main(void) { return hs_fake_missing(); }' >"$tmp/fake/needs.c"
    printf '#include <signal.h>\nint main(void) { raise(SIGILL); return 0; }\n' >"$tmp/fake/sigill.c"
    echo 'int main(void) { return 0; }' >"$tmp/fake/plain.c"
    cc -shared -fPIC -o "$tmp/fake/libhsfakemissing.so" "$tmp/fake/lib.c" &&
        cc -o "$tmp/fake/needs" "$tmp/fake/needs.c" -L"$tmp/fake" -lhsfakemissing &&
        rm "$tmp/fake/libhsfakemissing.so" &&
        cc -o "$tmp/fake/sigill" "$tmp/fake/sigill.c" && cc -o "$tmp/fake/plain" "$tmp/fake/plain.c"
    check "E: fake programs built" "$?" 0
    # As a -DHS_CUDNN=ON build on a host without CUDA: a NEEDED library missing.
    bad_deploy "a library not found" "$tmp/fake/needs" "ldd finds no libhsfakemissing.so.*-DHS_CUDNN=OFF"
    bad_deploy "SIGILL" "$tmp/fake/sigill" "SIGILL.*-DHS_NATIVE=OFF"
    bad_deploy "no cuda backend" "$tmp/fake/plain" "has no cuda backend.*-DHS_CUDNN=ON" \
        -e hs_worker_backend=cuda
else
    echo "SKIP: E: the checks of a program that would not start need a C compiler (cc)"
fi

# ---- F: teardown ---------------------------------------------------------------
ansible-playbook -i inventory.local.ini teardown.yml "${opts[@]}" >"$tmp/teardown.log" 2>&1
rc=$?
check "F: teardown.yml" "$rc" 0
[ "$rc" = 0 ] || tail -n 20 "$tmp/teardown.log"
check "F: no process of the prefix is left" "$(prefix_pids | wc -l)" 0
check "F: no pid file is left" "$(ls "$prefix/var/run/"*.pid 2>/dev/null | wc -l)" 0
grep -Eq "stopped by SIGTERM: [0-9]+ tasks done" "$prefix/log/worker.log"
check "F: the worker left on SIGTERM (its log)" "$?" 0

if [ "$fail" != 0 ]; then
    echo "--- logs ---"; tail -n 20 "$prefix"/log/*.log "$tmp"/deploy*.log
    exit 1
fi
echo "all ansible checks passed"
