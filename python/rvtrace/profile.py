"""Profiles (include/rvtrace/profile.h) as Python objects: the report's
JSON (docs/report.md) read into a Profile, and merged exactly
(docs/python.md "Merge rules")."""
import json
import os
import tempfile
from collections import namedtuple

from ._lib import ffi, lib
from .errors import RvtError

Function = namedtuple("Function", "name children self calls")
# the per-key tables of the report: JSON list name -> its key field
TABLES = {"modes": "mode", "contexts": "context", "harts": "hart", "images": "image"}


class Profile:
    """instructions, errors, lost, incomplete; functions {name: Function};
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

    @classmethod
    def from_c(cls, prof, title):
        fd, path = tempfile.mkstemp(suffix=".json")
        os.close(fd)
        try:
            f = lib.fopen(path.encode(), b"w")
            keep = ffi.new("char[]", str(title).encode())
            opts = ffi.new("rvt_profile_opts *", {"json": True, "title": keep})
            st = lib.rvt_profile_write(prof, f, opts)
            lib.fclose(f)
            if st < 0:
                raise RvtError("rvt_profile_write failed", st)
            with open(path) as fh:
                return cls(json.load(fh))
        finally:
            os.unlink(path)

    def __eq__(self, other):
        return isinstance(other, Profile) and self.key() == other.key()

    def key(self):
        """What merging keeps exactly (docs/python.md)."""
        return (self.instructions, self.errors, self.lost, self.incomplete,
                dict(self.functions), self.tables)
