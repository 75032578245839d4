#!/usr/bin/env bash
# tests/test_keygen.sh — keys and options as a user meets them (docs/SECURITY.md,
# "Keys and options"): `hyeongse keygen` writes PREFIX.pub (0644) and PREFIX.key
# (0600) whatever the umask and never overwrites without --force; a .key that
# others may read is refused with the chmod fix (worker, status, broker); corrupt
# key files are refused; --key without --server-key is an error; plaintext to an
# address that is not loopback is warned about; the broker reads allow-lists
# (names, "@file.pub", comments) and names file:line of a bad one; --config FILE
# works on any command, the command line overrides it, and an unknown option in
# it is refused with file:line. Nothing here needs a broker that speaks CURVE.
set -u
BIN=${HS_BIN:?HS_BIN must name the hyeongse binary}
tmp=$(mktemp -d /tmp/hs-test-keygen-XXXXXX)
bpid=
fail=0
cleanup() {
    [ -n "$bpid" ] && kill -9 "$bpid" 2>/dev/null
    wait 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
# check, start_broker_at
. "$(dirname "$0")/lib.sh"

mode() { stat -c %a "$1" 2>/dev/null; }

# ---- keygen: the pair, its modes whatever the umask
(umask 000; "$BIN" keygen --out "$tmp/w1" > "$tmp/kg.out" 2>&1)
check "keygen exits 0" "$?" 0
check "PREFIX.key mode under umask 000" "$(mode "$tmp/w1.key")" 600
check "PREFIX.pub mode under umask 000" "$(mode "$tmp/w1.pub")" 644
(umask 077; "$BIN" keygen --out "$tmp/w2" > /dev/null 2>&1)
check "PREFIX.pub mode under umask 077" "$(mode "$tmp/w2.pub")" 644
pub=$(cat "$tmp/w1.pub")
check "the .pub holds one 40-character key" "${#pub}" 40
has "keygen prints the public key" "$tmp/kg.out" "$pub"
has "keygen says where it wrote" "$tmp/kg.out" "$tmp/w1.key"
check "the .key holds the same public key" "$(sed -n 's/^public //p' "$tmp/w1.key")" "$pub"

# ---- no overwrite without --force
"$BIN" keygen --out "$tmp/w1" > /dev/null 2> "$tmp/again.err"
check "keygen over an existing pair fails" "$?" 1
has "and says --force" "$tmp/again.err" "--force"
check "the pair is unchanged" "$(cat "$tmp/w1.pub")" "$pub"
"$BIN" keygen --out "$tmp/w1" --force > /dev/null 2>&1
check "keygen --force replaces it" "$?" 0
[ "$(cat "$tmp/w1.pub")" != "$pub" ]; check "with a new key" "$?" 0
check "still mode 0600" "$(mode "$tmp/w1.key")" 600
pub=$(cat "$tmp/w1.pub")

# ---- a .key others may read is refused, with the fix
"$BIN" keygen --out "$tmp/b" > /dev/null 2>&1
chmod 644 "$tmp/w1.key"
"$BIN" worker --connect tcp://127.0.0.1:9 --key "$tmp/w1.key" --server-key "$tmp/b.pub" \
    > /dev/null 2> "$tmp/perm.err"
check "worker with a world-readable .key exits 1" "$?" 1
has "and names the fix" "$tmp/perm.err" "run: chmod 600 $tmp/w1.key"
has "as HS_EPERM's message says" "$tmp/perm.err" "must be private"
chmod 640 "$tmp/w1.key"
"$BIN" status --broker tcp://127.0.0.1:9 --key "$tmp/w1" --server-key "$tmp/b.pub" \
    > /dev/null 2> "$tmp/perm2.err"
check "status with a group-readable .key exits 1" "$?" 1
has "and names the fix" "$tmp/perm2.err" "chmod 600"
chmod 644 "$tmp/b.key"
"$BIN" broker --bind 'tcp://127.0.0.1:*' --db "$tmp/db" --key "$tmp/b.key" > /dev/null 2> "$tmp/perm3.err"
check "broker with a world-readable .key exits 2" "$?" 2
has "and names the fix" "$tmp/perm3.err" "chmod 600"
chmod 600 "$tmp/w1.key" "$tmp/b.key"

# ---- corrupt key files
bpub=$(cat "$tmp/b.pub")
printf 'public %s\nsecret %s\n' "$pub" "$(sed -n 's/^secret //p' "$tmp/b.key")" > "$tmp/mixed.key"
printf 'public %s\nsecret tooshort\n' "$pub" > "$tmp/short.key"
printf 'garbage\n' > "$tmp/junk.key"
chmod 600 "$tmp/mixed.key" "$tmp/short.key" "$tmp/junk.key"
for k in mixed short junk; do
    "$BIN" status --broker tcp://127.0.0.1:9 --key "$tmp/$k.key" --server-key "$bpub" \
        > /dev/null 2> "$tmp/$k.err"
    check "a corrupt key file ($k) is refused" "$?" 1
    has "naming it" "$tmp/$k.err" "$tmp/$k.key"
done
has "halves of two pairs: said so" "$tmp/mixed.err" "does not belong"
"$BIN" status --broker tcp://127.0.0.1:9 --key "$tmp/w1" --server-key "$tmp/junk.pub" \
    > /dev/null 2> "$tmp/nopub.err"
check "a --server-key that is neither a file nor a key is refused" "$?" 1
has "naming it" "$tmp/nopub.err" "junk.pub"

# ---- --key and --server-key go together
"$BIN" cancel 1 --broker tcp://127.0.0.1:9 --key "$tmp/w1" > /dev/null 2> "$tmp/half.err"
check "--key without --server-key fails (a usage error)" "$?" 2
"$BIN" query --broker tcp://127.0.0.1:9 --key "$tmp/w1" > /dev/null 2> "$tmp/halfq.err"
check "--key without --server-key: query too" "$?" 2
has "saying so" "$tmp/half.err" "--key needs --server-key"
"$BIN" worker --connect tcp://127.0.0.1:9 --server-key "$bpub" > /dev/null 2> "$tmp/half2.err"
check "--server-key without --key fails (worker)" "$?" 2
has "saying so" "$tmp/half2.err" "--server-key needs --key"
"$BIN" query --db "$tmp/db" --key "$tmp/w1" --server-key "$bpub" stats > /dev/null 2> "$tmp/qdb.err"
check "query --db with keys is refused" "$?" 2

# ---- plaintext off this machine is warned about (not an error: the broker decides)
# (an unknown engine ends the worker before it waits for any broker)
"$BIN" worker --connect tcp://192.0.2.1:5555 --engines nosuch > /dev/null 2> "$tmp/warn.err"
has "plaintext to a non-loopback address warns" "$tmp/warn.err" "warning: no --key"
"$BIN" worker --connect tcp://127.0.0.1:9 --engines nosuch > /dev/null 2> "$tmp/nowarn.err"
check "no warning for loopback" "$(grep -c warning "$tmp/nowarn.err")" 0

# ---- allow-lists: names, @file.pub, comments; a bad one names file:line
mkdir -p "$tmp/keys"
"$BIN" keygen --out "$tmp/keys/gpu1" > /dev/null 2>&1
"$BIN" keygen --out "$tmp/keys/c1" > /dev/null 2>&1
{
    echo "# the workers"
    echo ""
    echo "$pub cpu-1"
    echo "@gpu1.pub   rack 2   # by file, relative to this list"
} > "$tmp/keys/workers.list"
echo "@c1.pub" > "$tmp/keys/clients.list"
start_broker_at 'tcp://127.0.0.1:*' "$tmp/db" "$tmp/broker.log" --key "$tmp/b" \
    --workers "$tmp/keys/workers.list" --clients "$tmp/keys/clients.list" \
    --admins "$tmp/keys/clients.list"
check "a broker with --key and good lists serves" "$?" 0
kill "$bpid" 2>/dev/null; wait "$bpid" 2>/dev/null; bpid=
{ echo "$pub cpu-1"; echo "# fine"; echo "not-a-key cpu-2"; } > "$tmp/keys/bad.list"
"$BIN" broker --bind 'tcp://127.0.0.1:*' --db "$tmp/db" --key "$tmp/b" \
    --workers "$tmp/keys/workers.list" --workers "$tmp/keys/bad.list" > /dev/null 2> "$tmp/list.err"
check "a bad allow-list stops the broker" "$?" 2
has "naming file:line" "$tmp/list.err" "$tmp/keys/bad.list:3"
echo "@missing.pub w9" > "$tmp/keys/ref.list"
"$BIN" broker --bind 'tcp://127.0.0.1:*' --db "$tmp/db" --key "$tmp/b" \
    --clients "$tmp/keys/ref.list" > /dev/null 2> "$tmp/ref.err"
check "a list naming a missing .pub stops the broker" "$?" 2
has "naming file:line" "$tmp/ref.err" "$tmp/keys/ref.list:1"
"$BIN" broker --bind 'tcp://127.0.0.1:*' --db "$tmp/db" --workers "$tmp/keys/workers.list" \
    > /dev/null 2> "$tmp/nokey.err"
check "lists without --key are refused" "$?" 2

# ---- --config FILE
cat > "$tmp/kg.conf" <<EOF
# keygen from a file
out = $tmp/from conf
force true
EOF
"$BIN" keygen --config "$tmp/kg.conf" > /dev/null 2>&1
check "keygen --config: exits 0" "$?" 0
check "a value with spaces runs to the end of the line" "$(mode "$tmp/from conf.key")" 600
"$BIN" keygen --config "$tmp/kg.conf" --out "$tmp/fromcli" > /dev/null 2>&1
check "the command line overrides the file" "$(mode "$tmp/fromcli.key")" 600
printf 'out %s/nf\nforce false\n' "$tmp" > "$tmp/noforce.conf"
"$BIN" keygen --config "$tmp/noforce.conf" > /dev/null 2>&1
"$BIN" keygen --config "$tmp/noforce.conf" > /dev/null 2> "$tmp/nf.err"
check "a flag set to false is not given" "$?" 1
chmod 644 "$tmp/w1.key"
printf 'broker tcp://127.0.0.1:9\nkey %s/w1\nserver-key %s\n' "$tmp" "$bpub" > "$tmp/status.conf"
"$BIN" status --config "$tmp/status.conf" > /dev/null 2> "$tmp/conf-key.err"
check "status reads --key and --server-key from a config file" "$?" 1
has "(its key file is checked)" "$tmp/conf-key.err" "chmod 600"
chmod 600 "$tmp/w1.key"
printf 'out %s/x\n# comment\nbogus-option 3\n' "$tmp" > "$tmp/bad.conf"
"$BIN" keygen --config "$tmp/bad.conf" > /dev/null 2> "$tmp/badconf.err"
check "an unknown option in a config file exits 2" "$?" 2
has "naming file:line and the option" "$tmp/badconf.err" "$tmp/bad.conf:3: unknown option 'bogus-option'"
check "and nothing was run" "$(ls "$tmp"/x.* 2>/dev/null | wc -l)" 0
printf 'bind tcp://127.0.0.1:*\nverbose maybe\n' > "$tmp/flag.conf"
"$BIN" broker --config "$tmp/flag.conf" --db "$tmp/db" > /dev/null 2> "$tmp/flag.err"
check "a flag takes true or false only" "$?" 2
has "naming file:line" "$tmp/flag.err" "$tmp/flag.conf:2"
printf 'bind = tcp://127.0.0.1:*\ndb %s/db\nworkers %s/keys/workers.list\nclients %s/keys/clients.list\nkey %s/b\nverbose false\n' \
    "$tmp" "$tmp" "$tmp" "$tmp" > "$tmp/broker.conf"
start_broker_at 'tcp://127.0.0.1:*' "$tmp/db" "$tmp/broker2.log" --config "$tmp/broker.conf"
check "a broker from a config file serves" "$?" 0
kill "$bpid" 2>/dev/null; wait "$bpid" 2>/dev/null; bpid=
"$BIN" status --config "$tmp/missing.conf" > /dev/null 2> "$tmp/miss.err"
check "a missing config file exits 2" "$?" 2
has "naming it" "$tmp/miss.err" "missing.conf"

exit $fail
