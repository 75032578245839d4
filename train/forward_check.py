"""train/forward_check.py NET.hsn PLANES.f32 — the raw outputs of an exported net.

NET.hsn may be gzip'ed, as the engine reads it too (docs/NET.md).
PLANES.f32 holds 22 * N * N float32 (little-endian, plane-major: plane, y, x),
as hs_nn_features_hs fills them. Prints, as JSON, what worker/nn/forward_ref.c
gives before post-processing (identity symmetry): "policy" (N*N+1 logits, pass
last), "value" (3 logits), "score" (4 raw), "ownership" (N*N, before tanh),
computed by torch from the .hsn file's weights (never from a checkpoint), so a
C-side run (`hyeongse gtp kata-raw-nn`) can be compared number for number.
"""
from __future__ import annotations

import argparse
import gzip
import json
import math
import os
import sys
import zlib

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hsnet  # noqa: E402


def read_net(path: str) -> tuple:
    """hsnet.read, but a gzip'ed .hsn is read too, as the engine reads one
    (docs/NET.md): the gzip magic says which."""
    with open(path, "rb") as f:
        buf = f.read()
    if buf[:2] == b"\x1f\x8b":
        try:
            buf = gzip.decompress(buf)
        except (OSError, EOFError, zlib.error) as e:
            raise hsnet.HsnError(f"a broken gzip file ({e})") from e
    return hsnet.parse(buf)


def main(argv: list | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("net")
    ap.add_argument("planes")
    a = ap.parse_args(argv)
    try:
        head, tensors = read_net(a.net)
        planes = np.fromfile(a.planes, dtype="<f4")
    except hsnet.HsnError as e:
        print(f"forward_check: {a.net}: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"forward_check: {e}", file=sys.stderr)
        return 1
    n = int(round(math.sqrt(planes.size / hsnet.PLANES)))
    if planes.size != hsnet.PLANES * n * n or not 2 <= n <= 19:
        print(f"forward_check: {a.planes}: {planes.size} floats is not 22*N*N", file=sys.stderr)
        return 1
    x = torch.from_numpy(planes.reshape(1, hsnet.PLANES, n, n).copy())
    with torch.no_grad():
        raw = hsnet.forward(tensors, head["config"], x)
    out = {"name": head["name"], "size": n}
    out.update({k: [float(v) for v in raw[k][0]] for k in ("policy", "value", "score", "ownership")})
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
