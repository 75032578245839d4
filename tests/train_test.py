"""tests/train_test.py — the trainer's checks (run by tests/test_train.sh).

Writes a synthetic labels folder per worker/shard.h's format (its own writer,
independent of train/hsdata.py's reader): 9x9 positions with random stones
where the ownership label follows the stones (+1 where the side to move has
more stones than the opponent among the point and its neighbours, -1 where
fewer, 0 on stones and ties). Then:
  1. the shard reader rejects a bad magic, a truncated file and a flipped byte;
  2. symmetries move planes, ownership and the policy index together;
  3. ~50 steps of a 1-block, 8-channel net lower the loss;
  4. two runs with the same seed give identical weights;
  5. 25 steps, then --resume to 50, give the weights of 50 uninterrupted;
  6. export -> hsnet.read gives back the folded weights exactly;
  7. the exported net's forward (hsnet.forward, from the file) equals the
     torch model's eval forward within 1e-4;
  8. what a user can get wrong is refused in one line, before anything is
     written: a config with a JSON syntax error (named, with its line), a
     missing folder, a board size the folder has no shards of, an index
     entry without "file", --resume on other data (--resume-anyway allows it);
  9. SIGINT/SIGTERM stop after a whole step with a checkpoint (exit 130/143,
     one line, no traceback), and --resume then gives an uninterrupted run's
     export byte for byte; a diverging run (loss or weights not finite) stops
     with exit 1 and keeps the last good checkpoint;
 10. export cuts a default name from a long file name, refuses a folder and
     leaves no OUT.tmp when it fails; forward_check reads a gzip'ed .hsn.
"""
from __future__ import annotations

import contextlib
import gzip
import io
import json
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import zlib

import numpy as np
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TRAIN = os.path.join(ROOT, "train")
sys.path.insert(0, TRAIN)
import export  # noqa: E402
import forward_check  # noqa: E402
import hsdata  # noqa: E402
import hsnet  # noqa: E402
import train as train_cli  # noqa: E402

N = 9
PY = sys.executable


def synth_records(rng: np.random.Generator, count: int) -> bytes:
    a, pb = N * N, (N * N + 7) // 8
    out = bytearray()
    for i in range(count):
        cells = rng.choice(3, size=(N, N), p=[0.6, 0.2, 0.2])   # 0 empty, 1 own, 2 opponent
        own, opp = (cells == 1).astype(np.int32), (cells == 2).astype(np.int32)
        pad = lambda x: np.pad(x, 1)
        diff = sum(pad(own - opp)[1 + dy:1 + dy + N, 1 + dx:1 + dx + N]
                   for dy, dx in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)))
        label = np.sign(diff).astype(np.int8)
        label[cells != 0] = 0
        planes = np.zeros((22, a), dtype=np.uint8)
        planes[0], planes[8] = own.reshape(-1), opp.reshape(-1)
        planes[16 + (i % 2)] = 1
        empty = np.nonzero(cells.reshape(-1) == 0)[0]
        policy = -1 if i % 7 == 0 else int(rng.choice(empty))
        value = 1 if label.sum() > 0 else -1
        out += struct.pack("<IHBBhbbf", i // 10, i % 300, 1 + i % 2, 0, policy, value, 0,
                           float(label.sum()))
        out += np.packbits(planes, axis=1, bitorder="little")[:, :pb].tobytes()
        out += label.tobytes()
    return bytes(out)


def write_shard(path: str, records: bytes, count: int) -> None:
    rec = hsdata.record_bytes(N)
    assert len(records) == rec * count
    head = struct.pack("<8sIIIIQII", b"HSSHARD\n", 1, N, 22, rec, count, 1,
                       zlib.crc32(records) & 0xFFFFFFFF)
    with open(path, "wb") as f:
        f.write(head.ljust(64, b"\0") + records)


def make_folder(folder: str) -> None:
    rng = np.random.default_rng(7)
    os.makedirs(folder, exist_ok=True)
    shards = []
    for name, split, count in (("train-9x9-0000.hss", "train", 320),
                               ("train-9x9-0001.hss", "train", 192),
                               ("val-9x9-0000.hss", "val", 128)):
        write_shard(os.path.join(folder, name), synth_records(rng, count), count)
        shards.append({"file": name, "split": split, "size": N, "samples": count})
    index = {"format": "hyeongse-labels", "version": 1, "input_set": 1, "planes": 22,
             "every": 5, "visits": 0, "net": None, "shards": shards, "games": [],
             "summary": {}}
    with open(os.path.join(folder, "index.json"), "w") as f:
        json.dump(index, f)


def check_reader_errors(folder: str, tmp: str) -> None:
    src = os.path.join(folder, "val-9x9-0000.hss")
    buf = open(src, "rb").read()
    cases = {"magic": b"XSSHARD\n" + buf[8:], "truncated": buf[:-5],
             "CRC": buf[:100] + bytes([buf[100] ^ 1]) + buf[101:]}
    for want, data in cases.items():
        p = os.path.join(tmp, "bad.hss")
        open(p, "wb").write(data)
        try:
            hsdata.open_shard(p)
        except hsdata.DataError as e:
            assert want.lower() in str(e).lower() or "length" in str(e) or "bytes" in str(e), e
            print(f"ok: reader refuses a bad {want}: {e}")
            continue
        raise AssertionError(f"reader accepted a shard with a bad {want}")


def check_symmetries(folder: str) -> None:
    data = hsdata.Labels(folder, "train", N)
    base = hsdata.unpack(data.gather(np.arange(16)), N)
    for k in range(8):
        b = {key: v.copy() for key, v in base.items()}
        hsdata.apply_symmetries(b, np.full(16, k), N)
        for i in range(16):
            own_new = b["ownership"][i].reshape(N, N)
            stones_new = b["planes"][i, 0]
            assert np.array_equal(own_new, hsdata._sym(base["ownership"][i].reshape(N, N), k))
            assert np.array_equal(stones_new, hsdata._sym(base["planes"][i, 0], k))
            p0, p1 = base["policy"][i], b["policy"][i]
            if p0 < 0:
                assert p1 == -1
            else:   # the played point keeps its (empty) neighbourhood's label
                assert base["ownership"][i][p0] == b["ownership"][i][p1]
                assert stones_new.reshape(-1)[p1] == 0 and b["planes"][i, 8].reshape(-1)[p1] == 0
                grid = np.zeros(N * N)
                grid[p0] = 1
                assert hsdata._sym(grid.reshape(N, N), k).reshape(-1)[p1] == 1
    print("ok: the 8 symmetries move planes, ownership and policy together")


def in_process(main, args: list) -> tuple:
    """(exit code, stdout + stderr) of a script's main(args), run in this process."""
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
        rc = main(args)
    return rc, buf.getvalue()


def run_train(folder: str, cfg: str, out: str, *extra: str, cli: bool = False) -> tuple:
    """(exit code, output) of one training run: through the CLI (a subprocess)
    or, to spare torch's start-up time, in this process through the same entry point."""
    args = ["--data", folder, "--config", cfg, "--out", out, "--seed", "5", "--threads", "1",
            *extra]
    if cli:
        r = subprocess.run([PY, os.path.join(TRAIN, "train.py"), *args],
                           capture_output=True, text=True)
        return r.returncode, r.stdout + r.stderr
    return in_process(train_cli.main, args)


def train(folder: str, cfg: str, out: str, *extra: str, cli: bool = False) -> list:
    """A run that must succeed: its log.jsonl records."""
    rc, msg = run_train(folder, cfg, out, *extra, cli=cli)
    if rc != 0:
        raise AssertionError(f"train --data {folder} --config {cfg} --out {out} "
                             f"{' '.join(extra)} failed:\n{msg}")
    with open(os.path.join(out, "log.jsonl")) as f:
        return [json.loads(line) for line in f]


def check_refusals(folder: str, cfg: str, hsn: str, tmp: str) -> None:
    """Configs a run cannot use, and a file export cannot read, are refused
    with one line naming what is wrong: no traceback, and no .hsn written that
    the engine then refuses (a net of 0 blocks trained and exported before)."""
    base = json.load(open(cfg))
    for key, value, says in (("blocks", 0, "blocks must be a whole number >= 1"),
                             ("batch", 0, "batch must be"), ("log_every", 0, "log_every must be"),
                             ("lr", "abc", "lr must be a number"), ("input_kernel", 4, "odd"),
                             ("lr_drops", [-1], "lr_drops must be")):
        bad = os.path.join(tmp, f"bad-{key}.json")
        with open(bad, "w") as f:
            json.dump({**base, key: value}, f)
        out = os.path.join(tmp, f"out-{key}")
        r = subprocess.run([PY, os.path.join(TRAIN, "train.py"), "--data", folder, "--config",
                            bad, "--out", out], capture_output=True, text=True)
        assert r.returncode == 1 and says in r.stderr and "Traceback" not in r.stderr, \
            (key, r.returncode, r.stderr)
        assert not os.path.exists(os.path.join(out, "checkpoint.pt")), key
    for args, says in ((["--steps", "-5"], "steps must be"), (["--threads", "-1"], "--threads")):
        r = subprocess.run([PY, os.path.join(TRAIN, "train.py"), "--data", folder, "--config",
                            cfg, "--out", os.path.join(tmp, "out-args"), *args],
                           capture_output=True, text=True)
        assert r.returncode != 0 and says in r.stderr and "Traceback" not in r.stderr, \
            (args, r.returncode, r.stderr)
    r = subprocess.run([PY, os.path.join(TRAIN, "export.py"), hsn, os.path.join(tmp, "x.hsn")],
                       capture_output=True, text=True)
    assert r.returncode == 1 and "is not a checkpoint" in r.stderr and "Traceback" not in r.stderr, \
        r.stderr
    print("ok: bad configs and a file that is no checkpoint are refused in one line")


def with_config(cfg: str, path: str, **changes) -> str:
    """A copy of config cfg with some keys changed, at path."""
    with open(path, "w") as f:
        json.dump({**json.load(open(cfg)), **changes}, f)
    return path


def refused(rc: int, msg: str, says: str, out: str) -> None:
    """A run refused in one line naming what is wrong, with nothing left behind."""
    assert rc == 1 and says in msg and "Traceback" not in msg, (rc, says, msg)
    assert len(msg.strip().splitlines()) == 1, msg
    assert not os.path.exists(out), f"{out} was made by a refused run"


def check_input_errors(folder: str, cfg: str, tmp: str) -> None:
    """Faults in what the user gives are named before --out is made."""
    out = os.path.join(tmp, "out-never")
    bad = os.path.join(tmp, "syntax.json")
    with open(bad, "w") as f:
        f.write('{"board_size": 9,\n')
    rc, msg = run_train(folder, bad, out)
    refused(rc, msg, f"train: {bad}: line 2 column 1: Expecting property name", out)
    rc, msg = run_train(os.path.join(tmp, "nonexist"), cfg, out)
    refused(rc, msg, "nonexist: no such folder", out)
    rc, msg = run_train(folder, with_config(cfg, os.path.join(tmp, "c7.json"), board_size=7), out)
    refused(rc, msg, "no train samples of 7x7, only of 9x9: board_size in", out)
    nofile = os.path.join(tmp, "labels-nofile")
    shutil.copytree(folder, nofile)
    index = json.load(open(os.path.join(nofile, "index.json")))
    del index["shards"][1]["file"]
    json.dump(index, open(os.path.join(nofile, "index.json"), "w"))
    rc, msg = run_train(nofile, cfg, out)
    refused(rc, msg, "index.json: shard entry 1 has no \"file\" name: {\"split\": \"train\"", out)
    print("ok: a config's JSON error, a missing folder, another board size and an index "
          "entry without \"file\" are refused in one line; nothing is written")


def check_resume_data(folder: str, cfg: str, done: str, tmp: str) -> None:
    """--resume on other data is refused unless --resume-anyway; the same shards
    moved, and a checkpoint of an older trainer (no data record), are taken.
    done: a run at its config's last step, so a resume trains nothing."""
    other = os.path.join(tmp, "labels-other")
    shutil.copytree(folder, other)
    index = json.load(open(os.path.join(other, "index.json")))
    index["shards"] = [s for s in index["shards"] if s["file"] != "train-9x9-0001.hss"]
    json.dump(index, open(os.path.join(other, "index.json"), "w"))
    moved = os.path.join(tmp, "labels-moved")
    shutil.copytree(folder, moved)
    run = os.path.join(tmp, "resume-data")
    shutil.copytree(done, run)
    ck_file = os.path.join(run, "checkpoint.pt")
    before = open(ck_file, "rb").read()
    rc, msg = run_train(other, cfg, run, "--resume")
    assert rc == 1 and "is not the data" in msg and "--resume-anyway" in msg, (rc, msg)
    assert open(ck_file, "rb").read() == before
    train(moved, cfg, run, "--resume")
    ck = checkpoint(run)
    del ck["data"]
    torch.save(ck, ck_file)
    rc, msg = run_train(other, cfg, run, "--resume")
    assert rc == 0 and "does not record its data" in msg, msg
    rc, msg = run_train(folder, cfg, run, "--resume")
    assert rc == 1 and "is not the data" in msg, msg
    train(folder, cfg, run, "--resume-anyway")
    assert checkpoint(run)["data"]["train"] == hsdata.Labels(folder, "train", N).files
    print("ok: --resume refuses other data (--resume-anyway takes it), takes the same "
          "shards moved and an older checkpoint without a data record")


def stop_by(sig: int, folder: str, cfg: str, out: str) -> int:
    """Starts train.py, sends sig once it has logged a step; the step it stopped at."""
    p = subprocess.Popen([PY, os.path.join(TRAIN, "train.py"), "--data", folder, "--config",
                          cfg, "--out", out, "--seed", "5", "--threads", "1"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    log, t0 = os.path.join(out, "log.jsonl"), time.time()
    while not (os.path.exists(log) and '"kind": "train"' in open(log).read()):
        assert p.poll() is None and time.time() - t0 < 120, "train.py did not start training"
        time.sleep(0.02)
    p.send_signal(sig)
    stdout, stderr = p.communicate(timeout=120)
    name = signal.Signals(sig).name
    assert p.returncode == {signal.SIGINT: 130, signal.SIGTERM: 143}[sig], (p.returncode, stderr)
    assert "Traceback" not in stderr and len(stderr.strip().splitlines()) == 1, stderr
    m = re.fullmatch(rf"train: stopped by {name} at step (\d+); checkpoint saved; rerun the "
                     r"same command with --resume to go on", stderr.strip())
    assert m, stderr
    step = int(m.group(1))
    ck = checkpoint(out)
    assert ck["step"] == step and ck["data_position"] == step, (ck["step"], step)
    return step


def check_signals(folder: str, cfg: str, tmp: str) -> None:
    """A stop by signal saves a checkpoint the next scheduled one is not due
    for, and resuming it gives the uninterrupted run's export byte for byte."""
    sig_cfg = with_config(cfg, os.path.join(tmp, "sig.json"), steps=100000, log_every=1,
                          val_every=0, checkpoint_every=100000)
    step = stop_by(signal.SIGINT, folder, sig_cfg, os.path.join(tmp, "sigint"))
    total = str(step + 5)
    train(folder, sig_cfg, os.path.join(tmp, "sigint"), "--resume", "--steps", total)
    train(folder, sig_cfg, os.path.join(tmp, "nosig"), "--steps", total)
    hsn = [os.path.join(tmp, f"{d}.hsn") for d in ("sigint", "nosig")]
    for d, path in zip(("sigint", "nosig"), hsn):
        export.export(os.path.join(tmp, d, "checkpoint.pt"), path, "t")
    assert open(hsn[0], "rb").read() == open(hsn[1], "rb").read()
    print(f"ok: SIGINT at step {step}: exit 130, one line, a checkpoint; --resume to {total} "
          "exports the same bytes as an uninterrupted run")
    step = stop_by(signal.SIGTERM, folder, sig_cfg, os.path.join(tmp, "sigterm"))
    print(f"ok: SIGTERM at step {step}: exit 143, one line, a checkpoint of that step")


def check_not_finite(folder: str, cfg: str, tmp: str) -> None:
    """lr 50 diverges within a few steps (the BN statistics overflow first,
    while the train-mode loss stays finite): the run stops at once and the
    last checkpoint keeps finite weights. An infinite loss stops it too."""
    out = os.path.join(tmp, "nan")
    nan_cfg = with_config(cfg, os.path.join(tmp, "nan.json"), lr=50, warmup_steps=0,
                          log_every=1, val_every=0, checkpoint_every=1)
    rc, msg = run_train(folder, nan_cfg, out)
    last = msg.strip().splitlines()[-1]
    m = re.fullmatch(r"train: (?:loss|the weights) (?:is|are) not finite at step (\d+) \(try a "
                     r"lower lr\); the last checkpoint \(step (\d+)\) is kept", last)
    assert rc == 1 and m, (rc, msg)
    ck = checkpoint(out)
    assert ck["step"] == int(m.group(2)) < int(m.group(1)) <= 50, (ck["step"], last)
    assert all(torch.isfinite(v).all() for v in ck["model"].values() if v.is_floating_point())
    kinds = [json.loads(line)["kind"] for line in open(os.path.join(out, "log.jsonl"))]
    assert kinds[-1] == "stop" and "end" not in kinds, kinds
    print(f"ok: {last[7:]}")
    out = os.path.join(tmp, "inf")     # a score weight that makes the first loss inf
    rc, msg = run_train(folder, with_config(cfg, os.path.join(tmp, "inf.json"), w_score=1e38), out)
    last = msg.strip().splitlines()[-1]
    assert rc == 1 and last == ("train: loss is not finite at step 1 (try a lower lr); "
                                "no checkpoint was written"), msg
    assert not os.path.exists(os.path.join(out, "checkpoint.pt"))
    print(f"ok: {last[7:]}")


def check_export_targets(ck: str, tmp: str) -> None:
    long = os.path.join(tmp, "a" + "가" * 30 + ".hsn")     # 91 bytes of name, UTF-8
    rc, msg = in_process(export.main, [ck, long])
    assert rc == 0, msg
    name = hsnet.read(long)[0]["name"]
    assert name == "a" + "가" * 20 and len(name.encode()) == 61, name
    bad = os.path.join(tmp, "named.hsn")
    rc, msg = in_process(export.main, [ck, bad, "--name", "n" * 64])
    assert rc == 1 and "name longer than 63 bytes" in msg, msg
    folder = os.path.join(tmp, "export-folder")
    os.mkdir(folder)
    rc, msg = in_process(export.main, [ck, folder])
    assert rc == 1 and "is a folder" in msg and len(msg.strip().splitlines()) == 1, msg
    real = hsnet.os.replace

    def fail(*args):
        raise OSError(28, "No space left on device")
    hsnet.os.replace = fail
    try:
        rc, msg = in_process(export.main, [ck, bad])
    finally:
        hsnet.os.replace = real
    assert rc == 1 and "No space left" in msg, msg
    left = [f for f in os.listdir(tmp) if f.endswith(".tmp")] + os.listdir(folder)
    assert not left and not os.path.exists(bad), left
    print("ok: export cuts a 91-byte default name to 61 bytes (whole characters), refuses a "
          "long --name and a folder, and leaves no OUT.tmp when the rename fails")


def check_gzip_hsn(hsn: str, folder: str, tmp: str) -> None:
    planes = os.path.join(tmp, "planes.f32")
    next(hsdata.Labels(folder, "val", N).in_order(1))["planes"][0].astype("<f4").tofile(planes)
    gz = os.path.join(tmp, "net.hsn.gz")
    with open(gz, "wb") as f:
        f.write(gzip.compress(open(hsn, "rb").read()))
    rc, plain = in_process(forward_check.main, [hsn, planes])
    assert rc == 0, plain
    rc, zipped = in_process(forward_check.main, [gz, planes])
    assert rc == 0 and zipped == plain, zipped
    with open(gz, "wb") as f:
        f.write(gzip.compress(open(hsn, "rb").read())[:-20])
    rc, msg = in_process(forward_check.main, [gz, planes])
    assert rc == 1 and "broken gzip" in msg, msg
    print("ok: forward_check reads a gzip'ed .hsn as the plain one, refuses a cut one")


def checkpoint(out: str) -> dict:
    return torch.load(os.path.join(out, "checkpoint.pt"), map_location="cpu")


def weights(out: str) -> dict:
    return checkpoint(out)["model"]


def same(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


def main() -> int:
    tmp = tempfile.mkdtemp(prefix="hs-train-")
    try:
        folder = os.path.join(tmp, "labels")
        make_folder(folder)
        check_reader_errors(folder, tmp)
        check_symmetries(folder)
        cfg = os.path.join(tmp, "tiny.json")
        with open(cfg, "w") as f:
            json.dump({"board_size": N, "blocks": 1, "channels": 8, "input_kernel": 3,
                       "P": 4, "G": 4, "V": 4, "H": 8, "batch": 32, "steps": 50,
                       "lr": 0.05, "warmup_steps": 5, "log_every": 10, "val_every": 25,
                       "checkpoint_every": 25, "val_samples": 128}, f)
        log = train(folder, cfg, os.path.join(tmp, "a"), cli=True)
        tr = [r for r in log if r["kind"] == "train"]
        val = [r for r in log if r["kind"] == "val"]
        assert tr[-1]["ownership"] < 0.8 * tr[0]["ownership"], (tr[0], tr[-1])
        assert tr[-1]["loss"] < tr[0]["loss"], (tr[0], tr[-1])
        print(f"ok: 50 steps: loss {tr[0]['loss']:.4f} -> {tr[-1]['loss']:.4f}, ownership "
              f"{tr[0]['ownership']:.4f} -> {tr[-1]['ownership']:.4f}; val sign agreement "
              f"{val[-1]['ownership_sign_agreement']:.3f}")
        train(folder, cfg, os.path.join(tmp, "b"))
        assert same(weights(os.path.join(tmp, "a")), weights(os.path.join(tmp, "b")))
        print("ok: two runs with the same seed give identical weights")
        train(folder, cfg, os.path.join(tmp, "d"), "--steps", "25")
        assert not same(weights(os.path.join(tmp, "a")), weights(os.path.join(tmp, "d")))
        train(folder, cfg, os.path.join(tmp, "d"), "--resume")
        assert same(weights(os.path.join(tmp, "a")), weights(os.path.join(tmp, "d")))
        print("ok: 25 steps + --resume to 50 equals 50 uninterrupted steps")
        ck, hsn = os.path.join(tmp, "a", "checkpoint.pt"), os.path.join(tmp, "a.hsn")
        r = subprocess.run([PY, os.path.join(TRAIN, "export.py"), ck, hsn, "--name", "tiny"],
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        net = export.load_net(ck)
        fcfg, folded = export.fold(net)
        head, back = hsnet.read(hsn)
        assert head["name"] == "tiny" and head["config"] == fcfg
        assert back.keys() == folded.keys() and all(np.array_equal(back[k], folded[k]) for k in back)
        print("ok: export -> read gives the folded weights back exactly")
        b = hsdata.Labels(folder, "val", N).in_order(32).__next__()
        x = torch.from_numpy(b["planes"])
        with torch.no_grad():
            want, got = net(x), hsnet.forward(back, head["config"], x)
        u = got["value"]
        pairs = {"policy": (want["policy"], got["policy"]),
                 "ownership": (want["own_raw"], got["ownership"]),
                 "value (win - loss)": (want["value"], torch.softmax(u, 1)[:, 0] - torch.softmax(u, 1)[:, 1]),
                 "score": (want["score"], got["score"][:, 0]),
                 "lead": (want["score"], got["score"][:, 2])}
        for name, (w, g) in pairs.items():
            d = float((w.double() - g).abs().max())
            assert d < 1e-4, (name, d)
            print(f"ok: exported forward {name}: max difference {d:.2e}")
        bad = open(hsn, "rb").read()
        try:
            hsnet.parse(bad[:-9] + bad[-8:])
            raise AssertionError("hsnet read a truncated file")
        except hsnet.HsnError as e:
            print(f"ok: hsnet refuses a truncated file: {e}")
        check_refusals(folder, cfg, hsn, tmp)
        check_input_errors(folder, cfg, tmp)
        check_resume_data(folder, cfg, os.path.join(tmp, "d"), tmp)
        check_signals(folder, cfg, tmp)
        check_not_finite(folder, cfg, tmp)
        check_export_targets(ck, tmp)
        check_gzip_hsn(hsn, folder, tmp)
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
