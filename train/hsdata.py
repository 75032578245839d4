"""train/hsdata.py — reads a labels folder (index.json + .hss shards) in batches.

The shard format is worker/shard.h's (64-byte header, then fixed-size records);
the folder layout is docs/LABELS.md's. Every shard is checked once when the
folder is opened (magic, version, sizes, length, CRC-32) and then kept as a
read-only numpy memmap: ~1M samples of 1389 bytes stay on disk and only a
batch's records are unpacked (bits to float planes) at a time.

Order: batch b of a run is a pure function of (seed, b): epoch e = b // nb uses
the permutation drawn from (seed, e), and the batch's symmetries come from
(seed, e, b % nb). So the data position of a run is one integer (batches
handed out), and a resumed run sees exactly the batches an uninterrupted one
would have.
"""
from __future__ import annotations

import json
import os
import struct
import zlib
from typing import Dict, Iterator, List, Optional, Tuple

import numpy as np

MAGIC = b"HSSHARD\n"
VERSION = 1
HEADER_BYTES = 64
PLANES = 22
INPUT_SET = 1
HEADER = struct.Struct("<8sIIIIQII")   # magic, version, N, P, R, samples, input set, CRC


class DataError(ValueError):
    """A labels folder or shard that cannot be read (the message says what is wrong)."""


def record_bytes(n: int, planes: int = PLANES) -> int:
    return 16 + planes * ((n * n + 7) // 8) + n * n


def _crc_file(path: str, start: int) -> int:
    crc = 0
    with open(path, "rb") as f:
        f.seek(start)
        while True:
            chunk = f.read(1 << 22)
            if not chunk:
                return crc & 0xFFFFFFFF
            crc = zlib.crc32(chunk, crc)


def open_shard(path: str, check_crc: bool = True) -> Tuple[int, np.ndarray]:
    """(board size N, memmap [samples, R] uint8) of one checked shard."""
    try:
        size = os.path.getsize(path)
        with open(path, "rb") as f:
            head = f.read(HEADER_BYTES)
    except OSError as e:
        raise DataError(f"{path}: {e.strerror}") from e
    if len(head) < HEADER_BYTES:
        raise DataError(f"{path}: {len(head)} bytes, shorter than a shard header")
    magic, version, n, planes, rec, samples, input_set, crc = HEADER.unpack_from(head)
    if magic != MAGIC:
        raise DataError(f"{path}: not a shard (magic {magic!r}, want {MAGIC!r})")
    if version != VERSION:
        raise DataError(f"{path}: shard version {version}, this reader reads {VERSION}")
    if not 2 <= n <= 19 or planes != PLANES or input_set != INPUT_SET:
        raise DataError(f"{path}: board {n}, {planes} planes, input set {input_set}: "
                        f"want 2..19, {PLANES}, {INPUT_SET}")
    if rec != record_bytes(n):
        raise DataError(f"{path}: record bytes {rec}, want {record_bytes(n)} for {n}x{n}")
    if size != HEADER_BYTES + samples * rec:
        raise DataError(f"{path}: {size} bytes, the header's {samples} samples need "
                        f"{HEADER_BYTES + samples * rec} (truncated or extra bytes)")
    if check_crc and _crc_file(path, HEADER_BYTES) != crc:
        raise DataError(f"{path}: CRC-32 of the records does not match the header (corrupt)")
    if samples == 0:
        return n, np.zeros((0, rec), dtype=np.uint8)
    return n, np.memmap(path, dtype=np.uint8, mode="r", offset=HEADER_BYTES, shape=(samples, rec))


def read_index(folder: str) -> dict:
    if not os.path.isdir(folder):
        raise DataError(f"{folder}: " + ("not a folder" if os.path.exists(folder)
                                          else "no such folder"))
    path = os.path.join(folder, "index.json")
    try:
        with open(path, encoding="utf-8") as f:
            index = json.load(f)
    except OSError as e:
        raise DataError(f"{path}: {e.strerror}") from e
    except json.JSONDecodeError as e:
        raise DataError(f"{path}: not JSON ({e})") from e
    if not isinstance(index, dict) or index.get("format") != "hyeongse-labels" \
            or index.get("version") != 1:
        raise DataError(f"{path}: not a hyeongse-labels version 1 index")
    if index.get("planes") != PLANES or index.get("input_set") != INPUT_SET:
        raise DataError(f"{path}: planes/input set {index.get('planes')}/{index.get('input_set')}")
    return index


def unpack(records: np.ndarray, n: int) -> Dict[str, np.ndarray]:
    """Records [B, R] uint8 -> planes [B,22,N,N] float32, ownership [B,N*N] float32,
    policy [B] int64, value [B] float32, score [B] float32."""
    b, a = records.shape[0], n * n
    pb = (a + 7) // 8
    head = records[:, :16].copy()
    policy = head[:, 8:10].view("<i2").reshape(b).astype(np.int64)
    value = head[:, 10:11].view(np.int8).reshape(b).astype(np.float32)
    score = head[:, 12:16].view("<f4").reshape(b).astype(np.float32)
    bits = records[:, 16:16 + PLANES * pb].reshape(b, PLANES, pb)
    planes = np.unpackbits(bits, axis=2, bitorder="little")[:, :, :a]
    own = records[:, 16 + PLANES * pb:16 + PLANES * pb + a].view(np.int8)
    if np.any(policy < -1) or np.any(policy > a):
        raise DataError(f"a policy index out of -1..{a}")
    return {"planes": planes.reshape(b, PLANES, n, n).astype(np.float32),
            "ownership": own.astype(np.float32), "policy": policy,
            "value": value, "score": score}


def _sym(x: np.ndarray, k: int) -> np.ndarray:
    """Dihedral symmetry k (0..7) of the last two axes: transpose if k & 4,
    then flip y if k & 1, flip x if k & 2."""
    if k & 4:
        x = np.swapaxes(x, -1, -2)
    if k & 1:
        x = x[..., ::-1, :]
    if k & 2:
        x = x[..., :, ::-1]
    return x


def policy_maps(n: int) -> np.ndarray:
    """[8, N*N+1]: the new index of old policy index i under symmetry k (pass stays)."""
    maps = np.zeros((8, n * n + 1), dtype=np.int64)
    grid = np.arange(n * n).reshape(n, n)
    for k in range(8):
        old_at_new = _sym(grid, k).reshape(-1)
        maps[k, old_at_new] = np.arange(n * n)
        maps[k, n * n] = n * n
    return maps


def apply_symmetries(batch: Dict[str, np.ndarray], syms: np.ndarray, n: int) -> None:
    """Transforms planes, ownership and policy of each sample i by syms[i], in place."""
    maps = policy_maps(n)
    b = len(syms)
    own = batch["ownership"].reshape(b, n, n)
    for k in range(1, 8):
        sel = np.nonzero(syms == k)[0]
        if len(sel) == 0:
            continue
        batch["planes"][sel] = _sym(batch["planes"][sel], k)
        own[sel] = _sym(own[sel], k)
        pol = batch["policy"][sel]
        batch["policy"][sel] = np.where(pol >= 0, maps[k][np.maximum(pol, 0)], -1)
    batch["ownership"] = own.reshape(b, n * n)


def shard_entries(folder: str, index: dict) -> List[dict]:
    """index.json's shard list, each entry checked to name its file (a
    hand-edited index is otherwise a KeyError far from its cause)."""
    path = os.path.join(folder, "index.json")
    shards = index.get("shards", [])
    if not isinstance(shards, list):
        raise DataError(f"{path}: \"shards\" is not a list")
    for i, s in enumerate(shards):
        if not isinstance(s, dict) or not isinstance(s.get("file"), str) or not s["file"]:
            raise DataError(f"{path}: shard entry {i} has no \"file\" name: {json.dumps(s)}")
    return shards


def sizes(folder: str, split: str) -> List[int]:
    """The board sizes index.json lists shards of for a split (for the message
    of a run whose board_size finds none)."""
    index = read_index(folder)
    return sorted({s.get("size") for s in shard_entries(folder, index)
                   if s.get("split") == split and isinstance(s.get("size"), int)})


def _header_crc(path: str) -> int:
    with open(path, "rb") as f:
        return HEADER.unpack_from(f.read(HEADER_BYTES))[7]


class Labels:
    """The samples of one split ("train"/"val") and board size of a labels folder.
    `files` lists each shard read (file, samples, the header's CRC-32): what a
    checkpoint keeps to know its data again."""

    def __init__(self, folder: str, split: str, size: int, check_crc: bool = True):
        index = read_index(folder)
        self.size, self.split = size, split
        self.shards: List[np.ndarray] = []
        self.files: List[dict] = []
        for s in shard_entries(folder, index):
            if s.get("split") != split or s.get("size") != size:
                continue
            path = os.path.join(folder, s["file"])
            n, mm = open_shard(path, check_crc)
            if n != size or len(mm) != s.get("samples", len(mm)):
                raise DataError(f"{s['file']}: {n}x{n}, {len(mm)} samples; index.json says "
                                f"{s.get('size')}x{s.get('size')}, {s.get('samples')}")
            self.shards.append(mm)
            self.files.append({"file": s["file"], "samples": len(mm), "crc": _header_crc(path)})
        self.starts = np.cumsum([0] + [len(m) for m in self.shards])
        self.count = int(self.starts[-1])
        self._perm_key: Tuple[int, int] = (-1, -1)
        self._perm = np.zeros(0, dtype=np.int64)

    def gather(self, idx: np.ndarray) -> np.ndarray:
        """Records of global sample indices idx, in that order."""
        n_rec = self.shards[0].shape[1]
        out = np.empty((len(idx), n_rec), dtype=np.uint8)
        shard = np.searchsorted(self.starts, idx, side="right") - 1
        for s in np.unique(shard):
            sel = np.nonzero(shard == s)[0]
            local = idx[sel] - self.starts[s]
            order = np.argsort(local, kind="stable")   # memmap reads in file order
            out[sel[order]] = self.shards[s][local[order]]
        return out

    def batches_per_epoch(self, batch: int) -> int:
        return self.count // batch

    def batch(self, seed: int, position: int, batch: int, augment: bool) -> Dict[str, np.ndarray]:
        """Training batch number `position` of a run with this seed (see the top)."""
        nb = self.batches_per_epoch(batch)
        if nb == 0:
            raise DataError(f"the {self.split} split has {self.count} samples of "
                            f"{self.size}x{self.size}: fewer than one batch of {batch}")
        epoch, pos = divmod(position, nb)
        if self._perm_key != (seed, epoch):
            self._perm = np.random.default_rng([seed, epoch]).permutation(self.count)
            self._perm_key = (seed, epoch)
        idx = self._perm[pos * batch:(pos + 1) * batch]
        out = unpack(self.gather(idx), self.size)
        if augment:
            syms = np.random.default_rng([seed, epoch, pos, 1]).integers(0, 8, size=batch)
            apply_symmetries(out, syms, self.size)
        return out

    def in_order(self, batch: int, limit: Optional[int] = None) -> Iterator[Dict[str, np.ndarray]]:
        """Every sample in file order, or `limit` of them evenly spaced over the
        split (so they span its games), no symmetries: for validation."""
        total = self.count if limit is None else min(limit, self.count)
        picks = np.arange(total, dtype=np.int64) * self.count // max(total, 1)
        for start in range(0, total, batch):
            yield unpack(self.gather(picks[start:start + batch]), self.size)
