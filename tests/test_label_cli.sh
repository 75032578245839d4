#!/usr/bin/env bash
# tests/test_label_cli.sh — `hyeongse label` on the first games of the 9x9
# archive with rollouts and few visits: usage errors; index.json's fields and
# counts; the shards read back through the shard reader (tests/shard_dump.c)
# hold exactly the samples index.json promises, each one consistent with its
# game (the moves sampled, the final position's policy -1, one Black-view
# ownership, score and value per game, the policy's point empty, the colour
# planes); the split by game id; byte-identical shards with --threads 1 and
# 2; --shard-samples rolling over to more shards with the same samples;
# --size leaving the other sizes out; --config FILE.
set -u
bin=${HS_BIN:?HS_BIN must name the hyeongse binary}
dump="$(dirname "$bin")/../tests/shard_dump"
data=${HS_DATA_DIR:-$(dirname "$0")/../../shared/data}
archive="$data/9x9/9x9-archive.tar.gz"
if [ ! -f "$archive" ]; then echo "skip: $archive is absent"; exit 77; fi
if [ ! -x "$dump" ]; then echo "FAIL: $dump is not built"; exit 1; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if eval "$1"; then echo "ok: $2"; else echo "FAIL: $2"; fail=1; fi; }

# --- usage errors: exit 2 with a message; run-time errors: exit 1
"$bin" label --help | grep -q -- '--shard-samples'; check '[ $? -eq 0 ]' "--help lists the options"
usage() {
    "$bin" label "$@" > "$tmp/u.out" 2> "$tmp/u.err"
    local rc=$?
    check "[ $rc -eq 2 ] && grep -q 'hyeongse label: ' '$tmp/u.err'" "usage error: $*"
}
usage --out "$tmp/x"
usage "$archive"
usage "$archive" --out "$tmp/x" --visits 0
usage "$archive" --out "$tmp/x" --every abc
usage "$archive" --out "$tmp/x" --val-percent 101
usage "$archive" --out "$tmp/x" --size 20
usage "$archive" --out "$tmp/x" --threads 0
usage "$archive" --out "$tmp/x" --seed -1
usage "$archive" --out "$tmp/x" --backend cpu
usage "$archive" --out "$tmp/x" --net "$tmp/none.hsn" --backend bogus
usage "$archive" --out "$tmp/x" --bogus 1
usage "$archive" --out
"$bin" label "$archive" --out /proc/no/such/dir 2> "$tmp/e.err"; rc=$?
check "[ $rc -eq 1 ] && grep -q 'cannot create /proc/no/such/dir' '$tmp/e.err'" "unwritable --out: exit 1"
"$bin" label "$archive" --out "$tmp/x" --net "$tmp/none.hsn" 2> "$tmp/e.err"; rc=$?
check "[ $rc -eq 1 ] && grep -q 'net $tmp/none.hsn' '$tmp/e.err'" "a net that does not load: exit 1"
check '[ ! -e "$tmp/x/index.json" ]' "no index.json after a failed start"
check '[ ! -e "$tmp/x" ]' "no empty --out folder left by a failed start"

# --- the runs: 10 games, rollouts, 4 visits, samples every 7 moves
run() {
    local out=$1
    shift
    "$bin" label "$archive" --out "$tmp/$out" --max-games 10 --visits 4 --every 7 \
        --val-percent 50 --seed 3 "$@" > "$tmp/$out.out" 2> "$tmp/$out.err"
}
run t1 --threads 1; check '[ $? -eq 0 ]' "label --threads 1"
run t2 --threads 2; check '[ $? -eq 0 ]' "label --threads 2"
run small --threads 2 --shard-samples 7; check '[ $? -eq 0 ]' "label --shard-samples 7"
check 'grep -q "^label: 10 games in" "$tmp/t1.out"' "summary on stdout"
check 'grep -q "^label: 10/10 games" "$tmp/t1.err"' "progress on stderr"

same=1
for f in "$tmp"/t1/*.hss; do cmp -s "$f" "$tmp/t2/$(basename "$f")" || same=0; done
check '[ $same -eq 1 ] && [ "$(ls "$tmp/t1")" = "$(ls "$tmp/t2")" ]' \
    "the same shards, byte for byte, with 1 and 2 threads"
strip_seconds() { sed 's/"seconds": [0-9.]*//' "$1"; }
check 'diff <(strip_seconds "$tmp/t1/index.json") <(strip_seconds "$tmp/t2/index.json") > /dev/null' \
    "the same index.json with 1 and 2 threads (but the seconds)"

for d in t1 small; do
    for f in "$tmp/$d"/*.hss; do
        "$dump" "$f" > "$f.txt" || { echo "FAIL: the reader refuses $f"; fail=1; }
    done
done

# Every check on index.json and the samples, from the dumps.
python3 - "$tmp" <<'EOF' || fail=1
import json, os, sys
tmp = sys.argv[1]
bad = []
def check(cond, what):
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        bad.append(what)

def load(d):
    idx = json.load(open(os.path.join(tmp, d, "index.json")))
    shards = {}
    for sh in idx["shards"]:
        lines = open(os.path.join(tmp, d, sh["file"] + ".txt")).read().split("\n")
        head = lines[0].split()
        rows = [l.split() for l in lines[1:] if l]
        shards[sh["file"]] = (int(head[1]), int(head[2]), rows)
    return idx, shards

idx, shards = load("t1")
check(idx["format"] == "hyeongse-labels" and idx["version"] == 1, "format and version")
check(idx["input_set"] == 1 and idx["planes"] == 22, "input set 1, 22 planes")
check(idx["every"] == 7 and idx["visits"] == 4 and idx["net"] is None, "every, visits, net")
games, s = idx["games"], idx["summary"]
check(len(games) == 10 and s["games"] == 10, "10 games listed")
check(s["ok"] + s["miss"] + s["skip"] == 10, "ok + miss + skip = games")
for st in ("ok", "miss", "skip"):
    check(s[st] == sum(g["status"] == st for g in games), st + " count")
check(s["ok"] > 0, "some game labelled ok")
check(sum(s["reasons"].values()) == s["miss"] + s["skip"], "a reason kind per miss and skip")
keys = {"id", "source", "index", "size", "split", "moves", "rules", "komi", "result",
        "status", "reason", "labelled", "yose_moves", "samples"}
check(all(keys <= set(g) for g in games), "every game has the documented fields")
check([g["id"] for g in games] == list(range(10)), "ids are the places in the list")
check(all((g["reason"] is None) == (g["status"] == "ok") for g in games),
      "a reason exactly for miss and skip")
check(all(g["samples"] == 0 for g in games if g["status"] != "ok"), "no samples from miss/skip")
check(all((int(g["game_id"][:16], 16) % 100 < 50) == (g["split"] == "val") for g in games),
      "split by the game id (50 percent val)")
check(s["samples_train"] > 0 and s["samples_val"] > 0, "samples in both splits")

tot = {"train": 0, "val": 0}
per_game = {}
for sh in idx["shards"]:
    n, count, rows = shards[sh["file"]]
    check(n == sh["size"] and count == sh["samples"] == len(rows), sh["file"] + ": samples as promised")
    check(sh["file"].startswith(sh["split"] + "-%dx%d-" % (n, n)), sh["file"] + ": name")
    tot[sh["split"]] += count
    for r in rows:
        per_game.setdefault(int(r[0]), []).append(r)
check(tot["train"] == s["samples_train"] and tot["val"] == s["samples_val"],
      "samples per split as the summary says")
for i, g in enumerate(games):
    rows = per_game.get(i, [])
    if g["status"] != "ok":
        check(not rows, "game %d: no samples" % i)
        continue
    M, area = g["moves"], g["size"] ** 2
    want = list(range(7, M, 7)) + [M]
    check([int(r[1]) for r in rows] == want, "game %d: moves sampled %s" % (i, want))
    check(g["samples"] == len(rows), "game %d: samples as listed" % i)
    split_files = [sh["file"] for sh in idx["shards"] if sh["split"] == g["split"]]
    check(all(any(r in shards[f][2] for f in split_files) for r in rows), "game %d: in its split" % i)
    # Black's view of each sample's labels: the same for the whole game.
    flip = lambda r, c: c if r[2] == "1" else {"+": "-", "-": "+", ".": "."}[c]
    own = {"".join(flip(r, c) for c in r[6]) for r in rows}
    check(len(own) == 1 and len(next(iter(own))) == area, "game %d: one ownership in Black's view" % i)
    score = {float(r[5]) * (1 if r[2] == "1" else -1) for r in rows}
    check(len(score) == 1, "game %d: one score in Black's view" % i)
    b = score.pop()
    lab = g["labelled"]
    check(lab == ("0" if b == 0 else ("B+" if b > 0 else "W+") + "%g" % abs(b)),
          "game %d: score = labelled %s" % (i, lab))
    win = g["result"][:1]
    value = {int(r[4]) * (1 if r[2] == "1" else -1) for r in rows}
    check(value == {1 if win == "B" else -1 if win == "W" else 0}, "game %d: value from RE %s" % (i, g["result"]))
    check(int(rows[-1][3]) == -1 and all(0 <= int(r[3]) <= area for r in rows[:-1]),
          "game %d: policy -1 at the end, a point or pass before" % i)
    check(all(r[11] == "1" for r in rows), "game %d: the policy's point is empty" % i)
    check(all((r[9], r[10]) == ((str(area), "0") if r[2] == "1" else ("0", str(area))) for r in rows),
          "game %d: planes 16/17 say who is to move" % i)
    check(int(rows[-1][7]) + int(rows[-1][8]) > 0, "game %d: stones on the final board" % i)

# --shard-samples 7: more shards, none over 7, the same samples in the same order.
idx2, shards2 = load("small")
def all_rows(idx, shards, split):
    return [r for sh in idx["shards"] if sh["split"] == split for r in shards[sh["file"]][2]]
check(all(sh["samples"] <= 7 for sh in idx2["shards"]), "no shard over --shard-samples")
check(len(idx2["shards"]) > len(idx["shards"]), "more shards with --shard-samples 7")
names = sorted(sh["file"] for sh in idx2["shards"] if sh["split"] == "train")
check(names == ["train-9x9-%04d.hss" % k for k in range(len(names))], "shards numbered from 0000")
for split in ("train", "val"):
    check(all_rows(idx, shards, split) == all_rows(idx2, shards2, split),
          split + ": the same samples across the rolled-over shards")
sys.exit(1 if bad else 0)
EOF

# --size: games of other sizes are left out and counted.
"$bin" label "$archive" --out "$tmp/s19" --max-games 3 --size 19 --visits 2 > /dev/null 2>&1
check '[ $? -eq 0 ] && grep -q "\"games\": 0, " "$tmp/s19/index.json" && ! grep -q "\"other_sizes\": 0" "$tmp/s19/index.json"' \
    "--size 19 on a 9x9 archive: no games, the others counted"

# --config FILE: the options from a file, the command line's own last.
printf 'visits 2\nevery 3\nmax-games 2\n# a comment\nseed 9\n' > "$tmp/label.conf"
"$bin" label "$archive" --out "$tmp/conf" --config "$tmp/label.conf" --seed 4 > /dev/null 2>&1
check '[ $? -eq 0 ] && grep -q "\"every\": 3, \"visits\": 2," "$tmp/conf/index.json" && grep -q "\"seed\": 4," "$tmp/conf/index.json" && grep -q "\"games\": 2, " "$tmp/conf/index.json"' \
    "--config FILE gives the options, the command line wins"
printf 'bogus 1\n' > "$tmp/bad.conf"
"$bin" label "$archive" --out "$tmp/conf2" --config "$tmp/bad.conf" 2> "$tmp/e.err"; rc=$?
check "[ $rc -eq 2 ] && grep -q 'bad.conf:1: unknown option' '$tmp/e.err'" "--config with an unknown option: exit 2"

exit $fail
