"""rvtrace past one machine (issue 18): trace pieces mapped to Dask
workers, their counts, coverage and profiles merged exactly.

    from dask.distributed import Client
    import rvtrace.dask as rd
    client = Client("tcp://scheduler:8786")          # or LocalCluster()
    result = rd.analyse(client, rd.pieces(["a.nt", "b.nt"], elf="prog.elf"))
    result["profile"].functions["main"].self

A piece is one trace file (with its sidecar) and its program; every piece
is decoded on a worker through the package (librvtrace.so there too) and
the partial results are merged on the workers by the rules of
rvtrace.merge (docs/python.md "Merge rules"), so the result equals
analyse_local, the single-process run.  Splitting one huge trace at its
index (`rvtrace index`) comes as more pieces of the same kind."""
from collections import namedtuple
from functools import reduce

from . import merge
from .trace import Trace

Piece = namedtuple("Piece", "path elf protocol")
WHAT = ("counts", "coverage", "profile")


def pieces(traces, elf=None, protocol=None):
    """Pieces of many traces: paths (all of program elf) or (path, elf) pairs."""
    out = []
    for t in traces:
        path, prog = (t if isinstance(t, tuple) else (t, elf))
        out.append(Piece(str(path), [str(p) for p in ([prog] if isinstance(prog, str) else prog)], protocol))
    return out


def analyse_piece(piece, what=WHAT):
    """One piece's results (on a worker): {what: result}."""
    t = Trace(piece.path, elf=piece.elf, protocol=piece.protocol)
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
