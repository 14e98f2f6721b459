"""Profiles (include/rvtrace/profile.h) as Python objects: the report's
JSON (docs/report.md) read into a Profile, and merged exactly
(docs/python.md "Merge rules")."""
import json
import os
import tempfile
from collections import namedtuple

from ._lib import ffi, lib, text
from .errors import RvtError

Function = namedtuple("Function", "name children self calls")
# the per-key tables of the report: JSON list name -> its key field
TABLES = {"modes": "mode", "contexts": "context", "harts": "hart", "images": "image"}


def written(write, what):
    """The bytes write(FILE *) writes (through a temporary file: the
    library writes to a C stream)."""
    fd, path = tempfile.mkstemp(suffix=".rvt")
    os.close(fd)
    try:
        f = lib.fopen(path.encode(), b"w")
        st = write(f)
        lib.fclose(f)
        if st < 0:
            raise RvtError(f"{what}: {text(lib.rvt_status_str(st))}", st)
        with open(path, "rb") as fh:
            return fh.read()
    finally:
        os.unlink(path)


def piece_text(prof):
    """A piece's profile (rvt_profile_piece_new, fed its events) written
    down for compose (include/rvtrace/profile_piece.h)."""
    return written(lambda f: lib.rvt_profile_piece_write(prof, f), "rvt_profile_piece_write")


def compose(image, pieces, title, then=()):
    """The profile of one trace from its pieces' texts, in stream order
    (rvt_profile_compose): the single decode's, exactly; then the events
    `then` ({rvt_flow_event field: value} each) fed after them."""
    q = ffi.gc(lib.rvt_profile_new(image._img), lib.rvt_profile_free)
    for t in pieces:
        st = lib.rvt_profile_compose(q, t, len(t))
        if st < 0:
            raise RvtError(f"{title}: composing a piece's profile: {text(lib.rvt_status_str(st))}", st)
    for ev in then:
        lib.rvt_profile_event(q, ffi.new("rvt_flow_event *", ev))
    return Profile.from_c(q, title)


class Profile:
    """instructions, errors, lost, incomplete; functions {name: Function}
    (a name listed twice, from two programs: the last);
    modes/contexts/harts/images {key: instructions}; traps (the report's
    list); raw: the report's JSON object."""

    def __init__(self, raw):
        self.raw = raw
        self.instructions = raw.get("instructions", 0)
        self.errors = raw.get("errors", 0)
        self.lost = raw.get("lost", 0)
        self.incomplete = bool(raw.get("incomplete", False))
        self.functions = {f["name"]: Function(f["name"], f["children"], f["self"], f["calls"])
                          for f in raw.get("functions", [])}
        self.tables = {t: {r[k]: r["instructions"] for r in raw.get(t, [])} for t, k in TABLES.items()}
        self.traps = raw.get("traps", [])
        self.json_text = None

    @classmethod
    def from_c(cls, prof, title):
        """The profile prof (an rvt_profile *) as the report's JSON reads;
        json_text keeps the bytes rvt_profile_write wrote."""
        keep = ffi.new("char[]", str(title).encode())
        opts = ffi.new("rvt_profile_opts *", {"json": True, "title": keep})
        data = written(lambda f: lib.rvt_profile_write(prof, f, opts), "rvt_profile_write")
        p = cls(json.loads(data))
        p.json_text = data
        return p

    def __eq__(self, other):
        return isinstance(other, Profile) and self.key() == other.key()

    def key(self):
        """What merging keeps exactly (docs/python.md): the functions as
        the report lists them (programs of several sources may each have
        a `main`: functions keeps the last), the tables and the traps
        whatever their order."""
        fns = sorted((f["name"], f["children"], f["self"], f["calls"]) for f in self.raw.get("functions", []))
        traps = sorted((t["trap"], t["count"]) for t in self.traps)
        return (self.instructions, self.errors, self.lost, self.incomplete, fns, self.tables, traps)
