"""tests/hsn_roundtrip.py BIN LABELS NET.hsn TRAIN_DIR — run by test_hsn_roundtrip.sh.

For a few samples of the labels folder: writes the sample's 22 planes (as
the shard holds them, written there by hs_nn_features_hs), computes the raw
outputs with train/forward_check.py (torch, from the .hsn file's weights),
post-processes them as worker/nn/postprocess.c does, and compares with what
the C engine prints for the same game and move (`loadsgf FILE MOVE+1`, then
`kata-raw-nn 0`): White's win rate, the ownership and the policy over the
legal moves. The C side rebuilds its planes from the game record, so a
difference in the planes, the loader or the forward pass shows up here.
"""
import json
import math
import os
import subprocess
import sys

import numpy as np

binary, labels, net, train_dir = sys.argv[1:5]
sys.path.insert(0, train_dir)
import hsdata  # noqa: E402

index = hsdata.read_index(labels)
failed = 0
checked = 0


def kata_raw_nn(source, move, n):
    cmds = f"loadsgf {source} {move + 1}\nkata-raw-nn 0\nquit\n"
    out = subprocess.run([binary, "gtp", "--net", net, "--backend", "ref"], input=cmds,
                         capture_output=True, text=True, check=True).stdout
    block = out.split("= ")[2].splitlines()  # [0] loadsgf's "=", [1] kata-raw-nn
    vals, grids, key = {}, {}, None
    for line in block:
        parts = line.split()
        if not parts:
            continue
        if len(parts) == 2 and parts[0] not in ("symmetry",):
            vals[parts[0]] = float(parts[1])
        elif len(parts) == 1:
            key = parts[0]
            grids[key] = []
        elif key:
            grids[key] += [float("nan") if p == "NAN" else float(p) for p in parts]
    return vals, grids


def softmax(x):
    e = np.exp(x - x.max())
    return e / e.sum()


for shard in index["shards"][:1]:
    n, records = hsdata.open_shard(os.path.join(labels, shard["file"]))
    for i in range(0, len(records), max(1, len(records) // 4))[:4]:
        rec = records[i:i + 1]
        s = hsdata.unpack(rec, n)
        game = int(rec[0, 0:4].view("<u4")[0])
        move = int(rec[0, 4:6].view("<u2")[0])
        white = rec[0, 6] == 2
        planes_path = os.path.join(os.path.dirname(net), "planes.f32")
        s["planes"][0].astype("<f4").tofile(planes_path)
        raw = json.loads(subprocess.run([sys.executable, os.path.join(train_dir, "forward_check.py"),
                                         net, planes_path], capture_output=True, text=True,
                                        check=True).stdout)
        source = index["games"][game]["source"]
        vals, grids = kata_raw_nn(source, move, n)
        v = softmax(np.array(raw["value"], dtype=np.float64))
        white_win = v[0] if white else v[1]
        own = np.tanh(np.array(raw["ownership"])) * (1 if white else -1)
        c_own = np.array(grids["whiteOwnership"])
        c_pol = np.array(grids["policy"])
        legal = ~np.isnan(c_pol)
        p = softmax(np.array(raw["policy"][:n * n], dtype=np.float64)[legal])
        errs = {"whiteWin": abs(white_win - vals["whiteWin"]),
                "ownership": float(np.max(np.abs(own - c_own))),
                "policy": float(np.max(np.abs(p * (c_pol[legal].sum()) / p.sum() - c_pol[legal])))
                if legal.any() else 0.0}
        worst = max(errs.values())
        checked += 1
        ok = worst < 2e-4 and legal.sum() > 0
        print(f"{'ok' if ok else 'FAIL'}: game {game} move {move} ({'W' if white else 'B'} to move): "
              + ", ".join(f"{k} {e:.2e}" for k, e in errs.items()))
        failed += not ok

if checked == 0:
    print("FAIL: no sample to compare")
    failed = 1
sys.exit(1 if failed else 0)
