"""Batches of C structs as numpy structured arrays when numpy is there
(Debian python3-numpy), else as lists of tuples: one place for both."""
from ._lib import ffi

try:
    import numpy as np
except ImportError:     # the package works without numpy, only slower
    np = None

INSN_FIELDS = ("pc", "context", "offset", "priv", "src")
BLOCK_FIELDS = ("start_pc", "end_pc", "ninsn", "next_pc", "context", "offset", "end", "priv", "src")
_FORMATS = {"uint64_t": "<u8", "uint8_t": "u1", "uint16_t": "<u2"}


def _dtype(ctype, fields):
    t = ffi.typeof(ctype)
    kinds = dict(t.fields)
    return np.dtype({
        "names": list(fields),
        "formats": [_FORMATS[kinds[f].type.cname] for f in fields],
        "offsets": [ffi.offsetof(ctype, f) for f in fields],
        "itemsize": ffi.sizeof(ctype),
    })


DTYPES = {}
if np is not None:
    DTYPES = {"rvt_flow_insn": _dtype("rvt_flow_insn", INSN_FIELDS),
              "rvt_block": _dtype("rvt_block", BLOCK_FIELDS)}


def batch(carray, ctype, fields, n):
    """The first n structs of carray: a structured array (a copy) or tuples."""
    if np is not None:
        raw = ffi.buffer(carray, n * ffi.sizeof(ctype))
        return np.frombuffer(raw, dtype=DTYPES[ctype]).copy()
    return [tuple(getattr(carray[i], f) for f in fields) for i in range(n)]


def column(batches, field, fields):
    """One field of every batch, joined: a numpy uint64 array or a list."""
    if np is not None:
        parts = [b[field] for b in batches]
        return np.concatenate(parts).astype(np.uint64) if parts else np.zeros(0, np.uint64)
    k = fields.index(field)
    return [row[k] for b in batches for row in b]
