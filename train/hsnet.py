"""train/hsnet.py — hyeongse's own net file (.hsn, version 1): write and read.

The format is fixed in docs/NET.md ("Our own net format"); the C loader
(worker/nn/model_read*.c) reads what write() produces. Little-endian:
  magic "HSNET\\0\\r\\n", u32 version 1, u32 input_set 1, char name[64],
  i32 config[8] (B, C, K, P, G, V, H, 0), u32 n_tensors,
  n_tensors table entries of 84 bytes (char name[48], u32 ndim, u32 dims[4],
  u64 offset into the data section, u64 count),
  the data section (float32 LE), u32 CRC-32 (zlib) of every byte before it.

forward() runs the exported (BN-folded) weights with torch, as
worker/nn/forward_ref.c runs them, and returns the raw outputs before
post-processing; tests and train/forward_check.py use it to check an export
without the checkpoint.
"""
from __future__ import annotations

import os
import struct
import zlib
from typing import Dict, List, Tuple

import numpy as np

MAGIC = b"HSNET\x00\r\n"
VERSION = 1
INPUT_SET_HS_V1 = 1
PLANES = 22
NAME_BYTES = 64
TENSOR_NAME_BYTES = 48
ENTRY_BYTES = 84
HEADER = struct.Struct("<8sII64s8iI")   # 116 bytes
ENTRY = struct.Struct("<48sI4IQQ")      # 84 bytes
assert HEADER.size == 116 and ENTRY.size == ENTRY_BYTES


class HsnError(ValueError):
    """A file that is not a valid .hsn version 1 (the message says what is wrong)."""


def tensor_shapes(cfg: List[int]) -> Dict[str, Tuple[int, ...]]:
    """Every required tensor and its shape for config [B, C, K, P, G, V, H, 0], in
    the order docs/NET.md lists them (the order write() stores them in)."""
    b, c, k, p, g, v, h = cfg[:7]
    shapes: Dict[str, Tuple[int, ...]] = {
        "input.w": (c, PLANES, k, k), "input.b": (c,)}
    for i in range(b):
        shapes[f"block.{i}.pre.scale"] = (c,)
        shapes[f"block.{i}.pre.bias"] = (c,)
        shapes[f"block.{i}.conv1.w"] = (c, c, 3, 3)
        shapes[f"block.{i}.conv1.b"] = (c,)
        shapes[f"block.{i}.conv2.w"] = (c, c, 3, 3)
        shapes[f"block.{i}.conv2.b"] = (c,)
    shapes.update({
        "tip.scale": (c,), "tip.bias": (c,),
        "policy.p1.w": (p, c, 1, 1), "policy.p1.b": (p,),
        "policy.g1.w": (g, c, 1, 1), "policy.g1.b": (g,),
        "policy.gmul.w": (3 * g, p),
        "policy.p2.w": (1, p, 1, 1),
        "policy.pass.w": (3 * g, 1),
        "value.v1.w": (v, c, 1, 1), "value.v1.b": (v,),
        "value.v2.w": (3 * v, h), "value.v2.b": (h,),
        "value.v3.w": (h, 3), "value.v3.b": (3,),
        "value.score.w": (h, 4), "value.score.b": (4,),
        "value.own.w": (1, v, 1, 1),
    })
    return shapes


def write(path: str, name: str, cfg: List[int], tensors: Dict[str, np.ndarray]) -> None:
    """Writes the net atomically (PATH.tmp, fsync, rename). cfg: [B, C, K, P, G, V, H]
    (an 8th entry must be 0); tensors: exactly tensor_shapes(cfg)'s names and shapes."""
    cfg = list(cfg) + [0] * (8 - len(cfg))
    if len(cfg) != 8 or cfg[7] != 0:
        raise HsnError(f"config must be 7 sizes (and a 0), got {cfg}")
    shapes = tensor_shapes(cfg)
    extra = set(tensors) - set(shapes)
    if extra:
        raise HsnError(f"tensors not in the format: {sorted(extra)}")
    raw_name = name.encode("utf-8")
    if len(raw_name) >= NAME_BYTES:
        raise HsnError(f"name longer than {NAME_BYTES - 1} bytes: {name!r}")
    table, data, offset = [], [], 0
    for tname, shape in shapes.items():
        if tname not in tensors:
            raise HsnError(f"tensor {tname} missing")
        arr = np.ascontiguousarray(tensors[tname], dtype="<f4")
        if tuple(arr.shape) != shape:
            raise HsnError(f"tensor {tname}: shape {tuple(arr.shape)}, want {shape}")
        if not np.all(np.isfinite(arr)):
            raise HsnError(f"tensor {tname}: non-finite values")
        dims = list(shape) + [0] * (4 - len(shape))
        table.append(ENTRY.pack(tname.encode(), len(shape), *dims, offset, arr.size))
        data.append(arr.tobytes())
        offset += arr.size * 4
    body = HEADER.pack(MAGIC, VERSION, INPUT_SET_HS_V1, raw_name, *cfg, len(table))
    body += b"".join(table) + b"".join(data)
    body += struct.pack("<I", zlib.crc32(body) & 0xFFFFFFFF)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(body)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def read(path: str) -> Tuple[dict, Dict[str, np.ndarray]]:
    """Reads and checks a .hsn file: ({"name", "config", "version", "input_set"},
    {tensor name: float32 array}). HsnError says what is wrong."""
    with open(path, "rb") as f:
        buf = f.read()
    return parse(buf)


def parse(buf: bytes) -> Tuple[dict, Dict[str, np.ndarray]]:
    if len(buf) < HEADER.size + 4:
        raise HsnError(f"{len(buf)} bytes: too short for a .hsn file")
    magic, version, input_set, raw_name, *rest = HEADER.unpack_from(buf, 0)
    cfg, n_tensors = list(rest[:8]), rest[8]
    if magic != MAGIC:
        raise HsnError(f"not a .hsn file (magic {magic!r})")
    if version != VERSION:
        raise HsnError(f".hsn version {version}, this reader reads {VERSION}")
    if input_set != INPUT_SET_HS_V1:
        raise HsnError(f"input set {input_set}, want {INPUT_SET_HS_V1}")
    (crc,) = struct.unpack_from("<I", buf, len(buf) - 4)
    if zlib.crc32(buf[:-4]) & 0xFFFFFFFF != crc:
        raise HsnError("CRC-32 mismatch: the file is corrupt or truncated")
    if b"\x00" not in raw_name:
        raise HsnError("name not NUL-terminated")
    try:
        name = raw_name.split(b"\x00", 1)[0].decode("utf-8")
    except UnicodeDecodeError as e:
        raise HsnError("name is not UTF-8") from e
    if min(cfg[:7]) < 1 or cfg[7] != 0 or cfg[2] not in (3, 5):
        raise HsnError(f"bad config {cfg}")
    shapes = tensor_shapes(cfg)
    if n_tensors != len(shapes):
        raise HsnError(f"{n_tensors} tensors, the config needs {len(shapes)}")
    data_start = HEADER.size + n_tensors * ENTRY_BYTES
    data_len = len(buf) - 4 - data_start
    if data_len < 0:
        raise HsnError("truncated tensor table")
    tensors: Dict[str, np.ndarray] = {}
    for i in range(n_tensors):
        raw, ndim, *rest2 = ENTRY.unpack_from(buf, HEADER.size + i * ENTRY_BYTES)
        dims, offset, count = rest2[:4], rest2[4], rest2[5]
        tname = raw.split(b"\x00", 1)[0].decode("utf-8", errors="replace")
        if tname not in shapes or tname in tensors:
            raise HsnError(f"unexpected or repeated tensor {tname!r}")
        shape = tuple(dims[:ndim])
        if not 1 <= ndim <= 4 or shape != shapes[tname] or any(dims[ndim:]):
            raise HsnError(f"tensor {tname}: dims {dims[:max(ndim, 0)]}, want {shapes[tname]}")
        if count != int(np.prod(shape)) or offset % 4 or offset + 4 * count > data_len:
            raise HsnError(f"tensor {tname}: offset {offset}/count {count} out of the data")
        tensors[tname] = np.frombuffer(buf, dtype="<f4", count=count,
                                       offset=data_start + offset).reshape(shape).copy()
    head = {"name": name, "config": cfg, "version": version, "input_set": input_set}
    return head, tensors


def pool(x, value_head: bool):
    """KataGo's pooling as hs_nn_pool computes it: [B, ch, N, N] -> [B, 3*ch]."""
    import torch
    n = x.shape[-1]
    w = float(n) - 14.0
    mean = x.mean(dim=(2, 3))
    if value_head:
        third = mean * (w * w / 100.0 - 0.1)
    else:
        third = x.amax(dim=(2, 3))
    return torch.cat([mean, mean * (w / 10.0), third], dim=1)


def forward(tensors: Dict[str, np.ndarray], cfg: List[int], planes) -> dict:
    """The raw outputs of worker/nn/forward_ref.c for planes [B, 22, N, N] (a torch
    float tensor), from exported weights: {"policy" [B, N*N+1], "value" [B, 3],
    "score" [B, 4], "ownership" [B, N*N]} as float64 torch tensors (computed in
    float64, as the C reference accumulates in double)."""
    import torch
    import torch.nn.functional as F
    t = {k: torch.from_numpy(np.asarray(v, dtype=np.float64)) for k, v in tensors.items()}
    x = planes.to(torch.float64)
    nb, n = x.shape[0], x.shape[-1]

    def norm(x, prefix):
        return F.relu(x * t[prefix + ".scale"].view(1, -1, 1, 1) + t[prefix + ".bias"].view(1, -1, 1, 1))

    k = cfg[2]
    x = F.conv2d(x, t["input.w"], t["input.b"], padding=k // 2)
    for i in range(cfg[0]):
        p = f"block.{i}"
        y = norm(x, p + ".pre")
        y = F.relu(F.conv2d(y, t[p + ".conv1.w"], t[p + ".conv1.b"], padding=1))
        x = x + F.conv2d(y, t[p + ".conv2.w"], t[p + ".conv2.b"], padding=1)
    x = norm(x, "tip")
    p1 = F.conv2d(x, t["policy.p1.w"], t["policy.p1.b"])
    g1 = F.relu(F.conv2d(x, t["policy.g1.w"], t["policy.g1.b"]))
    pooled = pool(g1, value_head=False)
    p1 = F.relu(p1 + (pooled @ t["policy.gmul.w"]).view(nb, -1, 1, 1))
    pol = F.conv2d(p1, t["policy.p2.w"]).view(nb, n * n)
    pas = pooled @ t["policy.pass.w"]
    v1 = F.relu(F.conv2d(x, t["value.v1.w"], t["value.v1.b"]))
    v2 = F.relu(pool(v1, value_head=True) @ t["value.v2.w"] + t["value.v2.b"])
    return {
        "policy": torch.cat([pol, pas], dim=1),
        "value": v2 @ t["value.v3.w"] + t["value.v3.b"],
        "score": v2 @ t["value.score.w"] + t["value.score.b"],
        "ownership": F.conv2d(v1, t["value.own.w"]).view(nb, n * n),
    }
