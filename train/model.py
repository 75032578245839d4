"""train/model.py — the patent's position-judgment net, in the order our engine runs.

The patent writes each residual block conv-BN-ReLU-conv-BN-add-ReLU. We train
the pre-activation form BN-ReLU-conv-BN-ReLU-conv-add with a final BN-ReLU (the
same layers in another order) because that is what worker/nn's model
description (hs_nn_model_t, forward_ref.c) and every backend run: after the BNs
are folded, a block is norm+ReLU, conv1 (+ReLU), conv2, add, and the trunk ends
in the "tip" norm+ReLU.

Heads, as .hsn stores them (docs/NET.md) and forward_ref.c computes them:
  policy: p1 = p1conv(t); g1 = ReLU(g1conv(t)); pooled = pool(g1) (KataGo's
          mean / mean*(N-14)/10 / max); p1 = ReLU(p1 + gmul(pooled));
          logits = p2conv(p1) (N*N), pass = passmul(pooled).
  value:  v1 = ReLU(v1conv(t)); v2 = ReLU(dense(pool_value(v1)));
          value = tanh(v3(v2)) (one output, +1 = the side to move wins),
          score = score(v2) (points, side to move's view);
          ownership = tanh(ownconv(v1)) per point.
Heads use plain biases, no BN.
"""
from __future__ import annotations

from typing import Dict

import torch
import torch.nn as nn
import torch.nn.functional as F

from hsnet import PLANES, pool


class Block(nn.Module):
    """x + conv2(ReLU(BN(conv1(ReLU(BN(x)))))): conv1 has no bias (its BN has one)."""

    def __init__(self, c: int):
        super().__init__()
        self.pre = nn.BatchNorm2d(c)
        self.conv1 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(c)
        self.conv2 = nn.Conv2d(c, c, 3, padding=1, bias=True)

    def forward(self, x):
        y = self.conv1(F.relu(self.pre(x)))
        return x + self.conv2(F.relu(self.bn1(y)))


class Net(nn.Module):
    """forward(planes [B,22,N,N]) -> dict of policy logits [B,N*N+1], value [B]
    (tanh), value_raw [B] (before tanh), score [B], ownership [B,N*N] (tanh)."""

    def __init__(self, cfg: Dict):
        super().__init__()
        c, k = cfg["channels"], cfg["input_kernel"]
        p, g, v, h = cfg["P"], cfg["G"], cfg["V"], cfg["H"]
        if k not in (3, 5):
            raise ValueError(f"input_kernel must be 3 or 5, not {k}")
        self.cfg = dict(cfg)
        self.input = nn.Conv2d(PLANES, c, k, padding=k // 2, bias=True)
        self.blocks = nn.ModuleList([Block(c) for _ in range(cfg["blocks"])])
        self.tip = nn.BatchNorm2d(c)
        self.p1 = nn.Conv2d(c, p, 1, bias=True)
        self.g1 = nn.Conv2d(c, g, 1, bias=True)
        self.gmul = nn.Linear(3 * g, p, bias=False)
        self.p2 = nn.Conv2d(p, 1, 1, bias=False)
        self.passmul = nn.Linear(3 * g, 1, bias=False)
        self.v1 = nn.Conv2d(c, v, 1, bias=True)
        self.v2 = nn.Linear(3 * v, h, bias=True)
        self.v3 = nn.Linear(h, 1, bias=True)
        self.score = nn.Linear(h, 1, bias=True)
        self.own = nn.Conv2d(v, 1, 1, bias=False)

    def forward(self, x):
        nb, n = x.shape[0], x.shape[-1]
        x = self.input(x)
        for b in self.blocks:
            x = b(x)
        x = F.relu(self.tip(x))
        g1 = F.relu(self.g1(x))
        pooled = pool(g1, value_head=False)
        p1 = F.relu(self.p1(x) + self.gmul(pooled).view(nb, -1, 1, 1))
        policy = torch.cat([self.p2(p1).view(nb, n * n), self.passmul(pooled)], dim=1)
        v1 = F.relu(self.v1(x))
        v2 = F.relu(self.v2(pool(v1, value_head=True)))
        u = self.v3(v2).view(nb)
        return {"policy": policy, "value_raw": u, "value": torch.tanh(u),
                "score": self.score(v2).view(nb),
                "own_raw": self.own(v1).view(nb, n * n),
                "ownership": torch.tanh(self.own(v1).view(nb, n * n))}


def param_count(m: nn.Module) -> int:
    return sum(p.numel() for p in m.parameters())
