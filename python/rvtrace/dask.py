"""rvtrace past one machine (issue 18): trace pieces mapped to Dask
workers, their counts, coverage and profiles merged exactly.

    from dask.distributed import Client
    import rvtrace.dask as rd
    client = Client("tcp://scheduler:8786")          # or LocalCluster()
    result = rd.analyse(client, rd.pieces(["a.nt", "b.nt"], elf="prog.elf"))
    result["profile"].functions["main"].self

    # one huge trace, split at its index points (rvtrace.split)
    result = rd.analyse(client, rd.split("huge.te", elf="prog.elf", min_gap=32 << 20),
                        what=rd.SPLIT_WHAT)

A piece is one trace file (with its sidecar) and its program, or a range
of one trace between two of its index points (split): every piece is
decoded on a worker through the package (librvtrace.so there too) and the
partial results are merged on the workers by the rules of rvtrace.merge
(docs/python.md "Merge rules"), so the result equals analyse_local, the
single-process run.  A range piece gives its instruction count and its
coverage; a profile is not cut (its call stacks cross the cuts)."""
from collections import Counter, namedtuple
from functools import reduce

from . import merge, split as splitting
from .errors import RvtError
from .trace import Trace

Piece = namedtuple("Piece", "path elf protocol range", defaults=(None,))
WHAT = ("counts", "coverage", "profile")
SPLIT_WHAT = ("counts", "coverage")


def pieces(traces, elf=None, protocol=None):
    """Pieces of many traces: paths (all of program elf) or (path, elf) pairs."""
    out = []
    for t in traces:
        path, prog = (t if isinstance(t, tuple) else (t, elf))
        out.append(Piece(str(path), [str(p) for p in ([prog] if isinstance(prog, str) else prog)], protocol))
    return out


def split(path, elf, min_gap=0, protocol=None):
    """Pieces of one trace, cut at its index points min_gap bytes apart or
    more (rvtrace.split.ranges; indexed here, in the client)."""
    elf = [str(p) for p in ([elf] if isinstance(elf, str) else elf)]
    t = Trace(str(path), elf=elf, protocol=protocol)
    return [Piece(str(path), elf, protocol, r) for r in splitting.ranges(t, min_gap)]


def _range_results(t, piece, what):
    if "profile" in what:
        raise RvtError(f"{piece.path}: a profile of a range piece would lose the call stack at its "
                       "cut: ask for counts and coverage (SPLIT_WHAT)", -2)
    cov = Counter()

    def retired(pc):
        cov[pc] += 1

    splitting.each_insn(t, piece.range, retired)
    out = {}
    if "counts" in what:
        out["counts"] = {"instructions": sum(cov.values())}
    if "coverage" in what:
        out["coverage"] = dict(cov)
    return out


def analyse_piece(piece, what=WHAT):
    """One piece's results (on a worker): {what: result}."""
    t = Trace(piece.path, elf=piece.elf, protocol=piece.protocol)
    if piece.range is not None:
        return _range_results(t, piece, what)
    out = {}
    if "counts" in what:
        out["counts"] = merge.counts(t)
    if "coverage" in what:
        out["coverage"] = merge.coverage(t)
    if "profile" in what:
        out["profile"] = t.profile()
    return out


MERGES = {"counts": merge.merge_counts, "coverage": merge.merge_coverage, "profile": merge.merge_profiles}


def merge_results(results):
    """Results of pieces (or of earlier merges) merged: one result."""
    results = list(results)
    keys = reduce(lambda a, r: a | set(r), results, set())
    return {k: MERGES[k]([r[k] for r in results if k in r]) for k in keys}


def analyse(client, pieces_, what=WHAT, fan_in=8):
    """Map the pieces to the client's workers and merge on the workers, fan_in
    results at a time (a tree: merging is associative and commutative)."""
    level = client.map(analyse_piece, pieces_, what=tuple(what), pure=False)
    while len(level) > 1:
        level = [client.submit(merge_results, level[i:i + fan_in], pure=False)
                 for i in range(0, len(level), fan_in)]
    return level[0].result() if level else {}


def analyse_local(pieces_, what=WHAT):
    """The same in this process, piece after piece."""
    return merge_results([analyse_piece(p, what) for p in pieces_])
