"""rvtrace from Python (issue 18): cffi in ABI mode over librvtrace.so.

    import rvtrace
    t = rvtrace.Trace("prog.nt", elf="prog.elf")   # with prog.nt.attrs
    for batch in t.insns(): ...                    # numpy records
    prof = t.profile()                             # a Profile
    r = rvtrace.run("prog.elf")                    # r.pcs: retired PCs

docs/python.md describes the package and rvtrace.dask.
"""
from ._lib import lib, text
from .errors import RvtError
from .hart import run
from .image import Image
from .merge import coverage, counts, merge_counts, merge_coverage, merge_profiles
from .profile import Function, Profile
from .trace import Item, Trace

__all__ = ["Image", "Item", "Function", "Profile", "RvtError", "Trace", "run", "version",
           "coverage", "counts", "merge_counts", "merge_coverage", "merge_profiles"]


def version():
    """The library's version, "MAJOR.MINOR.PATCH"."""
    return text(lib.rvt_version())
