"""train/export.py CHECKPOINT OUT.hsn [--name NAME] — a trained checkpoint to .hsn.

Folds every BatchNorm with its eval-mode running statistics (scale =
gamma / sqrt(var + eps), bias = beta - mean * scale): a block's pre-norm and the
tip stay as per-channel scale + bias (they follow a residual sum, so they cannot
be folded into a convolution: see worker/nn/model.h), and the BN after conv1 is
folded into conv1's weights and bias. The value head's single tanh output u is
written as v3 logits [u, -u, -30] (softmax gives win - loss = tanh(u), no-result
~ 0), the score s as sv3 [s, STDEV_RAW, s, 0].
"""
from __future__ import annotations

import argparse
import math
import os
import pickle
import sys
from typing import Dict, List, Tuple

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hsnet  # noqa: E402
from model import Net  # noqa: E402

# softplus(STDEV_RAW) = 20 points: the score's spread the engine reports (our net
# does not learn one; 20 points is roughly what KataGo's nets say mid-game).
SCORE_STDEV = 20.0
STDEV_RAW = math.log(math.expm1(SCORE_STDEV))
NO_RESULT_LOGIT = -30.0


def _np(t: torch.Tensor) -> np.ndarray:
    return t.detach().cpu().double().numpy()


def _bn(bn: torch.nn.BatchNorm2d) -> Tuple[np.ndarray, np.ndarray]:
    scale = _np(bn.weight) / np.sqrt(_np(bn.running_var) + bn.eps)
    return scale, _np(bn.bias) - _np(bn.running_mean) * scale


def fold(net: Net) -> Tuple[List[int], Dict[str, np.ndarray]]:
    """The .hsn config and tensors (float32) of a model (its eval-mode BN stats)."""
    c = net.cfg
    cfg = [c["blocks"], c["channels"], c["input_kernel"], c["P"], c["G"], c["V"], c["H"], 0]
    t: Dict[str, np.ndarray] = {"input.w": _np(net.input.weight), "input.b": _np(net.input.bias)}
    for i, b in enumerate(net.blocks):
        t[f"block.{i}.pre.scale"], t[f"block.{i}.pre.bias"] = _bn(b.pre)
        s, bias = _bn(b.bn1)
        t[f"block.{i}.conv1.w"] = _np(b.conv1.weight) * s.reshape(-1, 1, 1, 1)
        t[f"block.{i}.conv1.b"] = bias
        t[f"block.{i}.conv2.w"], t[f"block.{i}.conv2.b"] = _np(b.conv2.weight), _np(b.conv2.bias)
    t["tip.scale"], t["tip.bias"] = _bn(net.tip)
    t["policy.p1.w"], t["policy.p1.b"] = _np(net.p1.weight), _np(net.p1.bias)
    t["policy.g1.w"], t["policy.g1.b"] = _np(net.g1.weight), _np(net.g1.bias)
    t["policy.gmul.w"] = _np(net.gmul.weight).T          # dense [in][out]
    t["policy.p2.w"] = _np(net.p2.weight)
    t["policy.pass.w"] = _np(net.passmul.weight).T
    t["value.v1.w"], t["value.v1.b"] = _np(net.v1.weight), _np(net.v1.bias)
    t["value.v2.w"], t["value.v2.b"] = _np(net.v2.weight).T, _np(net.v2.bias)
    wu, bu = _np(net.v3.weight)[0], float(_np(net.v3.bias)[0])
    t["value.v3.w"] = np.stack([wu, -wu, np.zeros_like(wu)], axis=1)
    t["value.v3.b"] = np.array([bu, -bu, NO_RESULT_LOGIT])
    ws, bs = _np(net.score.weight)[0], float(_np(net.score.bias)[0])
    t["value.score.w"] = np.stack([ws, np.zeros_like(ws), ws, np.zeros_like(ws)], axis=1)
    t["value.score.b"] = np.array([bs, STDEV_RAW, bs, 0.0])
    t["value.own.w"] = _np(net.own.weight)
    return cfg, {k: v.astype(np.float32) for k, v in t.items()}


def load_net(checkpoint: str) -> Net:
    try:
        ck = torch.load(checkpoint, map_location="cpu")
    except (pickle.UnpicklingError, RuntimeError, EOFError) as e:
        # torch's own words for a file that is not a checkpoint are a traceback
        raise ValueError(f"{checkpoint} is not a checkpoint of train/train.py ({e})") from e
    if not isinstance(ck, dict) or "config" not in ck or "model" not in ck:
        raise ValueError(f"{checkpoint} is not a checkpoint of train/train.py (no config "
                         "and model in it)")
    net = Net(ck["config"])
    net.load_state_dict(ck["model"])
    return net.eval()


def default_name(out: str) -> str:
    """OUT's base name without its extension, cut to the .hsn name field (at a
    UTF-8 character boundary): the user chose no name, so a long file name must
    not make the export fail."""
    raw = os.path.splitext(os.path.basename(out))[0].encode("utf-8", "surrogateescape")
    return raw[:hsnet.NAME_BYTES - 1].decode("utf-8", "ignore")


def check_target(out: str) -> None:
    """Refuses an output the rename at the end could not make: before the
    checkpoint is read, and before OUT.tmp exists."""
    if os.path.isdir(out):
        raise ValueError(f"{out} is a folder: give the file to write, such as "
                         f"{os.path.join(out, 'NAME.hsn')}")
    parent = os.path.dirname(out) or "."
    if not os.path.isdir(parent):
        raise ValueError(f"{out}: no folder {parent}")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise ValueError(f"{out}: the folder {parent} is not writable")


def export(checkpoint: str, out: str, name: str) -> None:
    check_target(out)
    cfg, tensors = fold(load_net(checkpoint))
    tmp = out + ".tmp"
    had_tmp = os.path.lexists(tmp)
    try:
        hsnet.write(out, name, cfg, tensors)
    except BaseException:
        # hsnet.write writes OUT.tmp and renames it: a failure (or a Ctrl-C)
        # between the two must not leave the half-made file behind
        if not had_tmp and os.path.isfile(tmp):
            os.unlink(tmp)
        raise


def main(argv: list | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("checkpoint")
    ap.add_argument("out")
    ap.add_argument("--name", default=None, help="the net's name (default: OUT's base name, "
                    f"cut to {hsnet.NAME_BYTES - 1} bytes)")
    a = ap.parse_args(argv)
    name = a.name or default_name(a.out)
    try:
        export(a.checkpoint, a.out, name)
    except (OSError, KeyError, ValueError, hsnet.HsnError) as e:
        print(f"export: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("export: interrupted", file=sys.stderr)
        return 130
    print(f"export: wrote {a.out} ({os.path.getsize(a.out)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
